/** The reference client (reducer.ts): responses to the requests it sent. */
import { acceptNotFound, acceptResourceVersion, closeSubscription, isLive, issueRead, judgeInDraft, move, writeAfterClose } from './fence.js';
import { learnRevocation, permissionDeniedCode } from './authorization.js';
import { checkRequestId, interpretRead, isObject } from './protocol.js';
import { isEra2026 } from './era.js';
import { endListenWatch, onAbandonedAnswer } from './listen.js';
import { narrowLeaseToTtl } from './ttl.js';
import { onListPage } from './scan.js';
import { Draft, type InflightRequest } from './state.js';
import type { ResponseOutcome } from './types.js';
import { subscribeFailed, subscriptionStarted } from './reducer-sessions.js';

// -- responses ---------------------------------------------------------------------------------

/** `outcome` is a `{type: 'result' | 'error'}` envelope (checkInput); its payload is the server's. */
export function onResponse(d: Draft, sessionGeneration: number, rawRequestId: unknown, outcome: ResponseOutcome): void {
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
  d.setAnsweredAt(request.uri, d.nowMs);
  settleReads(d, request.uri);
  if (read.type === 'rejected' || (read.type === 'failed' && read.code !== permissionDeniedCode)) retrySoon(d, request.uri, request.readOrdinal);
}

/**
 * A read brought nothing to take (an error, or an answer broken by construction): what it was sent for (a pulse, a
 * reconciliation) is still unread. With older reads still on their way it was the newest: the URI is dirty, and the
 * follow-up read goes when they settle (a newer read on its way answers it instead). With none, the next
 * reconciliation read comes readHedgeMs from now instead of a period later: a server failing every read gets one
 * read per readHedgeMs per resource.
 */
function retrySoon(d: Draft, uri: string, readOrdinal: number): void {
  const sub = d.subscription(uri);
  if (sub === undefined || !isLive(sub.state)) return;
  const tracking = d.uriState(uri);
  if (tracking.inFlight > 0) {
    if (readOrdinal === sub.lastIssuedOrdinal && !tracking.dirty) d.setReads(uri, tracking.inFlight, true);
    return;
  }
  const atMs = d.nowMs + d.config.readHedgeMs;
  if (atMs < d.timerDeadline('reconcile', uri)) d.armTimer('reconcile', uri, atMs);
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

/** A subscribe or unsubscribe answer whose result is not an object is no acknowledgement: rejected, whatever it answers. */
function brokenAck(d: Draft, method: string, outcome: ResponseOutcome): boolean {
  if (outcome.type !== 'result' || isObject(outcome.result)) return false;
  d.emit({ type: 'ProtocolRejected', rejection: { kind: 'MalformedResponse', detail: `${method} result must be an object` } });
  return true;
}

function onSubscribeResponse(d: Draft, request: InflightRequest, outcome: ResponseOutcome): void {
  const broken = brokenAck(d, 'resources/subscribe', outcome);
  const sub = d.subscription(request.uri);
  if (sub === undefined || sub.subscriptionGeneration !== request.subscriptionGeneration || sub.state !== 'SUBSCRIBING') {
    return;
  }
  if (outcome.type === 'error' || broken) {
    subscribeFailed(d, request.uri);
    return;
  }
  subscriptionStarted(d, request.uri, false);
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

function onUnsubscribeResponse(d: Draft, request: InflightRequest, outcome: ResponseOutcome): void {
  const broken = brokenAck(d, 'resources/unsubscribe', outcome);
  // An ACK of any generation's unsubscribe: the server holds no subscription of the URI from before it.
  if (outcome.type === 'result' && !broken) d.setUnsubscribeOwed(request.uri, false);
  const sub = d.subscription(request.uri);
  if (sub === undefined || sub.subscriptionGeneration !== request.subscriptionGeneration) return;
  if (sub.state !== 'UNSUBSCRIBING' && sub.state !== 'UNSUBSCRIBE_UNKNOWN') return;
  // An error, or an answer that is no ACK: stays closing; the timer retries.
  if (outcome.type === 'error' || broken) return;
  closeSubscription(d, request.uri, 'ACKED');
}
