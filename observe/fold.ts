/**
 * The observation fold: from a client's steps (each input with the effects it produced) to the measurements
 * of the metric catalogue (instruments.ts) and running totals. Pure and deterministic: time comes only from
 * the inputs' `nowMs`, nothing is read from the world, so production (the fenced cache's `onStep`) and the
 * simulator (a run's steps) compute the same figures from the same code.
 *
 * It judges only what the effects say: a notification is "acted on" when its step moved a subscription,
 * sent a request, started a scan or armed a timer other than a debounce extension; "coalesced" otherwise.
 * A reconnect starts a resubscription round over the URIs wanted at that moment; the round is complete
 * when each was acked (or put in polling mode) in the new session, incomplete when `resubscriptionDeadlineMs`
 * passes first, interrupted when the session ends first (no fault of the client's).
 */
import { era2026 } from '../core/era.js';
import { cacheHintOf } from '../core/ttl.js';
import type { ClientEffect, ClientInput } from '../core/types.js';
import { ackFilterOf, classifyRefusal, classifyRejection, notificationFate, notificationKind, readReasonLabel } from './classify.js';
import { ObserveDraft, type Measurement, type ObserveState, type RoundSummary } from './state.js';

export interface FoldResult {
  state: ObserveState;
  measurements: Measurement[];
}

type Effect<T extends ClientEffect['type']> = Extract<ClientEffect, { type: T }>;
type Input<T extends ClientInput['type']> = Extract<ClientInput, { type: T }>;

const liveStates = new Set(['ACTIVE', 'UPDATE_SEEN', 'READ_PENDING', 'VERSION_ACCEPTED', 'TOMBSTONE_PENDING']);

export function foldStep(state: ObserveState, input: ClientInput, effects: readonly ClientEffect[]): FoldResult {
  return foldInto(new ObserveDraft(state, input.nowMs), input, effects);
}

/**
 * `foldStep` for a caller that gives `state` up (keeps no reference to it or to anything inside it): the same
 * code, changing `state` in place instead of copying what it touches. Same measurements, deep-equal state.
 */
export function foldStepOwned(state: ObserveState, input: ClientInput, effects: readonly ClientEffect[]): FoldResult {
  return foldInto(new ObserveDraft(state, input.nowMs, true), input, effects);
}

function foldInto(d: ObserveDraft, input: ClientInput, effects: readonly ClientEffect[]): FoldResult {
  closeOverdueRound(d);
  switch (input.type) {
    case 'Connected':
      onConnected(d, input);
      break;
    case 'Disconnected':
      if (d.s.connected && input.sessionGeneration === d.s.sessionGeneration) onDisconnected(d);
      break;
    case 'SubscribeCommanded':
      if (!rejected(effects)) d.edit('wanted')[uriOf(effects) ?? input.uri] = true;
      break;
    case 'UnsubscribeCommanded':
      onUnsubscribeCommanded(d, uriOf(effects) ?? input.uri);
      break;
    case 'NotificationArrived':
      if (input.method === 'notifications/subscriptions/acknowledged') onAck(d, effects);
      onNotification(d, input, effects);
      break;
    case 'ServeCommanded':
      onServeCommanded(d, input, effects);
      break;
    case 'AuthorizationChanged':
      if (input.allowed === false) onRevocationEvent(d, input, effects);
      else if (d.s.revoked[input.subject + ' ' + input.uri] !== undefined) delete d.edit('revoked')[input.subject + ' ' + input.uri];
      break;
    default:
      break;
  }
  const responding = input.type === 'ResponseArrived' ? responseOf(d, input) : null;
  for (const effect of effects) onEffect(d, effect, responding);
  return { state: d.s, measurements: d.measurements };
}

/** An effect the adapter observed outside any step (a result the SDK's schema refused). */
export function foldAdapterEffect(state: ObserveState, atMs: number, effect: ClientEffect): FoldResult {
  const d = new ObserveDraft(state, atMs);
  if (effect.type === 'ProtocolRejected') {
    d.measure('protocolRejections', 1, { 'fencesim.rejection.kind': classifyRejection(effect.rejection.kind), 'fencesim.rejection.source': 'adapter' });
    d.bucket().protocolRejections++;
  }
  return { state: d.s, measurements: d.measurements };
}

// -- inputs ---------------------------------------------------------------------------------------

