/**
 * Micro-benchmarks of the core's hot operations (tinybench, median ns per operation).
 *
 * Each input is prepared by driving the real reducer from `initialState`, and checked to do what its row
 * claims before it is timed (so a change in the core cannot silently turn a row into a no-op):
 *   - step: ResponseArrived accepted  - a read response passing the ordinal fence; prepared state: one
 *     subscription, server-side ACTIVE, with the leading notification read in flight (READ_PENDING);
 *   - step: NotificationArrived       - an `updated` pulse on an idle ACTIVE subscription (leading edge: the
 *     read is sent at once and the debounce window opens);
 *   - step: stale TimerFired          - a reconcile timer whose deadline was re-armed since (a no-op);
 *   - step / stepOwned: NotificationArrived no-op - an `updated` for a URI whose read is in flight and already
 *     marked dirty (READ_PENDING): no effect, no change; the pure step and the owned (in-place) step the
 *     simulator uses. A no-op leaves the state as it was, so the owned row may step one state again and again;
 *   - acceptResourceVersionOperation  - the fence operation on the same prepared read;
 *   - canonicalizeUri                 - a URI canonicalized before (answered by its memo), and the full parser
 *     (canonicalizeUriWithoutFastPath, what a URI not seen before costs at most) on one that needs rewriting;
 *   - contentDigest                   - for context: the SHA-256 every accepted version pays (same content).
 * `step` is pure, so every call starts from the same prepared state. Each tinybench sample runs the
 * operation OPERATIONS_PER_SAMPLE times (one call is far below the timer's resolution).
 */
import { Bench } from 'tinybench';

import { contentDigest } from '../core/digest.js';
import { acceptResourceVersionOperation } from '../core/operations.js';
import { step, stepOwned } from '../core/reducer.js';
import { initialState, type CoreState } from '../core/state.js';
import { defaultClientConfig, type ClientInput, type ResponseOutcome, type StepResult } from '../core/types.js';
import { canonicalizeUri, canonicalizeUriWithoutFastPath } from '../core/uri.js';

export const OPERATIONS_PER_SAMPLE = 1_000;
const TIME_MS_DEFAULT = 300;
const WARMUP_TIME_MS = 100;

const URI = 'test://static/resource/1';
export const CANONICAL_URI = 'demo://resource/static/document/architecture.md';
/** Needs: scheme and host lower-cased, default port dropped, dot segments removed, %7e decoded, %2f upper-cased. */
export const REWRITTEN_URI = 'HTTP://Example.COM:80/docs/./guide/../%7euser/a%2fb.md';
const SESSION = 1;

export interface MicroRow {
  name: string;
  nsPerOperationMedian: number;
  samples: number;
}

/** Written by every task so V8 cannot drop the work. */
let sink = 0;

interface Prepared {
  /** Subscription READ_PENDING with one notification read in flight (request `readRequestId`). */
  readPending: CoreState;
  readRequestId: number;
  readResponse: ClientInput;
  /** Subscription ACTIVE, nothing in flight. */
  active: CoreState;
  notification: ClientInput;
  /** Subscription whose reconcile timer fired and re-armed itself at a later deadline than `staleTimer`'s. */
  rearmed: CoreState;
  staleTimer: ClientInput;
  /** READ_PENDING, read in flight, already dirty: `noopNotification` changes nothing. */
  dirtyPending: CoreState;
  noopNotification: ClientInput;
}

function content(text: string): ResponseOutcome {
  return { type: 'result', result: { contents: [{ uri: URI, mimeType: 'text/plain', text }] } };
}

function expect(result: StepResult<CoreState>, effectType: string, what: string): StepResult<CoreState> {
  if (!result.effects.some((effect) => effect.type === effectType)) {
    const got = result.effects.map((effect) => effect.type).join(', ') || 'no effects';
    throw new Error(`micro bench setup: ${what} should emit ${effectType}, got ${got}`);
  }
  return result;
}

function lastRequestId(result: StepResult<CoreState>): number {
  for (let index = result.effects.length - 1; index >= 0; index--) {
    const effect = result.effects[index]!;
    if (effect.type === 'RequestSent') return effect.requestId;
  }
  throw new Error('micro bench setup: no RequestSent effect');
}

