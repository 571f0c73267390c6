/**
 * reappeared_reread (sim/checkers/reappearance.ts) with hand-built truth and effects: a wanted resource held
 * TOMBSTONE_PENDING that the truth re-created must be read once a catalog lists it again, by the next catalog
 * listing it and at the latest within the catalog's review period; a read still out, a new session, an
 * unsubscribe or a second deletion owe nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { Oracle, invariantIndex } from '../oracle.js';
import { truth } from '../../test/oracle-steps.js';

const uriA = 'test://static/resource/1';
const uriB = 'test://static/resource/2';
const reviewMs = 30_000;

function catalog(timeMs: number): ClientEffect {
  return { type: 'CatalogPublished', scanId: 7, status: 'SNAPSHOT_PROVEN', uris: [uriA, uriB], digest: 'd', measuredAtMs: timeMs - 100, stalenessBoundMs: reviewMs, nextReviewAtMs: timeMs - 100 + reviewMs };
}

const read = (requestId: number): ClientEffect => ({ type: 'RequestSent', requestId, sessionGeneration: 1, method: 'resources/read', uri: uriB, reason: 'reappeared', readOrdinal: requestId });
const tombstoned: ClientEffect = { type: 'Transitioned', uri: uriB, from: 'READ_PENDING', to: 'TOMBSTONE_PENDING', event: 'not_found_accepted' };

let oracle: Oracle;
const violated = (): number => oracle.counts[invariantIndex.reappeared_reread]!;
const judged = (): number => oracle.checks[invariantIndex.reappeared_reread]!;

/** B subscribed, read at 1 s, answered not-found at 1.1 s (TOMBSTONE_PENDING), deleted at 0.5 s and re-created at 3 s. */
function tombstonedThenRecreated(): void {
  oracle.onSubscribeCommand(1, 0);
  oracle.observe({ kind: 'changed', resource: 1, version: 2, timeMs: 500, exists: false });
  oracle.judge([read(1)], truth({ timeMs: 1_000 }));
  oracle.judge([tombstoned], truth({ timeMs: 1_100, requestSession: 1, requestSentAtMs: 1_000, servedResource: 1, servedExists: false }));
  oracle.observe({ kind: 'changed', resource: 1, version: 3, timeMs: 3_000, exists: true });
}

beforeEach(() => {
  oracle = new Oracle([uriA, uriB], 1);
});

describe('reappeared_reread', () => {
  it('a read sent in the step of the catalog that lists it again passes, and is counted as judged', () => {
    tombstonedThenRecreated();
    oracle.judge([catalog(5_000), read(2)], truth({ timeMs: 5_000 }));
    oracle.judge([], truth({ timeMs: 50_000 }));
    oracle.finish(60_000);
    expect([violated(), judged()]).toEqual([0, 1]);
  });

  it('no read by the review period fails (the read at 1 s, before the re-creation, does not count); the next catalog listing it makes it due at once', () => {
    tombstonedThenRecreated();
    oracle.judge([catalog(5_000)], truth({ timeMs: 5_000 }));
    oracle.judge([], truth({ timeMs: 35_000 }));
    expect(violated()).toBe(0);
    oracle.judge([], truth({ timeMs: 35_001 }));
    expect(violated()).toBe(1);
    expect(oracle.violations.find((violation) => violation.invariant === 'reappeared_reread')).toMatchObject({ uri: uriB, timeMs: 35_000 });
    // Owed again at the next catalog; a second catalog listing it at 41 s with no read fails right after it.
    oracle.judge([catalog(40_000)], truth({ timeMs: 40_000 }));
    oracle.judge([catalog(41_000)], truth({ timeMs: 41_000 }));
    oracle.judge([], truth({ timeMs: 41_001 }));
    expect(violated()).toBe(2);
  });

  it('a read still out (asked before the re-creation) owes nothing until it is answered', () => {
    tombstonedThenRecreated();
    oracle.judge([read(2)], truth({ timeMs: 2_000 })); // a hedge: out, sent before the re-creation
    oracle.judge([tombstoned], truth({ timeMs: 2_100 }));
    oracle.judge([catalog(5_000)], truth({ timeMs: 5_000 }));
    oracle.finish(60_000);
    expect([violated(), judged()]).toEqual([0, 0]);
  });

  it('the answer of the read out makes the next catalog owe it', () => {
    tombstonedThenRecreated();
    oracle.judge([read(2)], truth({ timeMs: 2_000 }));
    oracle.judge([], truth({ timeMs: 4_000, requestSession: 1, requestSentAtMs: 2_000.25, servedResource: 1, servedExists: false }));
    oracle.judge([catalog(5_000)], truth({ timeMs: 5_000 }));
    oracle.finish(60_000);
    expect(violated()).toBe(1);
  });

  it('a new session, an unsubscribe or a second deletion owe nothing any more', () => {
    tombstonedThenRecreated();
    oracle.judge([catalog(5_000)], truth({ timeMs: 5_000 }));
    oracle.judge([], truth({ timeMs: 6_000, currentSession: 2 }));
    oracle.finish(60_000);
    expect(violated()).toBe(0);

    oracle = new Oracle([uriA, uriB], 1);
    tombstonedThenRecreated();
    oracle.judge([catalog(5_000)], truth({ timeMs: 5_000 }));
    oracle.onUnsubscribeCommand(1, 6_000);
    oracle.finish(60_000);
    expect(violated()).toBe(0);

    oracle = new Oracle([uriA, uriB], 1);
    tombstonedThenRecreated();
    oracle.judge([catalog(5_000)], truth({ timeMs: 5_000 }));
    oracle.observe({ kind: 'changed', resource: 1, version: 4, timeMs: 6_000, exists: false });
    oracle.finish(60_000);
    expect(violated()).toBe(0);
  });
});
