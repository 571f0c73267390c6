/**
 * 2026-07-28 watches (SPEC §13): one `subscriptions/listen` per watched URI, demultiplexed by subscription id.
 *
 * Rules:
 * - The listen is a request that stays in flight for the life of the watch: its JSON-RPC id is the
 *   subscription id, and it is the `subscribe` request of the URI's current subscription generation.
 * - Start of watch is the ack (`notifications/subscriptions/acknowledged`) whose honored filter holds the
 *   URI: only then does the subscription move to ACTIVE, and the reducer re-reads the URI (changes before
 *   the ack are never reported). An ack that leaves the URI out cancels the listen: the URI is polled.
 * - A notification acts on watch state only when it carries the id of the URI's live, acknowledged listen.
 *   Before the ack, with a wrong or missing id, for a URI outside that listen's filter, or after the listen
 *   ended, it only leaves a LISTEN_MISMATCH audit (the re-read after the ack, the TTL and the reconciliation
 *   read cover what it might announce).
 * - End of watch: local close (the client cancels), graceful completion (a result for the listen id), a
 *   remote cancel or an error after the ack, or the connection closing. A listen that ended leaves its URI
 *   RECONCILIATION_REQUIRED, abandons its reads, and a new listen (new id) follows after `subscribeRetryMs`;
 *   a new connection re-listens at once (the server holds no listen state across connections).
 * - Reads have the core's own deadline (`readReissueMs`): a broken stream loses a read, so a read unanswered
 *   that long is abandoned and re-issued with a new id; a late answer to the abandoned id is unknown to the
 *   core and never reaches the fence.
 */
import { listenOf, readReissueMs, subscriptionIdOf } from './era.js';
import { learnRevocation, permissionDeniedCode } from './authorization.js';
import { isLive, issueRead, move, newerThanAccepted } from './fence.js';
import { checkUri, interpretNotification, isNotFound, isObject } from './protocol.js';
import type { Draft, InflightRequest } from './state.js';
import type { ResourceSubscriptionRecord, ResponseOutcome } from './types.js';

export type ListenRoute =
  | { type: 'none' }
  | { type: 'updated'; uri: string }
  | { type: 'list-changed' }
  | { type: 'acked'; uri: string; watched: boolean }
  | { type: 'ended'; uri: string };

const none: ListenRoute = { type: 'none' };

export { listenOf };

/** The client ends the URI's listen (local close, narrowed ack, ack timeout): `notifications/cancelled`. */
export function cancelListen(d: Draft, uri: string): void {
  const listen = listenOf(d, uri);
  if (listen === undefined) return;
  d.removeInflight(listen);
  d.emit({ type: 'ListenCancelled', requestId: listen.requestId, sessionGeneration: listen.sessionGeneration, uri });
}

function mismatch(d: Draft, uri: string, requestId: number, detail: string): ListenRoute {
  d.emit({ type: 'AuditWritten', kind: 'LISTEN_MISMATCH', uri, requestId, detail });
  return none;
}

/** Where a notification on a 2026-07-28 connection (of the current connection) goes. */
export function routeListenNotification(d: Draft, method: unknown, params: unknown): ListenRoute {
  if (method === 'notifications/subscriptions/acknowledged') return routeAck(d, params);
  if (method === 'notifications/cancelled') return routeRemoteCancel(d, params);
  const notification = interpretNotification(method, params);
  if (notification.type === 'rejected') {
    d.emit({ type: 'ProtocolRejected', rejection: notification.rejection });
    return none;
  }
  if (notification.type === 'list-changed') return notification;
  const uri = notification.uri;
  const id = subscriptionIdOf(params);
  if (id === null) return mismatch(d, uri, 0, 'updated without a subscription id');
  const listen = listenOf(d, uri);
  if (listen === undefined || listen.requestId !== id) {
    const other = d.inflight(id);
    const why = other?.kind === 'subscribe' ? `outside the filter of listen ${id}` : `unknown subscription id ${id}`;
    return mismatch(d, uri, id, `updated ${why}`);
  }
  const state = d.subscription(uri)!.state;
  if (state === 'SUBSCRIBING') return mismatch(d, uri, id, 'updated before the ack');
  if (!isLive(state)) return mismatch(d, uri, id, `updated after the watch ended (${state})`);
  return { type: 'updated', uri };
}

/**
 * An ack whose params break the schema is rejected whatever listen it names (as an updated with bad params is, before
 * its id is looked at): it is no ack, the ack deadline decides. A well-formed one acts only on a listen waiting for it.
 */
