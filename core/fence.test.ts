/**
 * The read-ordinal fence and the close fence (SPEC §3.3, §3.4): the pure verdict, the read races of the
 * spec driven through `step`, and the close fence examples. Effects and state are asserted as data.
 */
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { isOpen, judgeReadResponse } from './fence.js';
import { acceptResourceVersionOperation, beginUnsubscribeOperation } from './operations.js';
import { step } from './reducer.js';
import { initialState, timerKinds, type CoreState, type InflightRequest } from './state.js';
import {
  ackOutcome,
  connected,
  contentOutcome,
  deepFreeze,
  effectsOf,
  notFoundOutcome,
  readsSent,
  responded,
  runInputs,
  subscribeCommanded,
  testConfig,
  timerFired,
  unsubscribeCommanded,
  updated,
} from './testing.js';
import { subscriptionStates } from './transitions.js';
import type { ClientEffect, ClientInput, ResourceSubscriptionRecord, ResponseOutcome, TimerKind } from './types.js';

const uri = 'file:///a.txt';
const session = 1;

interface Stepped {
  state: CoreState;
  effects: ClientEffect[];
  nowMs: number;
}

function feed(from: Stepped, inputs: (nowMs: number) => ClientInput[]): Stepped {
  const nowMs = from.nowMs + 1;
  const result = runInputs(from.state, inputs(nowMs));
  return { state: result.state, effects: result.effects, nowMs };
}

/** The same state `ms` later (nothing happened meanwhile). */
function wait(from: Stepped, ms: number): Stepped {
  return { ...from, effects: [], nowMs: from.nowMs + ms };
}

/** An updated pulse after the previous leading read's coalescing window has closed: read at once (leading edge). */
function pulse(from: Stepped): Stepped {
  return feed(wait(from, testConfig().debounceMs), (nowMs) => [updated(nowMs, session, uri)]);
}

function fire(from: Stepped, kind: string): Stepped {
  const armed = effectsOf(from.effects, 'TimerArmed').filter((timer) => timer.timer.kind === kind && timer.timer.uri === uri);
  expect(armed.length, `a ${kind} timer was armed`).toBeGreaterThan(0);
  const deadlineMs = armed[armed.length - 1]!.deadlineMs;
  const result = runInputs(from.state, [timerFired(deadlineMs, { kind: kind as TimerKind, uri }, deadlineMs)]);
  return { state: result.state, effects: result.effects, nowMs: deadlineMs };
}

function onlyRead(effects: ClientEffect[]): { requestId: number; readOrdinal: number } {
  const reads = readsSent(effects);
  expect(reads).toHaveLength(1);
  return { requestId: reads[0]!.requestId, readOrdinal: reads[0]!.readOrdinal! };
}

/** Connected, subscribed, ACKed, and `accepted` read cycles completed: ACTIVE with watermark = accepted + 1. */
function activeSubscription(accepted: number): Stepped {
  let at: Stepped = { state: initialState(testConfig()), effects: [], nowMs: 0 };
  at = feed(at, (nowMs) => [connected(nowMs, session), subscribeCommanded(nowMs, uri)]);
  const subscribe = effectsOf(at.effects, 'RequestSent')[0]!;
  at = feed(at, (nowMs) => [responded(nowMs, session, subscribe.requestId, ackOutcome)]);
  let read = onlyRead(at.effects);
  at = feed(at, (nowMs) => [responded(nowMs, session, read.requestId, contentOutcome(uri, 'initial'))]);
  for (let cycle = 0; cycle < accepted; cycle++) {
    at = pulse(at);
    read = onlyRead(at.effects);
    at = feed(at, (nowMs) => [responded(nowMs, session, read.requestId, contentOutcome(uri, `cycle ${cycle}`))]);
  }
  expect(at.state.ledger.subscriptions[uri]).toMatchObject({ state: 'ACTIVE', lastAcceptedOrdinal: accepted + 1, lastIssuedOrdinal: accepted + 1 });
  return at;
}

/** Two reads in flight: A (ordinal n, a leading-edge read) and B (n + 1, hedged after a pulse outside A's window). */
function twoReadsInFlight(accepted: number): { at: Stepped; a: { requestId: number; readOrdinal: number }; b: { requestId: number; readOrdinal: number } } {
  let at = activeSubscription(accepted);
  at = pulse(at);
  const a = onlyRead(at.effects);
  at = pulse(at);
  at = fire(at, 'hedge');
  const b = onlyRead(at.effects);
  expect(b.readOrdinal).toBe(a.readOrdinal + 1);
  expect(at.state.ledger.subscriptions[uri]!.state).toBe('READ_PENDING');
  return { at, a, b };
}

