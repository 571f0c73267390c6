/**
 * `read_your_notification` (2026-07-28, caching.mdx C4): once the client has processed an `updated` of a
 * live, acknowledged listen that holds the resource, the cached response "should be considered immediately
 * stale": no later serve of that resource may be of content older than the version the notification
 * announced (the server's truth when it sent it). Binding are the notifications of the listen the client
 * opened for that URI, acknowledged with it; those it may rightly ignore (before the ack, with a wrong or
 * missing id, on another URI's listen whose ack was wider than asked, after the listen ended, of an old
 * connection) set nothing. Judged against the world's deliveries (era2026-watch.ts knows which listens are live).
 */
import type { ViolationSink } from './sink.js';
import type { WatchChecker } from './era2026-watch.js';

const noResources: readonly number[] = [];

export class NotificationChecker {
  /** Per resource: the highest version a binding notification announced (0: none). */
  private readonly floor: Int32Array;

  constructor(
    private readonly sink: ViolationSink & { checked(invariant: 'read_your_notification'): void },
    private readonly watch: WatchChecker,
    private readonly uris: readonly string[],
  ) {
    this.floor = new Int32Array(uris.length);
  }

  /** Listens whose ack held resources they asked for: listen id -> those resources (one, or more for a multi-URI listen). */
  private readonly requested = new Map<number, number[]>();

  onAckedAsRequested(listenId: number, resource: number): void {
    const resources = this.requested.get(listenId);
    if (resources === undefined) this.requested.set(listenId, [resource]);
    else if (!resources.includes(resource)) resources.push(resource);
  }

  /** The resources listen `listenId` asked for and was acknowledged with. */
  requestedOf(listenId: number): readonly number[] {
    return this.requested.get(listenId) ?? noResources;
  }

  /**
   * A tagged `updated` of listen `listenId` reached the client on connection `generation`; true when it binds (of a
   * live listen acknowledged with the resource it asked for: notification-reads.ts owes a read for it too).
   */
  onUpdated(generation: number, listenId: number, resource: number, version: number): boolean {
    if (this.requested.get(listenId)?.includes(resource) !== true || !this.watch.isLiveListen(listenId, generation, resource)) return false;
    if (version > this.floor[resource]!) this.floor[resource] = version;
    return true;
  }

  /** The client served content of truth `version` of `resource`. */
  judgeServed(resource: number, version: number, timeMs: number): void {
    const floor = this.floor[resource]!;
    if (floor === 0) return;
    this.sink.checked('read_your_notification');
    if (version >= floor) return;
    this.sink.violate('read_your_notification', timeMs, this.uris[resource]!, `served v${version} of ${this.uris[resource]} after processing an updated that announced v${floor}`);
  }
}