function routeAck(d: Draft, params: unknown): ListenRoute {
  const honored = honoredUris(params);
  if (honored === null) {
    d.emit({ type: 'ProtocolRejected', rejection: { kind: 'MalformedNotification', detail: 'subscriptions/acknowledged params.notifications must be an object' } });
    return none;
  }
  const id = subscriptionIdOf(params);
  const listen = id === null ? undefined : d.inflight(id);
  if (id === null || listen === undefined || listen.kind !== 'subscribe') {
    return mismatch(d, '', id ?? 0, `ack for no pending listen (id ${id ?? 'missing'})`);
  }
  const uri = listen.uri;
  const sub = d.subscription(uri);
  if (sub === undefined || sub.subscriptionGeneration !== listen.subscriptionGeneration || sub.state !== 'SUBSCRIBING') {
    return mismatch(d, uri, id, `ack for a listen that is not waiting for one (${sub?.state ?? 'none'})`);
  }
  const extra = honored.filter((candidate) => candidate !== uri);
  if (extra.length > 0) mismatch(d, uri, id, `ack wider than requested: ${extra.slice(0, 3).join(' ')}`);
  return { type: 'acked', uri, watched: honored.includes(uri) };
}

/** The canonical URIs of an ack's honored `resourceSubscriptions` (invalid entries dropped), or null if malformed. */
function honoredUris(params: unknown): string[] | null {
  if (!isObject(params) || !isObject(params.notifications)) return null;
  const raw = params.notifications.resourceSubscriptions;
  if (!Array.isArray(raw)) return [];
  const uris: string[] = [];
  for (const item of raw) {
    const checked = checkUri(item, 'ack resourceSubscriptions');
    if (checked.ok) uris.push(checked.uri);
  }
  return uris;
}

function routeRemoteCancel(d: Draft, params: unknown): ListenRoute {
  const id = isObject(params) ? params.requestId : undefined;
  const listen = typeof id === 'number' ? d.inflight(id) : undefined;
  if (listen === undefined || listen.kind !== 'subscribe') return none; // cancels of other requests: nothing to do
  return { type: 'ended', uri: listen.uri };
}

/**
 * The URI's listen ended without the client closing it (graceful result, remote cancel, error after the
 * ack): unwatched until a new listen is acknowledged; reads in flight are abandoned (the re-read after the
 * next ack replaces them); a new listen after `subscribeRetryMs`.
 */
export function endListenWatch(d: Draft, uri: string): void {
  const listen = listenOf(d, uri);
  if (listen !== undefined) d.removeInflight(listen);
  const sub = d.subscription(uri);
  if (sub === undefined || !isLive(sub.state) || sub.state === 'SUBSCRIBING') return;
  abandonReads(d, uri, Number.POSITIVE_INFINITY);
  d.setReads(uri, 0, false);
  d.disarmTimer('debounce', uri);
  d.disarmTimer('hedge', uri);
  d.disarmTimer('reconcile', uri);
  move(d, uri, 'session_lost');
  d.armTimer('resubscribe', uri, d.nowMs + d.config.subscribeRetryMs);
  armReadDeadline(d, uri);
}

/** Drops the current generation's reads sent at or before `sentAtMsMax`; returns how many. */
function abandonReads(d: Draft, uri: string, sentAtMsMax: number): number {
  const generation = d.subscription(uri)!.subscriptionGeneration;
  let abandoned = 0;
  for (const request of d.uriState(uri).requests) {
    if (request.kind !== 'read' || request.abandoned === true || request.subscriptionGeneration !== generation || request.sentAtMs > sentAtMsMax) continue;
    d.markAbandoned(request);
    abandoned += 1;
    d.emit({ type: 'AuditWritten', kind: 'READ_ABANDONED', uri, requestId: request.requestId, detail: `read ordinal ${request.readOrdinal} sent at ${request.sentAtMs} abandoned` });
  }
  return abandoned;
}

/**
 * An abandoned read is recognised this long after it was sent (its late answer is dropped with an audit);
 * after that its id is forgotten, so a read lost for good does not stay in flight until the connection
 * ends. A later answer to a forgotten id is an unknown response, which never passes the fence either.
 */
export function abandonedKeptMs(d: Draft): number {
  return 3 * readReissueMs(d.config);
}

/** A subscription in a state whose overdue reads the read deadline re-issues (the one rule armReadDeadline and onReadDeadline share). */
function reissuesReads(sub: ResourceSubscriptionRecord | undefined): sub is ResourceSubscriptionRecord {
  return sub !== undefined && (sub.state === 'READ_PENDING' || sub.state === 'TOMBSTONE_PENDING');
}

/** The read deadline of a URI fired: forget long-abandoned reads; abandon reads older than `readReissueMs`, re-issue with a new id. */
export function onReadDeadline(d: Draft, uri: string): void {
  forgetAbandoned(d, uri);
  const sub = d.subscription(uri);
  if (reissuesReads(sub) && d.v.connected) {
    const abandoned = abandonReads(d, uri, d.nowMs - readReissueMs(d.config));
    const tracking = d.uriState(uri);
    if (abandoned > 0) d.setReads(uri, Math.max(0, tracking.inFlight - abandoned), tracking.dirty);
    if (abandoned > 0 || tracking.dirty) issueRead(d, uri, sub.state === 'TOMBSTONE_PENDING' ? 'tombstone-check' : 'notification');
  }
  armReadDeadline(d, uri);
}