function answer(at: Stepped, requestId: number, outcome: ResponseOutcome): Stepped {
  return feed(at, (nowMs) => [responded(nowMs, session, requestId, outcome)]);
}

function kinds(effects: ClientEffect[]): string[] {
  return effects.map((effect) => (effect.type === 'Transitioned' ? `${effect.from}->${effect.to}` : effect.type));
}

// -- the pure verdict ---------------------------------------------------------------------------------

const subscriptionRecord = fc.record({
  lastAcceptedOrdinal: fc.nat({ max: 50 }),
  subscriptionGeneration: fc.integer({ min: 1, max: 4 }),
  state: fc.constantFrom(...subscriptionStates),
});

describe('judgeReadResponse (the one response judge)', () => {
  test.prop([
    subscriptionRecord,
    fc.integer({ min: -2, max: 2 }),
    fc.integer({ min: 1, max: 4 }),
    fc.integer({ min: 1, max: 3 }),
    fc.integer({ min: 1, max: 3 }),
    fc.boolean(),
    fc.boolean(),
    fc.boolean(),
  ])('decides close, session, ordinal, revocation in that order; accepts only when all pass', (record, delta, generation, requestSession, currentSession, isConnected, revoked, missing) => {
    const sub = { ...record, lastIssuedOrdinal: record.lastAcceptedOrdinal + 3, closeOrdinal: 7 } as ResourceSubscriptionRecord;
    const readOrdinal = Math.max(1, record.lastAcceptedOrdinal + delta);
    const request = { readOrdinal, subscriptionGeneration: generation, sessionGeneration: requestSession } as InflightRequest;
    const verdict = judgeReadResponse(missing ? undefined : sub, request, { connected: isConnected, sessionGeneration: currentSession }, revoked);
    const open = sub.state !== 'UNSUBSCRIBING' && sub.state !== 'CLOSED' && sub.state !== 'UNSUBSCRIBE_UNKNOWN';
    const stale = (reason: string) => ({ type: 'stale', reason, watermark: sub.lastAcceptedOrdinal });
    const expected = missing
      ? { type: 'after-close', closeOrdinal: null }
      : !open || generation !== sub.subscriptionGeneration
        ? { type: 'after-close', closeOrdinal: 7 }
        : !isConnected || requestSession !== currentSession
          ? stale('SESSION')
          : readOrdinal <= sub.lastAcceptedOrdinal
            ? stale('ORDINAL')
            : revoked
              ? stale('REVOKED')
              : { type: 'accept' };
    expect(verdict).toEqual(expected);
    expect(isOpen(sub.state)).toBe(open);
  });

  it('an ordinal equal to the watermark is stale (the same read can never be accepted twice)', () => {
    const sub = { lastAcceptedOrdinal: 5, subscriptionGeneration: 1, state: 'READ_PENDING' } as ResourceSubscriptionRecord;
    const request = { readOrdinal: 5, subscriptionGeneration: 1, sessionGeneration: 1 } as InflightRequest;
    const connection = { connected: true, sessionGeneration: 1 };
    expect(judgeReadResponse(sub, request, connection, false)).toEqual({ type: 'stale', reason: 'ORDINAL', watermark: 5 });
    expect(judgeReadResponse(sub, { ...request, readOrdinal: 6 }, connection, false)).toEqual({ type: 'accept' });
  });
});

// -- read races (SPEC §3.3) ------------------------------------------------------------------------------

