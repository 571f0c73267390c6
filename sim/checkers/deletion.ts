/**
 * Deletion liveness (SPEC §3.3, §3.6): `healed_deletion`. A read answered "not found" only makes a resource
 * TOMBSTONE_PENDING; its deletion is confirmed by list reconciliation. Judged on the truth and the client's
 * effects only: from the heal (or a later subscribe), a wanted resource that is deleted in the server model
 * must be confirmed deleted in the client's effects (its latest word on the resource is a `TombstoneConfirmed`,
 * core/fence.ts confirmTombstone, with no `VersionAccepted` after it), by a client that reconciles catalogs in the
 * healed world (it published a SNAPSHOT_PROVEN catalog since the heal: only a proven listing may confirm a deletion,
 * core/scan.ts; a server that stopped offering snapshot IDs, as after a reconnect over the SDK transport, leaves a
 * client nothing to confirm with: --transport sdk, era-both seed 355136520), within its staleness bound (to learn of the not-found) plus
 * two catalog reviews (the catalog that lacks it, then one begun after the not-found evidence) plus
 * `healSettleMs`. Both bounds are what the client published (`StalenessBoundPublished`, a catalog's
 * `stalenessBoundMs`), or its declared configuration's when it published none. Content served after that
 * deadline while the resource is still deleted fails too (it is no longer there to serve).
 *
 * A resource still unconfirmed at its deadline fails the interleaving ("still waiting for deletion of ... to
 * be confirmed"), and so does one confirmed late. Per event: O(1); the deadlines are judged at the end.
 */
import { defaultClientConfig, type ClientConfig, type ClientEffect } from '../../core/types.js';
import { configuredStalenessBoundMs, healSettleMs } from './convergence.js';
import type { ViolationSink } from './sink.js';

/** How long after the heal a client of this configuration may take to confirm a deletion. */
export function deletionBoundMs(config: ClientConfig = defaultClientConfig): number {
  return configuredStalenessBoundMs(config) + 2 * config.catalogReviewMs + healSettleMs;
}

type CatalogPublishedEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;

const notArmed = -1;
const judged = -2;

export class DeletionChecker {
  /** Deleted, wanted resources the healed phase judged (a deadline inside the run, a client claiming proven catalogs), and those that failed. */
  deletionsJudged = 0;
  deletionsFailed = 0;
  /** Deleted, wanted resources whose deadline fell after the end of the run, or whose client never published a proven catalog. */
  deletionsUnjudged = 0;
  private healStartMs = -1;
  /** The client published a SNAPSHOT_PROVEN catalog since the heal: it reconciles catalogs in the healed world. */
  private claimsProvenCatalogs = false;
  /** The review period (staleness bound) the client published with its latest catalog, or -1. */
  private catalogBoundMs = -1;
  private readonly wanted: Uint8Array;
  private readonly off: Uint8Array;
  /** Per resource: when the truth last deleted it, or -1 while it exists. */
  private readonly deletedAtMs: Float64Array;
  /** Per resource: the client's latest word on it is a confirmed deletion (no version accepted since). */
  private readonly confirmed: Uint8Array;
  /** Per resource: since when the healed phase judges it (heal or later subscribe), or notArmed / judged. */
  private readonly healFromMs: Float64Array;

  constructor(
    private readonly sink: ViolationSink,
    private readonly uris: readonly string[],
    private readonly stalenessBoundOf: (resource: number) => number,
    private readonly fallbackCatalogBoundMs = defaultClientConfig.catalogReviewMs,
  ) {
    const count = uris.length;
    this.wanted = new Uint8Array(count);
    this.off = new Uint8Array(count);
    this.deletedAtMs = new Float64Array(count).fill(-1);
    this.confirmed = new Uint8Array(count);
    this.healFromMs = new Float64Array(count).fill(notArmed);
  }

  onSubscribed(resource: number, timeMs: number): void {
    this.wanted[resource] = 1;
    if (this.healStartMs >= 0) this.arm(resource, timeMs);
  }

  onUnsubscribed(resource: number): void {
    this.wanted[resource] = 0;
    this.healFromMs[resource] = notArmed;
  }

  /** Its subject lost access: reads answer with a permission error, never a not-found. */
  onRevoked(resource: number): void {
    this.off[resource] = 1;
    this.healFromMs[resource] = notArmed;
  }

