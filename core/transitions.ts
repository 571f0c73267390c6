/**
 * The subscription state machine (SPEC §3.2) as one table of data.
 *
 * Rules the table encodes:
 * - The ordinal fence: only READ_PENDING / TOMBSTONE_PENDING can take `read_accepted` or
 *   `not_found_accepted`; whether a response passes is decided by `acceptResourceVersion` (fence.ts).
 * - The close fence: once `unsubscribe_begun` moved a subscription to UNSUBSCRIBING, nothing leads back
 *   to ACTIVE. UNSUBSCRIBING ends in CLOSED (ACK, or the session ended and the server forgot it) or in
 *   UNSUBSCRIBE_UNKNOWN (ACK lost), which again only ends in CLOSED. A new subscription to the same URI
 *   is a new record with a new subscriptionGeneration.
 * - Sessions: losing the session while a read's or subscribe's identity is open moves the subscription
 *   to RECONCILIATION_REQUIRED; the next session re-subscribes (`resubscribe`) with a new generation.
 * - Capabilities: without `subscribe`, a wanted resource goes straight to ACTIVE in polling mode.
 * - Crash recovery is a lost session: `recoverStep` moves every subscription whose server state is
 *   unknowable along its `session_lost` edge (VERSION_ACCEPTED included, though a ledger written by
 *   `step` never holds it: a step always settles an accept).
 *
 * Every (state, event) pair not listed here is illegal and reported as a typed `IllegalTransition`; every
 * state change of the core goes through `move` (fence.ts), which looks the edge up here and emits
 * `Transitioned`.
 */
import { subscriptionStates, transitionEvents, type SubscriptionState, type TransitionEvent } from './types.js';

export { subscriptionStates, transitionEvents };

export interface TransitionEdge {
  from: SubscriptionState;
  event: TransitionEvent;
  to: SubscriptionState;
  why: string;
}

export const transitionTable: readonly TransitionEdge[] = [
  { from: 'DISCOVERED', event: 'subscribe_sent', to: 'SUBSCRIBING', why: 'connected with subscribe capability' },
  { from: 'DISCOVERED', event: 'poll_started', to: 'ACTIVE', why: 'connected without subscribe capability: jittered polling' },
  { from: 'DISCOVERED', event: 'unsubscribe_begun', to: 'CLOSED', why: 'never subscribed on a server: nothing to undo' },
  { from: 'SUBSCRIBING', event: 'subscribe_acked', to: 'ACTIVE', why: 'server confirmed the subscription' },
  { from: 'SUBSCRIBING', event: 'subscribe_failed', to: 'RECONCILIATION_REQUIRED', why: 'subscribe errored: retry later' },
  { from: 'SUBSCRIBING', event: 'session_lost', to: 'RECONCILIATION_REQUIRED', why: 'subscribe outcome unknown' },
  { from: 'SUBSCRIBING', event: 'unsubscribe_begun', to: 'UNSUBSCRIBING', why: 'closed before the subscribe ACK' },
  { from: 'ACTIVE', event: 'update_seen', to: 'UPDATE_SEEN', why: 'updated pulse: debounce before reading' },
  { from: 'ACTIVE', event: 'read_issued', to: 'READ_PENDING', why: 'initial, reconciliation or poll read' },
  { from: 'ACTIVE', event: 'unsubscribe_begun', to: 'UNSUBSCRIBING', why: 'close fence frozen at lastIssuedOrdinal' },
  { from: 'ACTIVE', event: 'session_lost', to: 'RECONCILIATION_REQUIRED', why: 'server forgot the subscription' },
  { from: 'UPDATE_SEEN', event: 'read_issued', to: 'READ_PENDING', why: 'debounce elapsed: one read for all pulses' },
  { from: 'UPDATE_SEEN', event: 'unsubscribe_begun', to: 'UNSUBSCRIBING', why: 'close fence frozen at lastIssuedOrdinal' },
  { from: 'UPDATE_SEEN', event: 'session_lost', to: 'RECONCILIATION_REQUIRED', why: 'server forgot the subscription' },
  { from: 'READ_PENDING', event: 'read_issued', to: 'READ_PENDING', why: 'another read while one is in flight' },
  { from: 'READ_PENDING', event: 'read_accepted', to: 'VERSION_ACCEPTED', why: 'readOrdinal > lastAcceptedOrdinal' },
  { from: 'READ_PENDING', event: 'not_found_accepted', to: 'TOMBSTONE_PENDING', why: 'not-found passed the ordinal fence' },
  { from: 'READ_PENDING', event: 'read_settled', to: 'ACTIVE', why: 'last read settled stale or failed' },
  { from: 'READ_PENDING', event: 'unsubscribe_begun', to: 'UNSUBSCRIBING', why: 'reads in flight will only be audited' },
  { from: 'READ_PENDING', event: 'session_lost', to: 'RECONCILIATION_REQUIRED', why: 'read identity unknown' },
  { from: 'VERSION_ACCEPTED', event: 'read_settled', to: 'ACTIVE', why: 'nothing in flight, nothing dirty' },
  { from: 'VERSION_ACCEPTED', event: 'read_issued', to: 'READ_PENDING', why: 'dirty: one coalesced follow-up read' },
  { from: 'VERSION_ACCEPTED', event: 'reads_outstanding', to: 'READ_PENDING', why: 'older reads still in flight' },
  { from: 'VERSION_ACCEPTED', event: 'session_lost', to: 'RECONCILIATION_REQUIRED', why: 'recovered from a ledger written mid-accept' },
  { from: 'TOMBSTONE_PENDING', event: 'update_seen', to: 'UPDATE_SEEN', why: 'updated pulse: it may have reappeared' },
  { from: 'TOMBSTONE_PENDING', event: 'read_issued', to: 'READ_PENDING', why: 'tombstone check read' },
  { from: 'TOMBSTONE_PENDING', event: 'read_accepted', to: 'VERSION_ACCEPTED', why: 'a newer read found it again' },
  { from: 'TOMBSTONE_PENDING', event: 'unsubscribe_begun', to: 'UNSUBSCRIBING', why: 'close fence frozen' },
  { from: 'TOMBSTONE_PENDING', event: 'session_lost', to: 'RECONCILIATION_REQUIRED', why: 'server forgot the subscription' },
  { from: 'UNSUBSCRIBING', event: 'unsubscribe_acked', to: 'CLOSED', why: 'server confirmed: future notifications stop' },
  { from: 'UNSUBSCRIBING', event: 'unsubscribe_timed_out', to: 'UNSUBSCRIBE_UNKNOWN', why: 'ACK lost: locally silent' },
  { from: 'UNSUBSCRIBING', event: 'session_lost', to: 'CLOSED', why: 'the session that held it ended' },
  { from: 'UNSUBSCRIBE_UNKNOWN', event: 'unsubscribe_acked', to: 'CLOSED', why: 'a retried unsubscribe was confirmed' },
  { from: 'UNSUBSCRIBE_UNKNOWN', event: 'session_lost', to: 'CLOSED', why: 'the session that held it ended' },
  { from: 'RECONCILIATION_REQUIRED', event: 'resubscribe', to: 'SUBSCRIBING', why: 'new session: subscribe again' },
  { from: 'RECONCILIATION_REQUIRED', event: 'poll_started', to: 'ACTIVE', why: 'new session without subscribe: poll' },
  { from: 'RECONCILIATION_REQUIRED', event: 'unsubscribe_begun', to: 'CLOSED', why: 'no live server subscription' },
  { from: 'RECONCILIATION_REQUIRED', event: 'unsubscribe_owed', to: 'UNSUBSCRIBING', why: "an older generation's unsubscribe was never acknowledged: the server may still hold it" },
];

