/**
 * Oracle unit tests for the catalog, revocation, lineage and crash families, with hand-built effects and
 * ground truth. Each case asserts the whole violation-count vector, so an invariant that fires when it
 * should not fails here too.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { ClientEffect } from '../../core/types.js';
import { histogramPercentileMs, revocationBucketCount, revocationBucketOf } from '../gate.js';
import { causeNotification, Oracle, type StepTruth } from '../oracle.js';
import { contentFor, parseContent } from '../actors/server.js';
import { fired, truth } from '../../test/oracle-steps.js';

const uriA = 'test://static/resource/1';
const uriB = 'test://static/resource/2';
const uris = [uriA, uriB];
const A = 0;
const B = 1;
const ALICE = 0;
const BOB = 1;


function at(timeMs: number): StepTruth {
  return truth({ timeMs });
}


function catalog(status: 'SNAPSHOT_PROVEN' | 'SNAPSHOT_UNPROVEN', scanId = 1): ClientEffect {
  return { type: 'CatalogPublished', scanId, status, uris: [uriA, uriB], digest: 'd', measuredAtMs: 0, stalenessBoundMs: 30_000, nextReviewAtMs: 30_000 };
}

function taskDecided(accepted: boolean): ClientEffect {
  return { type: 'CompletenessTaskDecided', task: 'cleanup', accepted, catalogStatus: 'SNAPSHOT_PROVEN', reason: '' };
}

/** Outbox sequences rise over a test file's life, as a client's do (sim/checkers/outbox-lineage.ts). */
let outboxSequence = 0;
/** The digest of each URI's live upsert in these fixtures: a delete or an invalidation names it ('' when none is live: outbox-lineage.ts). */
const liveDigest = new Map<string, string>();

function outbox(uri: string, operation: 'upsert' | 'delete' | 'invalidate', derivedEntries: string[] = [], supersedes: string[] = []): ClientEffect {
  const digest = operation === 'upsert' ? 'd' : (liveDigest.get(uri) ?? '');
  if (operation === 'upsert') liveDigest.set(uri, digest);
  else liveDigest.delete(uri);
  return { type: 'OutboxEntryWritten', uri, sequence: ++outboxSequence, operation, digest, derivedEntries, supersedes };
}

function derived(entryId: string, uri: string, subject: string): ClientEffect {
  return { type: 'DerivedEntryWritten', entryId, uri, digest: 'd', subject };
}

function accepted(uri: string, version: number, readOrdinal: number): ClientEffect {
  return {
    type: 'VersionAccepted', encoding: 'text',
    uri,
    text: contentFor(uri, version),
    mimeType: 'text/plain',
    digest: 'd',
    readOrdinal,
    watermarkBefore: readOrdinal - 1,
    subscriptionGeneration: 1,
    sessionGeneration: 1,
  };
}

function readResponse(resource: number, version: number, timeMs: number, sentAtMs: number): StepTruth {
  return truth({ timeMs, cause: causeNotification, requestSession: 1, requestSentAtMs: sentAtMs, servedResource: resource, servedVersion: version });
}

let oracle: Oracle;
beforeEach(() => {
  oracle = new Oracle(uris, 1);
  liveDigest.clear();
  uris.forEach((uri, resource) => {
    for (let version = 1; version < 10; version++) oracle.registerContent(contentFor(uri, version), resource, version);
    oracle.onSubscribeCommand(resource);
  });
});

