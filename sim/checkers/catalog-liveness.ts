/**
 * Catalog liveness (SPEC §3.6, §6): `healed_catalog`. A client too cautious to ever publish passes every
 * catalog safety check, so the healed phase judges that it publishes at all. For a step client that claims
 * catalogs (`ClientUnderTest.features.catalogs`), in a run whose application asked for discovery or in which
 * the client published a catalog on its own (after a list_changed: its review time is a promise): from the
 * heal (no faults, mutations or workload commands after it) the client must publish, within its declared
 * `catalogReviewMs` plus `healSettleMs`, a catalog whose URI set equals the healed listing (the resources the
 * server really has from the heal on) and equals the truth at the catalog's own `measuredAtMs`. A catalog
 * published late fails the interleaving when it comes; none by the deadline fails it at the deadline
 * (`pending()`: "still waiting for a catalog of the healed listing ..."). Not judged when the deadline lies
 * past the end of the run.
 *
 * Judged from CatalogPublished effects against the server model's existence changes only (never the client's
 * scans, digests or code). Per event: O(1), except a catalog published after the heal (one walk of its URIs
 * and of the existence changes since its measured time).
 */
import { defaultClientConfig, type ClientEffect } from '../../core/types.js';
import { healSettleMs } from './convergence.js';
import type { CheckingSink } from './sink.js';
import type { ExistenceHistory } from './existence-history.js';

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;

export interface CatalogLivenessSink extends CheckingSink {
  resourceOf(uri: string): number;
}

const waiting = 0;
const met = 1;
const failed = 2;

export class CatalogLivenessChecker {
  /** Interleavings judged (armed at the heal with a deadline inside the run), and those that failed. */
  judged = 0;
  failedCount = 0;
  /** The client's declared review period when it claims catalogs, else -1 (not judged). */
  private reviewMs = -1;
  /** The application asked for discovery, or the client published a catalog before the heal. */
  private discoveryUnderWay = false;
  private healStartMs = -1;
  private deadlineMs = -1;
  private verdict = waiting;
  private readonly listed: Uint8Array;
  /** What the latest catalog published since the heal was, and why it was not the healed listing. */
  private lastPublished = '';

  constructor(
    private readonly sink: CatalogLivenessSink,
    private readonly uris: readonly string[],
    private readonly existence: ExistenceHistory,
  ) {
    this.listed = new Uint8Array(uris.length);
  }

  /** Set by unclaim: the run offers nothing to list, so a later claim is ignored. */
  private unclaimable = false;

  /** The client's declared list_changed debounce (ClientConfig.listChangedDebounceMs), for catalog-decisions.ts. */
  listChangedDebounceMs = defaultClientConfig.listChangedDebounceMs;

  /** The client claims catalogs, with this review period (ClientConfig.catalogReviewMs) and debounce: it is judged. */
  claim(catalogReviewMs: number, listChangedDebounceMs = defaultClientConfig.listChangedDebounceMs): void {
    if (this.unclaimable) return;
    this.reviewMs = catalogReviewMs;
    this.listChangedDebounceMs = listChangedDebounceMs;
  }

  /** Nothing to list (no resources capability): no catalog is owed. Called before any claim, which it then ignores. */
  unclaim(): void {
    this.unclaimable = true;
    this.reviewMs = -1;
  }

  /** The client claims catalogs (catalog-decisions.ts judges only such a client too). */
  get claimed(): boolean {
    return this.reviewMs >= 0;
  }

  /** The application asked the client to discover (DiscoverCommanded). */
  onDiscoveryAsked(): void {
    this.discoveryUnderWay = true;
  }

  onHealed(timeMs: number): void {
    if (this.reviewMs < 0 || !this.discoveryUnderWay) return;
    this.healStartMs = timeMs;
    this.deadlineMs = timeMs + this.reviewMs + healSettleMs;
  }

  judgePublished(effect: CatalogEffect, timeMs: number): void {
    this.discoveryUnderWay = true;
    if (this.healStartMs < 0 || this.verdict !== waiting) return;
    const problem = this.problemOf(effect, timeMs);
    if (problem !== null) {
      this.lastPublished = `last published: scan ${effect.scanId} ${effect.status} at ${timeMs} ms, measured at ${effect.measuredAtMs} ms, ${effect.uris.length} URIs: ${problem}`;
      return;
    }
    if (timeMs <= this.deadlineMs) {
      this.verdict = met;
      return;
    }
    this.fail(timeMs, `a catalog of the healed listing (scan ${effect.scanId} ${effect.status}) published only at ${timeMs} ms, after its deadline ${this.deadlineMs} ms`);
  }

  /** What the run is still waiting for, or '' (not judged, or met). */
  pending(): string {
    if (this.healStartMs < 0 || this.verdict !== waiting) return '';
    const published = this.lastPublished === '' ? 'nothing published since the heal' : this.lastPublished;
    return `still waiting for a catalog of the healed listing (${this.existingCount()} URIs; ${published})`;
  }

  /** End of the run: a claimed discovery under way at the heal, its deadline inside the run and no healed catalog, fails. */
  finish(endMs: number): void {
    if (this.healStartMs < 0 || this.deadlineMs > endMs) return;
    this.judged++;
    this.sink.checked('healed_catalog');
    if (this.verdict === waiting) this.fail(this.deadlineMs, this.pending());
    if (this.verdict === failed) this.failedCount++;
  }

  private fail(timeMs: number, what: string): void {
    this.verdict = failed;
    const bound = `bound ${this.reviewMs} ms (declared catalogReviewMs) + ${healSettleMs} ms settle from the heal at ${this.healStartMs} ms`;
    this.sink.violate('healed_catalog', timeMs, '', `${what}: ${bound}`);
  }

  /** Why the catalog is not the healed listing (null: it is, and the truth at its measured time too). */
  private problemOf(effect: CatalogEffect, timeMs: number): string | null {
    const measuredAtMs = effect.measuredAtMs;
    if (!(measuredAtMs <= timeMs)) return `claims it was measured later, at ${measuredAtMs} ms`;
    const listed = this.listed.fill(0);
    for (const uri of effect.uris) {
      const resource = this.sink.resourceOf(uri);
      if (resource < 0) return `lists ${uri}, a resource the server never had`;
      listed[resource] = 1;
    }
    for (let resource = 0; resource < listed.length; resource++) {
      if (listed[resource] !== this.existence.exists[resource]) return `${listed[resource] === 1 ? 'lists' : 'omits'} ${this.uris[resource]}, which the healed listing ${listed[resource] === 1 ? 'lacks' : 'has'}`;
    }
    // The truth at the measured time: undo the existence changes after it (none once healed).
    for (let index = this.existence.changedAtMs.length - 1; index >= 0 && this.existence.changedAtMs[index]! > measuredAtMs; index--) {
      const resource = this.existence.changedResources[index]!;
      listed[resource] = 1 - listed[resource]!;
    }
    for (let resource = 0; resource < listed.length; resource++) {
      if (listed[resource] !== this.existence.exists[resource]) return `the listing changed since its measured time (${this.uris[resource]} at ${this.lastChangeOf(resource)} ms)`;
    }
    return null;
  }

  private lastChangeOf(resource: number): number {
    for (let index = this.existence.changedAtMs.length - 1; index >= 0; index--) if (this.existence.changedResources[index] === resource) return this.existence.changedAtMs[index]!;
    return -1;
  }

  private existingCount(): number {
    let count = 0;
    for (let resource = 0; resource < this.existence.exists.length; resource++) count += this.existence.exists[resource]!;
    return count;
  }
}
