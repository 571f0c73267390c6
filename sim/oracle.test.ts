/**
 * Oracle unit tests: hand-built effects and ground truth, one invariant at a time. Each case asserts the
 * whole violation-count vector, so an invariant that fires when it should not fails here too.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { ClientEffect } from '../core/types.js';
import {
  causeConnection,
  causeNotification,
  causeOldNotification,
  causeWorkload,
  Oracle,
  type StepTruth,
} from './oracle.js';
import { contentFor } from './actors/server.js';
import { fired, truth } from '../test/oracle-steps.js';

const uriA = 'test://static/resource/1';
const uriB = 'test://static/resource/2';
const slashEncoded = 'demo://resource/docs/a%2Fb';
const slashPlain = 'demo://resource/docs/a/b';
const uris = [uriA, uriB, slashEncoded, slashPlain];
const A = 0;
const B = 1;
const ENCODED = 2;
const PLAIN = 3;


/** A read response of session 1, sent at `sentAtMs`, answering with `resource` at `version`. */
function response(resource: number, version: number, timeMs: number, sentAtMs: number, overrides: Partial<StepTruth> = {}): StepTruth {
  return truth({
    timeMs,
    cause: causeNotification,
    requestSession: 1,
    requestSentAtMs: sentAtMs,
    servedResource: resource,
    servedVersion: version,
    servedExists: true,
    ...overrides,
  });
}

function accepted(uri: string, text: string, readOrdinal = 1): ClientEffect {
  return {
    type: 'VersionAccepted', encoding: 'text',
    uri,
    text,
    mimeType: 'text/plain',
    digest: 'digest',
    readOrdinal,
    watermarkBefore: 0,
    subscriptionGeneration: 1,
    sessionGeneration: 1,
  };
}

/** Outbox sequences rise over a test file's life, as a client's do (sim/checkers/outbox-lineage.ts). */
let outboxSequence = 0;
function outbox(uri: string): ClientEffect {
  return { type: 'OutboxEntryWritten', uri, sequence: ++outboxSequence, operation: 'upsert', digest: 'digest', derivedEntries: [], supersedes: [] };
}

function tombstone(uri: string): ClientEffect {
  return { type: 'TombstonePending', uri, readOrdinal: 1 };
}

function read(uri: string): ClientEffect {
  return { type: 'RequestSent', requestId: 1, sessionGeneration: 1, method: 'resources/read', uri, reason: 'notification', readOrdinal: 1 };
}

/** Registers v1..v9 of every resource with the server's content convention and subscribes all. */
function newOracle(): Oracle {
  const oracle = new Oracle(uris, 1);
  uris.forEach((uri, resource) => {
    for (let version = 1; version < 10; version++) oracle.registerContent(contentFor(uri, version), resource, version);
    oracle.onSubscribeCommand(resource);
  });
  return oracle;
}

/** A version accepted for `resource` at `version` in a normal response step, with its outbox entry. */
function accept(oracle: Oracle, resource: number, version: number, timeMs: number, sentAtMs = timeMs - 10, overrides: Partial<StepTruth> = {}): void {
  const uri = uris[resource]!;
  oracle.judge([accepted(uri, contentFor(uri, version)), outbox(uri)], response(resource, version, timeMs, sentAtMs, overrides));
}


let oracle: Oracle;
beforeEach(() => {
  oracle = newOracle();
});

describe('oracle: version_regression', () => {
  it('accepting v3 then v2 of the same resource is a regression', () => {
    accept(oracle, A, 3, 1_000);
    expect(fired(oracle)).toEqual({});
    accept(oracle, A, 2, 1_100, 900);
    expect(fired(oracle)).toEqual({ version_regression: 1 });
    expect(oracle.violations[0]).toMatchObject({ invariant: 'version_regression', timeMs: 1_100, uri: uriA });
    expect(oracle.violations[0]!.detail).toContain('v2 after v3');
  });

  it('v2 then v3, re-accepting the same version, and an older version of another resource are fine', () => {
    accept(oracle, A, 2, 1_000);
    accept(oracle, A, 3, 1_100);
    accept(oracle, A, 3, 1_200);
    accept(oracle, B, 1, 1_300);
    expect(fired(oracle)).toEqual({});
    expect(oracle.accepts).toBe(4);
  });
});