describe('read races through step (SPEC §3.3): ordinals', () => {
  test.prop([fc.nat({ max: 4 })], { numRuns: 10 })('B (n+1) returns first and is accepted; A (n) then only leaves an ORDINAL stale receipt', (accepted) => {
    const { at, a, b } = twoReadsInFlight(accepted);
    const n = a.readOrdinal;
    const afterB = answer(at, b.requestId, contentOutcome(uri, 'B'));
    expect(effectsOf(afterB.effects, 'VersionAccepted')).toMatchObject([{ uri, text: 'B', readOrdinal: n + 1, watermarkBefore: n - 1 }]);
    expect(effectsOf(afterB.effects, 'OutboxEntryWritten')).toMatchObject([{ uri, operation: 'upsert' }]);
    expect(kinds(afterB.effects).filter((kind) => kind.includes('->'))).toEqual(['READ_PENDING->VERSION_ACCEPTED', 'VERSION_ACCEPTED->READ_PENDING']);

    const afterA = answer(afterB, a.requestId, contentOutcome(uri, 'A'));
    expect(afterA.effects).toEqual([
      { type: 'StaleReceiptWritten', uri, requestId: a.requestId, readOrdinal: n, watermark: n + 1, reason: 'ORDINAL' },
      { type: 'Transitioned', uri, from: 'READ_PENDING', to: 'ACTIVE', event: 'read_settled' },
    ]);
    expect(afterA.state.ledger.versions).toEqual(afterB.state.ledger.versions);
    expect(afterA.state.ledger.versions[uri]).toMatchObject({ readOrdinal: n + 1 });
    expect(afterA.state.ledger.subscriptions[uri]!.lastAcceptedOrdinal).toBe(n + 1);
  });

  test.prop([fc.nat({ max: 4 })], { numRuns: 10 })('A (n) returns first: n then n+1 are both accepted, in order', (accepted) => {
    const { at, a, b } = twoReadsInFlight(accepted);
    const n = a.readOrdinal;
    const afterA = answer(at, a.requestId, contentOutcome(uri, 'A'));
    expect(effectsOf(afterA.effects, 'VersionAccepted')).toMatchObject([{ text: 'A', readOrdinal: n, watermarkBefore: n - 1 }]);
    expect(afterA.state.ledger.subscriptions[uri]!.state).toBe('READ_PENDING');
    const afterB = answer(afterA, b.requestId, contentOutcome(uri, 'B'));
    expect(effectsOf(afterB.effects, 'VersionAccepted')).toMatchObject([{ text: 'B', readOrdinal: n + 1, watermarkBefore: n }]);
    expect(effectsOf([...afterA.effects, ...afterB.effects], 'StaleReceiptWritten')).toEqual([]);
    expect(afterB.state.ledger.versions[uri]).toMatchObject({ readOrdinal: n + 1 });
    expect(afterB.state.ledger.subscriptions[uri]!.state).toBe('ACTIVE');
  });
});

describe('read races through step (SPEC §3.3): not-found and pulses', () => {
  it('a late not-found older than an accepted version is stale: no tombstone', () => {
    const { at, a, b } = twoReadsInFlight(0);
    const afterB = answer(at, b.requestId, contentOutcome(uri, 'B'));
    const afterA = answer(afterB, a.requestId, notFoundOutcome);
    expect(kinds(afterA.effects)).toEqual(['StaleReceiptWritten', 'READ_PENDING->ACTIVE']);
    expect(effectsOf(afterA.effects, 'StaleReceiptWritten')).toMatchObject([{ reason: 'ORDINAL', readOrdinal: a.readOrdinal, watermark: b.readOrdinal }]);
  });

  it('a newer not-found wins over a late older content: TOMBSTONE_PENDING stays, the content is stale', () => {
    const { at, a, b } = twoReadsInFlight(0);
    const afterB = answer(at, b.requestId, notFoundOutcome);
    expect(effectsOf(afterB.effects, 'TombstonePending')).toEqual([{ type: 'TombstonePending', uri, readOrdinal: b.readOrdinal }]);
    const afterA = answer(afterB, a.requestId, contentOutcome(uri, 'A'));
    expect(afterA.effects).toEqual([
      { type: 'StaleReceiptWritten', uri, requestId: a.requestId, readOrdinal: a.readOrdinal, watermark: b.readOrdinal, reason: 'ORDINAL' },
    ]);
    expect(afterA.state.ledger.subscriptions[uri]!.state).toBe('TOMBSTONE_PENDING');
  });

  it('an older not-found then a newer content: tombstone pending, then the version is accepted again', () => {
    const { at, a, b } = twoReadsInFlight(0);
    const afterA = answer(at, a.requestId, notFoundOutcome);
    expect(effectsOf(afterA.effects, 'TombstonePending')).toMatchObject([{ readOrdinal: a.readOrdinal }]);
    const afterB = answer(afterA, b.requestId, contentOutcome(uri, 'back'));
    expect(effectsOf(afterB.effects, 'VersionAccepted')).toMatchObject([{ text: 'back', readOrdinal: b.readOrdinal, watermarkBefore: a.readOrdinal }]);
    expect(kinds(afterB.effects).filter((kind) => kind.includes('->'))).toEqual(['TOMBSTONE_PENDING->VERSION_ACCEPTED', 'VERSION_ACCEPTED->ACTIVE']);
  });

  it('duplicate updated pulses coalesce: the first is read at once, the rest of its window joins that read; one follow-up for a pulse while a read is in flight after the window', () => {
    let at = activeSubscription(0);
    at = feed(wait(at, testConfig().debounceMs), (nowMs) => [updated(nowMs, session, uri), updated(nowMs + 1, session, uri), updated(nowMs + 2, session, uri)]);
    const first = onlyRead(at.effects);
    at = feed(at, (nowMs) => [updated(nowMs, session, uri), updated(nowMs, session, uri)]);
    expect(readsSent(at.effects)).toEqual([]);
    expect(effectsOf(at.effects, 'TimerArmed')).toEqual([]);
    at = pulse(at);
    expect(readsSent(at.effects)).toEqual([]);
    at = answer(at, first.requestId, contentOutcome(uri, 'x'));
    expect(readsSent(at.effects)).toMatchObject([{ reason: 'notification', readOrdinal: first.readOrdinal + 1 }]);
  });
});

