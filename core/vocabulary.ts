/**
 * The subscription state machine's vocabulary (states, events) and the timer kinds, declared once as
 * `as const` arrays with the types derived; the table itself lives in transitions.ts.
 */

/** The subscription states, declared once; the table itself lives in transitions.ts. */
export const subscriptionStates = [
  'DISCOVERED',
  'SUBSCRIBING',
  'ACTIVE',
  'UPDATE_SEEN',
  'READ_PENDING',
  'VERSION_ACCEPTED',
  'TOMBSTONE_PENDING',
  'UNSUBSCRIBING',
  'CLOSED',
  'UNSUBSCRIBE_UNKNOWN',
  'RECONCILIATION_REQUIRED',
] as const;
export type SubscriptionState = (typeof subscriptionStates)[number];

/** The events that move a subscription, declared once. */
export const transitionEvents = [
  'subscribe_sent',
  'subscribe_acked',
  'subscribe_failed',
  'poll_started',
  'update_seen',
  'read_issued',
  'read_accepted',
  'reads_outstanding',
  'read_settled',
  'not_found_accepted',
  'unsubscribe_begun',
  'unsubscribe_owed',
  'unsubscribe_acked',
  'unsubscribe_timed_out',
  'session_lost',
  'resubscribe',
] as const;
export type TransitionEvent = (typeof transitionEvents)[number];

/** The closed set of timer kinds; a timer is identified by its kind and URI (the empty URI: global). */
export const timerKinds = ['debounce', 'hedge', 'reconcile', 'unsubscribe', 'resubscribe', 'lease', 'discover'] as const;
export type TimerKind = (typeof timerKinds)[number];
export interface TimerId {
  kind: TimerKind;
  uri: string;
}

/** A timer's name, for hosts that keep armed timers in a map (a key only: the core never parses it back). */
export function timerName(timer: TimerId): string {
  return timer.kind + ':' + timer.uri;
}
