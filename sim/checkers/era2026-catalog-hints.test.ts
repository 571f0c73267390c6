/**
 * catalog_hint_narrowed right after a 2025-11-25 pass (sim/checkers/era2026-catalog-hints.ts): its pages carry no
 * hint, so a catalog published on it carries none (core/effects.ts: cacheScope and ttlMs are 2026-07-28 only).
 */
import { describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import type { InvariantName } from '../invariants.js';
import { CatalogHintChecker } from './era2026-catalog-hints.js';

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;
const catalog = (hint: { ttlMs?: number; cacheScope?: 'public' | 'private' }): CatalogEffect => ({ type: 'CatalogPublished', scanId: 1, status: 'SNAPSHOT_UNPROVEN', uris: [], digest: 'd', measuredAtMs: 0, stalenessBoundMs: 1, nextReviewAtMs: 1, ...hint });

function judged(lastPassHint: { ttlMsMin: number; private: boolean } | null | undefined, effect: CatalogEffect): InvariantName[] {
  const violated: InvariantName[] = [];
  const checker = new CatalogHintChecker({ violate: (invariant) => violated.push(invariant), checked: () => {} });
  if (lastPassHint !== undefined) checker.onPassCompleted(lastPassHint);
  checker.judgePublished(effect, 10);
  return violated;
}

describe('catalog_hint_narrowed on a 2025-11-25 pass', () => {
  it('a catalog without hint fields after a 2025 pass passes; one with a ttlMs or a cacheScope claims a hint no page sent', () => {
    expect(judged(null, catalog({}))).toEqual([]);
    expect(judged(null, catalog({ ttlMs: 0, cacheScope: 'private' }))).toEqual(['catalog_hint_narrowed']);
    expect(judged(null, catalog({ cacheScope: 'public' }))).toEqual(['catalog_hint_narrowed']);
  });

  it('with no complete pass at all nothing is judged here (unreconciled_catalog judges that catalog)', () => {
    expect(judged(undefined, catalog({ ttlMs: 0, cacheScope: 'private' }))).toEqual([]);
  });

  it('a 2026-07-28 pass is judged as before', () => {
    expect(judged({ ttlMsMin: 5_000, private: true }, catalog({ ttlMs: 5_000, cacheScope: 'private' }))).toEqual([]);
    expect(judged({ ttlMsMin: 5_000, private: false }, catalog({ ttlMs: 1_000, cacheScope: 'public' }))).toEqual(['catalog_hint_narrowed']);
  });
});
