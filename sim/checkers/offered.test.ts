/**
 * request_record_untrue (sim/checkers/offered.ts): a RequestSent says what its request is (core/effects.ts): a read
 * carries its reason, ordinal and subject, no other method carries them, only a list carries a cursor.
 */
import { describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import type { InvariantName } from '../invariants.js';
import { OfferedRequestChecker } from './offered.js';

function judged(effect: Record<string, unknown>): InvariantName[] {
  const violated: InvariantName[] = [];
  const checker = new OfferedRequestChecker({ violate: (invariant) => violated.push(invariant), checked: () => {} });
  checker.judgeRequests([{ type: 'RequestSent', requestId: 1, sessionGeneration: 1, uri: 'file:///a', ...effect } as unknown as ClientEffect], true, true, false, 10);
  return violated;
}

describe('request_record_untrue', () => {
  it('well-formed records pass', () => {
    expect(judged({ method: 'resources/read', reason: 'notification', readOrdinal: 3, subject: 'alice' })).toEqual([]);
    expect(judged({ method: 'resources/subscribe' })).toEqual([]);
    expect(judged({ method: 'resources/list', uri: '', cursor: 'c1' })).toEqual([]);
  });

  it('a read without its fields, another method with them, or a cursor off a list, is untrue', () => {
    expect(judged({ method: 'resources/read', reason: 'notification', readOrdinal: 0, subject: 'alice' })).toEqual(['request_record_untrue']);
    expect(judged({ method: 'resources/read', readOrdinal: 2, subject: 'alice' })).toEqual(['request_record_untrue']);
    expect(judged({ method: 'resources/read', reason: 'notification', readOrdinal: 2, subject: 7 })).toEqual(['request_record_untrue']);
    // A read without a subject is sent without credentials (core/effects.ts): its record is true.
    expect(judged({ method: 'resources/read', reason: 'notification', readOrdinal: 2 })).toEqual([]);
    expect(judged({ method: 'resources/subscribe', reason: null, readOrdinal: 0, subject: 'default' })).toEqual(['request_record_untrue']);
    expect(judged({ method: 'resources/unsubscribe', cursor: 'c1' })).toEqual(['request_record_untrue']);
  });
});

describe('request_record_untrue: a tombstone read is sent for a URI the client holds TOMBSTONE_PENDING', () => {
  const read = (reason: string): Extract<ClientEffect, { type: 'RequestSent' }> => ({ type: 'RequestSent', requestId: 2, sessionGeneration: 1, method: 'resources/read', uri: 'file:///a', reason: reason as 'poll', readOrdinal: 4, subject: 'alice' });

  it('judged against the last move, in step order; unknown (never moved, or after a crash) is not judged; only for step clients', () => {
    const violated: InvariantName[] = [];
    const checker = new OfferedRequestChecker({ violate: (invariant) => violated.push(invariant), checked: () => {} });
    checker.onTransitioned('file:///a', 'TOMBSTONE_PENDING');
    checker.judgeReason(read('tombstone-check'), 1);
    expect(violated).toEqual([]); // not a step client: not judged
    checker.judgesReasons = true;
    checker.judgeReason(read('tombstone-check'), 1);
    expect(violated).toEqual([]); // its moves before were not tracked: unknown
    checker.onTransitioned('file:///a', 'TOMBSTONE_PENDING');
    checker.judgeReason(read('tombstone-check'), 2);
    checker.judgeReason(read('reappeared'), 2);
    expect(violated).toEqual([]);
    checker.onTransitioned('file:///a', 'ACTIVE');
    checker.judgeReason(read('poll'), 3);
    checker.judgeReason(read('reappeared'), 3);
    checker.judgeReason(read('tombstone-check'), 3);
    expect(violated).toEqual(['request_record_untrue', 'request_record_untrue']);
    checker.onCrash();
    checker.judgeReason(read('reappeared'), 4);
    expect(violated.length).toBe(2);
  });
});