// -- the close fence (SPEC §3.4) ---------------------------------------------------------------------------

describe('close fence (SPEC §3.4): reads in flight and a lost ACK', () => {
  it('reads in flight when closing begins only write STALE_AFTER_CLOSE audits, before and after the ACK', () => {
    const { at, a, b } = twoReadsInFlight(0);
    const closing = feed(at, (nowMs) => [unsubscribeCommanded(nowMs, uri)]);
    const record = closing.state.ledger.subscriptions[uri]!;
    expect(record).toMatchObject({ state: 'UNSUBSCRIBING', closeOrdinal: b.readOrdinal, closeEpoch: 1 });
    const unsubscribe = effectsOf(closing.effects, 'RequestSent');
    expect(unsubscribe).toMatchObject([{ method: 'resources/unsubscribe', uri }]);
    expect(readsSent(closing.effects)).toEqual([]);

    const lateB = answer(closing, b.requestId, contentOutcome(uri, 'B'));
    expect(lateB.effects).toEqual([{ type: 'AuditWritten', kind: 'STALE_AFTER_CLOSE', uri, requestId: b.requestId, detail: expect.any(String) }]);
    expect(lateB.state.ledger).toEqual(closing.state.ledger);

    const acked = answer(lateB, unsubscribe[0]!.requestId, ackOutcome);
    expect(effectsOf(acked.effects, 'SubscriptionClosed')).toEqual([
      { type: 'SubscriptionClosed', uri, closeEpoch: 1, closeOrdinal: b.readOrdinal, outcome: 'ACKED' },
    ]);
    expect(acked.state.ledger.subscriptions[uri]!.state).toBe('CLOSED');

    const lateA = answer(acked, a.requestId, notFoundOutcome);
    expect(lateA.effects).toEqual([{ type: 'AuditWritten', kind: 'STALE_AFTER_CLOSE', uri, requestId: a.requestId, detail: expect.any(String) }]);
    expect(lateA.state.ledger).toEqual(acked.state.ledger);
    // Unsubscribing stops notifications only: the cached version stays.
    expect(lateA.state.ledger.versions[uri]).toMatchObject({ readOrdinal: 1 });
  });

  it('a lost ACK leaves UNSUBSCRIBE_UNKNOWN: silent, retried in the same session, never reopened', () => {
    const { at, a } = twoReadsInFlight(0);
    let closing = feed(at, (nowMs) => [unsubscribeCommanded(nowMs, uri)]);
    closing = fire(closing, 'unsubscribe');
    expect(kinds(closing.effects)).toEqual(['UNSUBSCRIBING->UNSUBSCRIBE_UNKNOWN', 'RequestSent', 'TimerArmed']);
    const retry = effectsOf(closing.effects, 'RequestSent')[0]!;
    expect(retry).toMatchObject({ method: 'resources/unsubscribe', uri });

    const pulse = feed(closing, (nowMs) => [updated(nowMs, session, uri)]);
    expect(pulse.effects).toEqual([{ type: 'AuditWritten', kind: 'UNSUBSCRIBED_NOTIFICATION', uri, requestId: 0, detail: expect.any(String) }]);
    const late = answer(pulse, a.requestId, contentOutcome(uri, 'A'));
    expect(kinds(late.effects)).toEqual(['AuditWritten']);
    expect(late.state.ledger).toEqual(pulse.state.ledger);

    const acked = answer(late, retry.requestId, ackOutcome);
    expect(kinds(acked.effects)).toEqual(['UNSUBSCRIBE_UNKNOWN->CLOSED', 'SubscriptionClosed']);
  });
});

