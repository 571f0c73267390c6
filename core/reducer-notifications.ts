/** The reference client (reducer.ts): server notifications (2025-11-25 and 2026-07-28). */
import { isLive, issueRead, move } from './fence.js';
import { interpretNotification, isObject } from './protocol.js';
import { isEra2026 } from './era.js';
import { cancelListen, endListenWatch, routeListenNotification } from './listen.js';
import { invalidateOnUpdated } from './ttl.js';
import { pulseInWindow, serverDuplicates } from './duplicates.js';
import { onListChanged } from './scan.js';
import { Draft } from './state.js';
import { subscriptionStarted } from './reducer-sessions.js';

/** 2026-07-28 notifications: demultiplexed by subscription id (listen.ts), then acted on like 2025 ones. */
function onEra2026Notification(d: Draft, sessionGeneration: number, method: unknown, params: unknown): void {
  if (!d.v.connected || sessionGeneration !== d.v.sessionGeneration) {
    const uri = isObject(params) && typeof params.uri === 'string' ? params.uri.slice(0, 200) : '';
    d.emit({ type: 'AuditWritten', kind: 'OLD_SESSION_NOTIFICATION', uri, requestId: 0, detail: `notification from connection ${sessionGeneration}, current connection ${d.v.connected ? d.v.sessionGeneration : 'none'}` });
    return;
  }
  const route = routeListenNotification(d, method, params);
  if (route.type === 'updated') {
    invalidateOnUpdated(d, route.uri);
    onUpdated(d, route.uri);
  } else if (route.type === 'list-changed') onListChanged(d);
  else if (route.type === 'ended') endListenWatch(d, route.uri);
  else if (route.type === 'acked') {
    d.disarmTimer('resubscribe', route.uri);
    if (!route.watched) cancelListen(d, route.uri);
    subscriptionStarted(d, route.uri, !route.watched);
  }
}

// -- notifications ----------------------------------------------------------------------------

export function onNotification(d: Draft, sessionGeneration: number, method: unknown, params: unknown): void {
  if (isEra2026(d)) {
    onEra2026Notification(d, sessionGeneration, method, params);
    return;
  }
  const notification = interpretNotification(method, params);
  if (notification.type === 'rejected') {
    d.emit({ type: 'ProtocolRejected', rejection: notification.rejection });
    return;
  }
  if (!d.v.connected || sessionGeneration !== d.v.sessionGeneration) {
    d.emit({
      type: 'AuditWritten',
      kind: 'OLD_SESSION_NOTIFICATION',
      uri: notification.type === 'updated' ? notification.uri : '',
      requestId: 0,
      detail: `notification from session ${sessionGeneration}, current session ${d.v.connected ? d.v.sessionGeneration : 'none'}`,
    });
    return;
  }
  if (notification.type === 'list-changed') {
    onListChanged(d);
    return;
  }
  onUpdated(d, notification.uri);
}

/** An `updated` for a URI (2026: already demultiplexed to its live listen): debounce, coalesce, hedge. */
function onUpdated(d: Draft, uri: string): void {
  const sub = d.subscription(uri);
  if (sub === undefined || !isLive(sub.state)) {
    d.emit({ type: 'AuditWritten', kind: 'UNSUBSCRIBED_NOTIFICATION', uri, requestId: 0, detail: `no open subscription (${sub?.state ?? 'none'})` });
    return;
  }
  const tracking = d.uriState(uri);
  // Something happened to it: evidence gathered for confirming its deletion is void.
  if (tracking.confirmAfterOrdinal >= 0) d.setConfirmAfter(uri, -1);
  switch (sub.state) {
    case 'ACTIVE':
      if (!coalescedIntoLeadingRead(d, uri)) leadingRead(d, uri);
      break;
    case 'READ_PENDING':
      if (coalescedIntoLeadingRead(d, uri)) break;
      if (!tracking.dirty) {
        d.setReads(uri, tracking.inFlight, true);
        d.armTimer('hedge', uri, d.nowMs + d.config.readHedgeMs);
      } else armHedgeIfNone(d, uri);
      break;
    case 'TOMBSTONE_PENDING':
      if (tracking.inFlight > 0) {
        if (!tracking.dirty) d.setReads(uri, tracking.inFlight, true);
        armHedgeIfNone(d, uri); // a tombstone check on its way, say: hedged as in READ_PENDING
      } else openDebounce(d, uri, tracking.inFlight);
      // (none on its way: a debounce window opens, UPDATE_SEEN, whose end reads)
      break;
    case 'UPDATE_SEEN': {
      // Already coalescing: extend the window (duplicates arrive spread out), up to debounceMsMax.
      const deadlineMs = Math.min(d.nowMs + d.config.debounceMs, tracking.pulseAtMs + d.config.debounceMsMax);
      if (deadlineMs > d.timerDeadline('debounce', uri)) d.armTimer('debounce', uri, deadlineMs);
      break;
    }
    default:
      // SUBSCRIBING: the initial read after the ACK covers it.
      break;
  }
}

/**
 * Leading edge: the first pulse is read at once (freshest), and the read opens a window of debounceMs
 * (the 'debounce' timer) in which further pulses, duplicates spread out by the network, are coalesced into
 * that read instead of each costing one, up to the read's pulse credits (duplicates.ts); the pulse beyond
 * them is read the same way. A change hidden by the window is still bounded by reconciliation and lease
 * revalidation (the published staleness bound).
 */
function leadingRead(d: Draft, uri: string): void {
  if (issueRead(d, uri, 'notification') !== null) d.armTimer('debounce', uri, d.nowMs + d.config.debounceMs);
}

function coalescedIntoLeadingRead(d: Draft, uri: string): boolean {
  // 2026-07-28: never, because a read sent before the notification cannot prove the content is fresh.
  // 2025-11-25: only on a server seen to duplicate pulses (duplicates.ts); elsewhere every pulse is news. A pulse
  // beyond the window's pulse credits gets a read at once, which opens a window of its own.
  if (isEra2026(d) || !serverDuplicates(d) || d.timerDeadline('debounce', uri) <= d.nowMs) return false;
  if (pulseInWindow(d, uri) === 'read') leadingRead(d, uri);
  return true;
}

function openDebounce(d: Draft, uri: string, inFlight: number): void {
  move(d, uri, 'update_seen');
  d.setReads(uri, inFlight, false, d.nowMs);
  d.armTimer('debounce', uri, d.nowMs + d.config.debounceMs);
}

/**
 * News behind a read on its way, the URI already dirty: the hedge reads again if that read is slow. One armed is left as
 * it is (never moved later); a URI made dirty by a catalog (core/scan.ts reconcileTombstones) has none yet, and without
 * one the news would wait for the slow read however long it takes (scenario slow-server).
 */
function armHedgeIfNone(d: Draft, uri: string): void {
  if (d.timerDeadline('hedge', uri) === -1) d.armTimer('hedge', uri, d.nowMs + d.config.readHedgeMs);
}
