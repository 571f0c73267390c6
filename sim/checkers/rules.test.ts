/**
 * The SPEC §3.4 / §3.5 / §3.6 rule checkers on hand-made truth: A/B passes with a list_changed or different
 * listings, catalogs against the truth's listings, task age, a subscription the server keeps, and the
 * published staleness bound at serve time. Each case also shows the honest counterpart passing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { Oracle } from '../oracle.js';
import { fired, truth } from '../../test/oracle-steps.js';

const uris = ['test://r/1', 'test://r/2', 'test://r/3'];
type Catalog = Extract<ClientEffect, { type: 'CatalogPublished' }>;
const catalog = (listed: string[], measuredAtMs: number, status: Catalog['status'] = 'SNAPSHOT_UNPROVEN', boundMs = 30_000): Catalog => ({
  type: 'CatalogPublished', scanId: 1, status, uris: listed, digest: 'x', measuredAtMs, stalenessBoundMs: boundMs, nextReviewAtMs: measuredAtMs + boundMs,
});
const served = (...resources: number[]): Int32Array => Int32Array.from(resources);

let oracle: Oracle;
beforeEach(() => {
  oracle = new Oracle(uris, 0);
});

function pass(id: number, resources: Int32Array, startMs: number, endMs: number, proof: 'live' | 'snapshot' = 'live'): void {
  oracle.observe({ kind: 'pass-completed', pass: id, proof, startMs, served: resources, timeMs: endMs });
}

describe('catalog_ab_unsettled', () => {
  it('two quiet passes with the same listing may publish; a list_changed during either may not', () => {
    pass(1, served(0, 1, 2), 100, 200);
    pass(2, served(0, 1, 2), 300, 400);
    oracle.judge([catalog(uris, 100)], truth({ timeMs: 400 }));
    expect(fired(oracle)).toEqual({});
    pass(3, served(0, 1, 2), 500, 600);
    oracle.observe({ kind: 'list-changed', timeMs: 650 }); // between the passes: not during either
    pass(4, served(0, 1, 2), 700, 800);
    oracle.judge([catalog(uris, 500)], truth({ timeMs: 800 }));
    expect(fired(oracle)).toEqual({});
    pass(5, served(0, 1, 2), 900, 1_000);
    oracle.observe({ kind: 'list-changed', timeMs: 1_150 });
    pass(6, served(0, 1, 2), 1_100, 1_200);
    oracle.judge([catalog(uris, 900)], truth({ timeMs: 1_200 }));
    expect(fired(oracle)).toEqual({ catalog_ab_unsettled: 1 });
  });

  it('passes that really served different listings may not publish, whatever the client computed', () => {
    pass(1, served(0, 1), 100, 200);
    pass(2, served(0, 1, 2), 300, 400);
    oracle.judge([catalog(uris, 100)], truth({ timeMs: 400 }));
    expect(fired(oracle)).toEqual({ catalog_ab_unsettled: 1 });
    expect(oracle.violations[0]!.uri).toBe('test://r/3');
  });
});

describe('catalog_untrue', () => {
  it('a catalog matching the truth at some instant since its measured time is true; one dated after a change is not', () => {
    // Proven catalogs from one snapshot pass, so the catalog checker itself (pass counts) has nothing to say.
    pass(1, served(0, 1, 2), 100, 120, 'snapshot');
    const proven = (listed: string[], measuredAtMs: number): Catalog => catalog(listed, measuredAtMs, 'SNAPSHOT_PROVEN');
    oracle.onChange(2, 2, 150, false); // r/3 deleted at 150
    oracle.judge([proven(uris, 100)], truth({ timeMs: 400 })); // lists r/3: true at 100-149
    expect(fired(oracle)).toEqual({});
    oracle.judge([proven(uris, 200)], truth({ timeMs: 400 })); // measured after the delete, still lists r/3
    expect(fired(oracle)).toEqual({ catalog_untrue: 1 });
    oracle.judge([proven(['test://r/1', 'test://r/2'], 200)], truth({ timeMs: 400 }));
    oracle.judge([proven(['test://r/1', 'test://r/9'], 200)], truth({ timeMs: 400 })); // a URI the server never had
    oracle.judge([proven(['test://r/1', 'test://r/2'], 500)], truth({ timeMs: 400 })); // measured in the future
    expect(fired(oracle)).toEqual({ catalog_untrue: 3 });
  });
});

describe('task_catalog_expired', () => {
  const task = (timeMs: number): void => oracle.judge([{ type: 'CompletenessTaskDecided', task: 'cleanup', accepted: true, catalogStatus: 'SNAPSHOT_PROVEN', reason: '' }], truth({ timeMs }));
  it('an accepted task is judged on the age of the listing, from when its snapshot pass really began', () => {
    pass(1, served(0, 1, 2), 1_000, 1_200, 'snapshot');
    oracle.judge([catalog(uris, 1_000, 'SNAPSHOT_PROVEN', 30_000)], truth({ timeMs: 1_200 }));
    task(30_999);
    expect(fired(oracle)).toEqual({});
    task(31_001);
    expect(fired(oracle)).toEqual({ task_catalog_expired: 1 });
  });
});

describe('server_subscription_kept', () => {
  const unsubscribeSent = (timeMs: number): void => oracle.judge([{ type: 'RequestSent', requestId: 9, sessionGeneration: 1, method: 'resources/unsubscribe', uri: 'test://r/1' }], truth({ timeMs }));
  it('the server holding a given-up subscription is allowed while the client keeps retrying within the bound', () => {
    oracle.observe({ kind: 'server-held', resource: 0, held: true, timeMs: 10 });
    oracle.onUnsubscribeCommand(0, 1_000);
    unsubscribeSent(1_000);
    unsubscribeSent(20_000);
    unsubscribeSent(44_000);
    oracle.observe({ kind: 'server-held', resource: 0, held: false, timeMs: 50_000 });
    oracle.finish(100_000);
    expect(fired(oracle)).toEqual({});
  });

  it('a stretch longer than the bound with no unsubscribe sent is flagged, at the next judged step or the end', () => {
    oracle.observe({ kind: 'server-held', resource: 0, held: true, timeMs: 10 });
    oracle.onUnsubscribeCommand(0, 1_000);
    unsubscribeSent(1_000);
    oracle.onSubscribeCommand(0, 40_000); // wanted again: the stretch 1,000-40,000 ms ends
    expect(fired(oracle)).toEqual({});
    oracle.judge([], truth({ timeMs: 40_000 }));
    expect(fired(oracle)).toEqual({ server_subscription_kept: 1 });
    oracle.onUnsubscribeCommand(0, 50_000);
    oracle.finish(80_000);
    expect(fired(oracle)).toEqual({ server_subscription_kept: 2 });
  });
});

describe('served_beyond_bound', () => {
  const serve = (timeMs: number, digest = 'd1'): void => oracle.judge([{ type: 'ContentServed', uri: 'test://r/1', subject: 'alice', digest }], truth({ timeMs }));
  it('stale content is allowed up to the published bound, flagged beyond it, and undatable content always', () => {
    oracle.judge([{ type: 'StalenessBoundPublished', uri: 'test://r/1', boundMs: 5_000, mode: 'subscription' }], truth({ timeMs: 0 }));
    oracle.convergence.rememberDigest(0, 'd1', 1);
    oracle.onChange(0, 2, 1_000, true);
    serve(6_000);
    expect(fired(oracle)).toEqual({});
    serve(6_001);
    serve(6_002, 'never-accepted');
    expect(fired(oracle)).toEqual({ served_beyond_bound: 2 });
  });
});