describe('oracle: uri_confusion', () => {
  it('accepting the content of another resource is confusion', () => {
    oracle.judge([accepted(uriA, contentFor(uriB, 2))], response(B, 2, 1_000, 990));
    expect(fired(oracle)).toEqual({ uri_confusion: 1 });
    expect(oracle.violations[0]!.detail).toContain(`content of ${uriB} v2`);
  });

  it('a%2Fb and a/b are different resources', () => {
    oracle.judge([accepted(slashEncoded, contentFor(slashPlain, 1))], response(PLAIN, 1, 1_000, 990));
    expect(fired(oracle)).toEqual({ uri_confusion: 1 });
  });

  it('content the server never served is confusion', () => {
    oracle.judge([accepted(uriA, 'made up')], response(A, 1, 1_000, 990));
    expect(fired(oracle)).toEqual({ uri_confusion: 1 });
    expect(oracle.violations[0]!.detail).toContain('never served');
  });

  it('an equivalent spelling the server made is not confusion', () => {
    oracle.observe({ kind: 'spelled', spelling: 'TEST://static/resource/%31', resource: A });
    oracle.observe({ kind: 'spelled', spelling: 'demo://resource/docs/a%2fb', resource: ENCODED });
    oracle.judge([accepted('TEST://static/resource/%31', contentFor(uriA, 2))], response(A, 2, 1_000, 990));
    oracle.judge([accepted('demo://resource/docs/a%2fb', contentFor(slashEncoded, 2))], response(ENCODED, 2, 1_100, 990));
    expect(fired(oracle)).toEqual({});
  });

  it('a spelling the server never made names no resource: the truth does not borrow the client canonicaliser', () => {
    oracle.judge([accepted('TEST://static/resource/%31', contentFor(uriA, 2))], response(A, 2, 1_000, 990));
    expect(fired(oracle)).toEqual({ uri_confusion: 1 });
  });
});

describe('oracle: accept_when_not_active', () => {
  it('a version accepted after the unsubscribe command is flagged, as is its outbox entry', () => {
    oracle.onUnsubscribeCommand(A, 1_000);
    accept(oracle, A, 2, 1_050, 900);
    expect(fired(oracle)).toEqual({ accept_when_not_active: 1, post_close_outbox: 1 });
  });

  it('a response to a read sent before the close is flagged even after re-subscribing', () => {
    oracle.onUnsubscribeCommand(A, 1_000);
    oracle.onSubscribeCommand(A);
    accept(oracle, A, 2, 2_000, 1_000);
    expect(fired(oracle)).toEqual({ accept_when_not_active: 1, post_close_outbox: 1 });
  });

  it('a read sent after the close, while still unsubscribed, is flagged too', () => {
    oracle.onUnsubscribeCommand(A, 1_000);
    accept(oracle, A, 2, 1_100, 1_050);
    expect(fired(oracle)).toEqual({ accept_when_not_active: 1, post_close_outbox: 1 });
  });

  it('a read sent after re-subscribing is accepted normally', () => {
    oracle.onUnsubscribeCommand(A, 1_000);
    oracle.onSubscribeCommand(A);
    accept(oracle, A, 2, 2_000, 1_001);
    expect(fired(oracle)).toEqual({});
  });

  it('a version from a response of a session that has ended is flagged', () => {
    accept(oracle, A, 2, 1_000, 900, { requestSession: 1, currentSession: 2 });
    expect(fired(oracle)).toEqual({ accept_when_not_active: 1 });
    expect(oracle.violations[0]!.detail).toContain('session 1');
  });

  it('closing one resource does not affect another', () => {
    oracle.onUnsubscribeCommand(A, 1_000);
    accept(oracle, B, 2, 1_050, 900);
    expect(fired(oracle)).toEqual({});
  });
});