describe('oracle: unreconciled_catalog', () => {
  it('SNAPSHOT_PROVEN after an honest snapshot pass is fine, and so is a one-page pass', () => {
    oracle.catalog.onPassCompleted(1, 'snapshot', 900);
    oracle.judge([catalog('SNAPSHOT_PROVEN')], at(1_000));
    expect(fired(oracle)).toEqual({});
    expect(oracle.catalog.catalogsProven).toBe(1);
  });

  it.each([
    ['live', 'served from live data without a negotiated snapshot ID'],
    ['forged-unnegotiated', 'never negotiated'],
    ['forged-live', 'changed, vanished or appeared between pages'],
    ['malformed', 'served with a malformed page'],
  ] as const)('SNAPSHOT_PROVEN after a %s pass is unreconciled', (proof, detail) => {
    oracle.catalog.onPassCompleted(1, proof, 900);
    oracle.judge([catalog('SNAPSHOT_PROVEN', 7)], at(1_000));
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 1 });
    expect(oracle.violations[0]!.detail).toContain('scan 7');
    expect(oracle.violations[0]!.detail).toContain(detail);
  });

  it('SNAPSHOT_PROVEN without any completed pass is unreconciled', () => {
    oracle.judge([catalog('SNAPSHOT_PROVEN')], at(1_000));
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 1 });
    expect(oracle.violations[0]!.detail).toContain('no list pass was ever completed');
  });

  it('the proof is the last completed pass: an honest pass followed by a live one does not prove', () => {
    oracle.catalog.onPassCompleted(1, 'snapshot', 500);
    oracle.catalog.onPassCompleted(2, 'live', 900);
    oracle.judge([catalog('SNAPSHOT_PROVEN')], at(1_000));
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 1 });
  });

  it('SNAPSHOT_UNPROVEN may rest on no pass with a malformed page, the last or the one before', () => {
    oracle.catalog.onPassCompleted(1, 'malformed', 400);
    oracle.catalog.onPassCompleted(2, 'live', 500);
    oracle.judge([catalog('SNAPSHOT_UNPROVEN', 1)], at(1_000));
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 1 });
    expect(oracle.violations[0]!.detail).toContain('the pass before its last was served with a malformed page');
    oracle.catalog.onPassCompleted(3, 'live', 1_100);
    oracle.catalog.onPassCompleted(4, 'malformed', 1_200);
    oracle.judge([catalog('SNAPSHOT_UNPROVEN', 2)], at(1_300));
    expect(oracle.violations[1]!.detail).toContain('its last pass (#4) was served with a malformed page');
    // A malformed pass before the two a catalog rests on (the reference abandons it and scans twice more) is fine.
    oracle.catalog.onPassCompleted(5, 'malformed', 1_400);
    oracle.catalog.onPassCompleted(6, 'live', 1_500);
    oracle.catalog.onPassCompleted(7, 'live', 1_600);
    oracle.judge([catalog('SNAPSHOT_UNPROVEN', 3)], at(1_700));
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 2 });
  });

  it('SNAPSHOT_UNPROVEN needs two complete passes since the previous catalog', () => {
    oracle.catalog.onPassCompleted(1, 'live', 500);
    oracle.judge([catalog('SNAPSHOT_UNPROVEN', 1)], at(1_000));
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 1 });
    expect(oracle.violations[0]!.detail).toContain('after 1 complete list pass since');
    oracle.catalog.onPassCompleted(2, 'live', 1_100);
    oracle.catalog.onPassCompleted(3, 'live', 1_200);
    oracle.judge([catalog('SNAPSHOT_UNPROVEN', 2)], at(1_300));
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 1 });
    // The passes before the previous catalog do not count again.
    oracle.catalog.onPassCompleted(4, 'live', 1_400);
    oracle.judge([catalog('SNAPSHOT_UNPROVEN', 3)], at(1_500));
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 2 });
  });
});