export type TransitionResult =
  | { ok: true; to: SubscriptionState; edgeIndex: number }
  | { ok: false; error: IllegalTransition };

export interface IllegalTransition {
  type: 'IllegalTransition';
  state: SubscriptionState;
  event: TransitionEvent;
  message: string;
}

const stateIndex = new Map<string, number>(subscriptionStates.map((state, index) => [state, index]));
const eventIndex = new Map<string, number>(transitionEvents.map((event, index) => [event, index]));
/**
 * Dense lookup: the (frozen, shared) result of every legal (state, event) at [state * events + event],
 * undefined where there is no edge. Built once, never mutated: a legal move allocates nothing.
 */
const edgeLookup: readonly (TransitionResult | undefined)[] = buildEdgeLookup();

function buildEdgeLookup(): (TransitionResult | undefined)[] {
  const lookup = new Array<TransitionResult | undefined>(subscriptionStates.length * transitionEvents.length).fill(undefined);
  transitionTable.forEach((edge, index) => {
    const slot = stateIndex.get(edge.from)! * transitionEvents.length + eventIndex.get(edge.event)!;
    if (lookup[slot] !== undefined) throw new Error(`duplicate transition ${edge.from} --${edge.event}->`);
    lookup[slot] = Object.freeze({ ok: true as const, to: edge.to, edgeIndex: index });
  });
  return lookup;
}

/** Looks up (state, event) in the table; anything not listed is a typed IllegalTransition. */
export function transition(state: SubscriptionState, event: TransitionEvent): TransitionResult {
  const s = stateIndex.get(state);
  const e = eventIndex.get(event);
  const found = s === undefined || e === undefined ? undefined : edgeLookup[s * transitionEvents.length + e];
  if (found === undefined) {
    return {
      ok: false,
      error: { type: 'IllegalTransition', state, event, message: `no transition from ${state} on ${event}` },
    };
  }
  return found;
}

/** Index of the edge (state, event) in `transitionTable`, or -1. */
export function edgeIndexOf(from: SubscriptionState, event: TransitionEvent): number {
  const result = transition(from, event);
  return result.ok ? result.edgeIndex : -1;
}

export function edgeName(edge: TransitionEdge): string {
  return `${edge.from} --${edge.event}--> ${edge.to}`;
}
