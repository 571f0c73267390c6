/**
 * Close family (SPEC §3.2, §6): `post_close_outbox` and the close half of `accept_when_not_active`. A
 * subscription is closed from the moment the application's unsubscribe command was delivered; an answer to a
 * request sent before the latest close began, or any effect while unsubscribed, is after close.
 */
import type { StepTruth } from './step-truth.js';
import type { ViolationSink } from './sink.js';

export class CloseChecker {
  /** Per resource: subscribed per the workload (subscribe delivered, no unsubscribe since). */
  readonly tracked: Uint8Array;
  /** Per resource: time the latest unsubscribe command was delivered, or -1. */
  private readonly closeBeganMs: Float64Array;

  constructor(
    private readonly sink: ViolationSink,
    resourceCount: number,
  ) {
    this.tracked = new Uint8Array(resourceCount);
    this.closeBeganMs = new Float64Array(resourceCount).fill(-1);
  }

  onSubscribed(resource: number): void {
    this.tracked[resource] = 1;
  }

  onUnsubscribed(resource: number, timeMs: number): void {
    this.tracked[resource] = 0;
    this.closeBeganMs[resource] = timeMs;
  }

  /** True when this step answers a request issued before the subscription's latest close began, or it is closed. */
  closedSince(resource: number, truth: StepTruth): boolean {
    return this.closedSinceSent(resource, truth.requestSentAtMs);
  }

  /** The same, for a response whose request was sent at `requestSentAtMs` (-1: none). */
  closedSinceSent(resource: number, requestSentAtMs: number): boolean {
    const closeMs = this.closeBeganMs[resource]!;
    if (this.tracked[resource] === 0) return true;
    return requestSentAtMs >= 0 && closeMs >= 0 && requestSentAtMs <= closeMs;
  }

  /** True when the resource is given up and a request sent at `requestSentAtMs` (a stamp) was sent after its latest close began. */
  sentSinceClose(resource: number, requestSentAtMs: number): boolean {
    return this.tracked[resource] === 0 && requestSentAtMs > this.closeBeganMs[resource]!;
  }

  /** An outbox entry (not an invalidation) for `resource`. */
  judgeOutbox(resource: number, uri: string, truth: StepTruth): void {
    if (this.closedSince(resource, truth)) {
      this.sink.violate('post_close_outbox', truth.timeMs, uri, `outbox entry for ${uri} after its subscription began closing`);
    }
  }
}