function onConnected(d: ObserveDraft, input: Input<'Connected'>): void {
  const reconnect = d.s.everConnected;
  d.measure('connections', 1, { 'fencesim.connection.kind': reconnect ? 'reconnect' : 'first' });
  d.s.connected = true;
  d.s.everConnected = true;
  d.s.sessionGeneration = input.sessionGeneration;
  d.s.subscribeCapability = input.capabilities?.subscribe === true;
  d.s.era2026 = input.era === era2026;
  d.s.live = {};
  dropRequestsBefore(d, input.sessionGeneration);
  if (d.s.round !== null) closeRound(d, 'interrupted');
  if (!reconnect) return;
  const missing: Record<string, true> = {};
  const wanted = Object.keys(d.s.wanted);
  for (const uri of wanted) missing[uri] = true;
  d.s.round = { sessionGeneration: input.sessionGeneration, startedAtMs: d.nowMs, missing, wanted: wanted.length, resubscribed: 0 };
  d.measure('resubscriptionUris', wanted.length, { 'fencesim.resubscription.state': 'wanted' });
  if (wanted.length === 0) closeRound(d, 'complete');
}

function onDisconnected(d: ObserveDraft): void {
  d.measure('disconnections', 1);
  d.s.connected = false;
  d.s.live = {};
  dropRequestsBefore(d, d.s.sessionGeneration + 1);
  if (d.s.round !== null) closeRound(d, 'interrupted');
}

/** Requests of ended sessions get no answer the fence would take: a subscribe among them was lost. */
function dropRequestsBefore(d: ObserveDraft, sessionGeneration: number): void {
  let pending: ObserveState['pending'] | null = null;
  for (const id of Object.keys(d.s.pending)) {
    const request = d.s.pending[id]!;
    if (request.sessionGeneration >= sessionGeneration) continue;
    if (request.method === 'resources/subscribe') d.measure('subscribeOutcomes', 1, { 'fencesim.outcome': 'session_lost' });
    pending ??= d.edit('pending');
    delete pending[id];
  }
}

function onUnsubscribeCommanded(d: ObserveDraft, uri: string): void {
  if (d.s.wanted[uri] !== undefined) delete d.edit('wanted')[uri];
  const round = d.s.round;
  if (round === null || round.missing[uri] === undefined) return;
  const missing = { ...round.missing };
  delete missing[uri];
  d.s.round = { ...round, missing, wanted: round.wanted - 1 };
  if (Object.keys(missing).length === 0) closeRound(d, 'complete');
}

function onNotification(d: ObserveDraft, input: Input<'NotificationArrived'>, effects: readonly ClientEffect[]): void {
  const kind = notificationKind(input.method);
  const fate = notificationFate(effects);
  d.measure('notifications', 1, { 'fencesim.notification.kind': kind, 'fencesim.notification.fate': fate });
  if (kind !== 'updated' || (fate !== 'acted_on' && fate !== 'coalesced')) return;
  d.bucket().updatedNotifications++;
  // The change this notification announces is the notifications' own, even when a reconciliation read lands it.
  const uri = notifiedUri(input, effects);
  const accepted = uri === null ? undefined : d.s.accepted[uri];
  if (uri !== null && accepted !== undefined && accepted.notifiedSince === undefined) d.edit('accepted')[uri] = { ...accepted, notifiedSince: true };
}

/** The canonical URI a notification was taken for: from the effects it caused, else as the server spelled it. */
function notifiedUri(input: Input<'NotificationArrived'>, effects: readonly ClientEffect[]): string | null {
  for (const effect of effects) if ('uri' in effect && typeof effect.uri === 'string') return effect.uri;
  const params = input.params as { uri?: unknown } | null | undefined;
  return params !== null && typeof params === 'object' && typeof params.uri === 'string' ? params.uri : null;
}

function onRevocationEvent(d: ObserveDraft, input: Input<'AuthorizationChanged'>, effects: readonly ClientEffect[]): void {
  const learned = effects.find((effect): effect is Effect<'RevocationLearned'> => effect.type === 'RevocationLearned');
  const key = input.subject + ' ' + (learned?.uri ?? input.uri);
  if (learned === undefined && d.s.revoked[key] !== undefined) return; // already revoked and purged: nothing to do
  if (d.s.revocationsPending[key] === undefined) d.edit('revocationsPending')[key] = d.nowMs;
  // The feed may spell the URI differently from the core's canonical form: remember that spelling too.
  if (learned !== undefined && learned.uri !== input.uri) d.edit('revoked')[input.subject + ' ' + input.uri] = true;
}

/** 2026-07-28: an ack starts a watch (honored), or leaves its URI polled (narrowed), or finds no listen waiting (ignored). */
function onAck(d: ObserveDraft, effects: readonly ClientEffect[]): void {
  const filter = ackFilterOf(effects);
  d.measure('listenAcks', 1, { 'fencesim.ack.filter': filter });
  if (filter === 'narrowed') d.bucket().listenAcksNarrowed++;
}

