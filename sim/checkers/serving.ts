/**
 * Serving family (SPEC §3.8, §6): `served_outside_lease` and `served_not_found`, judged from effects against
 * what the server really answered (the revocation half of serving is revocation.ts).
 *
 * - A successful read renews the authorization lease: content the client accepted at time a may be served
 *   until a + authorizationLeaseMs (the client's declared lease), never at or after it.
 * - Once the server answered a current-session read of a resource with not-found, and that read was sent
 *   after the read whose content the client last accepted (and answered before any close began), the cached content is of a resource the server
 *   says does not exist: serving it is `served_not_found` until newer content is accepted.
 */
import { defaultClientConfig } from '../../core/types.js';
import type { ViolationSink } from './sink.js';
import type { StepTruth } from './step-truth.js';

export class ServingChecker {
  servesJudged = 0;
  /** Per resource: when the latest content was accepted (-1: never), and the send time of its read. */
  private readonly acceptedAtMs: Float64Array;
  private readonly acceptedReadSentAtMs: Float64Array;
  /** Per resource: send time of the newest read the server answered not-found (current session), or -1. */
  private readonly notFoundReadSentAtMs: Float64Array;

  constructor(
    private readonly sink: ViolationSink,
    private readonly uris: readonly string[],
    private readonly leaseMs = defaultClientConfig.authorizationLeaseMs,
  ) {
    this.acceptedAtMs = new Float64Array(uris.length).fill(-1);
    this.acceptedReadSentAtMs = new Float64Array(uris.length).fill(-1);
    this.notFoundReadSentAtMs = new Float64Array(uris.length).fill(-1);
  }

  /** The client accepted content of `resource` in this step (its lease starts now). */
  onAccepted(resource: number, truth: StepTruth): void {
    this.acceptedAtMs[resource] = truth.timeMs;
    if (truth.requestSentAtMs > this.acceptedReadSentAtMs[resource]!) this.acceptedReadSentAtMs[resource] = truth.requestSentAtMs;
  }

  /** A current-session answer the client received: remember a not-found of a read. */
  onAnswer(truth: StepTruth): void {
    const resource = truth.servedResource;
    if (resource < 0 || truth.servedExists || truth.requestSentAtMs < 0 || truth.requestSession !== truth.currentSession) return;
    if (truth.requestSentAtMs > this.notFoundReadSentAtMs[resource]!) this.notFoundReadSentAtMs[resource] = truth.requestSentAtMs;
  }

  judgeServed(resource: number, uri: string, timeMs: number): void {
    if (resource < 0) return;
    this.servesJudged++;
    const acceptedAtMs = this.acceptedAtMs[resource]!;
    if (acceptedAtMs >= 0 && timeMs >= acceptedAtMs + this.leaseMs) {
      this.sink.violate('served_outside_lease', timeMs, uri, `served ${uri} at ${timeMs} ms: its lease from the accept at ${acceptedAtMs} ms ended at ${acceptedAtMs + this.leaseMs} ms`);
    }
    const notFoundSentMs = this.notFoundReadSentAtMs[resource]!;
    if (notFoundSentMs >= 0 && notFoundSentMs > this.acceptedReadSentAtMs[resource]!) {
      this.sink.violate('served_not_found', timeMs, this.uris[resource]!, `served ${uri} after the server answered a read sent at ${notFoundSentMs} ms with not-found (accepted content is from a read sent at ${this.acceptedReadSentAtMs[resource]} ms)`);
    }
  }
}