describe('oracle: post_close_outbox', () => {
  it('an outbox entry alone for a closed URI is flagged', () => {
    oracle.onUnsubscribeCommand(B, 500);
    oracle.judge([outbox(uriB)], response(B, 2, 1_000, 400));
    expect(fired(oracle)).toEqual({ post_close_outbox: 1 });
  });

  it('an outbox entry while subscribed is fine', () => {
    oracle.judge([outbox(uriB)], response(B, 2, 1_000, 400));
    expect(fired(oracle)).toEqual({});
  });
});

describe('oracle: late_tombstone', () => {
  const notFound = (resource: number, version: number, timeMs: number, sentAtMs: number): StepTruth =>
    response(resource, version, timeMs, sentAtMs, { servedExists: false });

  it('a tombstone from a not-found older than an accepted version is late', () => {
    accept(oracle, A, 4, 1_000);
    oracle.judge([tombstone(uriA)], notFound(A, 3, 1_100, 800));
    expect(fired(oracle)).toEqual({ late_tombstone: 1 });
    expect(oracle.violations[0]!.detail).toContain('older than accepted v4');
  });

  it('a tombstone from a not-found after close is late and not active', () => {
    oracle.onUnsubscribeCommand(A, 1_000);
    oracle.judge([tombstone(uriA)], notFound(A, 3, 1_100, 900));
    expect(fired(oracle)).toEqual({ late_tombstone: 1, accept_when_not_active: 1 });
  });

  it('an older not-found after close is counted once per invariant (no version_regression on top)', () => {
    accept(oracle, A, 4, 900, 850);
    oracle.onUnsubscribeCommand(A, 1_000);
    oracle.judge([tombstone(uriA)], notFound(A, 3, 1_100, 800));
    expect(fired(oracle)).toEqual({ late_tombstone: 1, accept_when_not_active: 1 });
  });

  it('within one millisecond, order decides: a read stamped after an unsubscribe and a re-subscribe is not after close', () => {
    const before = oracle.stamp(1_000);
    oracle.onUnsubscribeCommand(A, 1_000);
    oracle.onSubscribeCommand(A, 1_000);
    const after = oracle.stamp(1_000);
    expect(Math.floor(before)).toBe(1_000);
    expect(Math.floor(after)).toBe(1_000);
    oracle.judge([tombstone(uriA)], notFound(A, 3, 1_020, after));
    expect(fired(oracle)).toEqual({});
    oracle.judge([tombstone(uriA)], notFound(A, 3, 1_030, before));
    expect(fired(oracle)).toEqual({ late_tombstone: 1, accept_when_not_active: 1 });
  });

  it('a tombstone from a read of an ended session is not active', () => {
    oracle.judge([tombstone(uriA)], notFound(A, 3, 1_100, 900));
    expect(fired(oracle)).toEqual({});
    oracle.judge([tombstone(uriA)], { ...notFound(A, 4, 1_200, 1_150), currentSession: 2 });
    expect(fired(oracle)).toEqual({ accept_when_not_active: 1 });
  });

  it('a tombstone without a not-found for that resource in the step is flagged', () => {
    oracle.judge([tombstone(uriA)], response(A, 3, 1_100, 900));
    oracle.judge([tombstone(uriA)], notFound(B, 3, 1_200, 900));
    expect(fired(oracle)).toEqual({ late_tombstone: 2 });
  });

  it('a tombstone from a current not-found newer than the accepted version is fine', () => {
    accept(oracle, A, 4, 1_000);
    oracle.judge([tombstone(uriA)], notFound(A, 5, 1_100, 1_050));
    expect(fired(oracle)).toEqual({});
    // ... and content older than the deletion is then a regression.
    accept(oracle, A, 4, 1_200, 1_150);
    expect(fired(oracle)).toEqual({ version_regression: 1 });
  });
});