function subscriptionState(state: CoreState): string {
  return state.ledger.subscriptions[URI]?.state ?? 'none';
}

function notificationAt(nowMs: number): ClientInput {
  return {
    type: 'NotificationArrived',
    nowMs,
    jitter: 7,
    sessionGeneration: SESSION,
    method: 'notifications/resources/updated',
    params: { uri: URI },
  };
}

/** Drives the reducer to the states the rows start from, checking each step's effects. */
export function prepareInputs(): Prepared {
  let nowMs = 0;
  const capabilities = { resources: true, subscribe: true, listChanged: true, snapshotId: false };
  let result = step(initialState(defaultClientConfig), { type: 'Connected', nowMs, jitter: 1, sessionGeneration: SESSION, capabilities });
  result = expect(step(result.state, { type: 'SubscribeCommanded', nowMs: (nowMs += 10), jitter: 2, uri: URI }), 'RequestSent', 'subscribe');
  const subscribeId = lastRequestId(result);
  result = expect(
    step(result.state, { type: 'ResponseArrived', nowMs: (nowMs += 10), jitter: 3, sessionGeneration: SESSION, requestId: subscribeId, outcome: { type: 'result', result: {} } }),
    'RequestSent',
    'subscribe ACK (initial read)',
  );
  const reconcileArming = result;
  const initialReadId = lastRequestId(result);
  result = expect(
    step(result.state, { type: 'ResponseArrived', nowMs: (nowMs += 10), jitter: 4, sessionGeneration: SESSION, requestId: initialReadId, outcome: content('v1') }),
    'VersionAccepted',
    'initial read response',
  );
  const active = result.state;
  if (subscriptionState(active) !== 'ACTIVE') throw new Error(`micro bench setup: expected ACTIVE, got ${subscriptionState(active)}`);

  const notification = notificationAt((nowMs += 1_000));
  // Leading edge: the first pulse on an idle ACTIVE subscription is read at once and opens the debounce window.
  result = expect(step(active, notification), 'RequestSent', 'notification on ACTIVE (leading read)');
  expect(result, 'TimerArmed', 'notification on ACTIVE (debounce window)');
  // The reconcile timer re-arms itself when it fires: a TimerFired carrying the earlier deadline is now stale.
  const reconcileDeadlineMs = armedDeadline(reconcileArming, 'reconcile');
  const reconciled = expect(
    step(active, { type: 'TimerFired', nowMs: reconcileDeadlineMs, jitter: 6, timer: { kind: 'reconcile', uri: URI }, deadlineMs: reconcileDeadlineMs }),
    'TimerArmed',
    'reconcile timer (re-arm)',
  );
  const rearmed = reconciled.state;
  const staleTimer: ClientInput = { type: 'TimerFired', nowMs: reconcileDeadlineMs, jitter: 5, timer: { kind: 'reconcile', uri: URI }, deadlineMs: reconcileDeadlineMs };
  const staleResult = step(rearmed, staleTimer);
  if (staleResult.effects.length !== 0 || staleResult.state.ledger !== rearmed.ledger) {
    throw new Error('micro bench setup: the stale TimerFired is not a no-op');
  }
  const readPending = result.state;
  const readRequestId = lastRequestId(result);
  if (subscriptionState(readPending) !== 'READ_PENDING') {
    throw new Error(`micro bench setup: expected READ_PENDING, got ${subscriptionState(readPending)}`);
  }
  const readResponse: ClientInput = {
    type: 'ResponseArrived',
    nowMs: notification.nowMs + 50,
    jitter: 8,
    sessionGeneration: SESSION,
    requestId: readRequestId,
    outcome: content('v2'),
  };
  expect(step(readPending, readResponse), 'VersionAccepted', 'notification read response');
  if (!acceptResourceVersionOperation(readPending, readRequestId, 'v2', 'text/plain', notification.nowMs + 50).value) {
    throw new Error('micro bench setup: acceptResourceVersionOperation did not accept the prepared read');
  }
  const { dirtyPending, noopNotification } = prepareNoop(readPending, notification.nowMs);
  return { readPending, readRequestId, readResponse, active, notification, rearmed, staleTimer, dirtyPending, noopNotification };
}

