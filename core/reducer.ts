/**
 * The reference client: one pure reducer `step(state, input) -> { state, effects }`.
 * Branching lives here (the dispatcher and the workload commands); sessions and subscription starts are in
 * reducer-sessions.ts, responses in reducer-responses.ts, notifications in reducer-notifications.ts, timers in
 * reducer-timers.ts; the fences are in fence.ts, validation in protocol.ts, the table in transitions.ts.
 */
import { beginUnsubscribe, isOpen, resourcesOffered } from './fence.js';
import { forgetRevocation, learnGrant, learnRevocation, serve } from './authorization.js';
import { checkInput, normalizeCapabilities } from './input-check.js';
import { checkUri } from './protocol.js';
import { durableLedger, recoverFromLedger, recoverStep } from './recovery.js';
import { checkEra, isEra2026, withEra } from './era.js';
import { armReadDeadlines, cancelListen } from './listen.js';
import { serveFresh } from './ttl.js';
import { decideCompletenessTask, requestDiscovery } from './scan.js';
import { type CoreState, Draft, type Ledger, initialState } from './state.js';
import type { ClientInput, ClientUnderTest, StepResult } from './types.js';
import { onConnected, refuseForCapability, sessionLost, startSubscription } from './reducer-sessions.js';
import { onResponse } from './reducer-responses.js';
import { onNotification } from './reducer-notifications.js';
import { onTimer } from './reducer-timers.js';
import { registerOwnedStep } from './step-owned.js';

export { durableLedger, recoverFromLedger };

/**
 * One step of the reference client. Malformed caller-filled fields (SPEC §11) give one typed rejection
 * and the same state; protocol payloads are judged where they are interpreted. Never throws on input.
 * Pure: `state` is never changed (what it shares with the next state stays shared, copied on write).
 */
export function step(state: CoreState, input: ClientInput): StepResult<CoreState> {
  return stepDraft(state, input, false);
}

/**
 * `step` for a caller that gives `state` up (keeps no reference to it or to anything inside it): the same
 * code, changing `state` in place instead of copying each record it touches. Same effects, deep-equal state.
 */
export function stepOwned(state: CoreState, input: ClientInput): StepResult<CoreState> {
  return stepDraft(state, input, true);
}

registerOwnedStep(step, stepOwned);

function stepDraft(state: CoreState, input: ClientInput, ownsState: boolean): StepResult<CoreState> {
  const rejection = checkInput(input);
  if (rejection !== null) return { state, effects: [{ type: 'ProtocolRejected', rejection }] };
  const eraRejection = input.type === 'Connected' ? checkEra(input.era) : null;
  if (eraRejection !== null) return { state, effects: [{ type: 'ProtocolRejected', rejection: eraRejection }] };
  const d = new Draft(state, input.nowMs, input.jitter >>> 0, ownsState);
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
  // Replaced while its unsubscribe waits for an ACK (or after that ACK was lost): the server may still hold it.
  if (previous !== undefined && (previous.state === 'UNSUBSCRIBING' || previous.state === 'UNSUBSCRIBE_UNKNOWN')) d.setUnsubscribeOwed(uri, true);
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
    deletionConfirmed: previous?.deletionConfirmed ?? false,
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

export const referenceClient: ClientUnderTest<CoreState> = {
  name: 'reference',
  description: 'the fenced core: ordinal fence, close fence, coalesced + debounced reads, resubscribe, reconciliation timer',
  init: initialState,
  step,
  durable: durableLedger,
  recover: (config, durable) => recoverStep(config, durable as Ledger),
  features: { catalogs: true },
};
