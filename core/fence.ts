/**
 * The read-ordinal fence and the close fence (SPEC §3.3, §3.4), as operations on a step's Draft.
 *
 * - `issueRead` allocates a strictly increasing readOrdinal per URI (durable, never reused); none once
 *   closing has begun.
 * - `judgeReadResponse` is the one response judge (close, session, ordinal, revocation, in that order);
 *   `acceptResourceVersion` is the only place a version is accepted, and only on its `accept` verdict.
 * - `beginUnsubscribe` freezes closeOrdinal = lastIssuedOrdinal and a close epoch; afterwards any response
 *   only leaves a STALE_AFTER_CLOSE audit.
 */
import { contentDigest } from './digest.js';
import { transition } from './transitions.js';
import { isRevoked, renewLease, writeDeletion, writeLineage } from './authorization.js';
import { learnFromNotificationRead, raceWithAnswer } from './duplicates.js';
import type { Draft, InflightRequest } from './state.js';
import type { ReadContent } from './protocol.js';
import type { ReadReason, ResourceSubscriptionRecord, StaleReason, SubscriptionState, TransitionEvent } from './types.js';

/** States in which the subscription is open (not closing or closed). */
export function isOpen(state: SubscriptionState): boolean {
  return state !== 'UNSUBSCRIBING' && state !== 'CLOSED' && state !== 'UNSUBSCRIBE_UNKNOWN';
}

/** States in which the server holds (or is taking) the subscription in the current session. */
export function isLive(state: SubscriptionState): boolean {
  return (
    state === 'ACTIVE' ||
    state === 'UPDATE_SEEN' ||
    state === 'READ_PENDING' ||
    state === 'TOMBSTONE_PENDING' ||
    state === 'SUBSCRIBING'
  );
}

/**
 * Moves a subscription along the table: the only place a subscription's state changes, and it always
 * emits `Transitioned`. The reducer only asks for legal moves, so an illegal one is a programmer error in
 * the core (thrown, never returned to a caller as protocol input).
 */
export function move(d: Draft, uri: string, event: TransitionEvent): ResourceSubscriptionRecord {
  const sub = d.mutableSubscription(uri);
  const result = transition(sub.state, event);
  if (!result.ok) throw new Error(`core bug: ${result.error.message} (uri ${uri})`);
  d.emit({ type: 'Transitioned', uri, from: sub.state, to: result.to, event });
  sub.state = result.to;
  return sub;
}

/** The server offers resources/* requests (or nothing is known yet: not connected). */
export function resourcesOffered(d: Draft): boolean {
  return d.v.capabilities === null || d.v.capabilities.resources;
}

export function issueRead(d: Draft, uri: string, reason: ReadReason): number | null {
  const current = d.subscription(uri);
  if (current === undefined || !isOpen(current.state) || !d.v.connected || !resourcesOffered(d)) return null;
  if (current.state === 'DISCOVERED' || current.state === 'SUBSCRIBING' || current.state === 'RECONCILIATION_REQUIRED') {
    return null;
  }
  if (isRevoked(d, current.subject, uri)) return null; // its subject lost access: reading is futile
  const sub = d.mutableSubscription(uri);
  sub.lastIssuedOrdinal += 1;
  const readOrdinal = sub.lastIssuedOrdinal;
  const requestId = d.sendRequest('resources/read', uri, 'read', sub.subscriptionGeneration, readOrdinal, reason, sub.subject);
  const tracking = d.uriState(uri);
  d.setReads(uri, tracking.inFlight + 1, false);
  move(d, uri, 'read_issued');
  return requestId;
}

/**
 * What the fences decide about a response to a read, in one order:
 * 1. close: the read's subscription is gone, closing or closed, or was replaced by a later generation
 *    (which only happens after the earlier one closed) -> only a STALE_AFTER_CLOSE audit;
 * 2. session: the read was sent on a session that is no longer current -> stale receipt SESSION;
 * 3. ordinal: readOrdinal <= lastAcceptedOrdinal -> stale receipt ORDINAL;
 * 4. revocation: the read's subject lost access -> stale receipt REVOKED.
 * Anything else may be accepted (content or not-found).
 */
export type ResponseVerdict =
  | { type: 'accept' }
  | { type: 'after-close'; closeOrdinal: number | null }
  | { type: 'stale'; reason: StaleReason; watermark: number };

/** The ordinal fence alone: the read was issued after the one whose answer is accepted (ordinals carry over generations). */
export function newerThanAccepted(sub: ResourceSubscriptionRecord | undefined, request: InflightRequest): boolean {
  return sub === undefined || request.readOrdinal > sub.lastAcceptedOrdinal;
}