function forgetAbandoned(d: Draft, uri: string): void {
  const sentAtMsMax = d.nowMs - abandonedKeptMs(d);
  const requests = d.uriState(uri).requests;
  const forgotten = requests.filter((request) => request.kind === 'read' && request.abandoned === true && request.sentAtMs <= sentAtMsMax);
  for (const request of forgotten) {
    d.removeInflight(request);
    d.emit({ type: 'AuditWritten', kind: 'READ_ABANDONED', uri, requestId: request.requestId, detail: `abandoned read ordinal ${request.readOrdinal} sent at ${request.sentAtMs} forgotten` });
  }
}

/**
 * Arms the read deadline of a URI (unless armed as early or earlier): at its oldest current read's deadline, or
 * when its oldest abandoned read is forgotten. A current read counts only while onReadDeadline would re-issue it
 * (READ_PENDING or TOMBSTONE_PENDING): the reads left in flight by a closed subscription would otherwise re-arm
 * the timer every millisecond, each firing doing nothing, until their answers came or the connection ended.
 * A later deadline armed before (an abandoned read's, armed while ACTIVE) is brought forward: a read sent after
 * it, if lost, would otherwise wait for that one (notified_unread: era2026-broken-stream 42, an updated at 6,894 ms
 * read only at 12,039 ms).
 */
function armReadDeadline(d: Draft, uri: string): void {
  const armedMs = d.timerDeadline('hedge', uri);
  if (armedMs !== -1 && armedMs <= d.nowMs + 1) return;
  const sub = d.subscription(uri);
  const keptMs = abandonedKeptMs(d);
  const reissueMs = readReissueMs(d.config);
  // Current reads count only under a generation the deadline re-issues for (-1: none; generations are never negative).
  const reissuedGeneration = reissuesReads(sub) ? sub.subscriptionGeneration : -1;
  let deadlineMs = Number.POSITIVE_INFINITY;
  for (const request of d.uriState(uri).requests) {
    if (request.kind !== 'read') continue;
    const dueMs = request.abandoned === true ? request.sentAtMs + keptMs : request.subscriptionGeneration === reissuedGeneration ? request.sentAtMs + reissueMs : Number.POSITIVE_INFINITY;
    if (dueMs < deadlineMs) deadlineMs = dueMs;
  }
  if (deadlineMs === Number.POSITIVE_INFINITY) return;
  const atMs = Math.max(deadlineMs, d.nowMs + 1);
  if (armedMs === -1 || atMs < armedMs) d.armTimer('hedge', uri, atMs);
}

/**
 * After a 2026-07-28 step: every URI this step touched (sent a read for, settled one, moved) that has reads
 * in flight, current or abandoned, has its read deadline armed. An audit touches nothing: a step that only
 * audits (a notification with a wrong or missing listen id) arms no timer.
 */
export function armReadDeadlines(d: Draft): void {
  const count = d.effects.length;
  let previous = '';
  for (let index = 0; index < count; index++) {
    const effect = d.effects[index]!;
    if (effect.type === 'AuditWritten') continue;
    const uri = 'uri' in effect && typeof effect.uri === 'string' ? effect.uri : '';
    if (uri === '' || uri === previous) continue;
    previous = uri;
    if (d.subscription(uri) !== undefined) armReadDeadline(d, uri);
  }
}

/**
 * The late answer to an abandoned read (already removed from flight by the caller): never judged by the
 * fence, so no version passes; a permission error still teaches the revocation (knowledge is never fenced).
 */
export function onAbandonedAnswer(d: Draft, requestId: number, request: InflightRequest, outcome: ResponseOutcome): void {
  const sub = d.subscription(request.uri);
  if (sub !== undefined && outcome.type === 'error' && outcome.code === permissionDeniedCode) learnRevocation(d, request.uri, sub.subject, 'read');
  // A not-found is knowledge too: nothing cached is served until a read newer than it is accepted (its retry is in
  // flight) — unless what is accepted came from a later read than this one (the ordinal fence alone): then the
  // not-found is older news and changes nothing. The close and session fences do not apply: a read abandoned when
  // its listen ended still asked the server, and the server's not-found is the truth then.
  if (outcome.type === 'error' && isNotFound(outcome.code, outcome.message) && newerThanAccepted(sub, request) && d.uriState(request.uri).leaseUntilMs > d.nowMs) d.setLease(request.uri, d.nowMs);
  d.emit({ type: 'AuditWritten', kind: 'READ_ABANDONED', uri: request.uri, requestId, detail: `late answer to abandoned read ordinal ${request.readOrdinal}, dropped` });
}
