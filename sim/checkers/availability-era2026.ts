/**
 * Availability on 2026-07-28 connections (issue 10): what `refused_fresh` (availability.ts) adds there. A
 * 2026 client may refuse for reasons a 2025 one has not (caching.mdx C3/C4, SPEC §13), so a serve on such a
 * connection must be answered with content only when, besides the conditions of both eras:
 * - R is watched: a listen the world acknowledged with R on the current connection is live (an ack that
 *   left R out, or none yet, leaves R to the TTL and polling, which a client may refuse on);
 * - no listen acknowledged with R ended since the read was sent (a watch gap may have lost an `updated`;
 *   the client's own cancel counts, like a remote end or a graceful completion);
 * - the read's response carried a TTL in truth (`cache-hint`, what the server really sent: absent or
 *   negative is 0), and the serve comes within the first half of that TTL from receipt.
 * Judged from the truth stream only (era2026-watch.ts knows which listens are live), never from the
 * client's own claims (its published bound is used only as a promise it made, as in 2025).
 */
import type { WatchChecker } from './era2026-watch.js';

const none = -1;

export class Era2026Availability {
  /** Per resource: the truth TTL of the accepted content's read (-1: none known) and when it was received. */
  private readonly ttlMs: Float64Array;
  private readonly receivedAtMs: Float64Array;
  /** Per resource: when (stamped) a listen holding it last ended (-1: never). */
  private readonly listenLostAtMs: Float64Array;
  /** Resources whose listen ended, to be dated by the step that delivers (or makes) the end. */
  private readonly lostPending: number[] = [];

  constructor(
    readonly watch: WatchChecker,
    count: number,
  ) {
    this.ttlMs = new Float64Array(count).fill(none);
    this.receivedAtMs = new Float64Array(count).fill(none);
    this.listenLostAtMs = new Float64Array(count).fill(none);
  }

  isEra(generation: number): boolean {
    return this.watch.isEra(generation);
  }

  /** The client accepted content of `resource` at `timeMs` from a read whose response really carried `ttlMs` (-1: no hint). */
  onAccepted(resource: number, ttlMs: number, timeMs: number): void {
    this.ttlMs[resource] = ttlMs;
    this.receivedAtMs[resource] = timeMs;
  }

  /**
   * A black-box client still serves content a re-read answered again, received at `timeMs` with truth `ttlMs`:
   * it may hold the new entry or the old, so it must serve only until the earlier of the two windows ends (a
   * renewal with no TTL leaves no 2026 obligation). client-v2, era2026-broken-stream seed 3491793660: v2 read
   * with a long TTL at 2,621 ms, re-read at 4,006 ms with a short one, no longer served after it ran out.
   */
  onRenewed(resource: number, ttlMs: number, timeMs: number): void {
    const heldTtlMs = this.ttlMs[resource]!;
    if (heldTtlMs <= 0) return;
    if (ttlMs > 0 && timeMs + ttlMs / 2 >= this.receivedAtMs[resource]! + heldTtlMs / 2) return;
    this.ttlMs[resource] = ttlMs;
    this.receivedAtMs[resource] = timeMs;
  }

  /** Listen `listenId` is about to end (truth event or the client's cancel): every resource it was acknowledged with lost its watch. */
  onListenEnding(listenId: number): void {
    for (const resource of this.watch.resourcesOf(listenId)) this.lostPending.push(resource);
  }

  /** A step at `timeMs` delivered (or made) the pending listen ends: stamped before that step's requests are. */
  afterStep(timeMs: number, clock: { stamp(timeMs: number): number }): void {
    const pending = this.lostPending;
    if (pending.length === 0) return;
    const stampMs = clock.stamp(timeMs);
    for (let index = 0; index < pending.length; index++) this.listenLostAtMs[pending[index]!] = stampMs;
    pending.length = 0;
  }

  /**
   * The end of the window in which `resource` must be served on connection `generation`, for content read
   * at `readSentAtMs` (none: no 2026 obligation — unwatched, a watch gap since, or no TTL known).
   */
  windowEndMs(resource: number, generation: number, readSentAtMs: number): number {
    const ttlMs = this.ttlMs[resource]!;
    if (ttlMs <= 0 || !this.watch.isWatched(resource, generation)) return none;
    if (this.listenLostAtMs[resource]! >= readSentAtMs) return none;
    return this.receivedAtMs[resource]! + ttlMs / 2;
  }
}
