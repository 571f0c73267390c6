/**
 * How a naive client steps (scenarios/naive.ts builds the clients from flags): its state, one handler per
 * input, the read response with only the guards its flags name, and the single-scan listing.
 */
import { canonicalizeUri } from '../core/uri.js';
import { contentDigest } from '../core/digest.js';
import { checkRequestId, interpretNotification, interpretRead, isObject } from '../core/protocol.js';
import type { ClientConfig, ClientEffect, ClientInput, StepResult } from '../core/types.js';

export interface NaiveFlags {
  /** Cache keys are `decodeURIComponent(uri)`: `a%2Fb` and `a/b` collide. */
  decodeKeys: boolean;
  /** Read-ordinal fence: drop responses older than the last accepted one. */
  ordinalFence: boolean;
  /** Drop responses that arrive after unsubscribe began. */
  closeFence: boolean;
  /** Re-subscribe everything after a reconnect. */
  resubscribe: boolean;
  /** Ignore notifications from an older session. */
  sessionCheck: boolean;
  /** Periodic reconciliation read per subscription. */
  reconcile: boolean;
  /** Reads name the subscription's subject (so the server checks access). Default false. */
  subjects?: boolean;
  /** Record revocations (feed events, permission errors) with RevocationLearned, and keep serving. Default false. */
  learnRevocations?: boolean;
  /** A not-found skips the ordinal fence and confirms the deletion at once (no list reconciliation). Default false. */
  trustNotFound?: boolean;
  /** Discovery: list one pass and publish it as SNAPSHOT_PROVEN; accept completeness tasks on it. Default false. */
  singleScan?: boolean;
}

interface NaiveSubscription {
  uri: string;
  subject: string;
  open: boolean;
  lastIssuedOrdinal: number;
  lastAcceptedOrdinal: number;
}

interface NaiveRequest {
  key: string;
  uri: string;
  method: 'read' | 'subscribe' | 'unsubscribe' | 'list';
  readOrdinal: number;
}

export interface NaiveState {
  config: ClientConfig;
  connected: boolean;
  everConnected: boolean;
  session: number;
  nextRequestId: number;
  outboxSequence: number;
  subscriptions: Record<string, NaiveSubscription>;
  inflight: Record<string, NaiveRequest>;
  timers: Record<string, number>;
  /** Per key: digest of the content it would serve. */
  cache: Record<string, string>;
  /** Per key: the derived index entries of the cached version (what the outbox told the index). */
  derived: Record<string, string[]>;
  /** The running list pass (URIs so far), or null. */
  scan: string[] | null;
  scanPages: number;
  nextScanId: number;
  catalogPublished: boolean;
}

const scanPagesMax = 64;

function keyOf(uri: string, flags: NaiveFlags): string {
  if (flags.decodeKeys) {
    try {
      return decodeURIComponent(uri);
    } catch {
      return uri;
    }
  }
  const canonical = canonicalizeUri(uri);
  return canonical.ok ? canonical.uri : uri;
}

/** One step of a naive client: the state copied for it, the effects so far, the flags and the input. */
interface NaiveStep {
  state: NaiveState;
  effects: ClientEffect[];
  flags: NaiveFlags;
  input: ClientInput;
}

type NaiveInput<T extends ClientInput['type']> = Extract<ClientInput, { type: T }>;

/** One step of the naive client with `flags`. State is copied per step (these clients are small and not on the hot path). */
export function stepNaive(flags: NaiveFlags, previous: NaiveState, input: ClientInput): StepResult<NaiveState> {
  const state: NaiveState = {
    ...previous,
    subscriptions: { ...previous.subscriptions },
    inflight: { ...previous.inflight },
    timers: { ...previous.timers },
    cache: { ...previous.cache },
    derived: { ...previous.derived },
  };
  const naive: NaiveStep = { state, effects: [], flags, input };
  switch (input.type) {
    case 'Connected': onConnected(naive, input); break;
    case 'Disconnected':
      if (input.sessionGeneration === state.session) state.connected = false;
      break;
    case 'SubscribeCommanded': onSubscribeCommanded(naive, input); break;
    case 'UnsubscribeCommanded': onUnsubscribeCommanded(naive, input); break;
    case 'NotificationArrived': onNotificationArrived(naive, input); break;
    case 'ResponseArrived': onResponseArrived(naive, input); break;
    case 'TimerFired': onTimerFired(naive, input); break;
    case 'ServeCommanded': onServeCommanded(naive, input); break;
    case 'AuthorizationChanged':
      if (input.allowed === false && flags.learnRevocations === true) naive.effects.push({ type: 'RevocationLearned', uri: input.uri, subject: input.subject, source: 'feed' });
      break;
    case 'DiscoverCommanded': onDiscoverCommanded(naive); break;
    case 'CompletenessTaskCommanded': onCompletenessTaskCommanded(naive, input); break;
    default:
      break;
  }
  return { state, effects: naive.effects };
}

