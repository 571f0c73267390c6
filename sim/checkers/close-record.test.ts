/**
 * close_record_untrue (sim/checkers/close-record.ts), the outcome half: a SubscriptionClosed tells the story of the
 * move to CLOSED in its step (unsubscribe_acked: ACKED; session_lost or unsubscribe_begun: SESSION_ENDED).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { Oracle, invariantIndex } from '../oracle.js';
import { truth } from '../../test/oracle-steps.js';

const uri = 'test://static/resource/1';
let oracle: Oracle;
const violated = (): number => oracle.counts[invariantIndex.close_record_untrue]!;

function closeStep(from: 'UNSUBSCRIBING' | 'UNSUBSCRIBE_UNKNOWN' | 'DISCOVERED', event: 'unsubscribe_acked' | 'session_lost' | 'unsubscribe_begun', outcome: 'ACKED' | 'SESSION_ENDED', epoch: number): void {
  const effects: ClientEffect[] = [
    { type: 'Transitioned', uri, from, to: 'CLOSED', event },
    { type: 'SubscriptionClosed', uri, closeEpoch: epoch, closeOrdinal: 0, outcome },
  ];
  oracle.judge(effects, truth({ timeMs: 1_000 * epoch }));
}

beforeEach(() => {
  oracle = new Oracle([uri], 1);
});

describe('close_record_untrue: the outcome agrees with the move', () => {
  it('passes ACKED for unsubscribe_acked and SESSION_ENDED for session_lost or unsubscribe_begun', () => {
    closeStep('UNSUBSCRIBING', 'unsubscribe_acked', 'ACKED', 1);
    closeStep('UNSUBSCRIBE_UNKNOWN', 'session_lost', 'SESSION_ENDED', 2);
    closeStep('DISCOVERED', 'unsubscribe_begun', 'SESSION_ENDED', 3);
    expect(violated()).toBe(0);
  });

  it('fails an outcome the move does not tell', () => {
    closeStep('UNSUBSCRIBING', 'session_lost', 'ACKED', 1);
    expect(violated()).toBe(1);
    closeStep('UNSUBSCRIBE_UNKNOWN', 'unsubscribe_acked', 'SESSION_ENDED', 2);
    expect(violated()).toBe(2);
  });
});

describe('close_record_untrue: a closing subscription does not outlive its session', () => {
  const closing: ClientEffect = { type: 'Transitioned', uri, from: 'ACTIVE', to: 'UNSUBSCRIBING', event: 'unsubscribe_begun' };

  it('passes a close moved to CLOSED before a later session runs', () => {
    oracle.judge([closing], truth({ timeMs: 1_000, currentSession: 1 }));
    closeStep('UNSUBSCRIBING', 'session_lost', 'SESSION_ENDED', 2);
    oracle.judge([], truth({ timeMs: 3_000, currentSession: 2 }));
    expect(violated()).toBe(0);
  });

  it('fails one still closing once the client has taken a new session, once; the world opening one is not enough', () => {
    oracle.judge([closing], truth({ timeMs: 1_000, currentSession: 1 }));
    oracle.judge([], truth({ timeMs: 2_000, currentSession: 1 }));
    // Over the SDK transport (and after an unannounced disconnect) the client hears of the new session later.
    oracle.judge([], truth({ timeMs: 3_000, currentSession: 2 }));
    expect(violated()).toBe(0);
    oracle.closeRecord.judgeSessionStarted(3_500); // the step of the client's Connected (sim/kernel/reducer-driver.ts)
    oracle.closeRecord.judgeSessionStarted(4_000);
    expect(violated()).toBe(1);
  });
});
