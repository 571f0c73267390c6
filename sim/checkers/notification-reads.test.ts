/**
 * notified_unread (sim/checkers/notification-reads.ts) with hand-built truth and effects: an updated of the current
 * session for a wanted resource owes a read sent at or after it within notifiedReadBoundMs; a read already sent
 * before does not count; a pulse with no news (a copy, or an older version) ends the 2025 obligations but for pulses
 * no read of their resource sent within coalesceWindowMs before could cover; a session
 * end, an unsubscribe or a crash owe nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { Oracle, invariantIndex } from '../oracle.js';
import { truth } from '../../test/oracle-steps.js';
import { coalesceWindowMs, notifiedReadBoundMs } from './notification-reads.js';
import { causeNotification, causeWorkload } from '../causes.js';

const uriA = 'test://static/resource/1';
const uriB = 'test://static/resource/2';
const read = (requestId: number, uri = uriA): ClientEffect => ({ type: 'RequestSent', requestId, sessionGeneration: 1, method: 'resources/read', uri, reason: 'notification', readOrdinal: requestId });

let oracle: Oracle;
const violated = (): number => oracle.counts[invariantIndex.notified_unread]!;
const judged = (): number => oracle.checks[invariantIndex.notified_unread]!;

/** An updated of A at version `version` reaches the client at `timeMs` (its step: `effects`). */
function notified(timeMs: number, version: number, effects: ClientEffect[] = [], resource = 0): void {
  oracle.observe({ kind: 'notified', resource, version, current: true });
  oracle.judge(effects, truth({ timeMs }));
}

beforeEach(() => {
  oracle = new Oracle([uriA, uriB], 1);
  oracle.onSubscribeCommand(0, 0);
  oracle.onSubscribeCommand(1, 0);
  oracle.judge([], truth({ timeMs: 1 }));
  oracle.observe({ kind: 'subscribe-acked', resource: 0, requestSentAtMs: 0, timeMs: 1 });
  oracle.observe({ kind: 'subscribe-acked', resource: 1, requestSentAtMs: 0, timeMs: 1 });
});

