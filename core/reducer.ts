/**
 * The reference client: one pure reducer `step(state, input) -> { state, effects }`.
 * Branching lives here; the fences are in fence.ts, validation in protocol.ts, the table in transitions.ts.
 */
import {
  acceptNotFound,
  acceptResourceVersion,
  beginUnsubscribe,
  closeSubscription,
  isLive,
  isOpen,
  issueRead,
  judgeInDraft,
  move,
  resourcesOffered,
  sendUnsubscribe,
  writeAfterClose,
} from './fence.js';
import { configuredStalenessBoundMs, forgetRevocation, learnGrant, learnRevocation, permissionDeniedCode, serve } from './authorization.js';
import { checkInput, normalizeCapabilities } from './input-check.js';
import { checkRequestId, checkUri, interpretNotification, interpretRead, isObject } from './protocol.js';
import { durableLedger, recoverFromLedger, recoverStep } from './recovery.js';
import { checkEra, isEra2026, isPolling, listenAckTimeoutMs, withEra } from './era.js';
import { armReadDeadlines, cancelListen, endListenWatch, listenOf, onAbandonedAnswer, onReadDeadline, routeListenNotification } from './listen.js';
import { invalidateOnUpdated, narrowLeaseToTtl, serveFresh } from './ttl.js';
import { abandonPass, decideCompletenessTask, onListChanged, onListPage, requestDiscovery } from './scan.js';
import { Draft, initialState, type CoreState, type InflightRequest, type Ledger } from './state.js';
import type { ClientInput, ClientUnderTest, ResponseOutcome, ServerCapabilities, StepResult, TimerId, WorkloadCommand } from './types.js';

export { durableLedger, recoverFromLedger };

/**
 * One step of the reference client. Malformed caller-filled fields (SPEC §11) give one typed rejection
 * and the same state; protocol payloads are judged where they are interpreted. Never throws on input.
 */
export function step(state: CoreState, input: ClientInput): StepResult<CoreState> {
  const rejection = checkInput(input);
  if (rejection !== null) return { state, effects: [{ type: 'ProtocolRejected', rejection }] };
  const eraRejection = input.type === 'Connected' ? checkEra(input.era) : null;
  if (eraRejection !== null) return { state, effects: [{ type: 'ProtocolRejected', rejection: eraRejection }] };
  const d = new Draft(state, input.nowMs, input.jitter >>> 0);
  if (refusedForCapability(d, input)) return { state: d.commit(), effects: d.effects };
  switch (input.type) {
    case 'Connected':
      onConnected(d, input.sessionGeneration, withEra(normalizeCapabilities(input.capabilities), input.era));
      break;
    case 'Disconnected':
      if (d.v.connected && input.sessionGeneration === d.v.sessionGeneration) sessionLost(d);
      break;
    case 'SubscribeCommanded':
      onSubscribeCommanded(d, input.uri, typeof input.subject === 'string' ? input.subject : 'default');
      break;
    case 'UnsubscribeCommanded':
      onUnsubscribeCommanded(d, input.uri);
      break;
    case 'ResponseArrived':
      onResponse(d, input.sessionGeneration, input.requestId, input.outcome);
      break;
    case 'NotificationArrived':
      onNotification(d, input.sessionGeneration, input.method, input.params);
      break;
    case 'TimerFired':
      onTimer(d, input.timer, input.deadlineMs);
      break;
    case 'DiscoverCommanded':
      requestDiscovery(d);
      break;
    case 'CompletenessTaskCommanded':
      decideCompletenessTask(d, textOf(input.task));
      break;
    case 'ServeCommanded':
      withUri(d, input.uri, 'serve command', (uri) => (isEra2026(d) ? serveFresh : serve)(d, uri, textOf(input.subject)));
      break;
    case 'AuthorizationChanged':
      withUri(d, input.uri, 'authorization feed', (uri) =>
        input.allowed === false ? learnRevocation(d, uri, textOf(input.subject), 'feed') : learnGrant(d, uri, textOf(input.subject)),
      );
      break;
  }
  if (isEra2026(d)) armReadDeadlines(d);
  return { state: d.commit(), effects: d.effects };
}

