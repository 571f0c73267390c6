/**
 * Subscriptions the server should hold (SPEC §3.5, the converse of server_subscription_kept): `server_subscription_missing`.
 * Judged on the server model's own state, never on the client's claims: while the application wants a resource (and
 * still may read it), on a live 2025-11-25 session whose server declared `resources.subscribe`, the server holds a
 * subscription of it, or the client keeps asking for one: a stretch of `boundMs` with the server holding none and no
 * resources/subscribe of it sent is a violation (a subscribe answered with an error, taken as an ACK, leaves the
 * resource to reconciliation reads for the rest of the session: its changes are never notified).
 *
 * The bound is the client's declared configuration, as server_subscription_kept's: its subscribe retry twice plus one
 * reconciliation period (a re-subscribe may wait for a close in flight; a failed subscribe is retried every
 * subscribeRetryMs). 2026-07-28 connections (listens) and polling are not judged. Per event O(1); a stretch is judged
 * when it ends, when a subscribe renews it, and at the end of the run.
 */
import { defaultClientConfig, type ClientConfig } from '../../core/types.js';
import type { CheckingSink } from './sink.js';

export function subscriptionMissingBoundMs(config: ClientConfig = defaultClientConfig): number {
  return 2 * config.subscribeRetryMs + config.reconcileIntervalMs;
}

const none = -1;

export class SubscriptionHeldChecker {
  /** Stretches judged (a wanted resource the server did not hold on a judged session), and those beyond the bound. */
  stretchesJudged = 0;
  private readonly wanted: Uint8Array;
  private readonly held: Uint8Array;
  private readonly revoked: Uint8Array;
  /** Per resource: since when the server has held no subscription of it while it is owed one (no subscribe sent since), or none. */
  private readonly missingSinceMs: Float64Array;
  /** The session generation seen last, and whether it is judged (live, 2025-11-25, subscribe offered). */
  private session = none;
  private judged = false;
  /** Violations found on a truth event wait for the next judged client step (as server_subscription_kept's): resource, time, detail. */
  private readonly pending: (number | string)[] = [];

  constructor(
    private readonly sink: CheckingSink,
    private readonly uris: readonly string[],
    private readonly boundMs = subscriptionMissingBoundMs(),
  ) {
    this.wanted = new Uint8Array(uris.length);
    this.held = new Uint8Array(uris.length);
    this.revoked = new Uint8Array(uris.length);
    this.missingSinceMs = new Float64Array(uris.length).fill(none);
  }

  onWanted(resource: number, wanted: boolean, timeMs: number): void {
    this.wanted[resource] = wanted ? 1 : 0;
    this.update(resource, timeMs);
  }

  onRevoked(resource: number, timeMs: number): void {
    this.revoked[resource] = 1;
    this.update(resource, timeMs);
  }

  onServerHeld(resource: number, held: boolean, timeMs: number): void {
    this.held[resource] = held ? 1 : 0;
    this.update(resource, timeMs);
  }

  /** The session ended, or the client crashed: nothing is owed until the next session's first step. */
  onSessionEnded(timeMs: number): void {
    this.setJudged(false, timeMs);
  }

  /** A client step on session `generation`; `judged`: it is live, speaks 2025-11-25 and its server declared subscribe. */
  onStep(generation: number, judged: boolean, timeMs: number): void {
    if (generation === this.session) return;
    this.session = generation;
    this.setJudged(false, timeMs);
    this.setJudged(judged, timeMs);
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Reports the violations found on truth events, at the step `timeMs` (the end of the run reports them at once). */
  flush(timeMs: number): void {
    const pending = this.pending;
    for (let index = 0; index < pending.length; index += 2) this.sink.violate('server_subscription_missing', timeMs, this.uris[pending[index] as number]!, pending[index + 1] as string);
    pending.length = 0;
  }

  /** The client sent resources/subscribe for the resource: the stretch starts again. */
  onSubscribeSent(resource: number, timeMs: number): void {
    if (resource < 0 || this.missingSinceMs[resource] === none) return;
    this.end(resource, timeMs);
    this.missingSinceMs[resource] = timeMs;
  }

  finish(endMs: number): void {
    for (let resource = 0; resource < this.missingSinceMs.length; resource++) {
      if (this.missingSinceMs[resource] !== none) this.end(resource, endMs);
    }
    this.flush(endMs);
  }

  private setJudged(judged: boolean, timeMs: number): void {
    if (this.judged === judged) return;
    this.judged = judged;
    for (let resource = 0; resource < this.missingSinceMs.length; resource++) this.update(resource, timeMs);
  }

  private update(resource: number, timeMs: number): void {
    const missing = this.judged && this.wanted[resource] === 1 && this.revoked[resource] === 0 && this.held[resource] === 0;
    const since = this.missingSinceMs[resource]!;
    if (missing && since === none) this.missingSinceMs[resource] = timeMs;
    else if (!missing && since !== none) this.end(resource, timeMs);
  }

  private end(resource: number, timeMs: number): void {
    const since = this.missingSinceMs[resource]!;
    this.missingSinceMs[resource] = none;
    this.stretchesJudged++;
    this.sink.checked('server_subscription_missing');
    if (timeMs - since <= this.boundMs) return;
    const uri = this.uris[resource]!;
    this.pending.push(resource, `the server held no subscription of ${uri}, which the application wants, from ${since} ms to ${timeMs} ms, and the client sent no resources/subscribe of it (bound ${this.boundMs} ms: two subscribe retries + a reconciliation period)`);
  }
}
