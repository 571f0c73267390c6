/**
 * `notified_unread` (SPEC §3.3 coalescing, MCP-2026-NOTES C4): an update notification is news the client must
 * read. When one reaches the client on its current connection for a resource the application wants, the
 * client sends a `resources/read` of it at or after that delivery within `notifiedReadBoundMs` (a read already
 * in flight when it arrived does not count: it may have been answered before the change). SPEC §3.3 lets
 * pulses coalesce (dirty while a read is in flight, one follow-up read when it settles; a debounce of at most
 * debounceMsMax), never vanish; the bound is far above those and below the reconciliation period, so a pulse
 * read only by the next reconciliation or lease read is judged.
 *
 * Which deliveries oblige, from the truth stream only:
 * - 2025-11-25: every `updated` of the current session, until the server delivers one with no news: a version of
 *   that resource already delivered, or an older one (a copy, or a pulse overtaken by a later one: the client
 *   cannot tell them apart, a 2025 `updated` carries only the URI). From then on a client may coalesce pulses
 *   into a window of reads (core/duplicates.ts), which can hide a real change until reconciliation: only into a
 *   read it sent at most `coalesceWindowMs` before the pulse (its declared debounceMsMax, the longest it says it
 *   waits for copies). A pulse with no read of its resource sent that recently is owed as before. (swarm 4771: reorders taught the reference to coalesce, rightly so. Before core/duplicates.ts
 *   stopped counting raced no-news reads as evidence, a burst racing a read taught it too, on a server that never
 *   duplicated: malformed-list-page, scenario test seed 92073642, a deletion notified at 13,148 ms never read.)
 *   An updated that comes before the server's acknowledgement of a subscribe of its resource on this session (reorder,
 *   or a subscribe answer that is no acknowledgement: malformed-ack) is owed from that acknowledgement: the client has
 *   no subscription to read it for until then (SPEC §3.2: SUBSCRIBING -> ACTIVE on the ACK, whose initial read covers it), unless a read the client sent after it was
 *   answered with news before that acknowledgement (a client that reads at once, as examples/fixed-kb does, has read it).
 * - 2026-07-28: the binding `updated` (read_your_notification's: of the live listen acknowledged with the
 *   resource it asked for); those a client may rightly ignore (before the ack, wrong or missing id, outside
 *   the filter, after the end) owe nothing. Copies do not excuse: no rule lets a 2026 client skip one.
 * A read that answers an obligation must bring the news: when the answer to the read sent last for a notified resource
 * carries nothing the client can take (an error where the resource exists, or an answer broken by construction), the
 * news is still unread, and a read sent after that answer is owed within the same bound (SPEC §3.3 coalescing lets a
 * pulse wait for a read, never vanish; a failed read is no read of it). A failed read that answers no notification
 * (a reconciliation read, say, with every pulse before it already read) owes nothing.
 * An obligation ends without a read when its reason goes: the application unsubscribes, the subject loses
 * access, the connection changes, the client crashes, or (2026) the listen holding the resource ends (the
 * re-read after the next ack covers it).
 */
import { defaultClientConfig } from '../../core/types.js';
import type { CheckingSink } from './sink.js';
import type { StepTruth } from './step-truth.js';
import type { WatchChecker } from './era2026-watch.js';
import { OwedPerResource } from './owed.js';

/** A notified resource must be read within this long of the delivery (the reference: at once, or within readHedgeMs / debounceMsMax). */
export const notifiedReadBoundMs = 5_000;

const none = -1;

/** 2025-11-25, on a server seen to duplicate: a pulse may be folded into a read of its resource sent at most this long before it. */
export const coalesceWindowMs = defaultClientConfig.debounceMsMax;

