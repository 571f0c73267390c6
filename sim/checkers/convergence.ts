/**
 * Convergence and freshness (SPEC §3.3, §6): the `convergence_60s` metric, the `healed_convergence`
 * liveness invariant, staleness at serve time against the client's own published bound, over-rejection.
 *
 * - convergence_60s: every change to a continuously subscribed (not revoked) resource must be reflected in
 *   accepted content within 60 s; a ratio over all changes (a metric, not a per-interleaving failure).
 * - healed_convergence: the run ends with a quiet, healed phase (no faults, mutations or workload churn). From
 *   the heal (or a later subscribe) every wanted resource must reflect its truth within the staleness bound
 *   the client published for it (`StalenessBoundPublished`; the bound its declared configuration implies when
 *   it publishes none) plus `healSettleMs`. A resource still behind at its deadline fails the interleaving
 *   ("still waiting for ..."), and so does one that gets there late.
 * - staleness at serve: a ContentServed of content older than the truth is stale; its age is the time since
 *   the truth moved past the served version, judged against the resource's published bound.
 * - over-rejection: a stale receipt for a current-session answer newer than anything accepted (reported only).
 */
import { defaultClientConfig, type ClientConfig } from '../../core/types.js';
import type { ViolationSink } from './sink.js';
import { undatableAgeMs } from './staleness-bound.js';

export const convergenceWindowMs = 60_000;
/**
 * Slack after the heal for what the fault phase may leave under way: an outage (<= 5 s) and a warm-up
 * (<= 1 s) before the reconnect, a slow or late answer (<= 3 s), a resubscribe retry (2 s).
 */
export const healSettleMs = 10_000;

/** Accepted (digest, truth version) pairs remembered per resource, to date served content (a small ring). */
const acceptedDigestSlots = 4;

const notArmed = -1;
const judged = -2;

/** The staleness bound a subscribed client's declared configuration implies (when it publishes none). */
export function configuredStalenessBoundMs(config: ClientConfig = defaultClientConfig): number {
  return config.reconcileIntervalMs + config.reconcileJitterMsMax + config.readHedgeMs;
}

export class ConvergenceChecker {
  changesTracked = 0;
  changesConverged = 0;
  /** Per change reflected in accepted content: how long it took (never reflected: end of run minus change, >= 60 s). */
  readonly latenciesMs: number[] = [];
  /** Healed phase: resources judged, and those that failed. */
  healedJudged = 0;
  healedFailed = 0;
  servesJudged = 0;
  /** ContentServed of content older than the resource's truth at serve time (or content the oracle cannot date). */
  staleServes = 0;
  /** Stale serves older than the resource's published staleness bound (undatable content included). */
  servesBeyondBound = 0;
  /** Largest staleness at serve time seen (ms; undatable content is not counted here). */
  staleServeAgeMsMax = 0;
  /** Stale receipts of current-session answers newer than anything accepted for the resource. */
  overRejections = 0;
  staleReceiptsJudged = 0;
  healStartMs = -1;

  private readonly tracked: Uint8Array;
  private readonly off: Uint8Array;
  /** Per resource: pending changes [timeMs, version] waiting to be reflected. */
  private readonly pending: number[][];
  /** Per resource: every change [version, timeMs], ascending (to date the staleness of served content). */
  private readonly changes: number[][];
  private readonly truthVersion: Int32Array;
  private readonly reflected: Int32Array;
  /** Per resource: the latest published staleness bound, or -1. */
  private readonly boundMs: Float64Array;
  /** Per resource: since when the healed phase judges it (heal or later subscribe), or notArmed / judged. */
  private readonly healFromMs: Float64Array;
  private readonly acceptedDigests: string[];
  private readonly acceptedDigestVersions: Int32Array;
  private readonly acceptedDigestHead: Uint8Array;

  constructor(
    private readonly sink: ViolationSink,
    private readonly uris: readonly string[],
    private readonly fallbackBoundMs = configuredStalenessBoundMs(),
  ) {
    const count = uris.length;
    this.tracked = new Uint8Array(count);
    this.off = new Uint8Array(count);
    this.pending = uris.map(() => []);
    this.changes = uris.map(() => []);
    this.truthVersion = new Int32Array(count).fill(1);
    this.reflected = new Int32Array(count).fill(-1);
    this.boundMs = new Float64Array(count).fill(-1);
    this.healFromMs = new Float64Array(count).fill(notArmed);
    this.acceptedDigests = new Array<string>(count * acceptedDigestSlots).fill('');
    this.acceptedDigestVersions = new Int32Array(count * acceptedDigestSlots).fill(-1);
    this.acceptedDigestHead = new Uint8Array(count);
  }