/** The single response judge: a pure function of the ledger record, the request and the connection. */
export function judgeReadResponse(
  sub: ResourceSubscriptionRecord | undefined,
  request: InflightRequest,
  connection: { connected: boolean; sessionGeneration: number },
  revoked: boolean,
): ResponseVerdict {
  if (sub === undefined || !isOpen(sub.state) || request.subscriptionGeneration !== sub.subscriptionGeneration) {
    return { type: 'after-close', closeOrdinal: sub?.closeOrdinal ?? null };
  }
  if (!connection.connected || request.sessionGeneration !== connection.sessionGeneration) {
    return { type: 'stale', reason: 'SESSION', watermark: sub.lastAcceptedOrdinal };
  }
  if (!newerThanAccepted(sub, request)) return { type: 'stale', reason: 'ORDINAL', watermark: sub.lastAcceptedOrdinal };
  if (revoked) return { type: 'stale', reason: 'REVOKED', watermark: sub.lastAcceptedOrdinal };
  return { type: 'accept' };
}

/** The judge applied to a step: reads the record, the connection and the revocations from the Draft. */
export function judgeInDraft(d: Draft, request: InflightRequest): ResponseVerdict {
  const sub = d.subscription(request.uri);
  return judgeReadResponse(sub, request, d.v, sub !== undefined && isRevoked(d, sub.subject, request.uri));
}

/** A response the close fence blocked: versions never pass, only an audit is written. */
export function writeAfterClose(d: Draft, requestId: number, request: InflightRequest, closeOrdinal: number | null): void {
  d.emit({
    type: 'AuditWritten',
    kind: 'STALE_AFTER_CLOSE',
    uri: request.uri,
    requestId,
    detail: `read ordinal ${request.readOrdinal} answered after closing began (close ordinal ${closeOrdinal ?? 'n/a'})`,
  });
}

function writeStale(d: Draft, requestId: number, request: InflightRequest, reason: StaleReason, watermark: number): void {
  d.emit({ type: 'StaleReceiptWritten', uri: request.uri, requestId, readOrdinal: request.readOrdinal, watermark, reason });
}

/**
 * The only place a version is accepted, for a response the judge let through (`verdict`); a stale verdict
 * only writes its receipt. The caller (the reducer) has already applied the close fence.
 */
export function acceptResourceVersion(d: Draft, requestId: number, request: InflightRequest, content: ReadContent, verdict: ResponseVerdict): boolean {
  if (verdict.type !== 'accept') {
    if (verdict.type === 'stale') writeStale(d, requestId, request, verdict.reason, verdict.watermark);
    return false;
  }
  const digest = contentDigest(content.text, content.encoding);
  const sub = d.mutableSubscription(request.uri);
  if (request.reason === 'notification') learnFromNotificationRead(d, sub.lastAcceptedDigest === digest, raceWithAnswer(request.sentAtMs, d.uriState(request.uri).answeredAtMs));
  const watermarkBefore = sub.lastAcceptedOrdinal;
  sub.lastAcceptedOrdinal = request.readOrdinal;
  sub.lastAcceptedDigest = digest;
  if (sub.deletionConfirmed) sub.deletionConfirmed = false; // it exists again
  d.putVersion(request.uri, {
    schema: 'resourceVersion.v1',
    uri: request.uri,
    encoding: content.encoding,
    mimeType: content.mimeType,
    digest,
    readOrdinal: request.readOrdinal,
    subject: sub.subject,
    serverVersion: sub.serverId,
    localGeneration: sub.subscriptionGeneration,
    acceptedAtMs: d.nowMs,
  });
  d.emit({
    type: 'VersionAccepted',
    uri: request.uri,
    text: content.text,
    encoding: content.encoding,
    mimeType: content.mimeType,
    digest,
    readOrdinal: request.readOrdinal,
    watermarkBefore,
    subscriptionGeneration: sub.subscriptionGeneration,
    sessionGeneration: request.sessionGeneration,
  });
  writeLineage(d, request.uri, sub.subject, digest);
  renewLease(d, request.uri, request.sentAtMs);
  d.setConfirmAfter(request.uri, -1);
  move(d, request.uri, 'read_accepted');
  return true;
}

/**
 * A not-found passes the same judge; it only makes the resource TOMBSTONE_PENDING. Deletion is confirmed
 * only when a reconciled catalog lacked the URI and this not-found was read after that catalog.
 */