/** Per resource (owedSinceMs): when the oldest delivery not yet followed by a read reached the client (-1: nothing owed). */
export class NotificationReadChecker extends OwedPerResource {
  private readonly revoked: Uint8Array;
  /** When a read of each resource was last sent (-Infinity: never). */
  private readonly lastReadSentMs: Float64Array;
  /** When the latest obliging updated of each resource reached the client, until a read sent since is answered with news (-1: none). */
  private readonly notifiedAtMs: Float64Array;
  /**
   * 2025-11-25, per resource: a subscribe of it was acknowledged on the current session (1), and when the latest updated
   * that waits for that acknowledgement reached the client (-1: none waits; a read sent since, answered with news, answers it).
   */
  private readonly acked: Uint8Array;
  private readonly beforeAckAtMs: Float64Array;
  /** Per resource: what is owed was owed again by a failed answer (for the violation's text). */
  private readonly failedRead: Uint8Array;
  /** 2025-11-25: the highest version of each resource delivered on the current session (0: none). */
  private readonly delivered: Int32Array;
  /** Deliveries observed before the step that handles them: [resource, version] pairs (2025), resources (2026 binding). */
  private readonly pendingUpdated: number[] = [];
  private readonly pendingBinding: number[] = [];
  private duplicatesSeen = false;
  private session = none;
  private earliestDeadlineMs = Number.POSITIVE_INFINITY;

  constructor(
    private readonly sink: CheckingSink,
    private readonly uris: readonly string[],
    private readonly watch: WatchChecker,
  ) {
    super(uris.length);
    this.revoked = new Uint8Array(uris.length);
    this.delivered = new Int32Array(uris.length);
    this.lastReadSentMs = new Float64Array(uris.length).fill(Number.NEGATIVE_INFINITY);
    this.notifiedAtMs = new Float64Array(uris.length).fill(none);
    this.failedRead = new Uint8Array(uris.length);
    this.acked = new Uint8Array(uris.length);
    this.beforeAckAtMs = new Float64Array(uris.length).fill(none);
  }

  onRevoked(resource: number): void {
    this.revoked[resource] = 1;
    this.release(resource);
  }

  /**
   * The session ended (disconnect, server restart): the client re-subscribes and reads on the next one. Deliveries
   * not yet handled by a step go too: they came on the ended session (a step that begins after this, the one telling
   * the client of the end, would otherwise owe them on a connection that no longer exists).
   */
  onSessionEnded(): void {
    this.forgetSession();
    this.pendingUpdated.length = 0;
    this.pendingBinding.length = 0;
  }

  /** An `updated` reached the client (any era; 2026 ones are taken from onBinding instead). */
  onNotified(resource: number, version: number, current: boolean): void {
    if (current && resource >= 0) this.pendingUpdated.push(resource, version);
  }

  /** 2026-07-28: a binding `updated` (era2026-notification.ts onUpdated) of `resource` reached the client. */
  onBinding(resource: number): void {
    this.pendingBinding.push(resource);
  }

  /** Listen `listenId` is about to end: the resources it was acknowledged with owe nothing more (the next ack's re-read covers them). */
  onListenEnding(listenId: number): void {
    for (const resource of this.watch.resourcesOf(listenId)) this.release(resource);
  }

  /** A step begins: the deliveries observed before it are owed from its time. */
  beginStep(truth: StepTruth): void {
    if (truth.currentSession !== this.session) {
      this.session = truth.currentSession;
      this.forgetSession();
      this.delivered.fill(0);
    }
    if (this.pendingUpdated.length === 0 && this.pendingBinding.length === 0) return;
    if (this.watch.isEra(truth.currentSession)) {
      for (const resource of this.pendingBinding) this.oweRead(resource, truth.timeMs);
    } else {
      const pending = this.pendingUpdated;
      for (let index = 0; index < pending.length; index += 2) this.onUpdated2025(pending[index]!, pending[index + 1]!, truth.timeMs);
    }
    this.pendingUpdated.length = 0;
    this.pendingBinding.length = 0;
  }

  /** What is owed, and known, of the current session goes with it. */
  private forgetSession(): void {
    this.releaseAll();
    this.notifiedAtMs.fill(none);
    this.acked.fill(0);
    this.beforeAckAtMs.fill(none);
  }

  /** The application gave the resource up: a later subscribe must be acknowledged anew before its updates are owed. */
  override onUnsubscribed(resource: number): void {
    super.onUnsubscribed(resource);
    this.acked[resource] = 0;
    this.beforeAckAtMs[resource] = none;
  }