/** 2026-07-28: a serve at or after the accepted entry's TTL from receipt (the core refuses it and re-fetches). */
function onServeCommanded(d: ObserveDraft, input: Input<'ServeCommanded'>, effects: readonly ClientEffect[]): void {
  const uri = servedUri(effects) ?? input.uri;
  const freshUntilMs = d.s.accepted[uri]?.freshUntilMs;
  if (freshUntilMs === undefined || d.nowMs < freshUntilMs) return;
  d.measure('ttlExpiredServes', 1, {}, uri);
  d.bucket().ttlExpiredServes++;
}

interface Responding {
  reason: string | null;
  /** 2026-07-28 results: receipt plus the effective `ttlMs`. */
  freshUntilMs: number | null;
}

/** The request a response answers (removed from the pending set); subscribe outcomes are counted here. */
function responseOf(d: ObserveDraft, input: Input<'ResponseArrived'>): Responding | null {
  const id = pendingKey(input.requestId);
  const request = d.s.pending[id];
  if (request === undefined) return null;
  delete d.edit('pending')[id];
  if (request.method === 'resources/subscribe') {
    const acked = input.outcome?.type === 'result';
    d.measure('subscribeOutcomes', 1, { 'fencesim.outcome': acked ? 'acked' : 'error' });
    const bucket = d.bucket();
    if (acked) bucket.subscribeAcks++;
    else bucket.subscribeErrors++;
  }
  const fresh = d.s.era2026 && input.outcome?.type === 'result' ? d.nowMs + cacheHintOf(input.outcome.result).ttlMs : null;
  return { reason: request.reason, freshUntilMs: fresh };
}

// -- effects --------------------------------------------------------------------------------------

function onEffect(d: ObserveDraft, effect: ClientEffect, responding: Responding | null): void {
  switch (effect.type) {
    case 'RequestSent':
      onRequestSent(d, effect);
      break;
    case 'Transitioned':
      onTransitioned(d, effect);
      break;
    case 'SubscriptionClosed':
      if (d.s.live[effect.uri] !== undefined) delete d.edit('live')[effect.uri];
      break;
    case 'VersionAccepted':
      onVersionAccepted(d, effect, responding);
      break;
    case 'TombstonePending':
      d.measure('fenceDecisions', 1, { 'fencesim.fence.decision': 'not_found' }, effect.uri);
      break;
    case 'StaleReceiptWritten':
      d.measure('fenceDecisions', 1, { 'fencesim.fence.decision': 'stale', 'fencesim.stale.reason': effect.reason.toLowerCase() }, effect.uri);
      break;
    case 'AuditWritten':
      if (effect.kind === 'STALE_AFTER_CLOSE') d.measure('fenceDecisions', 1, { 'fencesim.fence.decision': 'after_close' }, effect.uri);
      break;
    case 'ContentServed':
      onServed(d, effect.uri);
      break;
    case 'ContentRefused':
      d.measure('refusals', 1, { 'fencesim.refusal.reason': classifyRefusal(effect.reason) }, effect.uri);
      break;
    case 'RevocationLearned': {
      // Learned from the feed or from a permission error on a read: pending until its PurgeDone.
      const key = effect.subject + ' ' + effect.uri;
      if (d.s.revoked[key] !== undefined) break;
      d.edit('revoked')[key] = true;
      if (d.s.revocationsPending[key] === undefined) d.edit('revocationsPending')[key] = d.nowMs;
      break;
    }
    case 'PurgeDone':
      onPurged(d, effect);
      break;
    case 'ProtocolRejected':
      d.measure('protocolRejections', 1, { 'fencesim.rejection.kind': classifyRejection(effect.rejection.kind), 'fencesim.rejection.source': 'core' });
      d.bucket().protocolRejections++;
      break;
    default:
      break;
  }
}

function onRequestSent(d: ObserveDraft, effect: Effect<'RequestSent'>): void {
  d.edit('pending')[pendingKey(effect.requestId)] = {
    method: effect.method,
    uri: effect.uri,
    reason: effect.reason ?? null,
    sessionGeneration: effect.sessionGeneration,
  };
  if (effect.method === 'resources/subscribe') d.measure('subscribeAttempts', 1);
  else if (effect.method === 'subscriptions/listen') d.measure('listens', 1);
  else if (effect.method === 'resources/read') d.measure('reads', 1, { 'fencesim.read.reason': readReasonLabel(effect.reason) }, effect.uri);
}