  onExistence(resource: number, exists: boolean, timeMs: number): void {
    if (exists) {
      this.deletedAtMs[resource] = -1;
      this.healFromMs[resource] = notArmed; // re-created: nothing to confirm (the heal has no mutations)
    } else if (this.deletedAtMs[resource]! < 0) {
      this.deletedAtMs[resource] = timeMs;
    }
  }

  onHealed(timeMs: number): void {
    this.healStartMs = timeMs;
    for (let resource = 0; resource < this.wanted.length; resource++) this.arm(resource, timeMs);
  }

  private arm(resource: number, fromMs: number): void {
    if (this.wanted[resource] === 0 || this.off[resource] === 1 || this.deletedAtMs[resource]! < 0) return;
    if (this.confirmed[resource] === 1 || this.healFromMs[resource] !== notArmed) return;
    this.healFromMs[resource] = fromMs;
  }

  onPublished(effect: CatalogPublishedEffect, timeMs: number): void {
    if (effect.status === 'SNAPSHOT_PROVEN' && this.healStartMs >= 0 && timeMs >= this.healStartMs) this.claimsProvenCatalogs = true;
    this.catalogBoundMs = effect.stalenessBoundMs;
  }

  private deadlineOf(resource: number): number {
    const catalogBoundMs = this.catalogBoundMs >= 0 ? this.catalogBoundMs : this.fallbackCatalogBoundMs;
    return this.healFromMs[resource]! + this.stalenessBoundOf(resource) + 2 * catalogBoundMs + healSettleMs;
  }

  /** The client accepted content of `resource`: it holds it to exist again. */
  onAccepted(resource: number): void {
    if (resource >= 0) this.confirmed[resource] = 0;
  }

  /** The client confirmed the deletion of `resource` (TombstoneConfirmed; an outbox delete entry alone is not the confirmation). */
  onConfirmed(resource: number, timeMs: number): void {
    if (resource < 0) return;
    this.confirmed[resource] = 1; // (confirming a resource that exists is late_tombstone's business)
    if (this.healFromMs[resource]! < 0 || this.deletedAtMs[resource]! < 0) return;
    const deadlineMs = this.deadlineOf(resource);
    if (timeMs > deadlineMs && this.claimsProvenCatalogs) this.fail(resource, timeMs, `deletion of ${this.uris[resource]} confirmed only at ${timeMs} ms, after its deadline ${deadlineMs} ms`);
    else this.pass(resource);
  }

  /** Content of `resource` served: after its deadline, a deleted resource must not be served. */
  onServed(resource: number, timeMs: number): void {
    if (resource < 0 || this.healFromMs[resource]! < 0 || !this.claimsProvenCatalogs) return;
    const deadlineMs = this.deadlineOf(resource);
    if (timeMs > deadlineMs) this.fail(resource, timeMs, `served ${this.uris[resource]} at ${timeMs} ms, deleted since ${this.deletedAtMs[resource]} ms, after its deadline ${deadlineMs} ms`);
  }

  private pass(resource: number): void {
    this.healFromMs[resource] = judged;
    this.deletionsJudged++;
  }

  private fail(resource: number, timeMs: number, what: string): void {
    const fromMs = this.healFromMs[resource]!;
    const since = fromMs === this.healStartMs ? `the heal at ${fromMs} ms` : `its subscribe at ${fromMs} ms (healed since ${this.healStartMs} ms)`;
    const catalogBoundMs = this.catalogBoundMs >= 0 ? this.catalogBoundMs : this.fallbackCatalogBoundMs;
    this.sink.violate('healed_deletion', timeMs, this.uris[resource]!, `${what}: bound ${this.stalenessBoundOf(resource)} ms (staleness bound) + 2 x ${catalogBoundMs} ms (catalog review) + ${healSettleMs} ms settle from ${since}`);
    this.healFromMs[resource] = judged;
    this.deletionsJudged++;
    this.deletionsFailed++;
  }

  /** End of the run: resources still waiting at a deadline inside the run fail. */
  finish(endMs: number): void {
    for (let resource = 0; resource < this.healFromMs.length; resource++) {
      if (this.healFromMs[resource]! < 0) continue;
      const deadlineMs = this.deadlineOf(resource);
      if (deadlineMs > endMs || !this.claimsProvenCatalogs) {
        this.healFromMs[resource] = notArmed; // too late in the run to judge, or a client that never proves a catalog
        this.deletionsUnjudged++;
        continue;
      }
      this.fail(resource, deadlineMs, `still waiting for deletion of ${this.uris[resource]} (deleted at ${this.deletedAtMs[resource]} ms) to be confirmed at ${deadlineMs} ms`);
    }
  }
}
