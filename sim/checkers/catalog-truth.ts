/**
 * A published catalog against the truth (SPEC §3.6): `catalog_untrue`. The server model knows which
 * resources exist at every instant. A catalog measured at `measuredAtMs` and published at t must list
 * exactly the resources that existed at some instant between the two: a proven snapshot is exact at the
 * instant it was taken, and an A/B catalog is one of the listings the truth went through while it was
 * measured. A catalog that names a resource the server never had, that claims a measurement time in the
 * future, or that matches none of those listings (a stale catalog dated fresh, a scan that missed a
 * resource) is a violation.
 *
 * Enforced on SNAPSHOT_PROVEN catalogs; A/B catalogs (SNAPSHOT_UNPROVEN: not proven complete) are counted.
 *
 * Per event: one comparison per existence change (edits are not logged). A publish walks the changes
 * since its measured time backwards, keeping a running count of differences.
 */
import type { ClientEffect } from '../../core/types.js';
import type { ViolationSink } from './sink.js';
import type { ExistenceHistory } from './existence-history.js';

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;

export interface CatalogTruthSink extends ViolationSink {
  resourceOf(uri: string): number;
}

export class CatalogTruthChecker {
  /** Proven catalogs judged (a mismatch is a violation). */
  catalogsJudged = 0;
  /** A/B (SNAPSHOT_UNPROVEN) catalogs judged, and those matching no truth listing (reported, not a violation). */
  unprovenJudged = 0;
  unprovenUntrue = 0;
  private readonly listed: Uint8Array;

  constructor(
    private readonly sink: CatalogTruthSink,
    private readonly uris: readonly string[],
    private readonly existence: ExistenceHistory,
  ) {
    this.listed = new Uint8Array(uris.length);
  }

  judgePublished(effect: CatalogEffect, timeMs: number): void {
    // Only a proven snapshot promises the truth; an A/B catalog is SNAPSHOT_UNPROVEN because two live scans
    // can miss the same resource when pages shift under mutations nobody notified (SPEC §3.6): counted.
    if (effect.status !== 'SNAPSHOT_PROVEN') {
      this.unprovenJudged++;
      if (this.untrue(effect, timeMs) !== null) this.unprovenUntrue++;
      return;
    }
    this.catalogsJudged++;
    const problem = this.untrue(effect, timeMs);
    if (problem !== null) this.sink.violate('catalog_untrue', timeMs, problem.uri, problem.detail);
  }

  /** What makes the catalog untrue (null: it matches a listing the truth went through since its measured time). */
  private untrue(effect: CatalogEffect, timeMs: number): { uri: string; detail: string } | null {
    const measuredAtMs = effect.measuredAtMs;
    if (!(measuredAtMs <= timeMs)) return { uri: '', detail: `catalog of scan ${effect.scanId} published at ${timeMs} ms claims it was measured later, at ${measuredAtMs} ms` };
    const listed = this.listed.fill(0);
    for (const uri of effect.uris) {
      const resource = this.sink.resourceOf(uri);
      if (resource < 0) return { uri, detail: `catalog of scan ${effect.scanId} lists ${uri}, a resource the server never had` };
      listed[resource] = 1;
    }
    const missed = this.differenceThroughout(listed, measuredAtMs);
    if (missed < 0) return null;
    const uri = this.uris[missed]!;
    const wrongly = listed[missed] === 1 ? 'lists' : 'omits';
    return { uri, detail: `catalog of scan ${effect.scanId} (measured at ${measuredAtMs} ms, ${effect.status}) ${wrongly} ${uri}: no listing the truth went through between ${measuredAtMs} and ${timeMs} ms matches it` };
  }

  /**
   * -1 when `listed` equals the truth at some instant from `fromMs` to now; else a resource it differs in
   * at the measured time (the truth at `fromMs`).
   */
  private differenceThroughout(listed: Uint8Array, fromMs: number): number {
    const truth = this.existence.exists.slice();
    let differences = 0;
    for (let resource = 0; resource < truth.length; resource++) if (truth[resource] !== listed[resource]) differences++;
    for (let index = this.existence.changedAtMs.length - 1; differences > 0 && index >= 0 && this.existence.changedAtMs[index]! >= fromMs; index--) {
      const resource = this.existence.changedResources[index]!;
      truth[resource] = 1 - truth[resource]!; // the state just before this change
      differences += truth[resource] === listed[resource] ? -1 : 1;
    }
    if (differences === 0) return -1;
    for (let resource = 0; resource < truth.length; resource++) if (truth[resource] !== listed[resource]) return resource;
    return -1;
  }
}
