/**
 * The cache hints of a 2026-07-28 catalog (caching.mdx C6, N19): a catalog rests on list pages, each with
 * its own `ttlMs` and `cacheScope`; when they differ (the server breaks a MUST, `list-page-hint-mismatch`)
 * the catalog may be no fresher than its shortest page and no less private than its most private one.
 * Judged at every CatalogPublished against what the pages of the last complete pass really carried
 * (sim/actors/listing.ts `ListPageTruth.hint`), never against the client's own fold:
 * - `scope_isolation`: a page of that pass was private (or carried no scope) and the catalog is not private;
 * - `ttl_staleness`: the catalog's ttlMs is longer than the shortest ttlMs of that pass (absent or
 *   negative read as 0; a clamp to 24 h only shortens it), or the catalog carries none.
 * - `catalog_hint_narrowed` (from below: the aggregate is the shortest TTL, private only if a page was, N19):
 *   the catalog's ttlMs is shorter than every page, or it is private while no page was, of every pass it
 *   can rest on: the passes completed since (and including) the last one before the previous publication.
 *   A client's A/B catalog rests on its last two consecutive passes, both in that window (the reference
 *   folds both: core/scan.ts), a proven one on its last; a wider window only loosens the bound.
 * A pass completed on a 2025-11-25 connection carries no hint: a catalog published right after one (core/effects.ts:
 * cacheScope and ttlMs are 2026-07-28 only) that carries a ttlMs or a cacheScope claims a hint no page sent, narrower
 * than pages without any (`catalog_hint_narrowed`).
 */
import type { ClientEffect } from '../../core/types.js';
import type { CheckingSink } from './sink.js';

/** The SDK v2 clamp (`MAX_CACHE_TTL_MS`, caching.mdx): a page's TTL beyond a day is read as a day. */
const ttlMsMax = 86_400_000;

/** The cache hints the pages of one list pass really carried so far (absent or negative ttlMs read as 0). */
export interface ListHintTruth {
  ttlMsMin: number;
  private: boolean;
}

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;

export class CatalogHintChecker {
  /** The hints of the last complete pass delivered on the current connection (null: none, or 2025-11-25). */
  private last: ListHintTruth | null = null;
  /** The fold (loosest reading) of the 2026 passes a catalog published now can rest on (null: none yet). */
  private window: ListHintTruth | null = null;
  /** The last complete pass was one of a 2025-11-25 connection (it carried no hint). */
  private lastUnhinted = false;

  constructor(private readonly sink: CheckingSink) {}

  onPassCompleted(hint: ListHintTruth | null): void {
    this.last = hint;
    this.lastUnhinted = hint === null;
    if (hint !== null) this.window = this.window === null ? hint : { ttlMsMin: Math.min(this.window.ttlMsMin, hint.ttlMsMin), private: this.window.private || hint.private };
  }

  judgePublished(effect: CatalogEffect, timeMs: number): void {
    const truth = this.last;
    if (truth === null) {
      if (this.lastUnhinted) this.judgeUnhinted(effect, timeMs);
      return;
    }
    this.judgeNarrowed(effect, timeMs);
    this.sink.checked('scope_isolation');
    this.sink.checked('ttl_staleness');
    if (truth.private && effect.cacheScope !== 'private') {
      this.sink.violate('scope_isolation', timeMs, '', `catalog of scan ${effect.scanId} published as ${effect.cacheScope ?? 'unscoped'}, but a page of its last complete list pass was cacheScope private`);
    }
    if (effect.ttlMs === undefined || effect.ttlMs > truth.ttlMsMin) {
      const claimed = effect.ttlMs === undefined ? 'without a ttlMs' : `with ttlMs ${effect.ttlMs}`;
      this.sink.violate('ttl_staleness', timeMs, '', `catalog of scan ${effect.scanId} published ${claimed}, but a page of its last complete list pass had ttlMs ${truth.ttlMsMin}`);
    }
  }

  /** Right after a 2025-11-25 pass: no hint, since no page carried one. */
  private judgeUnhinted(effect: CatalogEffect, timeMs: number): void {
    this.sink.checked('catalog_hint_narrowed');
    if (effect.ttlMs !== undefined || effect.cacheScope !== undefined) {
      this.sink.violate('catalog_hint_narrowed', timeMs, '', `catalog of scan ${effect.scanId} published with ttlMs ${effect.ttlMs ?? 'none'} and cacheScope ${effect.cacheScope ?? 'none'}, but its last complete list pass was on a 2025-11-25 connection, whose pages carry no hint`);
    }
  }

  /** A catalog no fresher or more private than the loosest fold of the passes it can rest on (see the header). */
  private judgeNarrowed(effect: CatalogEffect, timeMs: number): void {
    const loosest = this.window!;
    this.window = this.last;
    this.sink.checked('catalog_hint_narrowed');
    const ttlMsFloor = Math.min(loosest.ttlMsMin, ttlMsMax);
    if (effect.ttlMs !== undefined && effect.ttlMs < ttlMsFloor) {
      this.sink.violate('catalog_hint_narrowed', timeMs, '', `catalog of scan ${effect.scanId} published with ttlMs ${effect.ttlMs}, but every page of the passes it can rest on had ttlMs ${ttlMsFloor} or more`);
    }
    if (effect.cacheScope === 'private' && !loosest.private) {
      this.sink.violate('catalog_hint_narrowed', timeMs, '', `catalog of scan ${effect.scanId} published as private, but every page of the passes it can rest on was cacheScope public`);
    }
  }
}