describe('notified_unread (2025-11-25)', () => {
  it('a read in the step of the notification passes, and is counted as judged', () => {
    notified(1_000, 2, [read(1)]);
    oracle.finish(60_000);
    expect([violated(), judged()]).toEqual([0, 1]);
  });

  it('a follow-up read within the bound passes; none fails right after the bound (a read sent before it does not count)', () => {
    oracle.judge([read(1)], truth({ timeMs: 900 }));
    notified(1_000, 2);
    oracle.judge([read(2)], truth({ timeMs: 1_000 + notifiedReadBoundMs }));
    expect(violated()).toBe(0);
    notified(10_000, 3);
    oracle.judge([], truth({ timeMs: 10_000 + notifiedReadBoundMs }));
    expect(violated()).toBe(0);
    oracle.judge([], truth({ timeMs: 10_001 + notifiedReadBoundMs }));
    expect(violated()).toBe(1);
    expect(oracle.violations.find((violation) => violation.invariant === 'notified_unread')).toMatchObject({ uri: uriA });
  });

  it('a read of another resource does not pay for it; unread pulses are judged at the end of the run', () => {
    notified(1_000, 2, [read(1, uriB)]);
    oracle.finish(1_000 + notifiedReadBoundMs + 1);
    expect(violated()).toBe(1);
  });

  it('2025-11-25: after a pulse with no news (a copy or an older version) nothing more is owed', () => {
    notified(1_000, 3, [read(1)]);
    notified(1_100, 2, [read(2)]);
    notified(2_000, 4);
    oracle.finish(60_000);
    expect([violated(), judged()]).toEqual([0, 1]);
  });

  it('2025-11-25: after a pulse with no news, a pulse with no read of its resource sent within coalesceWindowMs is owed again', () => {
    notified(1_000, 3, [read(1)]);
    notified(1_100, 2);
    notified(1_000 + coalesceWindowMs, 4);
    oracle.judge([], truth({ timeMs: 1_000 + coalesceWindowMs + notifiedReadBoundMs }));
    expect([violated(), judged()]).toEqual([0, 1]);
    notified(1_001 + coalesceWindowMs, 5);
    oracle.judge([], truth({ timeMs: 1_002 + coalesceWindowMs + notifiedReadBoundMs }));
    expect([violated(), judged()]).toEqual([1, 2]);
  });

  it('a session end, an unsubscribe or a crash releases what was owed', () => {
    notified(1_000, 2);
    oracle.observe({ kind: 'session-ended', timeMs: 1_100 });
    oracle.observe({ kind: 'subscribe-acked', resource: 0, requestSentAtMs: 1_150, timeMs: 1_200 });
    oracle.observe({ kind: 'subscribe-acked', resource: 1, requestSentAtMs: 1_150, timeMs: 1_200 });
    notified(2_000, 1, [], 1);
    oracle.onUnsubscribeCommand(1, 2_100);
    oracle.judge([], truth({ timeMs: 2_100 }));
    notified(3_000, 3);
    oracle.observe({ kind: 'crashed', timeMs: 3_100 });
    oracle.finish(60_000);
    expect([violated(), judged()]).toEqual([0, 3]);
  });

  it('a read that answered an updated and brought nothing to take owes a new read; a success, or a newer read on its way, does not', () => {
    const answered = (sentAtMs: number, failed: boolean, timeMs: number): void => {
      oracle.observe({ kind: 'read-answered', resource: 0, cause: causeNotification, requestSentAtMs: sentAtMs, failed, timeMs });
      oracle.judge([], truth({ timeMs }));
    };
    notified(1_000, 2, [read(1)]);
    answered(1_000, true, 1_050);
    oracle.judge([], truth({ timeMs: 1_051 + notifiedReadBoundMs }));
    expect(violated()).toBe(1);
    expect(oracle.violations.find((violation) => violation.invariant === 'notified_unread')!.detail).toContain('brought nothing to take at 1050 ms');
    // A newer read already on its way answers it.
    notified(10_000, 3, [read(2)]);
    oracle.judge([read(3)], truth({ timeMs: 10_020 }));
    answered(10_000, true, 10_030);
    oracle.judge([], truth({ timeMs: 10_031 + notifiedReadBoundMs }));
    expect(violated()).toBe(1);
    // Answered with news, then a later (reconciliation) read fails: nothing is owed.
    notified(20_000, 4, [read(4)]);
    answered(20_000, false, 20_050);
    oracle.judge([read(5)], truth({ timeMs: 21_000 }));
    answered(21_000, true, 21_050);
    oracle.finish(60_000);
    expect(violated()).toBe(1);
  });

  it('2025-11-25: an updated before the subscribe is acknowledged on this session is owed from the acknowledgement', () => {
    oracle.observe({ kind: 'session-ended', timeMs: 500 });
    oracle.judge([], truth({ timeMs: 600, currentSession: 2 }));
    oracle.observe({ kind: 'notified', resource: 0, version: 2, current: true });
    oracle.judge([], truth({ timeMs: 1_000, currentSession: 2 }));
    oracle.judge([], truth({ timeMs: 1_001 + notifiedReadBoundMs, currentSession: 2 }));
    expect([violated(), judged()]).toEqual([0, 0]);
    oracle.observe({ kind: 'subscribe-acked', resource: 0, requestSentAtMs: 7_950, timeMs: 8_000 });
    oracle.judge([], truth({ timeMs: 8_000, currentSession: 2 }));
    oracle.judge([], truth({ timeMs: 8_001 + notifiedReadBoundMs, currentSession: 2 }));
    expect([violated(), judged()]).toEqual([1, 1]);
  });

  it('2025-11-25: an updated before the acknowledgement is answered by a read sent after it: with news before the ack, or on its way at the ack', () => {
    // subscription-errors, examples/fixed-kb: an updated at 2,014 ms, read at 2,019 ms (v2), the subscribe failed and its
    // retry was acknowledged at 3,021 ms: the news had been read, nothing is owed from the acknowledgement.
    const answered = (sentAtMs: number, failed: boolean, timeMs: number): void => {
      oracle.observe({ kind: 'read-answered', resource: 0, cause: causeNotification, requestSentAtMs: sentAtMs, failed, timeMs });
      oracle.judge([], truth({ timeMs, currentSession: 2 }));
    };
    oracle.observe({ kind: 'session-ended', timeMs: 500 });
    oracle.judge([], truth({ timeMs: 600, currentSession: 2 }));
    oracle.observe({ kind: 'notified', resource: 0, version: 2, current: true });
    oracle.judge([], truth({ timeMs: 1_000, currentSession: 2 }));
    oracle.judge([read(1)], truth({ timeMs: 1_005, currentSession: 2 }));
    answered(1_005, false, 1_010);
    oracle.observe({ kind: 'subscribe-acked', resource: 0, requestSentAtMs: 2_000, timeMs: 2_010 });
    oracle.judge([], truth({ timeMs: 2_010, currentSession: 2 }));
    oracle.judge([], truth({ timeMs: 2_011 + notifiedReadBoundMs, currentSession: 2 }));
    expect(violated()).toBe(0);
    // A read sent after the updated is still on its way at the ack: it answers it, unless it fails.
    oracle.observe({ kind: 'session-ended', timeMs: 9_000 });
    oracle.judge([], truth({ timeMs: 9_100, currentSession: 3 }));
    oracle.observe({ kind: 'notified', resource: 0, version: 3, current: true });
    oracle.judge([], truth({ timeMs: 10_000, currentSession: 3 }));
    oracle.judge([read(2)], truth({ timeMs: 10_005, currentSession: 3 }));
    oracle.observe({ kind: 'subscribe-acked', resource: 0, requestSentAtMs: 10_001, timeMs: 10_010 });
    oracle.judge([], truth({ timeMs: 10_010, currentSession: 3 }));
    oracle.observe({ kind: 'read-answered', resource: 0, cause: causeNotification, requestSentAtMs: 10_005, failed: true, timeMs: 10_020 });
    oracle.judge([], truth({ timeMs: 10_020, currentSession: 3 }));
    oracle.judge([], truth({ timeMs: 10_021 + notifiedReadBoundMs, currentSession: 3 }));
    expect(violated()).toBe(1);
    expect(oracle.violations.find((violation) => violation.invariant === 'notified_unread')!.detail).toContain('brought nothing to take at 10020 ms');
  });

  it('an updated delivered on a session that ends before a step handles it owes nothing (the step telling the client of the end does not owe it)', () => {
    // The long-outage scenario found it: a module client's notification came in the same instant as a disconnect whose
    // outage outlasted notifiedReadBoundMs, so no connection existed to read it on.
    oracle.observe({ kind: 'notified', resource: 0, version: 2, current: true });
    oracle.observe({ kind: 'session-ended', timeMs: 1_000 });
    oracle.judge([], truth({ timeMs: 1_000 }));
    oracle.judge([], truth({ timeMs: 1_001 + notifiedReadBoundMs }));
    oracle.finish(60_000);
    expect([violated(), judged()]).toEqual([0, 0]);
  });
});

describe('read_amplification counts the reads the server failed as its own, not the client\'s', () => {
  it('a notification read answered with a failure leaves the numerator; one answered with news, or another read, stays', () => {
    oracle.judge([read(1), read(2)], truth({ timeMs: 1_000, cause: causeNotification }));
    oracle.judge([read(3)], truth({ timeMs: 1_000 }));
    expect(oracle.notificationReads).toBe(2);
    const answered = (cause: number, failed: boolean): void => oracle.observe({ kind: 'read-answered', resource: 0, cause, requestSentAtMs: 1_000, failed, timeMs: 1_050 });
    answered(causeNotification, true);
    answered(causeNotification, false);
    answered(causeWorkload, true); // not a notification read
    expect(oracle.notificationReads).toBe(1);
    expect(oracle.totalReads).toBe(3);
  });
});
