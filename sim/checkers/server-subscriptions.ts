/**
 * Subscriptions the server keeps (SPEC §3.4): `server_subscription_kept`. Judged on the server model's own
 * state, never on the client's claims: once the application gave a resource up (unsubscribed it and has
 * not wanted it since) while the server's current session still holds a subscription of it, the client
 * must keep sending unsubscribes (a lost ACK and a lost request look alike to it) until the server lets
 * go or the session ends. A stretch of `boundMs` with the server still holding it and no unsubscribe sent
 * is a violation: the server would notify, and the client's reads pay for it, forever.
 *
 * The bound is the client's declared configuration: its ACK timeout plus one reconciliation period (the
 * slowest pace a closing subscription may retry at: core/fence.ts sendUnsubscribe). Per event: O(1); a stretch is judged when it ends, when
 * an unsubscribe renews it, and at the end of the run.
 */
import { defaultClientConfig, type ClientConfig } from '../../core/types.js';
import type { ViolationSink } from './sink.js';

export function serverHoldBoundMs(config: ClientConfig = defaultClientConfig): number {
  return config.unsubscribeTimeoutMs + Math.max(config.unsubscribeTimeoutMs, config.reconcileIntervalMs);
}

const notExposed = -1;

export class ServerSubscriptionChecker {
  /** Stretches judged (a given-up subscription the server held), and those beyond the bound. */
  stretchesJudged = 0;
  private readonly givenUp: Uint8Array;
  private readonly held: Uint8Array;
  /** Per resource: since when the server has held a given-up subscription without a new unsubscribe, or notExposed. */
  private readonly exposedSinceMs: Float64Array;
  /** Violations waiting for a judged step: resource, detail. */
  private readonly pending: (number | string)[] = [];

  constructor(
    private readonly sink: ViolationSink,
    private readonly uris: readonly string[],
    private readonly boundMs = serverHoldBoundMs(),
  ) {
    this.givenUp = new Uint8Array(uris.length);
    this.held = new Uint8Array(uris.length);
    this.exposedSinceMs = new Float64Array(uris.length).fill(notExposed);
  }

  onGivenUp(resource: number, timeMs: number): void {
    this.givenUp[resource] = 1;
    this.update(resource, timeMs);
  }

  onWanted(resource: number, timeMs: number): void {
    this.givenUp[resource] = 0;
    this.update(resource, timeMs);
  }

  onServerHeld(resource: number, held: boolean, timeMs: number): void {
    this.held[resource] = held ? 1 : 0;
    this.update(resource, timeMs);
  }

  /** The client sent resources/unsubscribe for the resource: a new stretch starts if the server still holds it. */
  onUnsubscribeSent(resource: number, timeMs: number): void {
    if (resource < 0 || this.exposedSinceMs[resource] === notExposed) return;
    this.end(resource, timeMs);
    this.exposedSinceMs[resource] = timeMs;
  }

  finish(endMs: number): void {
    for (let resource = 0; resource < this.exposedSinceMs.length; resource++) {
      if (this.exposedSinceMs[resource] !== notExposed) this.end(resource, endMs);
    }
    this.flush(endMs);
  }

  private update(resource: number, timeMs: number): void {
    const exposed = this.givenUp[resource] === 1 && this.held[resource] === 1;
    const since = this.exposedSinceMs[resource]!;
    if (exposed && since === notExposed) this.exposedSinceMs[resource] = timeMs;
    else if (!exposed && since !== notExposed) this.end(resource, timeMs);
  }

  /**
   * Violations found on a truth event (a re-subscribe, the server letting go) wait for the next judged
   * client step, so the timeline marks them on a step; the end of the run reports them at once.
   */
  flush(timeMs: number): void {
    const pending = this.pending;
    for (let index = 0; index < pending.length; index += 2) {
      this.sink.violate('server_subscription_kept', timeMs, this.uris[pending[index]! as number]!, pending[index + 1] as string);
    }
    pending.length = 0;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  private end(resource: number, timeMs: number): void {
    const since = this.exposedSinceMs[resource]!;
    this.exposedSinceMs[resource] = notExposed;
    this.stretchesJudged++;
    if (timeMs - since <= this.boundMs) return;
    const uri = this.uris[resource]!;
    this.pending.push(resource, `the server still held a subscription of ${uri} from ${since} ms to ${timeMs} ms after the client gave it up, with no unsubscribe sent since (bound ${this.boundMs} ms: ACK timeout + reconciliation period, passed at ${since + this.boundMs} ms)`);
  }
}