function send(naive: NaiveStep, method: NaiveRequest['method'], key: string, uri: string, readOrdinal: number, cursor?: string): void {
  const { state, effects } = naive;
  if (!state.connected) return;
  const requestId = state.nextRequestId++;
  state.inflight[requestId] = { key, uri, method, readOrdinal };
  const session = state.session;
  if (method === 'read') {
    const subject = naive.flags.subjects === true ? state.subscriptions[key]?.subject : undefined;
    effects.push(
      subject === undefined
        ? { type: 'RequestSent', requestId, sessionGeneration: session, method: 'resources/read', uri, reason: 'notification', readOrdinal }
        : { type: 'RequestSent', requestId, sessionGeneration: session, method: 'resources/read', uri, reason: 'notification', readOrdinal, subject },
    );
  } else if (method === 'list') {
    effects.push(
      cursor === undefined
        ? { type: 'RequestSent', requestId, sessionGeneration: session, method: 'resources/list', uri: '' }
        : { type: 'RequestSent', requestId, sessionGeneration: session, method: 'resources/list', uri: '', cursor },
    );
  } else {
    effects.push({ type: 'RequestSent', requestId, sessionGeneration: session, method: method === 'subscribe' ? 'resources/subscribe' : 'resources/unsubscribe', uri });
  }
}

function read(naive: NaiveStep, key: string, uri: string): void {
  const sub = naive.state.subscriptions[key];
  if (sub === undefined || !sub.open) return;
  const next = { ...sub, lastIssuedOrdinal: sub.lastIssuedOrdinal + 1 };
  naive.state.subscriptions[key] = next;
  send(naive, 'read', key, uri, next.lastIssuedOrdinal);
}

function armReconcile(naive: NaiveStep, key: string): void {
  const { state, input } = naive;
  if (!naive.flags.reconcile) return;
  const deadlineMs = input.nowMs + state.config.reconcileIntervalMs + (input.jitter % (state.config.reconcileJitterMsMax + 1));
  state.timers['reconcile:' + key] = deadlineMs;
  naive.effects.push({ type: 'TimerArmed', timer: { kind: 'reconcile', uri: key }, deadlineMs });
}

function onConnected(naive: NaiveStep, input: NaiveInput<'Connected'>): void {
  const state = naive.state;
  const first = !state.everConnected;
  state.connected = true;
  state.everConnected = true;
  state.session = input.sessionGeneration;
  state.scan = null;
  if (!first && !naive.flags.resubscribe) return;
  for (const key in state.subscriptions) {
    const sub = state.subscriptions[key]!;
    if (sub.open) {
      send(naive, 'subscribe', key, sub.uri, 0);
      read(naive, key, sub.uri);
    }
  }
}

function onSubscribeCommanded(naive: NaiveStep, input: NaiveInput<'SubscribeCommanded'>): void {
  const key = keyOf(input.uri, naive.flags);
  const existing = naive.state.subscriptions[key];
  if (existing === undefined || !existing.open) {
    naive.state.subscriptions[key] = {
      uri: input.uri,
      subject: input.subject ?? 'default',
      open: true,
      lastIssuedOrdinal: existing?.lastIssuedOrdinal ?? 0,
      lastAcceptedOrdinal: existing?.lastAcceptedOrdinal ?? 0,
    };
    armReconcile(naive, key);
  }
  send(naive, 'subscribe', key, input.uri, 0);
  read(naive, key, input.uri);
}