describe('oracle: old_session_effect', () => {
  it("a read issued because of an old session's notification is flagged", () => {
    oracle.judge([read(uriA)], truth({ cause: causeOldNotification }));
    expect(fired(oracle)).toEqual({ old_session_effect: 1 });
    expect(oracle.notificationReads).toBe(0);
  });

  it("an accept and outbox entry caused by an old session's notification are flagged", () => {
    accept(oracle, A, 2, 1_000, 900, { cause: causeOldNotification });
    expect(fired(oracle)).toEqual({ old_session_effect: 2 });
  });

  it('reads caused by a current notification count toward read amplification; others do not', () => {
    oracle.judge([read(uriA)], truth({ cause: causeNotification }));
    oracle.judge([read(uriA)], truth({ cause: causeConnection }));
    oracle.judge([read(uriA), { type: 'RequestSent', requestId: 2, sessionGeneration: 1, method: 'resources/subscribe', uri: uriA }], truth({ cause: causeWorkload }));
    expect(fired(oracle)).toEqual({});
    expect(oracle.notificationReads).toBe(1);
    expect(oracle.totalReads).toBe(3);
  });
});

describe('oracle: notified changes and counters', () => {
  it('a change notified several times (or on an old session) counts once', () => {
    oracle.onNotificationDelivered(A, 2, true);
    oracle.onNotificationDelivered(A, 2, true);
    oracle.onNotificationDelivered(A, 3, false);
    oracle.onNotificationDelivered(B, 2, true);
    expect(oracle.notifiedChanges).toBe(2);
  });

  it('stale receipts, audits and rejections are counted', () => {
    oracle.judge(
      [
        { type: 'StaleReceiptWritten', uri: uriA, requestId: 1, readOrdinal: 1, watermark: 2, reason: 'ORDINAL' },
        { type: 'AuditWritten', kind: 'STALE_AFTER_CLOSE', uri: uriA, requestId: 1, detail: '' },
        { type: 'AuditWritten', kind: 'OLD_SESSION_NOTIFICATION', uri: uriA, requestId: 0, detail: '' },
        { type: 'ProtocolRejected', rejection: { kind: 'InvalidUri', detail: '' } },
      ],
      truth(),
    );
    expect([oracle.staleReceipts, oracle.audits, oracle.rejections]).toEqual([1, 2, 1]);
    expect(fired(oracle)).toEqual({});
  });
});