  /** 2025-11-25: a subscribe of `resource` was acknowledged on the current session; an updated that came before is owed from now. */
  onSubscribeAcked(resource: number, timeMs: number): void {
    this.acked[resource] = 1;
    const deliveredAtMs = this.beforeAckAtMs[resource]!;
    if (deliveredAtMs === none) return;
    this.beforeAckAtMs[resource] = none;
    // A read sent since that updated is on its way: its answer brings the news (or, failing, owes it again).
    if (this.lastReadSentMs[resource]! >= deliveredAtMs) this.notifiedAtMs[resource] = Math.max(this.notifiedAtMs[resource]!, deliveredAtMs);
    else this.oweRead(resource, timeMs);
  }

  private onUpdated2025(resource: number, version: number, timeMs: number): void {
    if (version <= this.delivered[resource]!) this.duplicatesSeen = true;
    else this.delivered[resource] = version;
    if (this.acked[resource] === 0) {
      this.beforeAckAtMs[resource] = timeMs;
      return;
    }
    if (!this.duplicatesSeen || timeMs - this.lastReadSentMs[resource]! > coalesceWindowMs) this.oweRead(resource, timeMs);
  }

  /**
   * The answer to a read of `resource` sent at `requestSentAtMs` reached the client on the current session. With news
   * (`failed` false) it answers every notification before its send; without, the notification it answered is owed
   * again from now, unless a later read is already on its way (that one answers it).
   */
  onReadAnswered(resource: number, requestSentAtMs: number, failed: boolean, timeMs: number): void {
    // A read sent after an updated that waits for the subscribe's acknowledgement brought its news: nothing waits.
    if (!failed && this.beforeAckAtMs[resource] !== none && requestSentAtMs >= this.beforeAckAtMs[resource]!) this.beforeAckAtMs[resource] = none;
    const notifiedAtMs = this.notifiedAtMs[resource]!;
    if (notifiedAtMs === none || requestSentAtMs < notifiedAtMs) return;
    if (!failed) {
      this.notifiedAtMs[resource] = none;
      return;
    }
    if (this.lastReadSentMs[resource]! <= requestSentAtMs) this.oweRead(resource, timeMs, 1);
  }

  /** The client sent a resources/read of `resource` (in a step at or after every delivery owed so far). */
  onReadSent(resource: number, timeMs: number): void {
    if (resource < 0) return;
    this.lastReadSentMs[resource] = timeMs;
    this.release(resource);
  }

  /** After each step: obligations past their bound are violations. */
  afterStep(timeMs: number): void {
    if (this.owedCount > 0 && timeMs > this.earliestDeadlineMs) this.judgeDue(timeMs);
  }

  finish(endMs: number): void {
    if (this.owedCount > 0) this.judgeDue(endMs);
  }

  /** `failedRead` 1: owed again because the read answering it brought nothing (the violation says so). */
  private oweRead(resource: number, timeMs: number, failedRead: 0 | 1 = 0): void {
    if (resource < 0 || this.wanted[resource] === 0 || this.revoked[resource] === 1) return;
    if (timeMs > this.notifiedAtMs[resource]!) this.notifiedAtMs[resource] = timeMs;
    if (!this.owe(resource, timeMs)) return;
    this.failedRead[resource] = failedRead;
    this.sink.checked('notified_unread');
    const deadlineMs = timeMs + notifiedReadBoundMs;
    if (deadlineMs < this.earliestDeadlineMs) this.earliestDeadlineMs = deadlineMs;
  }

  protected override nothingOwed(): void {
    this.earliestDeadlineMs = Number.POSITIVE_INFINITY;
  }

  private judgeDue(timeMs: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (let resource = 0; resource < this.owedSinceMs.length; resource++) {
      const sinceMs = this.owedSinceMs[resource]!;
      if (sinceMs === none) continue;
      if (sinceMs + notifiedReadBoundMs < timeMs) {
        const uri = this.uris[resource]!;
        const what = this.failedRead[resource] === 1 ? `the read answering an updated of ${uri} brought nothing to take at ${sinceMs} ms` : `an updated of ${uri} reached the client at ${sinceMs} ms`;
        this.sink.violate('notified_unread', timeMs, uri, `${what} and no read of it followed within ${notifiedReadBoundMs} ms`);
        this.release(resource);
      } else if (sinceMs + notifiedReadBoundMs < earliest) earliest = sinceMs + notifiedReadBoundMs;
    }
    this.earliestDeadlineMs = earliest;
  }
}
