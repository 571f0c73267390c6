/** The reference client (reducer.ts): timers firing. */
import { isOpen, issueRead, move, sendUnsubscribe } from './fence.js';
import { isEra2026, isPolling } from './era.js';
import { cancelListen, onReadDeadline } from './listen.js';
import { requestDiscovery } from './scan.js';
import { Draft } from './state.js';
import type { TimerId } from './types.js';
import { armReconcile, startSubscription, subscribeFailed } from './reducer-sessions.js';

// -- timers ------------------------------------------------------------------------------------

export function onTimer(d: Draft, timer: TimerId, deadlineMs: number): void {
  if (deadlineMs === -1 || d.timerDeadline(timer.kind, timer.uri) !== deadlineMs) return; // stale firing or disarmed (-1): a no-op
  d.disarmTimer(timer.kind, timer.uri);
  if (timer.kind === 'discover') {
    if (d.l.discovery.running === null) requestDiscovery(d);
    return;
  }
  const sub = d.subscription(timer.uri);
  if (sub === undefined) return;
  const uri = timer.uri;
  switch (timer.kind) {
    case 'debounce':
      if (sub.state === 'UPDATE_SEEN') issueRead(d, uri, 'notification');
      break;
    case 'hedge':
      if (isEra2026(d)) {
        onReadDeadline(d, uri);
        break;
      }
      if (sub.state === 'TOMBSTONE_PENDING' && d.uriState(uri).dirty) issueRead(d, uri, 'notification'); // -> READ_PENDING, clean
      if (sub.state === 'READ_PENDING' && d.uriState(uri).dirty) issueRead(d, uri, 'notification'); // slow read, news pending: one more
      break;
    case 'reconcile':
      if (!isOpen(sub.state) || !d.v.connected) return;
      if (sub.state === 'ACTIVE') {
        issueRead(d, uri, isPolling(d, uri) ? 'poll' : 'reconcile');
      } else if (sub.state === 'TOMBSTONE_PENDING' && d.uriState(uri).inFlight === 0) {
        issueRead(d, uri, 'tombstone-check');
      }
      armReconcile(d, uri);
      break;
    case 'unsubscribe':
      if (sub.state === 'UNSUBSCRIBING') move(d, uri, 'unsubscribe_timed_out');
      // Retried until the ACK comes or the session ends: a lost request leaves the server subscribed.
      if (d.subscription(uri)!.state === 'UNSUBSCRIBE_UNKNOWN') sendUnsubscribe(d, uri);
      break;
    case 'resubscribe':
      if (sub.state === 'SUBSCRIBING' && isEra2026(d)) {
        cancelListen(d, uri); // 2026-07-28: the ack never came
        subscribeFailed(d, uri);
      } else if (sub.state === 'RECONCILIATION_REQUIRED' && d.v.connected) startSubscription(d, uri, 'resubscribe');
      break;
    case 'lease':
      // Revalidate the authorization lease with a read (a permission error there is a revocation).
      if (sub.state === 'ACTIVE' && d.v.connected) issueRead(d, uri, 'authorization');
      break;
  }
}