describe('oracle: unproven_completeness', () => {
  it('a task accepted on an honest SNAPSHOT_PROVEN catalog is fine; refusals are always fine', () => {
    oracle.judge([taskDecided(false)], at(500));
    oracle.catalog.onPassCompleted(1, 'snapshot', 900);
    oracle.judge([catalog('SNAPSHOT_PROVEN'), taskDecided(true)], at(1_000));
    expect(fired(oracle)).toEqual({});
    expect([oracle.catalog.tasksAccepted, oracle.catalog.tasksRefused]).toEqual([1, 1]);
  });

  it('a task accepted without a catalog, on SNAPSHOT_UNPROVEN, or on a dishonest proven catalog is flagged', () => {
    oracle.judge([taskDecided(true)], at(500));
    expect(fired(oracle)).toEqual({ unproven_completeness: 1 });
    expect(oracle.violations[0]!.detail).toContain('no catalog was ever published');
    oracle.catalog.onPassCompleted(1, 'live', 600);
    oracle.catalog.onPassCompleted(2, 'live', 700);
    oracle.judge([catalog('SNAPSHOT_UNPROVEN'), taskDecided(true)], at(800));
    expect(fired(oracle)).toEqual({ unproven_completeness: 2 });
    oracle.catalog.onPassCompleted(3, 'forged-live', 900);
    oracle.judge([catalog('SNAPSHOT_PROVEN'), taskDecided(true)], at(1_000));
    expect(fired(oracle)).toEqual({ unproven_completeness: 3, unreconciled_catalog: 1 });
  });

  it('the latest catalog decides: an honest one after an unproven one makes tasks fine again', () => {
    oracle.catalog.onPassCompleted(1, 'live', 100);
    oracle.catalog.onPassCompleted(2, 'live', 200);
    oracle.judge([catalog('SNAPSHOT_UNPROVEN')], at(300));
    oracle.catalog.onPassCompleted(3, 'snapshot', 400);
    oracle.judge([catalog('SNAPSHOT_PROVEN'), taskDecided(true)], at(500));
    expect(fired(oracle)).toEqual({});
  });
});

describe('oracle: late_tombstone (deletion of a resource that exists)', () => {
  it('confirming the deletion of a resource that exists, with no pass ever completed, is late', () => {
    oracle.judge([{ type: 'TombstoneConfirmed', uri: uriA }], at(1_000));
    // and the confirmation writes no outbox delete entry (sim/checkers/outbox-lineage.ts)
    expect(fired(oracle)).toEqual({ late_tombstone: 1, outbox_lineage_broken: 1 });
    expect(oracle.violations[0]!.detail).toContain('no list pass was ever completed');
  });

  it('a deletion confirmed (and its outbox delete) while the resource is really deleted is fine', () => {
    oracle.onChange(A, 2, 500, false);
    oracle.judge([{ type: 'TombstoneConfirmed', uri: uriA }, outbox(uriA, 'delete')], at(1_000));
    expect(fired(oracle)).toEqual({});
  });

  it('a resource that existed throughout the last complete pass cannot be confirmed deleted', () => {
    oracle.onChange(A, 2, 500, false);
    oracle.onChange(A, 3, 800, true); // re-created before the pass began
    oracle.catalog.onPassCompleted(1, 'live', 900);
    oracle.judge([{ type: 'TombstoneConfirmed', uri: uriA }, outbox(uriA, 'delete')], at(1_000));
    expect(fired(oracle)).toEqual({ late_tombstone: 2 });
    expect(oracle.violations[0]!.detail).toContain('since 800 ms');
  });

  it('a resource re-created after the last complete pass began is a race the client cannot see: fine', () => {
    oracle.onChange(A, 2, 500, false);
    oracle.catalog.onPassCompleted(1, 'live', 600);
    oracle.onChange(A, 3, 700, true);
    oracle.judge([{ type: 'TombstoneConfirmed', uri: uriA }, outbox(uriA, 'delete')], at(1_000));
    expect(fired(oracle)).toEqual({});
  });

  it('edits do not reset the existence time; upserts and invalidations are not deletions', () => {
    oracle.catalog.onPassCompleted(1, 'live', 600);
    oracle.onChange(A, 2, 700, true);
    oracle.judge([outbox(uriA, 'upsert'), outbox(uriA, 'invalidate')], at(1_000));
    expect(fired(oracle)).toEqual({});
    oracle.judge([outbox(uriA, 'delete')], at(1_100));
    expect(fired(oracle)).toEqual({ late_tombstone: 1 });
  });
});