export function acceptNotFound(d: Draft, requestId: number, request: InflightRequest, verdict: ResponseVerdict): boolean {
  if (verdict.type !== 'accept') {
    if (verdict.type === 'stale') writeStale(d, requestId, request, verdict.reason, verdict.watermark);
    return false;
  }
  const sub = d.mutableSubscription(request.uri);
  sub.lastAcceptedOrdinal = request.readOrdinal;
  d.emit({ type: 'TombstonePending', uri: request.uri, readOrdinal: request.readOrdinal });
  // The server says it does not exist: nothing cached may be served until newer content is accepted (a
  // notification moving TOMBSTONE_PENDING on must not make the old content servable again).
  d.setLease(request.uri, -1);
  if (sub.state !== 'TOMBSTONE_PENDING') move(d, request.uri, 'not_found_accepted');
  // Evidence for the deletion (confirmed only by a later reconciled catalog, see scan.ts): the first not-found
  // read after the catalog that lacked it. A later one must not move it: a poll answered while the next catalog's
  // pass runs would otherwise void that catalog's confirmation, every time.
  const tracking = d.uriState(request.uri);
  const confirmAfter = tracking.confirmAfterOrdinal;
  if (confirmAfter >= 0 && request.readOrdinal > confirmAfter && tracking.notFoundEvidenceMs < 0) d.setConfirmAfter(request.uri, confirmAfter, d.nowMs);
  return true;
}

/** A reconciled catalog confirmed the deletion: once (the record remembers it until content is accepted again). */
export function confirmTombstone(d: Draft, uri: string): void {
  d.mutableSubscription(uri).deletionConfirmed = true;
  d.setConfirmAfter(uri, -1);
  d.emit({ type: 'TombstoneConfirmed', uri });
  writeDeletion(d, uri);
}

/** CAS open -> UNSUBSCRIBING with the close fence frozen; no read is allocated afterwards. */
export function beginUnsubscribe(d: Draft, uri: string): boolean {
  const current = d.subscription(uri);
  if (current === undefined || !isOpen(current.state)) return false;
  // An older generation's unsubscribe that was never acknowledged: the server may still hold the URI, so even a
  // close from RECONCILIATION_REQUIRED (where this generation holds nothing) sends an unsubscribe.
  const owed = current.state === 'RECONCILIATION_REQUIRED' && d.v.connected && d.uriState(uri).unsubscribeOwed;
  const sub = move(d, uri, owed ? 'unsubscribe_owed' : 'unsubscribe_begun');
  sub.closeOrdinal = sub.lastIssuedOrdinal;
  sub.closeEpoch = d.allocateCloseEpoch();
  d.disarmTimer('debounce', uri);
  d.disarmTimer('hedge', uri);
  d.disarmTimer('reconcile', uri);
  d.disarmTimer('resubscribe', uri);
  d.setReads(uri, 0, false);
  d.setConfirmAfter(uri, -1);
  // The table decides where `unsubscribe_begun` leads: CLOSED when no server subscription exists
  // (DISCOVERED, RECONCILIATION_REQUIRED), then there is nothing to send; UNSUBSCRIBING otherwise.
  if (sub.state === 'CLOSED') {
    sub.endMs = d.nowMs;
    d.emit({ type: 'SubscriptionClosed', uri, closeEpoch: sub.closeEpoch, closeOrdinal: sub.closeOrdinal, outcome: 'SESSION_ENDED' });
    return true;
  }
  sendUnsubscribe(d, uri);
  return true;
}

export function sendUnsubscribe(d: Draft, uri: string): void {
  const sub = d.mutableSubscription(uri);
  sub.unsubscribeAttempts += 1;
  if (d.v.capabilities !== null && (!d.v.capabilities.subscribe || d.v.capabilities.era === '2026-07-28')) {
    // Polling mode: there is no server-side subscription to undo. 2026-07-28: the listen was cancelled (local close).
    closeSubscription(d, uri, 'ACKED');
    return;
  }
  d.sendRequest('resources/unsubscribe', uri, 'unsubscribe', sub.subscriptionGeneration, 0, null);
  // After unsubscribeRetryMax quick retries, one per reconciliation period (never silent: the server may still hold it).
  const waitMs = sub.unsubscribeAttempts > d.config.unsubscribeRetryMax + 1 ? d.config.reconcileIntervalMs : d.config.unsubscribeTimeoutMs;
  d.armTimer('unsubscribe', uri, d.nowMs + waitMs);
}

export function closeSubscription(d: Draft, uri: string, outcome: 'ACKED' | 'SESSION_ENDED'): void {
  const sub = move(d, uri, outcome === 'ACKED' ? 'unsubscribe_acked' : 'session_lost');
  sub.endMs = d.nowMs;
  d.disarmTimer('unsubscribe', uri);
  d.emit({
    type: 'SubscriptionClosed',
    uri,
    closeEpoch: sub.closeEpoch ?? 0,
    closeOrdinal: sub.closeOrdinal ?? sub.lastIssuedOrdinal,
    outcome,
  });
}
