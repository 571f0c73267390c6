import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { edgeIndexOf, edgeName, subscriptionStates, transition, transitionEvents, transitionTable } from './transitions.js';
import type { SubscriptionState, TransitionEvent } from './types.js';

/**
 * The table pinned as the spec states it (SPEC §3.2 plus the session, tombstone and polling edges).
 * A change to the exported table must be made here too, on purpose.
 */
const expectedEdges: readonly (readonly [SubscriptionState, TransitionEvent, SubscriptionState])[] = [
  ['DISCOVERED', 'subscribe_sent', 'SUBSCRIBING'],
  ['DISCOVERED', 'poll_started', 'ACTIVE'],
  ['DISCOVERED', 'unsubscribe_begun', 'CLOSED'],
  ['SUBSCRIBING', 'subscribe_acked', 'ACTIVE'],
  ['SUBSCRIBING', 'subscribe_failed', 'RECONCILIATION_REQUIRED'],
  ['SUBSCRIBING', 'session_lost', 'RECONCILIATION_REQUIRED'],
  ['SUBSCRIBING', 'unsubscribe_begun', 'UNSUBSCRIBING'],
  ['ACTIVE', 'update_seen', 'UPDATE_SEEN'],
  ['ACTIVE', 'read_issued', 'READ_PENDING'],
  ['ACTIVE', 'unsubscribe_begun', 'UNSUBSCRIBING'],
  ['ACTIVE', 'session_lost', 'RECONCILIATION_REQUIRED'],
  ['UPDATE_SEEN', 'read_issued', 'READ_PENDING'],
  ['UPDATE_SEEN', 'unsubscribe_begun', 'UNSUBSCRIBING'],
  ['UPDATE_SEEN', 'session_lost', 'RECONCILIATION_REQUIRED'],
  ['READ_PENDING', 'read_issued', 'READ_PENDING'],
  ['READ_PENDING', 'read_accepted', 'VERSION_ACCEPTED'],
  ['READ_PENDING', 'not_found_accepted', 'TOMBSTONE_PENDING'],
  ['READ_PENDING', 'read_settled', 'ACTIVE'],
  ['READ_PENDING', 'unsubscribe_begun', 'UNSUBSCRIBING'],
  ['READ_PENDING', 'session_lost', 'RECONCILIATION_REQUIRED'],
  ['VERSION_ACCEPTED', 'read_settled', 'ACTIVE'],
  ['VERSION_ACCEPTED', 'read_issued', 'READ_PENDING'],
  ['VERSION_ACCEPTED', 'reads_outstanding', 'READ_PENDING'],
  ['VERSION_ACCEPTED', 'session_lost', 'RECONCILIATION_REQUIRED'], // crash recovery from a ledger written mid-accept
  ['TOMBSTONE_PENDING', 'update_seen', 'UPDATE_SEEN'],
  ['TOMBSTONE_PENDING', 'read_issued', 'READ_PENDING'],
  ['TOMBSTONE_PENDING', 'read_accepted', 'VERSION_ACCEPTED'],
  ['TOMBSTONE_PENDING', 'unsubscribe_begun', 'UNSUBSCRIBING'],
  ['TOMBSTONE_PENDING', 'session_lost', 'RECONCILIATION_REQUIRED'],
  ['UNSUBSCRIBING', 'unsubscribe_acked', 'CLOSED'],
  ['UNSUBSCRIBING', 'unsubscribe_timed_out', 'UNSUBSCRIBE_UNKNOWN'],
  ['UNSUBSCRIBING', 'session_lost', 'CLOSED'],
  ['UNSUBSCRIBE_UNKNOWN', 'unsubscribe_acked', 'CLOSED'],
  ['UNSUBSCRIBE_UNKNOWN', 'session_lost', 'CLOSED'],
  ['RECONCILIATION_REQUIRED', 'resubscribe', 'SUBSCRIBING'],
  ['RECONCILIATION_REQUIRED', 'poll_started', 'ACTIVE'],
  ['RECONCILIATION_REQUIRED', 'unsubscribe_begun', 'CLOSED'],
  ['RECONCILIATION_REQUIRED', 'unsubscribe_owed', 'UNSUBSCRIBING'],
];

const closedStates: readonly SubscriptionState[] = ['CLOSED', 'UNSUBSCRIBE_UNKNOWN'];
/** States in which a subscription is open (serving reads or about to): none may follow a close. */
const openStates: readonly SubscriptionState[] = [
  'DISCOVERED',
  'SUBSCRIBING',
  'ACTIVE',
  'UPDATE_SEEN',
  'READ_PENDING',
  'VERSION_ACCEPTED',
  'TOMBSTONE_PENDING',
  'RECONCILIATION_REQUIRED',
];

function edgeKey(from: string, event: string): string {
  return `${from}|${event}`;
}

const edgesByKey = new Map(transitionTable.map((edge) => [edgeKey(edge.from, edge.event), edge]));

