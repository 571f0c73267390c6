/**
 * healed_catalog (sim/checkers/catalog-liveness.ts) with hand-built truth and CatalogPublished effects: who
 * is judged, what counts as a catalog of the healed listing, and the pending() reason of a run that never
 * gets one. Each case asserts the whole violation-count vector (test/oracle-steps.ts `fired`).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { Oracle, invariantIndex } from '../oracle.js';
import { fired, truth } from '../../test/oracle-steps.js';

const uriA = 'test://static/resource/1';
const uriB = 'test://static/resource/2';
const uris = [uriA, uriB];
const reviewMs = 30_000;
const healMs = 20_000;
/** healMs + reviewMs + healSettleMs (10 s). */
const deadlineMs = 60_000;
const endMs = 85_000;

function catalog(listed: string[], measuredAtMs: number, scanId = 7): ClientEffect {
  return { type: 'CatalogPublished', scanId, status: 'SNAPSHOT_UNPROVEN', uris: listed, digest: 'd', measuredAtMs, stalenessBoundMs: reviewMs, nextReviewAtMs: measuredAtMs + reviewMs };
}

/** Two complete live passes that served `listed` (so the A/B rules hold), then the catalog, through the oracle. */
function publish(listed: string[], measuredAtMs: number, timeMs: number, scanId = 7): void {
  const served = Int32Array.from(listed.map((uri) => uris.indexOf(uri)));
  for (const pass of [1, 2]) oracle.observe({ kind: 'pass-completed', pass, proof: 'live', startMs: measuredAtMs, served, timeMs });
  oracle.judge([catalog(listed, measuredAtMs, scanId)], truth({ timeMs }));
}

let oracle: Oracle;
beforeEach(() => {
  oracle = new Oracle(uris, 1);
});

/** A claimed client asked to discover, B deleted at 5 s and re-created at 19 s, healed at 20 s. */
function claimedRun(): void {
  oracle.catalogLiveness.claim(reviewMs);
  oracle.observe({ kind: 'discovery-asked', timeMs: 3 });
  oracle.observe({ kind: 'changed', resource: 1, version: 2, timeMs: 5_000, exists: false });
  oracle.observe({ kind: 'changed', resource: 1, version: 3, timeMs: 19_000, exists: true });
  oracle.observe({ kind: 'healed', timeMs: healMs });
}

describe('healed_catalog', () => {
  it('a catalog of the healed listing within the bound passes, and the run counts as judged', () => {
    claimedRun();
    publish([uriA, uriB], 25_000, 25_010);
    oracle.finish(endMs);
    expect(fired(oracle)).toEqual({});
    expect(oracle.checks[invariantIndex.healed_catalog]).toBe(1);
  });

  it('no catalog after the heal fails at the deadline, naming what it still waits for and the last catalog published', () => {
    claimedRun();
    publish([uriA], 10_000, 12_000); // before the heal: does not count
    publish([uriA], 12_000, 21_000); // after the heal, but B is missing
    expect(oracle.catalogLiveness.pending()).toBe(
      `still waiting for a catalog of the healed listing (2 URIs; last published: scan 7 SNAPSHOT_UNPROVEN at 21000 ms, measured at 12000 ms, 1 URIs: omits ${uriB}, which the healed listing has)`,
    );
    oracle.finish(endMs);
    expect(fired(oracle)).toEqual({ healed_catalog: 1 });
    expect(oracle.violations[0]!.timeMs).toBe(deadlineMs);
    expect(oracle.violations[0]!.detail).toContain('bound 30000 ms (declared catalogReviewMs) + 10000 ms settle from the heal at 20000 ms');
  });

  it('a catalog equal to the healed listing but measured before the listing settled is not the healed catalog', () => {
    claimedRun();
    // At 6 s B did not exist: the catalog does not match the truth at its measured time. At 4 s it did: that one counts.
    publish([uriA, uriB], 6_000, 21_000);
    expect(oracle.catalogLiveness.pending()).toContain(`the listing changed since its measured time (${uriB} at 19000 ms)`);
    publish([uriA, uriB], 4_000, 22_000);
    oracle.finish(endMs);
    expect(fired(oracle)).toEqual({});
  });

  it('a catalog of the healed listing after the deadline fails when it comes', () => {
    claimedRun();
    publish([uriA, uriB], 61_000, 61_500, 9);
    expect(fired(oracle)).toEqual({ healed_catalog: 1 });
    expect(oracle.violations[0]!.detail).toContain('published only at 61500 ms, after its deadline 60000 ms');
    oracle.finish(endMs);
    expect(fired(oracle)).toEqual({ healed_catalog: 1 });
  });

  it('judged without a discovery command when the client published a catalog on its own before the heal', () => {
    oracle.catalogLiveness.claim(reviewMs);
    publish([uriA, uriB], 1_000, 1_100);
    oracle.observe({ kind: 'healed', timeMs: healMs });
    oracle.finish(endMs);
    expect(fired(oracle)).toEqual({ healed_catalog: 1 });
    expect(oracle.violations[0]!.detail).toContain('(2 URIs; nothing published since the heal)');
  });

  it('not judged: a client that claims no catalogs, a run that never asked for discovery, a deadline past the end', () => {
    oracle.observe({ kind: 'discovery-asked', timeMs: 3 });
    oracle.observe({ kind: 'healed', timeMs: healMs });
    oracle.finish(endMs);
    expect(oracle.checks[invariantIndex.healed_catalog]).toBe(0);

    oracle = new Oracle(uris, 1);
    oracle.catalogLiveness.claim(reviewMs);
    oracle.observe({ kind: 'healed', timeMs: healMs });
    oracle.finish(endMs);
    expect(oracle.checks[invariantIndex.healed_catalog]).toBe(0);

    oracle = new Oracle(uris, 1);
    claimedRun();
    oracle.finish(deadlineMs - 1);
    expect(fired(oracle)).toEqual({});
    expect(oracle.checks[invariantIndex.healed_catalog]).toBe(0);
  });
});
