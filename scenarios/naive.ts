/**
 * Naive client strategies a user would plausibly write (from the source documents `002_*`), each missing
 * one guard the reference has. They implement the same client-under-test interface; the harness must
 * catch every one of them with a seed that replays.
 *
 * Every naive client serves cached content when asked (whatever it last accepted for the URI) and refuses
 * when it has nothing cached; only the scanning one takes part in discovery.
 */
import { canonicalizeUri } from '../core/uri.js';
import { contentDigest } from '../core/digest.js';
import { checkRequestId, interpretNotification, interpretRead, isObject } from '../core/protocol.js';
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest, StepResult } from '../core/types.js';
import { referenceClient } from '../core/reducer.js';
import type { CoreState } from '../core/state.js';

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

/** Builds a naive client. State is copied per step (these clients are small and not on the hot path). */
export function naiveClient(name: string, description: string, flags: NaiveFlags): ClientUnderTest<NaiveState> {
  function step(previous: NaiveState, input: ClientInput): StepResult<NaiveState> {
    const state: NaiveState = {
      ...previous,
      subscriptions: { ...previous.subscriptions },
      inflight: { ...previous.inflight },
      timers: { ...previous.timers },
      cache: { ...previous.cache },
    };
    const effects: ClientEffect[] = [];
    const send = (method: NaiveRequest['method'], key: string, uri: string, readOrdinal: number, cursor?: string): void => {
      if (!state.connected) return;
      const requestId = state.nextRequestId++;
      state.inflight[requestId] = { key, uri, method, readOrdinal };
      const session = state.session;
      if (method === 'read') {
        const subject = flags.subjects === true ? state.subscriptions[key]?.subject : undefined;
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
    };
    const read = (key: string, uri: string): void => {
      const sub = state.subscriptions[key];
      if (sub === undefined || !sub.open) return;
      const next = { ...sub, lastIssuedOrdinal: sub.lastIssuedOrdinal + 1 };
      state.subscriptions[key] = next;
      send('read', key, uri, next.lastIssuedOrdinal);
    };
    const armReconcile = (key: string): void => {
      if (!flags.reconcile) return;
      const deadlineMs = input.nowMs + state.config.reconcileIntervalMs + (input.jitter % (state.config.reconcileJitterMsMax + 1));
      state.timers['reconcile:' + key] = deadlineMs;
      effects.push({ type: 'TimerArmed', timer: { kind: 'reconcile', uri: key }, deadlineMs });
    };

    switch (input.type) {
      case 'Connected': {
        const first = !state.everConnected;
        state.connected = true;
        state.everConnected = true;
        state.session = input.sessionGeneration;
        state.scan = null;
        if (first || flags.resubscribe) {
          for (const key in state.subscriptions) {
            const sub = state.subscriptions[key]!;
            if (sub.open) {
              send('subscribe', key, sub.uri, 0);
              read(key, sub.uri);
            }
          }
        }
        break;
      }
      case 'Disconnected':
        if (input.sessionGeneration === state.session) state.connected = false;
        break;
      case 'SubscribeCommanded': {
        const key = keyOf(input.uri, flags);
        const existing = state.subscriptions[key];
        if (existing === undefined || !existing.open) {
          state.subscriptions[key] = {
            uri: input.uri,
            subject: input.subject ?? 'default',
            open: true,
            lastIssuedOrdinal: existing?.lastIssuedOrdinal ?? 0,
            lastAcceptedOrdinal: existing?.lastAcceptedOrdinal ?? 0,
          };
          armReconcile(key);
        }
        send('subscribe', key, input.uri, 0);
        read(key, input.uri);
        break;
      }
      case 'UnsubscribeCommanded': {
        const key = keyOf(input.uri, flags);
        const sub = state.subscriptions[key];
        if (sub !== undefined && sub.open) {
          state.subscriptions[key] = { ...sub, open: false };
          send('unsubscribe', key, input.uri, 0);
        }
        break;
      }
      case 'NotificationArrived': {
        const notification = interpretNotification(input.method, input.params);
        if (notification.type !== 'updated') break;
        if (flags.sessionCheck && input.sessionGeneration !== state.session) break;
        const rawUri = (input.params as { uri: string }).uri;
        const key = keyOf(rawUri, flags);
        if (state.subscriptions[key]?.open) read(key, flags.decodeKeys ? rawUri : key);
        break;
      }
      case 'ResponseArrived': {
        const requestId = checkRequestId(input.requestId);
        const request = requestId === null ? undefined : state.inflight[requestId];
        if (request === undefined) break;
        delete state.inflight[requestId!];
        if (request.method === 'list') onListPage(state, input.outcome, effects, send, input.nowMs);
        if (request.method === 'read') onReadResponse(state, flags, requestId!, request, input.outcome, effects);
        break;
      }
      case 'TimerFired': {
        if (state.timers['reconcile:' + input.timer.uri] !== input.deadlineMs) break;
        delete state.timers['reconcile:' + input.timer.uri];
        const key = input.timer.uri;
        const sub = state.subscriptions[key];
        if (sub !== undefined && sub.open) {
          read(key, sub.uri);
          armReconcile(key);
        }
        break;
      }
      case 'ServeCommanded': {
        const digest = state.cache[keyOf(input.uri, flags)];
        effects.push(
          digest === undefined
            ? { type: 'ContentRefused', uri: input.uri, subject: input.subject, reason: 'nothing cached' }
            : { type: 'ContentServed', uri: input.uri, subject: input.subject, digest },
        );
        break;
      }
      case 'AuthorizationChanged':
        if (input.allowed === false && flags.learnRevocations === true) effects.push({ type: 'RevocationLearned', uri: input.uri, subject: input.subject, source: 'feed' });
        break;
      case 'DiscoverCommanded':
        if (flags.singleScan === true && state.scan === null && state.connected) {
          state.scan = [];
          state.scanPages = 0;
          effects.push({ type: 'ScanStarted', scanId: state.nextScanId, pass: 'SNAPSHOT' });
          send('list', '', '', 0);
        }
        break;
      case 'CompletenessTaskCommanded': {
        const accepted = flags.singleScan === true && state.catalogPublished;
        effects.push({
          type: 'CompletenessTaskDecided',
          task: input.task,
          accepted,
          catalogStatus: state.catalogPublished ? 'SNAPSHOT_PROVEN' : 'NONE',
          reason: accepted ? 'a complete listing was published' : 'no catalog',
        });
        break;
      }
      default:
        break;
    }
    return { state, effects };
  }

  return {
    name,
    description,
    init: (config) => ({
      config,
      connected: false,
      everConnected: false,
      session: 0,
      nextRequestId: 1,
      outboxSequence: 0,
      subscriptions: {},
      inflight: {},
      timers: {},
      cache: {},
      scan: null,
      scanPages: 0,
      nextScanId: 1,
      catalogPublished: false,
    }),
    step,
  };
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
    effects.push({ type: 'OutboxEntryWritten', uri: sub.uri, sequence: ++state.outboxSequence, operation: 'upsert', digest, derivedEntries: [], supersedes: [] });
  } else if (outcome.type === 'not-found') {
    state.subscriptions[request.key] = { ...sub, lastAcceptedOrdinal: Math.max(sub.lastAcceptedOrdinal, request.readOrdinal) };
    effects.push({ type: 'TombstonePending', uri: sub.uri, readOrdinal: request.readOrdinal });
    if (flags.trustNotFound === true) {
      delete state.cache[request.key];
      effects.push({ type: 'TombstoneConfirmed', uri: sub.uri });
      effects.push({ type: 'OutboxEntryWritten', uri: sub.uri, sequence: ++state.outboxSequence, operation: 'delete', digest: '', derivedEntries: [], supersedes: [] });
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

export const naiveOverwrite = naiveClient(
  'naive-overwrite',
  'reads on every notification and overwrites the cache with whatever response arrives (no ordinal fence, keys by decoded URI)',
  { decodeKeys: true, ordinalFence: false, closeFence: true, resubscribe: true, sessionCheck: true, reconcile: false },
);

export const naiveNoResubscribe = naiveClient(
  'naive-no-resubscribe',
  'never re-subscribes after a reconnect and trusts notifications from any session',
  { decodeKeys: false, ordinalFence: true, closeFence: true, resubscribe: false, sessionCheck: false, reconcile: false },
);

export const naiveNoCloseFence = naiveClient(
  'naive-no-close-fence',
  'still accepts read responses (content or 404) that arrive after unsubscribe began',
  { decodeKeys: false, ordinalFence: true, closeFence: false, resubscribe: true, sessionCheck: true, reconcile: true },
);

const carefulOtherwise = { decodeKeys: false, ordinalFence: true, closeFence: true, resubscribe: true, sessionCheck: true, reconcile: true, subjects: true };

export const naiveSingleScan = naiveClient(
  'naive-single-scan',
  'lists once, follows nextCursor to the end, publishes that single pass as a SNAPSHOT_PROVEN catalog and runs completeness tasks on it',
  { ...carefulOtherwise, singleScan: true },
);

export const naiveCacheAfterRevoke = naiveClient(
  'naive-cache-after-revoke',
  'records revocations (feed events and permission errors) but keeps serving the cached content',
  { ...carefulOtherwise, learnRevocations: true },
);

export const naiveTrust404 = naiveClient(
  'naive-trust-404',
  'tombstones on any not-found, even one older than an accepted version, and confirms the deletion without list reconciliation',
  { ...carefulOtherwise, trustNotFound: true },
);

/**
 * The reference in every respect but one: asked to serve, it answers nothing (no content, no refusal). Safe
 * and useless; only the availability checker (sim/checkers/availability.ts, `refused_fresh`) catches it.
 */
export const naiveNeverServe: ClientUnderTest<CoreState> = {
  ...referenceClient,
  name: 'naive-never-serve',
  description: 'the reference, except that a serve command returns nothing: it never serves cached content, however fresh',
  step: (state, input) => (input.type === 'ServeCommanded' ? { state, effects: [] } : referenceClient.step(state, input)),
};