function onUnsubscribeCommanded(naive: NaiveStep, input: NaiveInput<'UnsubscribeCommanded'>): void {
  const key = keyOf(input.uri, naive.flags);
  const sub = naive.state.subscriptions[key];
  if (sub !== undefined && sub.open) {
    naive.state.subscriptions[key] = { ...sub, open: false };
    send(naive, 'unsubscribe', key, input.uri, 0);
  }
}

function onNotificationArrived(naive: NaiveStep, input: NaiveInput<'NotificationArrived'>): void {
  const flags = naive.flags;
  const notification = interpretNotification(input.method, input.params);
  if (notification.type !== 'updated') return;
  if (flags.sessionCheck && input.sessionGeneration !== naive.state.session) return;
  const rawUri = (input.params as { uri: string }).uri;
  const key = keyOf(rawUri, flags);
  if (naive.state.subscriptions[key]?.open) read(naive, key, flags.decodeKeys ? rawUri : key);
}

function onResponseArrived(naive: NaiveStep, input: NaiveInput<'ResponseArrived'>): void {
  const state = naive.state;
  const requestId = checkRequestId(input.requestId);
  const request = requestId === null ? undefined : state.inflight[requestId];
  if (request === undefined) return;
  delete state.inflight[requestId!];
  if (request.method === 'list') onListPage(state, input.outcome, naive.effects, (method, key, uri, readOrdinal, cursor) => send(naive, method, key, uri, readOrdinal, cursor), input.nowMs);
  if (request.method === 'read') onReadResponse(state, naive.flags, requestId!, request, input.outcome, naive.effects);
}

function onTimerFired(naive: NaiveStep, input: NaiveInput<'TimerFired'>): void {
  const state = naive.state;
  if (state.timers['reconcile:' + input.timer.uri] !== input.deadlineMs) return;
  delete state.timers['reconcile:' + input.timer.uri];
  const key = input.timer.uri;
  const sub = state.subscriptions[key];
  if (sub !== undefined && sub.open) {
    read(naive, key, sub.uri);
    armReconcile(naive, key);
  }
}

function onServeCommanded(naive: NaiveStep, input: NaiveInput<'ServeCommanded'>): void {
  const digest = naive.state.cache[keyOf(input.uri, naive.flags)];
  naive.effects.push(
    digest === undefined
      ? { type: 'ContentRefused', uri: input.uri, subject: input.subject, reason: 'nothing cached' }
      : { type: 'ContentServed', uri: input.uri, subject: input.subject, digest },
  );
}

function onDiscoverCommanded(naive: NaiveStep): void {
  const state = naive.state;
  if (naive.flags.singleScan === true && state.scan === null && state.connected) {
    state.scan = [];
    state.scanPages = 0;
    naive.effects.push({ type: 'ScanStarted', scanId: state.nextScanId, pass: 'SNAPSHOT' });
    send(naive, 'list', '', '', 0);
  }
}

function onCompletenessTaskCommanded(naive: NaiveStep, input: NaiveInput<'CompletenessTaskCommanded'>): void {
  const accepted = naive.flags.singleScan === true && naive.state.catalogPublished;
  naive.effects.push({
    type: 'CompletenessTaskDecided',
    task: input.task,
    accepted,
    catalogStatus: naive.state.catalogPublished ? 'SNAPSHOT_PROVEN' : 'NONE',
    reason: accepted ? 'a complete listing was published' : 'no catalog',
  });
}