  onSubscribed(resource: number, timeMs: number): void {
    this.tracked[resource] = 1;
    if (this.healStartMs >= 0 && this.off[resource] === 0) this.arm(resource, timeMs);
  }

  /** Not continuously subscribed any more: its pending changes leave the metric, the healed phase does not judge it. */
  onUnsubscribed(resource: number): void {
    this.tracked[resource] = 0;
    this.dropPending(resource);
    if (this.healFromMs[resource]! >= 0) this.disarm(resource);
  }

  /** Its subject lost access: it can no longer converge. */
  onRevoked(resource: number): void {
    this.off[resource] = 1;
    this.dropPending(resource);
    if (this.healFromMs[resource]! >= 0) this.disarm(resource);
  }

  onChanged(resource: number, version: number, timeMs: number): void {
    this.truthVersion[resource] = version;
    this.changes[resource]!.push(version, timeMs);
    if (this.tracked[resource] === 1 && this.off[resource] === 0) {
      this.pending[resource]!.push(timeMs, version);
      this.changesTracked++;
    }
  }

  onHealed(timeMs: number): void {
    this.healStartMs = timeMs;
    for (let resource = 0; resource < this.tracked.length; resource++) {
      if (this.tracked[resource] === 1 && this.off[resource] === 0) this.arm(resource, timeMs);
    }
  }

  onBoundPublished(resource: number, boundMs: number): void {
    if (resource >= 0) this.boundMs[resource] = boundMs;
  }

  /** The staleness bound the client promises for `resource`. */
  boundOf(resource: number): number {
    const published = this.boundMs[resource]!;
    return published >= 0 ? published : this.fallbackBoundMs;
  }

  private arm(resource: number, fromMs: number): void {
    if (this.healFromMs[resource]! >= 0) return;
    this.healFromMs[resource] = fromMs;
    this.healedJudged++;
  }

  private disarm(resource: number): void {
    this.healFromMs[resource] = notArmed;
    this.healedJudged--;
  }

  private deadlineOf(resource: number): number {
    return this.healFromMs[resource]! + this.boundOf(resource) + healSettleMs;
  }

  private dropPending(resource: number): void {
    this.changesTracked -= this.pending[resource]!.length / 2;
    this.pending[resource]!.length = 0;
  }

  /** The client accepted (content or tombstone) truth version `version` of `resource`. */
  onAccepted(resource: number, version: number, uri: string, timeMs: number): void {
    if (version > this.reflected[resource]!) this.reflected[resource] = version;
    const pending = this.pending[resource]!;
    if (pending.length > 0) this.settlePending(pending, version, uri, timeMs);
    const fromMs = this.healFromMs[resource]!;
    if (fromMs >= 0 && this.reflected[resource]! >= this.truthVersion[resource]!) {
      const deadlineMs = this.deadlineOf(resource);
      if (timeMs > deadlineMs) this.failHealed(resource, timeMs, `v${version} reflected only at ${timeMs} ms, after its deadline ${deadlineMs} ms`);
      else this.healFromMs[resource] = judged;
    }
  }

  private settlePending(pending: number[], version: number, uri: string, timeMs: number): void {
    let kept = 0;
    for (let index = 0; index < pending.length; index += 2) {
      const changedAtMs = pending[index]!;
      const changedVersion = pending[index + 1]!;
      if (changedVersion <= version) {
        this.latenciesMs.push(timeMs - changedAtMs);
        if (timeMs - changedAtMs <= convergenceWindowMs) this.changesConverged++;
        else this.sink.violate('convergence_60s', changedAtMs + convergenceWindowMs, uri, `v${changedVersion} (changed at ${changedAtMs} ms) accepted only at ${timeMs} ms`);
      } else {
        pending[kept++] = changedAtMs;
        pending[kept++] = changedVersion;
      }
    }
    pending.length = kept;
  }