function onTransitioned(d: ObserveDraft, effect: Effect<'Transitioned'>): void {
  if (liveStates.has(effect.to)) {
    if (d.s.live[effect.uri] === undefined) d.edit('live')[effect.uri] = true;
  } else if (d.s.live[effect.uri] !== undefined) {
    delete d.edit('live')[effect.uri];
  }
  if (effect.event !== 'subscribe_acked' && effect.event !== 'poll_started') return;
  const round = d.s.round;
  if (round === null || round.missing[effect.uri] === undefined || round.sessionGeneration !== d.s.sessionGeneration) return;
  const missing = { ...round.missing };
  delete missing[effect.uri];
  d.s.round = { ...round, missing, resubscribed: round.resubscribed + 1 };
  d.measure('resubscriptionUris', 1, { 'fencesim.resubscription.state': 'resubscribed' });
  if (Object.keys(missing).length === 0) closeRound(d, 'complete');
}

function onVersionAccepted(d: ObserveDraft, effect: Effect<'VersionAccepted'>, responding: Responding | null): void {
  const reason = responding?.reason ?? null;
  d.measure('fenceDecisions', 1, { 'fencesim.fence.decision': 'accepted' }, effect.uri);
  const previous = d.s.accepted[effect.uri];
  if ((reason === 'reconcile' || reason === 'poll') && previous !== undefined && previous.digest !== effect.digest && previous.notifiedSince === undefined) {
    d.measure('reconciliationChanges', 1, {}, effect.uri);
    d.bucket().reconciliationChanges++;
  }
  const freshUntilMs = responding?.freshUntilMs ?? null;
  d.edit('accepted')[effect.uri] = freshUntilMs === null ? { atMs: d.nowMs, digest: effect.digest } : { atMs: d.nowMs, digest: effect.digest, freshUntilMs };
}

function onServed(d: ObserveDraft, uri: string): void {
  d.measure('serves', 1, {}, uri);
  const bucket = d.bucket();
  bucket.serves++;
  const accepted = d.s.accepted[uri];
  if (accepted === undefined) return;
  const ageMs = Math.max(0, d.nowMs - accepted.atMs);
  d.measure('serveAge', ageMs, {}, uri);
  if (ageMs > bucket.serveAgeMsMax) bucket.serveAgeMsMax = ageMs;
}

function onPurged(d: ObserveDraft, effect: Effect<'PurgeDone'>): void {
  const key = effect.subject + ' ' + effect.uri;
  const sinceMs = d.s.revocationsPending[key];
  d.measure('revocationPurgeDuration', sinceMs === undefined ? 0 : Math.max(0, d.nowMs - sinceMs));
  if (sinceMs !== undefined) delete d.edit('revocationsPending')[key];
  if (d.s.accepted[effect.uri] !== undefined) delete d.edit('accepted')[effect.uri];
}

// -- rounds ---------------------------------------------------------------------------------------

function closeOverdueRound(d: ObserveDraft): void {
  const round = d.s.round;
  if (round !== null && d.nowMs - round.startedAtMs > d.s.config.resubscriptionDeadlineMs) closeRound(d, 'incomplete');
}

function closeRound(d: ObserveDraft, outcome: RoundSummary['outcome']): void {
  const round = d.s.round!;
  const durationMs = outcome === 'complete' ? d.nowMs - round.startedAtMs : null;
  d.measure('resubscriptionRounds', 1, { 'fencesim.outcome': outcome });
  if (durationMs !== null) d.measure('resubscriptionDuration', durationMs);
  d.s.lastRound = { sessionGeneration: round.sessionGeneration, outcome, wanted: round.wanted, resubscribed: round.resubscribed, durationMs, endedAtMs: d.nowMs };
  d.s.round = null;
}

// -- helpers --------------------------------------------------------------------------------------

/** Not an integer-like key: numeric keys would turn the record into a sparse array, slow to copy. */
function pendingKey(requestId: unknown): string {
  return 'r' + String(requestId);
}

function servedUri(effects: readonly ClientEffect[]): string | undefined {
  for (const effect of effects) if (effect.type === 'ContentServed' || effect.type === 'ContentRefused') return effect.uri;
  return undefined;
}

function rejected(effects: readonly ClientEffect[]): boolean {
  return effects.some((effect) => effect.type === 'ProtocolRejected');
}

/** The canonical URI a command's step acted on (the core canonicalizes; the raw input may differ). */
function uriOf(effects: readonly ClientEffect[]): string | undefined {
  for (const effect of effects) {
    if (effect.type === 'Transitioned' || effect.type === 'RequestSent' || effect.type === 'SubscriptionClosed') return effect.uri;
  }
  return undefined;
}
