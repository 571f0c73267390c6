/** The reference client (reducer.ts): sessions, and the start and acknowledgement of a subscription. */
import { closeSubscription, isLive, issueRead, move } from './fence.js';
import { configuredStalenessBoundMs } from './authorization.js';
import { isEra2026, isPolling, listenAckTimeoutMs } from './era.js';
import { abandonPass, resumeDiscovery } from './scan.js';
import { Draft } from './state.js';
import type { ServerCapabilities, WorkloadCommand } from './types.js';

export function refuseForCapability(d: Draft, what: WorkloadCommand['type'] | 'Connected'): void {
  d.emit({ type: 'ProtocolRejected', rejection: { kind: 'CapabilityMissing', detail: `${what}: the server did not declare the resources capability; no resources/* request is sent` } });
}

// -- sessions ----------------------------------------------------------------------------------

export function onConnected(d: Draft, sessionGeneration: number, capabilities: ServerCapabilities): void {
  if (d.v.connected) {
    if (sessionGeneration === d.v.sessionGeneration) return;
    sessionLost(d);
  }
  const volatile = d.mutableVolatile();
  volatile.connected = true;
  volatile.sessionGeneration = sessionGeneration;
  volatile.capabilities = capabilities;
  const ledger = d.mutableLedger();
  if (sessionGeneration > ledger.sessionGeneration) ledger.sessionGeneration = sessionGeneration;
  if (!volatile.capabilities.resources) {
    refuseForCapability(d, 'Connected');
    return;
  }
  for (const uri in d.l.subscriptions) {
    const state = d.l.subscriptions[uri]!.state;
    if (state === 'DISCOVERED') startSubscription(d, uri, 'subscribe_sent');
    else if (state === 'RECONCILIATION_REQUIRED') startSubscription(d, uri, 'resubscribe');
  }
  resumeDiscovery(d);
}

/** The session ended: the server forgot its subscriptions and nothing in flight will be matched again. */
export function sessionLost(d: Draft): void {
  abandonPass(d, 'SESSION_LOST', 'the session ended; cursors are never reused across sessions');
  const volatile = d.mutableVolatile();
  volatile.connected = false;
  d.forgetSession();
  for (const uri in d.l.subscriptions) {
    const state = d.l.subscriptions[uri]!.state;
    if (state === 'UNSUBSCRIBING' || state === 'UNSUBSCRIBE_UNKNOWN') closeSubscription(d, uri, 'SESSION_ENDED');
    else if (isLive(state)) move(d, uri, 'session_lost');
  }
}

export function startSubscription(d: Draft, uri: string, event: 'subscribe_sent' | 'resubscribe'): void {
  const capabilities = d.v.capabilities!;
  const sub = d.mutableSubscription(uri);
  sub.subscriptionGeneration = d.allocateSubscriptionGeneration();
  sub.sessionGeneration = d.v.sessionGeneration;
  sub.capabilityReceipt = capabilities;
  sub.unsubscribeAttempts = 0;
  sub.closeOrdinal = null;
  sub.closeEpoch = null;
  if (!capabilities.subscribe) {
    move(d, uri, 'poll_started');
    d.emit({ type: 'StalenessBoundPublished', uri, boundMs: stalenessBoundMs(d, true), mode: 'polling' });
    issueRead(d, uri, 'poll');
    armReconcile(d, uri);
    return;
  }
  move(d, uri, event);
  if (!isEra2026(d)) {
    d.sendRequest('resources/subscribe', uri, 'subscribe', sub.subscriptionGeneration, 0, null);
    return;
  }
  // 2026-07-28: the listen stays in flight for the life of the watch; the resubscribe timer is its ack deadline.
  d.sendRequest('subscriptions/listen', uri, 'subscribe', sub.subscriptionGeneration, 0, null);
  d.armTimer('resubscribe', uri, d.nowMs + listenAckTimeoutMs(d.config));
}


/** Worst case between a change and the read that sees it, when every notification is lost. */
function stalenessBoundMs(d: Draft, polling: boolean): number {
  return configuredStalenessBoundMs(d.config, polling);
}

export function armReconcile(d: Draft, uri: string): void {
  const polling = isPolling(d, uri);
  const base = polling ? d.config.pollIntervalMs : d.config.reconcileIntervalMs;
  const spread = (polling ? d.config.pollJitterMsMax : d.config.reconcileJitterMsMax) + 1;
  d.armTimer('reconcile', uri, d.nowMs + base + (d.jitter % spread));
}

export function subscribeFailed(d: Draft, uri: string): void {
  move(d, uri, 'subscribe_failed');
  d.armTimer('resubscribe', uri, d.nowMs + d.config.subscribeRetryMs);
}

/** The server confirmed the watch (2025 ACK, 2026 ack holding the URI), or (`polling`) an ack left it out. */
export function subscriptionStarted(d: Draft, uri: string, polling: boolean): void {
  move(d, uri, 'subscribe_acked');
  d.setUnsubscribeOwed(uri, false); // the server holds it now, and this generation's close will undo it
  d.emit({ type: 'StalenessBoundPublished', uri, boundMs: stalenessBoundMs(d, polling), mode: polling ? 'polling' : 'subscription' });
  // A narrowed ack shrinks the bound to the polling one: content confirmed under the longer bound is not served until the poll below confirms it.
  if (polling && d.uriState(uri).leaseUntilMs > d.nowMs) d.setLease(uri, d.nowMs);
  issueRead(d, uri, polling ? 'poll' : 'initial');
  armReconcile(d, uri);
}