describe('close fence (SPEC §3.4): no read after closing, a new record after it', () => {
  it('no read is allocated once closing began (reconcile, lease and hedge timers, notifications)', () => {
    const { at } = twoReadsInFlight(0);
    const closing = feed(at, (nowMs) => [unsubscribeCommanded(nowMs, uri)]);
    const timers = effectsOf([...at.effects, ...closing.effects], 'TimerArmed');
    let state = closing.state;
    for (const timer of timers) {
      const result = step(deepFreeze(state), timerFired(timer.deadlineMs, timer.timer, timer.deadlineMs));
      expect(readsSent(result.effects)).toEqual([]);
      state = result.state;
    }
  });

  it('subscribing again makes a new record: new generation, ordinals continue, old reads stay audited', () => {
    const { at, a, b } = twoReadsInFlight(0);
    let closing = feed(at, (nowMs) => [unsubscribeCommanded(nowMs, uri)]);
    const old = closing.state.ledger.subscriptions[uri]!;
    closing = feed(closing, (nowMs) => [subscribeCommanded(nowMs, uri)]);
    const renewed = closing.state.ledger.subscriptions[uri]!;
    expect(renewed.subscriptionGeneration).toBeGreaterThan(old.subscriptionGeneration);
    expect(renewed).toMatchObject({ state: 'SUBSCRIBING', lastIssuedOrdinal: old.lastIssuedOrdinal, lastAcceptedOrdinal: old.lastAcceptedOrdinal });
    const late = answer(closing, b.requestId, contentOutcome(uri, 'B'));
    expect(kinds(late.effects)).toEqual(['AuditWritten']);
    const subscribe = effectsOf(closing.effects, 'RequestSent').find((request) => request.method === 'resources/subscribe')!;
    const active = answer(late, subscribe.requestId, ackOutcome);
    expect(onlyRead(active.effects).readOrdinal).toBe(b.readOrdinal + 1);
    const lateA = answer(active, a.requestId, contentOutcome(uri, 'A'));
    expect(kinds(lateA.effects)).toEqual(['AuditWritten']);
  });
});

// -- the named operations ------------------------------------------------------------------------------------

describe('fence operations (thin wrappers over step)', () => {
  it('acceptResourceVersion accepts once and settles; beginUnsubscribe freezes the close fence; a late answer is audited', () => {
    const { state } = activeSubscription(1);
    deepFreeze(state);
    const reconcileMs = state.volatile.uris[uri]!.deadlines[timerKinds.indexOf('reconcile')]!;
    const issued = step(state, timerFired(reconcileMs, { kind: 'reconcile', uri }, reconcileMs));
    const read = readsSent(issued.effects)[0]!;
    expect(issued.state.ledger.subscriptions[uri]).toMatchObject({ lastIssuedOrdinal: 3, state: 'READ_PENDING' });

    const accepted = acceptResourceVersionOperation(deepFreeze(issued.state), read.requestId, 'text', 'text/plain', 501);
    expect(accepted.value).toBe(true);
    expect(effectsOf(accepted.effects, 'VersionAccepted')).toMatchObject([{ readOrdinal: 3, watermarkBefore: 2, text: 'text', encoding: 'text' }]);
    // The accept settles like any response through step(): nothing left in flight, back to ACTIVE.
    expect(accepted.state.ledger.subscriptions[uri]!.state).toBe('ACTIVE');
    expect(accepted.state.volatile.uris[uri]!.inFlight).toBe(0);
    expect(acceptResourceVersionOperation(deepFreeze(accepted.state), read.requestId, 'again', 'text/plain', 502).value).toBe(false);

    const closing = beginUnsubscribeOperation(deepFreeze(issued.state), uri, 502);
    expect(closing.value).toBe(true);
    expect(closing.state.ledger.subscriptions[uri]).toMatchObject({ state: 'UNSUBSCRIBING', closeOrdinal: 3 });
    expect(beginUnsubscribeOperation(deepFreeze(closing.state), uri, 503)).toMatchObject({ value: false, effects: [] });
    const late = acceptResourceVersionOperation(deepFreeze(closing.state), read.requestId, 'late', 'text/plain', 504);
    expect(late.value).toBe(false);
    expect(effectsOf(late.effects, 'VersionAccepted')).toEqual([]);
    expect(effectsOf(late.effects, 'StaleReceiptWritten')).toEqual([]);
    expect(effectsOf(late.effects, 'AuditWritten')).toMatchObject([{ kind: 'STALE_AFTER_CLOSE', requestId: read.requestId }]);
  });
});