describe('oracle: served_after_revocation', () => {
  // The content served is what the client accepted (v1 under digest 'd'): fresh, so only revocation is judged.
  beforeEach(() => {
    oracle.convergence.rememberDigest(A, 'd', 1);
    oracle.convergence.rememberDigest(B, 'd', 1);
  });

  it('serving before the client learned is allowed (the lease bounds it); from the learning step on it is flagged', () => {
    oracle.onRevoked(A, ALICE, 1_000);
    oracle.judge([{ type: 'ContentServed', uri: uriA, subject: 'alice', digest: 'd' }], at(1_500));
    expect(fired(oracle)).toEqual({});
    oracle.revocation.onLearned(A, ALICE, 2_000);
    oracle.judge([{ type: 'ContentServed', uri: uriA, subject: 'alice', digest: 'd' }], at(2_000));
    expect(fired(oracle)).toEqual({ served_after_revocation: 1 });
    expect(oracle.violations[0]!.detail).toContain('learned of it at 2000 ms');
  });

  it('another subject, another resource, and unknown subjects are not affected', () => {
    oracle.onRevoked(A, ALICE, 1_000);
    oracle.revocation.onLearned(A, ALICE, 1_100);
    oracle.judge(
      [
        { type: 'ContentServed', uri: uriA, subject: 'bob', digest: 'd' },
        { type: 'ContentServed', uri: uriB, subject: 'alice', digest: 'd' },
        { type: 'ContentServed', uri: uriA, subject: 'mallory', digest: 'd' },
        { type: 'ContentRefused', uri: uriA, subject: 'alice', reason: 'revoked' },
      ],
      at(1_200),
    );
    expect(fired(oracle)).toEqual({});
    expect([oracle.revocation.served, oracle.revocation.refused]).toEqual([3, 1]);
  });

  it('learning without a truth revocation is ignored (there is nothing to learn)', () => {
    oracle.revocation.onLearned(A, ALICE, 1_000);
    oracle.judge([{ type: 'ContentServed', uri: uriA, subject: 'alice', digest: 'd' }], at(1_100));
    expect(fired(oracle)).toEqual({});
  });

  it('an equivalent spelling the server made of the URI is the same resource', () => {
    oracle.observe({ kind: 'spelled', spelling: 'TEST://static/resource/%31', resource: A });
    oracle.onRevoked(A, BOB, 1_000);
    oracle.revocation.onLearned(A, BOB, 1_100);
    oracle.judge([{ type: 'ContentServed', uri: 'TEST://static/resource/%31', subject: 'bob', digest: 'd' }], at(1_200));
    expect(fired(oracle)).toEqual({ served_after_revocation: 1 });
  });
});

describe('oracle: untraced_derived_entry', () => {
  it('a purge that leaves a live derived entry of that URI and subject is flagged', () => {
    oracle.judge([derived('a#1', uriA, 'alice'), derived('a#2', uriA, 'alice'), outbox(uriA, 'upsert', ['a#1', 'a#2'])], at(500));
    oracle.onRevoked(A, ALICE, 1_000);
    oracle.revocation.onLearned(A, ALICE, 1_500);
    oracle.judge([outbox(uriA, 'invalidate', ['a#1']), { type: 'PurgeDone', uri: uriA, subject: 'alice', invalidatedEntries: 1 }], at(1_500));
    // the invalidation leaves a#2 live downstream too (sim/checkers/outbox-lineage.ts)
    expect(fired(oracle)).toEqual({ untraced_derived_entry: 1, outbox_lineage_broken: 1 });
    expect(oracle.violations[0]!.detail).toContain('a#2');
  });

  it('entries invalidated by an invalidate entry, a delete entry or a superseding upsert are traced', () => {
    oracle.judge([derived('a#1', uriA, 'alice'), derived('a#2', uriA, 'alice')], at(500));
    oracle.judge([derived('a#3', uriA, 'alice'), outbox(uriA, 'upsert', ['a#3'], ['a#1'])], at(600));
    oracle.judge([outbox(uriA, 'delete', ['a#2'])], at(700));
    oracle.judge([outbox(uriA, 'invalidate', ['a#3']), { type: 'PurgeDone', uri: uriA, subject: 'alice', invalidatedEntries: 1 }], at(800));
    // the delete entry of an existing resource; and, applied as an index applies it, this outbox supersedes a#1
    // that no upsert wrote, leaves a#3 live at the delete and invalidates a#3 after it (sim/checkers/outbox-lineage.ts)
    expect(fired(oracle)).toEqual({ late_tombstone: 1, outbox_lineage_broken: 3 });
  });

  it('an upsert that writes an entry again under the id it supersedes keeps it live', () => {
    oracle.judge([derived('a#1', uriA, 'alice'), outbox(uriA, 'upsert', ['a#1'])], at(500));
    oracle.judge([derived('a#1', uriA, 'alice'), outbox(uriA, 'upsert', ['a#1'], ['a#1'])], at(600));
    oracle.judge([{ type: 'PurgeDone', uri: uriA, subject: 'alice', invalidatedEntries: 0 }], at(700));
    expect(fired(oracle)).toEqual({ untraced_derived_entry: 1 });
  });

  it("another subject's entries do not count against a purge", () => {
    oracle.judge([derived('a#1', uriA, 'bob'), derived('b#1', uriB, 'alice')], at(500));
    oracle.judge([{ type: 'PurgeDone', uri: uriA, subject: 'alice', invalidatedEntries: 0 }], at(700));
    expect(fired(oracle)).toEqual({});
  });

  it('at the end: live entries of a revocation learned more than 30 s before the end are untraced', () => {
    oracle.judge([derived('a#1', uriA, 'alice'), derived('b#1', uriB, 'bob')], at(500));
    oracle.onRevoked(A, ALICE, 1_000);
    oracle.revocation.onLearned(A, ALICE, 2_000);
    oracle.onRevoked(B, BOB, 1_000);
    oracle.revocation.onLearned(B, BOB, 40_000); // less than 30 s before the end: still in its window
    oracle.finish(60_000);
    expect(fired(oracle)).toEqual({ untraced_derived_entry: 1 });
    expect(oracle.violations[0]).toMatchObject({ invariant: 'untraced_derived_entry', uri: uriA, timeMs: 60_000 });
  });
});