/** A read's response: the guards this client has (close fence, ordinal fence), then accept or tombstone. */
function onReadResponse(
  state: NaiveState,
  flags: NaiveFlags,
  requestId: number,
  request: NaiveRequest,
  response: Extract<ClientInput, { type: 'ResponseArrived' }>['outcome'],
  effects: ClientEffect[],
): void {
  const sub = state.subscriptions[request.key];
  if (sub === undefined || (flags.closeFence && !sub.open)) return;
  const requested = canonicalizeUri(request.uri);
  const outcome = interpretRead(response, requested.ok ? requested.uri : request.uri, state.config.contentCharsMax);
  if (outcome.type === 'failed' && outcome.code === -32003) {
    if (flags.learnRevocations === true) effects.push({ type: 'RevocationLearned', uri: sub.uri, subject: sub.subject, source: 'read' });
    return;
  }
  const fenced = outcome.type !== 'not-found' || flags.trustNotFound !== true;
  if (fenced && flags.ordinalFence && request.readOrdinal <= sub.lastAcceptedOrdinal) {
    effects.push({ type: 'StaleReceiptWritten', uri: sub.uri, requestId, readOrdinal: request.readOrdinal, watermark: sub.lastAcceptedOrdinal, reason: 'ORDINAL' });
    return;
  }
  const watermarkBefore = sub.lastAcceptedOrdinal;
  if (outcome.type === 'content') {
    state.subscriptions[request.key] = { ...sub, lastAcceptedOrdinal: Math.max(sub.lastAcceptedOrdinal, request.readOrdinal) };
    const digest = contentDigest(outcome.text);
    state.cache[request.key] = digest;
    effects.push({ type: 'VersionAccepted', uri: sub.uri, text: outcome.text, encoding: outcome.encoding, mimeType: outcome.mimeType, digest, readOrdinal: request.readOrdinal, watermarkBefore, subscriptionGeneration: 0, sessionGeneration: state.session });
    // The lineage is kept as the declared configuration says (these clients' flaws are elsewhere).
    const entries: string[] = [];
    for (let index = 0; index < state.config.derivedEntriesPerVersion; index++) {
      entries.push(sub.uri + '#' + digest + '#' + index);
      effects.push({ type: 'DerivedEntryWritten', entryId: entries[index]!, uri: sub.uri, digest, subject: sub.subject });
    }
    effects.push({ type: 'OutboxEntryWritten', uri: sub.uri, sequence: ++state.outboxSequence, operation: 'upsert', digest, derivedEntries: entries, supersedes: state.derived[request.key] ?? [] });
    state.derived[request.key] = entries;
  } else if (outcome.type === 'not-found') {
    state.subscriptions[request.key] = { ...sub, lastAcceptedOrdinal: Math.max(sub.lastAcceptedOrdinal, request.readOrdinal) };
    effects.push({ type: 'TombstonePending', uri: sub.uri, readOrdinal: request.readOrdinal });
    if (flags.trustNotFound === true) {
      const deleted = state.derived[request.key] === undefined ? '' : (state.cache[request.key] ?? '');
      delete state.cache[request.key];
      effects.push({ type: 'TombstoneConfirmed', uri: sub.uri });
      effects.push({ type: 'OutboxEntryWritten', uri: sub.uri, sequence: ++state.outboxSequence, operation: 'delete', digest: deleted, derivedEntries: state.derived[request.key] ?? [], supersedes: [] });
      delete state.derived[request.key];
    }
  }
}

/** The single-scan strategy: follow nextCursor to the end and call whatever it saw a proven snapshot. */
function onListPage(
  state: NaiveState,
  outcome: Extract<ClientInput, { type: 'ResponseArrived' }>['outcome'],
  effects: ClientEffect[],
  send: (method: 'list', key: string, uri: string, readOrdinal: number, cursor?: string) => void,
  nowMs: number,
): void {
  const scan = state.scan;
  if (scan === null) return;
  const result = outcome.type === 'result' ? outcome.result : null;
  if (!isObject(result) || !Array.isArray(result.resources)) {
    effects.push({ type: 'ScanAbandoned', scanId: state.nextScanId++, reason: 'LIST_ERROR', detail: 'list request failed' });
    state.scan = null;
    return;
  }
  const uris = [...scan];
  for (const item of result.resources) if (isObject(item) && typeof item.uri === 'string') uris.push(item.uri);
  state.scan = uris;
  state.scanPages += 1;
  if (typeof result.nextCursor === 'string' && state.scanPages < scanPagesMax) {
    send('list', '', '', 0, result.nextCursor);
    return;
  }
  effects.push({
    type: 'CatalogPublished',
    scanId: state.nextScanId++,
    status: 'SNAPSHOT_PROVEN',
    uris,
    digest: contentDigest(uris.join('\n')),
    measuredAtMs: nowMs,
    stalenessBoundMs: 0,
    nextReviewAtMs: nowMs,
  });
  state.catalogPublished = true;
  state.scan = null;
}
