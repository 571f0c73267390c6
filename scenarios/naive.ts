/**
 * Naive client strategies a user would plausibly write (from the source documents `002_*`), each missing
 * one guard the reference has. They implement the same client-under-test interface; the harness must
 * catch every one of them with a seed that replays.
 */
import { canonicalizeUri } from '../core/uri.js';
import { contentDigest } from '../core/digest.js';
import { checkRequestId, interpretNotification, interpretRead } from '../core/protocol.js';
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest, StepResult } from '../core/types.js';

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
}

interface NaiveSubscription {
  uri: string;
  open: boolean;
  lastIssuedOrdinal: number;
  lastAcceptedOrdinal: number;
}

interface NaiveRequest {
  key: string;
  uri: string;
  method: 'read' | 'subscribe' | 'unsubscribe';
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
}

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
    };
    const effects: ClientEffect[] = [];
    const send = (method: NaiveRequest['method'], key: string, uri: string, readOrdinal: number): void => {
      if (!state.connected) return;
      const requestId = state.nextRequestId++;
      state.inflight[requestId] = { key, uri, method, readOrdinal };
      const wire = method === 'read' ? 'resources/read' : method === 'subscribe' ? 'resources/subscribe' : 'resources/unsubscribe';
      effects.push(
        method === 'read'
          ? { type: 'RequestSent', requestId, sessionGeneration: state.session, method: wire, uri, reason: 'notification', readOrdinal }
          : { type: 'RequestSent', requestId, sessionGeneration: state.session, method: wire, uri },
      );
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
      effects.push({ type: 'TimerArmed', timerKey: 'reconcile:' + key, deadlineMs });
    };

    switch (input.type) {
      case 'Connected': {
        const first = !state.everConnected;
        state.connected = true;
        state.everConnected = true;
        state.session = input.sessionGeneration;
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
        if (request.method !== 'read') break;
        const sub = state.subscriptions[request.key];
        if (sub === undefined || (flags.closeFence && !sub.open)) break;
        if (flags.ordinalFence && request.readOrdinal <= sub.lastAcceptedOrdinal) {
          effects.push({ type: 'StaleReceiptWritten', uri: sub.uri, requestId: requestId!, readOrdinal: request.readOrdinal, watermark: sub.lastAcceptedOrdinal, reason: 'ORDINAL' });
          break;
        }
        const requested = canonicalizeUri(request.uri);
        const outcome = interpretRead(input.outcome, requested.ok ? requested.uri : request.uri, state.config.contentCharsMax);
        const watermarkBefore = sub.lastAcceptedOrdinal;
        if (outcome.type === 'content') {
          state.subscriptions[request.key] = { ...sub, lastAcceptedOrdinal: Math.max(sub.lastAcceptedOrdinal, request.readOrdinal) };
          const digest = contentDigest(outcome.text);
          effects.push({ type: 'VersionAccepted', uri: sub.uri, text: outcome.text, mimeType: outcome.mimeType, digest, readOrdinal: request.readOrdinal, watermarkBefore, subscriptionGeneration: 0, sessionGeneration: state.session });
          effects.push({ type: 'OutboxEntryWritten', uri: sub.uri, sequence: ++state.outboxSequence, operation: 'upsert', digest, derivedEntries: [], supersedes: [] });
        } else if (outcome.type === 'not-found') {
          state.subscriptions[request.key] = { ...sub, lastAcceptedOrdinal: Math.max(sub.lastAcceptedOrdinal, request.readOrdinal) };
          effects.push({ type: 'TombstonePending', uri: sub.uri, readOrdinal: request.readOrdinal });
        }
        break;
      }
      case 'TimerFired': {
        if (state.timers[input.timerKey] !== input.deadlineMs) break;
        delete state.timers[input.timerKey];
        const key = input.timerKey.slice('reconcile:'.length);
        const sub = state.subscriptions[key];
        if (sub !== undefined && sub.open) {
          read(key, sub.uri);
          armReconcile(key);
        }
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
    }),
    step,
  };
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