/** A second pulse after the debounce window marks the pending read dirty; a third is then a no-op (checked, also in place). */
function prepareNoop(readPending: CoreState, notifiedAtMs: number): { dirtyPending: CoreState; noopNotification: ClientInput } {
  const dirtyPending = expect(step(readPending, notificationAt(notifiedAtMs + 100_000)), 'TimerArmed', 'pulse on READ_PENDING (dirty, hedge)').state;
  const noopNotification = notificationAt(notifiedAtMs + 100_001);
  const before = JSON.stringify(dirtyPending);
  const pure = step(dirtyPending, noopNotification);
  const owned = stepOwned(dirtyPending, noopNotification);
  if (pure.effects.length !== 0 || owned.effects.length !== 0 || JSON.stringify(owned.state) !== before) {
    throw new Error('micro bench setup: the pulse on a dirty READ_PENDING is not a no-op');
  }
  return { dirtyPending, noopNotification };
}

function armedDeadline(result: StepResult<CoreState>, kind: string): number {
  for (const effect of result.effects) {
    if (effect.type === 'TimerArmed' && effect.timer.kind === kind) return effect.deadlineMs;
  }
  throw new Error(`micro bench setup: no ${kind} timer armed`);
}

function checkUris(): void {
  const canonical = canonicalizeUri(CANONICAL_URI);
  if (!canonical.ok || canonical.uri !== CANONICAL_URI) throw new Error(`micro bench setup: ${CANONICAL_URI} is not canonical`);
  const rewritten = canonicalizeUri(REWRITTEN_URI);
  if (!rewritten.ok || rewritten.uri === REWRITTEN_URI) throw new Error(`micro bench setup: ${REWRITTEN_URI} was not rewritten`);
}

/** Runs every micro-benchmark; `timeMs` is tinybench's time budget per row. */
export async function runMicro(timeMs = TIME_MS_DEFAULT): Promise<MicroRow[]> {
  const prepared = prepareInputs();
  checkUris();
  const { readPending, readRequestId, readResponse, active, notification, rearmed, staleTimer, dirtyPending, noopNotification } = prepared;
  const acceptNowMs = readResponse.nowMs;
  const bench = new Bench({ time: timeMs, warmupTime: WARMUP_TIME_MS });
  bench.add('step: ResponseArrived accepted through the fence', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) sink += step(readPending, readResponse).effects.length;
  });
  bench.add('step: NotificationArrived (ACTIVE -> leading read)', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) sink += step(active, notification).effects.length;
  });
  bench.add('step: stale TimerFired (no-op)', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) sink += step(rearmed, staleTimer).effects.length;
  });
  bench.add('step: NotificationArrived no-op (READ_PENDING, already dirty)', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) sink += step(dirtyPending, noopNotification).effects.length;
  });
  bench.add('stepOwned: NotificationArrived no-op (READ_PENDING, already dirty)', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) sink += stepOwned(dirtyPending, noopNotification).effects.length;
  });
  bench.add('acceptResourceVersionOperation (accepted)', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) {
      sink += acceptResourceVersionOperation(readPending, readRequestId, 'v2', 'text/plain', acceptNowMs).effects.length;
    }
  });
  bench.add('canonicalizeUri: already canonical, seen before (memo)', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) sink += canonicalizeUri(CANONICAL_URI).ok ? 1 : 0;
  });
  bench.add('canonicalizeUriWithoutFastPath: needs rewriting', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) sink += canonicalizeUriWithoutFastPath(REWRITTEN_URI).ok ? 1 : 0;
  });
  bench.add('contentDigest (context: part of every accept)', () => {
    for (let index = 0; index < OPERATIONS_PER_SAMPLE; index++) sink += contentDigest('v2').length;
  });
  await bench.run();
  if (sink === -1) console.log('unreachable');
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result === undefined || !('latency' in result)) {
      throw new Error(`micro bench: task "${task.name}" has no latency result (state ${result?.state ?? 'missing'})`);
    }
    return {
      name: task.name,
      nsPerOperationMedian: (result.latency.p50 * 1e6) / OPERATIONS_PER_SAMPLE,
      samples: result.latency.samplesCount,
    };
  });
}