function reachableFrom(start: SubscriptionState): Set<SubscriptionState> {
  const seen = new Set<SubscriptionState>([start]);
  const queue: SubscriptionState[] = [start];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const edge of transitionTable) {
      if (edge.from === state && !seen.has(edge.to)) {
        seen.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  return seen;
}

describe('transition table: its edges', () => {
  it('walks every edge: transition(from, event) returns its `to` and its index', () => {
    expect(transitionTable.length).toBeGreaterThan(0);
    transitionTable.forEach((edge, index) => {
      expect(transition(edge.from, edge.event), edgeName(edge)).toEqual({ ok: true, to: edge.to, edgeIndex: index });
      expect(edgeIndexOf(edge.from, edge.event)).toBe(index);
      expect(edge.why.length, `${edgeName(edge)} explains itself`).toBeGreaterThan(0);
    });
  });

  it('is exactly the specified table (no edge added, removed or redirected)', () => {
    const actual = transitionTable.map((edge) => [edge.from, edge.event, edge.to]);
    expect(new Set(actual.map((edge) => edge.join(' ')))).toEqual(new Set(expectedEdges.map((edge) => edge.join(' '))));
    expect(actual.length).toBe(expectedEdges.length);
  });

  it('contains the SPEC §3.2 lifecycle paths', () => {
    const path = (states: SubscriptionState[]): void => {
      for (let index = 0; index + 1 < states.length; index++) {
        const from = states[index]!;
        const to = states[index + 1]!;
        expect(transitionTable.some((edge) => edge.from === from && edge.to === to), `${from} -> ${to}`).toBe(true);
      }
    };
    path(['DISCOVERED', 'SUBSCRIBING', 'ACTIVE']);
    path(['ACTIVE', 'UPDATE_SEEN', 'READ_PENDING', 'VERSION_ACCEPTED', 'ACTIVE']);
    path(['ACTIVE', 'UNSUBSCRIBING', 'CLOSED']);
    path(['UNSUBSCRIBING', 'UNSUBSCRIBE_UNKNOWN']);
  });

  it('every state is reachable from DISCOVERED and every listed state and event is used', () => {
    expect(reachableFrom('DISCOVERED')).toEqual(new Set(subscriptionStates));
    for (const event of transitionEvents) {
      expect(transitionTable.some((edge) => edge.event === event), event).toBe(true);
    }
  });
});

describe('transition table: what it refuses', () => {
  it('rejects every (state, event) pair not in the table with a typed IllegalTransition naming both', () => {
    let illegal = 0;
    for (const state of subscriptionStates) {
      for (const event of transitionEvents) {
        const result = transition(state, event);
        if (edgesByKey.has(edgeKey(state, event))) {
          expect(result.ok, `${state} on ${event}`).toBe(true);
          continue;
        }
        illegal += 1;
        expect(result).toEqual({
          ok: false,
          error: { type: 'IllegalTransition', state, event, message: expect.any(String) },
        });
        if (result.ok) continue;
        expect(result.error.message).toContain(state);
        expect(result.error.message).toContain(event);
        expect(edgeIndexOf(state, event)).toBe(-1);
      }
    }
    expect(illegal).toBe(subscriptionStates.length * transitionEvents.length - transitionTable.length);
  });

  test.prop([fc.string(), fc.string()])('unknown states and events are IllegalTransition too, never a throw', (state, event) => {
    fc.pre(!subscriptionStates.includes(state as SubscriptionState) || !transitionEvents.includes(event as TransitionEvent));
    const result = transition(state as SubscriptionState, event as TransitionEvent);
    expect(result).toEqual({
      ok: false,
      error: { type: 'IllegalTransition', state, event, message: expect.any(String) },
    });
  });

  it('CLOSED and UNSUBSCRIBE_UNKNOWN have no edge into ACTIVE or any open state', () => {
    for (const edge of transitionTable) {
      if (!closedStates.includes(edge.from)) continue;
      expect(openStates, edgeName(edge)).not.toContain(edge.to);
      expect(edge.to, edgeName(edge)).not.toBe('ACTIVE');
    }
    expect(transitionTable.filter((edge) => edge.from === 'CLOSED')).toEqual([]);
  });

  it('no path in the table leads from CLOSED or UNSUBSCRIBE_UNKNOWN back to ACTIVE or any open state', () => {
    for (const start of closedStates) {
      const reachable = reachableFrom(start);
      expect(reachable.has('ACTIVE'), `${start} reaches ACTIVE`).toBe(false);
      for (const open of openStates) expect(reachable.has(open), `${start} reaches ${open}`).toBe(false);
      expect([...reachable].every((state) => closedStates.includes(state))).toBe(true);
    }
    // Once closing began, the only way out is a close.
    const fromUnsubscribing = reachableFrom('UNSUBSCRIBING');
    expect(fromUnsubscribing).toEqual(new Set(['UNSUBSCRIBING', 'CLOSED', 'UNSUBSCRIBE_UNKNOWN']));
  });
});