/** Connected to a server without the `resources` capability: commands that need a request are refused. */
function refusedForCapability(d: Draft, input: ClientInput): boolean {
  if (resourcesOffered(d)) return false;
  if (input.type !== 'SubscribeCommanded' && input.type !== 'DiscoverCommanded') return false;
  refuseForCapability(d, input.type);
  return true;
}

function refuseForCapability(d: Draft, what: WorkloadCommand['type'] | 'Connected'): void {
  d.emit({ type: 'ProtocolRejected', rejection: { kind: 'CapabilityMissing', detail: `${what}: the server did not declare the resources capability; no resources/* request is sent` } });
}

// -- sessions ----------------------------------------------------------------------------------

function onConnected(d: Draft, sessionGeneration: number, capabilities: ServerCapabilities): void {
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
  if (d.l.discovery.wanted) requestDiscovery(d);
}

/** The session ended: the server forgot its subscriptions and nothing in flight will be matched again. */
function sessionLost(d: Draft): void {
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

function startSubscription(d: Draft, uri: string, event: 'subscribe_sent' | 'resubscribe'): void {
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

function armReconcile(d: Draft, uri: string): void {
  const polling = isPolling(d, uri);
  const base = polling ? d.config.pollIntervalMs : d.config.reconcileIntervalMs;
  const spread = (polling ? d.config.pollJitterMsMax : d.config.reconcileJitterMsMax) + 1;
  d.armTimer('reconcile', uri, d.nowMs + base + (d.jitter % spread));
}

// -- workload commands ---------------------------------------------------------------------------

/** Workload and feed fields are strings; anything else is shown by its type, never coerced (which can throw). */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : `<${typeof value}>`;
}

function withUri(d: Draft, rawUri: unknown, where: string, body: (uri: string) => void): void {
  const checked = checkUri(rawUri, where);
  if (!checked.ok) d.emit({ type: 'ProtocolRejected', rejection: checked.rejection });
  else body(checked.uri);
}

function onSubscribeCommanded(d: Draft, rawUri: string, subject: string): void {
  const checked = checkUri(rawUri, 'subscribe command');
  if (!checked.ok) {
    d.emit({ type: 'ProtocolRejected', rejection: checked.rejection });
    return;
  }
  const uri = checked.uri;
  const previous = d.subscription(uri);
  if (previous !== undefined && isOpen(previous.state)) return;
  if (previous !== undefined && previous.subject !== subject) forgetRevocation(d, previous.subject, uri);
  d.putSubscription({
    schema: 'resourceSubscription.v1',
    subject,
    serverId: 'server',
    uri,
    sessionGeneration: d.v.sessionGeneration,
    capabilityReceipt: null,
    subscriptionGeneration: 0,
    startMs: d.nowMs,
    endMs: null,
    lastIssuedOrdinal: previous?.lastIssuedOrdinal ?? 0,
    lastAcceptedOrdinal: previous?.lastAcceptedOrdinal ?? 0,
    lastAcceptedDigest: previous?.lastAcceptedDigest ?? null,
    closeOrdinal: null,
    closeEpoch: null,
    unsubscribeAttempts: 0,
    state: 'DISCOVERED',
  });
  if (d.v.connected) startSubscription(d, uri, 'subscribe_sent');
}

function onUnsubscribeCommanded(d: Draft, rawUri: string): void {
  const checked = checkUri(rawUri, 'unsubscribe command');
  if (!checked.ok) {
    d.emit({ type: 'ProtocolRejected', rejection: checked.rejection });
    return;
  }
  // 2026-07-28: closing is local; the listen is cancelled and nothing is awaited (see sendUnsubscribe).
  if (isEra2026(d) && d.subscription(checked.uri) !== undefined && isOpen(d.subscription(checked.uri)!.state)) cancelListen(d, checked.uri);
  beginUnsubscribe(d, checked.uri);
}

// -- responses ---------------------------------------------------------------------------------

/** `outcome` is a `{type: 'result' | 'error'}` envelope (checkInput); its payload is the server's. */
function onResponse(d: Draft, sessionGeneration: number, rawRequestId: unknown, outcome: ResponseOutcome): void {
  const requestId = checkRequestId(rawRequestId);
  if (requestId === null) {
    d.emit({ type: 'ProtocolRejected', rejection: { kind: 'MalformedResponse', detail: 'response id must be a positive integer' } });
    return;
  }
  const request = d.inflight(requestId);
  if (request === undefined || request.sessionGeneration !== sessionGeneration) {
    d.emit({ type: 'AuditWritten', kind: 'UNKNOWN_RESPONSE', uri: request?.uri ?? '', requestId, detail: 'no request in flight with this id in this session' });
    return;
  }
  d.removeInflight(request);
  if (request.abandoned === true) onAbandonedAnswer(d, requestId, request, outcome);
  else if (request.kind === 'read') onReadResponse(d, requestId, request, outcome);
  else if (request.kind === 'subscribe') (isEra2026(d) ? onListenResponse : onSubscribeResponse)(d, request, outcome);
  else if (request.kind === 'unsubscribe') onUnsubscribeResponse(d, request, outcome);
  else onListPage(d, outcome);
}

function onReadResponse(d: Draft, requestId: number, request: InflightRequest, outcome: ResponseOutcome): void {
  const verdict = judgeInDraft(d, request);
  const sub = d.subscription(request.uri);
  if (verdict.type === 'after-close') {
    // The close fence blocks versions, never knowledge: a permission error is a revocation all the same.
    if (sub !== undefined && outcome.type === 'error' && outcome.code === permissionDeniedCode) learnRevocation(d, request.uri, sub.subject, 'read');
    writeAfterClose(d, requestId, request, verdict.closeOrdinal);
    return;
  }
  const tracking = d.uriState(request.uri);
  d.setReads(request.uri, tracking.inFlight - 1, tracking.dirty);
  const read = interpretRead(outcome, request.uri, d.config.contentCharsMax);
  if (read.type === 'content') {
    if (acceptResourceVersion(d, requestId, request, read, verdict) && isEra2026(d) && outcome.type === 'result') narrowLeaseToTtl(d, request, outcome.result);
  }
  else if (read.type === 'not-found') acceptNotFound(d, requestId, request, verdict);
  else if (read.type === 'rejected') d.emit({ type: 'ProtocolRejected', rejection: read.rejection });
  else if (read.code === permissionDeniedCode) learnRevocation(d, request.uri, sub!.subject, 'read');
  settleReads(d, request.uri);
}

/** After a read settles: one coalesced follow-up read if dirty, otherwise back to ACTIVE when idle. */
function settleReads(d: Draft, uri: string): void {
  const { inFlight, dirty } = d.uriState(uri);
  const state = d.subscription(uri)!.state;
  if (inFlight === 0) d.disarmTimer('hedge', uri);
  if (state === 'VERSION_ACCEPTED') {
    if (inFlight > 0) move(d, uri, 'reads_outstanding');
    else if (dirty) issueRead(d, uri, 'notification');
    else move(d, uri, 'read_settled');
  } else if (state === 'READ_PENDING') {
    if (inFlight > 0) return;
    if (dirty) issueRead(d, uri, 'notification');
    else move(d, uri, 'read_settled');
  } else if (state === 'TOMBSTONE_PENDING' && inFlight === 0 && dirty) {
    issueRead(d, uri, 'tombstone-check');
  }
}

function onSubscribeResponse(d: Draft, request: InflightRequest, outcome: ResponseOutcome): void {
  const sub = d.subscription(request.uri);
  if (sub === undefined || sub.subscriptionGeneration !== request.subscriptionGeneration || sub.state !== 'SUBSCRIBING') {
    return;
  }
  if (outcome.type === 'error' || !isObject(outcome.result)) {
    if (outcome.type === 'result') {
      d.emit({ type: 'ProtocolRejected', rejection: { kind: 'MalformedResponse', detail: 'resources/subscribe result must be an object' } });
    }
    subscribeFailed(d, request.uri);
    return;
  }
  subscriptionStarted(d, request.uri, false);
}

function subscribeFailed(d: Draft, uri: string): void {
  move(d, uri, 'subscribe_failed');
  d.armTimer('resubscribe', uri, d.nowMs + d.config.subscribeRetryMs);
}

/** The server confirmed the watch (2025 ACK, 2026 ack holding the URI), or (`polling`) an ack left it out. */
function subscriptionStarted(d: Draft, uri: string, polling: boolean): void {
  move(d, uri, 'subscribe_acked');
  d.emit({ type: 'StalenessBoundPublished', uri, boundMs: stalenessBoundMs(d, polling), mode: polling ? 'polling' : 'subscription' });
  // A narrowed ack shrinks the bound to the polling one: content confirmed under the longer bound is not served until the poll below confirms it.
  if (polling && d.uriState(uri).leaseUntilMs > d.nowMs) d.setLease(uri, d.nowMs);
  issueRead(d, uri, polling ? 'poll' : 'initial');
  armReconcile(d, uri);
}

/** 2026-07-28: a response to a listen ends it (an error: rejected; a result: graceful completion). */
function onListenResponse(d: Draft, request: InflightRequest, outcome: ResponseOutcome): void {
  const sub = d.subscription(request.uri);
  if (sub === undefined || sub.subscriptionGeneration !== request.subscriptionGeneration) return;
  if (sub.state === 'SUBSCRIBING') {
    d.disarmTimer('resubscribe', request.uri);
    subscribeFailed(d, request.uri); // rejected, or completed before its ack: never watched
  } else if (isLive(sub.state)) {
    endListenWatch(d, request.uri);
  }
  void outcome;
}

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

function onUnsubscribeResponse(d: Draft, request: InflightRequest, outcome: ResponseOutcome): void {
  const sub = d.subscription(request.uri);
  if (sub === undefined || sub.subscriptionGeneration !== request.subscriptionGeneration) return;
  if (sub.state !== 'UNSUBSCRIBING' && sub.state !== 'UNSUBSCRIBE_UNKNOWN') return;
  if (outcome.type === 'error') return; // stays closing; the timer retries
  if (!isObject(outcome.result)) {
    d.emit({ type: 'ProtocolRejected', rejection: { kind: 'MalformedResponse', detail: 'resources/unsubscribe result must be an object' } });
    return; // not an ACK: stays closing; the timer retries
  }
  closeSubscription(d, request.uri, 'ACKED');
}

// -- notifications ----------------------------------------------------------------------------

function onNotification(d: Draft, sessionGeneration: number, method: unknown, params: unknown): void {
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
      }
      break;
    case 'TOMBSTONE_PENDING':
      if (tracking.inFlight > 0) {
        if (!tracking.dirty) d.setReads(uri, tracking.inFlight, true);
      } else {
        openDebounce(d, uri, tracking.inFlight);
      }
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
 * (the 'debounce' timer, never extended) in which further pulses, duplicates spread out by the network,
 * are coalesced into that read instead of each costing one. A change hidden by the window is still
 * bounded by reconciliation and lease revalidation (the published staleness bound).
 */
function leadingRead(d: Draft, uri: string): void {
  if (issueRead(d, uri, 'notification') !== null) d.armTimer('debounce', uri, d.nowMs + d.config.debounceMs);
}

function coalescedIntoLeadingRead(d: Draft, uri: string): boolean {
  // 2026-07-28: never, because a read sent before the notification cannot prove the content is fresh.
  return !isEra2026(d) && d.timerDeadline('debounce', uri) > d.nowMs;
}

function openDebounce(d: Draft, uri: string, inFlight: number): void {
  move(d, uri, 'update_seen');
  d.setReads(uri, inFlight, false, d.nowMs);
  d.armTimer('debounce', uri, d.nowMs + d.config.debounceMs);
}

// -- timers ------------------------------------------------------------------------------------

function onTimer(d: Draft, timer: TimerId, deadlineMs: number): void {
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
      // The read in flight is slow and updates are pending: one more read; the fence keeps the newest.
      if (sub.state === 'READ_PENDING' && d.uriState(uri).dirty) issueRead(d, uri, 'notification');
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

export const referenceClient: ClientUnderTest<CoreState> = {
  name: 'reference',
  description: 'the fenced core: ordinal fence, close fence, coalesced + debounced reads, resubscribe, reconciliation timer',
  init: initialState,
  step,
  durable: durableLedger,
  recover: (config, durable) => recoverStep(config, durable as Ledger),
};
