/** Cache hints of 2026-07-28: effective TTL and scope, and the fold over the pages of one list. */
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { aggregateHints, cacheHintOf, effectiveScope, effectiveTtlMs, ttlMsMax, type CacheHint } from './ttl.js';

const hintArbitrary: fc.Arbitrary<CacheHint> = fc.record({
  ttlMs: fc.integer({ min: 0, max: ttlMsMax }),
  cacheScope: fc.constantFrom('public' as const, 'private' as const),
});

describe('cache hints', () => {
  it.each([
    [undefined, 0],
    [0, 0],
    [-1, 0],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 0],
    ['1000', 0],
    [1_000.7, 1_000],
    [ttlMsMax * 10, ttlMsMax],
  ])('ttlMs %s is %s ms', (raw, expected) => {
    expect(effectiveTtlMs(raw)).toBe(expected);
  });

  it('scope is public only when it says so', () => {
    expect(effectiveScope('public')).toBe('public');
    for (const raw of ['private', undefined, 'PUBLIC', 1, null]) expect(effectiveScope(raw)).toBe('private');
    expect(cacheHintOf('not an object')).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(cacheHintOf({ ttlMs: 5, cacheScope: 'public' })).toEqual({ ttlMs: 5, cacheScope: 'public' });
  });

  test.prop([fc.array(hintArbitrary, { minLength: 1, maxLength: 12 })])('a list is as fresh as its least fresh page and as private as its most private', (pages) => {
    const folded = aggregateHints(pages);
    expect(folded.ttlMs).toBe(Math.min(...pages.map((page) => page.ttlMs)));
    expect(folded.cacheScope === 'private').toBe(pages.some((page) => page.cacheScope === 'private'));
    // Never wider than any one page, in any order.
    for (const page of pages) expect(folded.ttlMs).toBeLessThanOrEqual(page.ttlMs);
    expect(aggregateHints([...pages].reverse())).toEqual(folded);
  });

  it('an empty list of pages is the strictest hint', () => {
    expect(aggregateHints([])).toEqual({ ttlMs: 0, cacheScope: 'private' });
  });
});