describe('oracle: fence_lost_after_crash', () => {
  /** Accepts content of `resource` at truth `version` with read ordinal `ordinal`, for a read sent at `sentAtMs`. */
  const acceptOrdinal = (resource: number, version: number, ordinal: number, timeMs: number, sentAtMs: number): void => {
    const uri = uris[resource]!;
    oracle.judge([accepted(uri, contentFor(uri, version), ordinal)], response(resource, version, timeMs, sentAtMs));
  };

  it('a read sent before the crash and accepted after the restart is flagged', () => {
    acceptOrdinal(A, 2, 1, 1_000, 900);
    oracle.onCrash(2_000);
    acceptOrdinal(A, 3, 2, 2_500, 1_900);
    expect(fired(oracle)).toEqual({ fence_lost_after_crash: 1 });
    expect(oracle.crashes).toBe(1);
  });

  it('a read ordinal at or below the pre-crash watermark is flagged (the watermark went backwards)', () => {
    acceptOrdinal(A, 2, 5, 1_000, 900);
    oracle.onCrash(2_000);
    acceptOrdinal(A, 3, 5, 2_500, 2_100);
    expect(fired(oracle)).toEqual({ fence_lost_after_crash: 1 });
  });

  it('reads issued after the restart above the watermark, and anything without a crash, are fine', () => {
    acceptOrdinal(B, 2, 1, 500, 400);
    acceptOrdinal(B, 3, 1, 600, 550); // no crash yet: ordinals are the client's business
    acceptOrdinal(A, 2, 5, 1_000, 900);
    oracle.onCrash(2_000);
    acceptOrdinal(A, 3, 6, 2_500, 2_100);
    acceptOrdinal(B, 4, 2, 2_600, 2_200);
    expect(fired(oracle)).toEqual({});
  });

  it('a durable ledger behind the latest session the client was handed is flagged; one that keeps it, or is no fencesim ledger, is not', () => {
    const ledger = (sessionGeneration: unknown): unknown => ({ schema: 'fencesim.ledger.v1', sessionGeneration });
    oracle.crash.judgeDurableSession(ledger(3), 3, 1_000);
    oracle.crash.judgeDurableSession(ledger(4), 3, 1_000);
    oracle.crash.judgeDurableSession({ schema: 'my.own.v2', sessionGeneration: 0 }, 3, 1_000);
    oracle.crash.judgeDurableSession(null, 3, 1_000);
    expect(fired(oracle)).toEqual({});
    oracle.crash.judgeDurableSession(ledger(0), 3, 2_000);
    oracle.crash.judgeDurableSession(ledger('3'), 3, 2_000);
    expect(fired(oracle)).toEqual({ fence_lost_after_crash: 2 });
    expect(oracle.violations[0]!.detail).toContain('naming session 0, but it had been handed session 3');
  });
});

describe('oracle: convergence_60s', () => {
  it('a change never reflected is flagged by finish()', () => {
    oracle.onChange(A, 2, 1_000);
    oracle.finish(61_000);
    expect(fired(oracle)).toEqual({ convergence_60s: 1 });
    expect(oracle.violations[0]).toMatchObject({ invariant: 'convergence_60s', timeMs: 61_000, uri: uriA });
    expect(oracle.changesTracked).toBe(1);
    expect(oracle.changesConverged).toBe(0);
  });

  it('a change reflected within 60 s is counted as converged, also by a newer version', () => {
    oracle.onChange(A, 2, 1_000);
    oracle.onChange(A, 3, 2_000);
    oracle.onChange(B, 2, 1_000);
    accept(oracle, A, 3, 61_000); // reflects v2 (exactly 60 s) and v3
    accept(oracle, B, 2, 5_000);
    oracle.finish(100_000);
    expect(fired(oracle)).toEqual({});
    expect(oracle.changesTracked).toBe(3);
    expect(oracle.changesConverged).toBe(3);
  });

  it('a change reflected after more than 60 s is flagged', () => {
    oracle.onChange(A, 2, 1_000);
    accept(oracle, A, 2, 61_001);
    oracle.finish(100_000);
    expect(fired(oracle)).toEqual({ convergence_60s: 1 });
    expect(oracle.changesConverged).toBe(0);
  });

  it('a deletion is reflected by a timely tombstone', () => {
    oracle.onChange(A, 2, 1_000);
    oracle.judge([tombstone(uriA)], response(A, 2, 2_000, 1_900, { servedExists: false }));
    oracle.finish(100_000);
    expect(fired(oracle)).toEqual({});
    expect(oracle.changesConverged).toBe(1);
  });

  it('an unsubscribed resource is excluded from the metric', () => {
    oracle.onChange(A, 2, 1_000);
    oracle.onUnsubscribeCommand(A, 2_000);
    oracle.onChange(A, 3, 3_000); // not subscribed: not tracked
    oracle.finish(100_000);
    expect(fired(oracle)).toEqual({});
    expect(oracle.changesTracked).toBe(0);
    expect(oracle.changesConverged).toBe(0);
  });

  it('a change too close to the end to be judged leaves the metric', () => {
    oracle.onChange(A, 2, 50_000);
    oracle.finish(100_000);
    expect(fired(oracle)).toEqual({});
    expect(oracle.changesTracked).toBe(0);
  });
});