describe('oracle: revocation latency', () => {
  it('measures the first purge after a truth revocation of a subscribed resource, or the end of the run', () => {
    oracle.onRevoked(A, ALICE, 1_000);
    oracle.onRevoked(B, BOB, 2_000);
    oracle.judge([{ type: 'PurgeDone', uri: uriA, subject: 'alice', invalidatedEntries: 0 }], at(4_500));
    oracle.judge([{ type: 'PurgeDone', uri: uriA, subject: 'alice', invalidatedEntries: 0 }], at(9_000));
    oracle.finish(70_000);
    expect(oracle.revocation.latenciesMs).toEqual([3_500, 68_000]);
    expect(oracle.revocation.revocations).toBe(2);
  });

  it('a revocation of a resource the workload had not subscribed is not measured; a purge of the wrong subject is not a purge', () => {
    oracle.onUnsubscribeCommand(B, 500);
    oracle.onRevoked(B, BOB, 1_000);
    oracle.onRevoked(A, ALICE, 1_000);
    oracle.judge([{ type: 'PurgeDone', uri: uriA, subject: 'bob', invalidatedEntries: 0 }], at(2_000));
    oracle.finish(5_000);
    expect(oracle.revocation.latenciesMs).toEqual([4_000]);
  });

  it('a revoked resource leaves the convergence metric', () => {
    oracle.onChange(A, 2, 1_000);
    oracle.onRevoked(A, ALICE, 1_500);
    oracle.onChange(A, 3, 2_000);
    oracle.finish(100_000);
    expect(fired(oracle)).toEqual({});
    expect(oracle.changesTracked).toBe(0);
  });

  it('histogram: 100 ms buckets, an overflow bucket, p99 is the upper edge of its bucket', () => {
    expect([revocationBucketOf(0), revocationBucketOf(99), revocationBucketOf(100), revocationBucketOf(119_999), revocationBucketOf(500_000)]).toEqual([
      0, 0, 1, 1_199, 1_200,
    ]);
    const histogram = new Float64Array(revocationBucketCount);
    expect(histogramPercentileMs(histogram, 0.99)).toBe(0);
    histogram[revocationBucketOf(2_950)] = 99;
    histogram[revocationBucketOf(45_000)] = 1;
    expect(histogramPercentileMs(histogram, 0.99)).toBe(3_000);
    histogram[revocationBucketOf(45_000)] = 2;
    expect(histogramPercentileMs(histogram, 0.99)).toBe(45_100);
  });
});