  private failHealed(resource: number, timeMs: number, what: string): void {
    const fromMs = this.healFromMs[resource]!;
    const since = fromMs === this.healStartMs ? `the heal at ${fromMs} ms` : `its subscribe at ${fromMs} ms (healed since ${this.healStartMs} ms)`;
    this.sink.violate('healed_convergence', timeMs, this.uris[resource]!, `${what}: bound ${this.boundOf(resource)} ms (published staleness bound) + ${healSettleMs} ms settle from ${since}`);
    this.healFromMs[resource] = judged;
    this.healedFailed++;
  }

  /** Dates accepted content by the digest the client will serve it under (no allocation: a fixed ring). */
  rememberDigest(resource: number, digest: string, version: number): void {
    const base = resource * acceptedDigestSlots;
    const head = this.acceptedDigestHead[resource]!;
    const newest = base + ((head + acceptedDigestSlots - 1) % acceptedDigestSlots);
    if (this.acceptedDigests[newest] === digest) return;
    this.acceptedDigests[base + head] = digest;
    this.acceptedDigestVersions[base + head] = version;
    this.acceptedDigestHead[resource] = (head + 1) % acceptedDigestSlots;
  }

  /**
   * Served content is stale when its truth version is below the resource's truth now (undatable counts as
   * stale). Returns its staleness in ms: 0 when current, `undatableAgeMs` when it cannot be dated, -1 when
   * the URI names no resource.
   */
  judgeServed(resource: number, digest: string, timeMs: number): number {
    if (resource < 0) return -1;
    this.servesJudged++;
    const base = resource * acceptedDigestSlots;
    let version = -1;
    for (let slot = 0; slot < acceptedDigestSlots; slot++) {
      if (this.acceptedDigests[base + slot] === digest) version = Math.max(version, this.acceptedDigestVersions[base + slot]!);
    }
    if (version >= this.truthVersion[resource]!) return 0;
    this.staleServes++;
    if (version < 0) {
      this.servesBeyondBound++;
      return undatableAgeMs;
    }
    const ageMs = timeMs - this.firstChangeAfter(resource, version);
    if (ageMs > this.staleServeAgeMsMax) this.staleServeAgeMsMax = ageMs;
    if (ageMs > this.boundOf(resource)) this.servesBeyondBound++;
    return ageMs;
  }

  private firstChangeAfter(resource: number, version: number): number {
    const changes = this.changes[resource]!;
    let atMs = -1;
    for (let index = changes.length - 2; index >= 0 && changes[index]! > version; index -= 2) atMs = changes[index + 1]!;
    return atMs;
  }

  /** A stale receipt for a current-session answer at truth `servedVersion` (over-rejected when newer than accepted). */
  onStaleReceipt(resource: number, servedVersion: number): void {
    if (resource < 0) return;
    this.staleReceiptsJudged++;
    if (servedVersion > this.reflected[resource]!) this.overRejections++;
  }

  /** End of the run: convergence_60s for changes never reflected; healed_convergence for resources still behind. */
  finish(endMs: number): void {
    for (let resource = 0; resource < this.pending.length; resource++) {
      const pending = this.pending[resource]!;
      for (let index = 0; index < pending.length; index += 2) {
        const changedAtMs = pending[index]!;
        if (changedAtMs + convergenceWindowMs <= endMs) {
          this.sink.violate('convergence_60s', changedAtMs + convergenceWindowMs, this.uris[resource]!, `v${pending[index + 1]} (changed at ${changedAtMs} ms) never reflected`);
          this.latenciesMs.push(endMs - changedAtMs);
        } else {
          this.changesTracked--; // not enough time left to judge
        }
      }
      this.finishHealed(resource, endMs);
    }
  }

  private finishHealed(resource: number, endMs: number): void {
    if (this.healFromMs[resource]! < 0) return;
    const deadlineMs = this.deadlineOf(resource);
    if (deadlineMs > endMs) {
      this.disarm(resource); // subscribed too late in the run to judge
      return;
    }
    const truth = this.truthVersion[resource]!;
    const reflected = this.reflected[resource]!;
    const changes = this.changes[resource]!;
    const changedAtMs = changes.length > 0 ? changes[changes.length - 1]! : 0;
    this.failHealed(resource, deadlineMs, `still waiting for v${truth} (changed at ${changedAtMs} ms; last reflected ${reflected < 0 ? 'nothing' : `v${reflected}`}) at ${deadlineMs} ms`);
  }
}