describe('oracle: fence_lost_after_crash', () => {
  it('a response to a read sent before the crash must not be accepted after it', () => {
    oracle.judge([accepted(uriA, 2, 5)], readResponse(A, 2, 1_000, 900));
    oracle.onCrash(2_000);
    oracle.judge([accepted(uriA, 3, 6)], readResponse(A, 3, 2_500, 1_900));
    expect(fired(oracle)).toEqual({ fence_lost_after_crash: 1 });
    expect(oracle.violations[0]!.detail).toContain('before the client crashed at 2000 ms');
    oracle.judge([{ type: 'TombstonePending', uri: uriA, readOrdinal: 7 }], { ...readResponse(A, 4, 2_600, 1_950), servedExists: false });
    expect(fired(oracle)).toEqual({ fence_lost_after_crash: 2 });
  });

  it('an ordinal at or below the pre-crash watermark is a watermark that went backwards', () => {
    oracle.judge([accepted(uriA, 2, 5)], readResponse(A, 2, 1_000, 900));
    oracle.onCrash(2_000);
    oracle.judge([accepted(uriA, 3, 5)], readResponse(A, 3, 3_000, 2_900));
    expect(fired(oracle)).toEqual({ fence_lost_after_crash: 1 });
    expect(oracle.violations[0]!.detail).toContain('ordinal 5 accepted before it');
    oracle.judge([accepted(uriA, 4, 6), accepted(uriB, 2, 1)], readResponse(A, 4, 3_100, 3_050));
    expect(fired(oracle)).toEqual({ fence_lost_after_crash: 1 });
  });

  it('without a crash nothing is judged, and accepting post-crash reads above the watermark is fine', () => {
    oracle.judge([accepted(uriA, 2, 5), accepted(uriA, 3, 3)], readResponse(A, 3, 1_000, 900));
    expect(fired(oracle)).toEqual({});
    oracle.onCrash(2_000);
    oracle.judge([accepted(uriA, 4, 6)], readResponse(A, 4, 3_000, 2_900));
    expect(fired(oracle)).toEqual({});
    expect(oracle.crashes).toBe(1);
  });
});

describe('server content convention', () => {
  it('parseContent inverts contentFor and rejects anything else', () => {
    expect(parseContent(contentFor(uriA, 12))).toEqual({ uri: uriA, version: 12 });
    expect(parseContent('made up')).toBeNull();
    expect(parseContent(`${uriA}\nversion 012\n`)).toBeNull();
    expect(parseContent(`${uriA}\nversion 1x\n`)).toBeNull();
    expect(parseContent(`${uriA}\nversion 1`)).toBeNull();
    expect(parseContent(42)).toBeNull();
  });

  it('content of a version that was a deletion was never served', () => {
    const fresh = new Oracle(uris, 1);
    fresh.registerContent(contentFor(uriA, 1), A, 1);
    fresh.registerContent(contentFor(uriA, 3), A, 3); // v2 was a deletion
    fresh.onSubscribeCommand(A);
    fresh.judge([accepted(uriA, 2, 1)], readResponse(A, 2, 1_000, 900));
    fresh.judge([accepted(uriA, 4, 2)], readResponse(A, 4, 1_100, 1_000));
    expect(fired(fresh)).toEqual({ uri_confusion: 2 });
    fresh.judge([accepted(uriA, 3, 3)], readResponse(A, 3, 1_200, 1_100));
    expect(fired(fresh)).toEqual({ uri_confusion: 2 });
    expect(fresh.describeContent(contentFor(uriA, 3))).toBe(`${uriA} v3`);
    expect(fresh.describeContent(contentFor(uriA, 2))).toBe('content the server never served');
  });
});

describe('oracle: convergence latencies (for the CDF)', () => {
  it('records change-to-accept time per reflected change, and end minus change for those never reflected', () => {
    oracle.onChange(A, 2, 1_000);
    oracle.onChange(A, 3, 2_000);
    oracle.onChange(B, 2, 5_000);
    oracle.judge([accepted(uriA, 3, 1)], readResponse(A, 3, 2_500, 2_400));
    oracle.finish(70_000);
    expect(oracle.convergenceLatenciesMs).toEqual([1_500, 500, 65_000]);
    expect(fired(oracle)).toEqual({ convergence_60s: 1 });
  });
});
