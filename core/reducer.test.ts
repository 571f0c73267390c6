/**
 * Model-based tests of the reference reducer: random action sequences (connect, subscribe, notify on the
 * current or an old session, fire any armed timer — also late, early or after it was disarmed — answer any
 * outstanding request in any order, drop responses, unsubscribe, disconnect, crash) are driven against
 * the live state by `drive` (testing.ts); the properties below judge only the returned effects and state.
 */
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { durableLedger, recoverFromLedger, referenceClient, step } from './reducer.js';
import { recoverStep } from './recovery.js';
import { initialState, timerKinds, type CoreState } from './state.js';
import {
  ackOutcome,
  canonicalOf,
  connected,
  deepFreeze,
  drive,
  effectsOf,
  internalErrorOutcome,
  jsonCopy,
  readsSent,
  responded,
  runInputs,
  subscribeCommanded,
  testConfig,
  timerFired,
  type Action,
  type Trace,
  type TraceStep,
} from './testing.js';
import { transition } from './transitions.js';
import type { ClientEffect, SubscriptionState, TimerKind } from './types.js';

import { actionArbitrary, actionsArbitrary } from './arbitraries.js';

const numRuns = 120;

// -- helpers ----------------------------------------------------------------------------------------

const closedStates: readonly SubscriptionState[] = ['CLOSED', 'UNSUBSCRIBE_UNKNOWN'];
const closingStates: readonly SubscriptionState[] = ['UNSUBSCRIBING', 'CLOSED', 'UNSUBSCRIBE_UNKNOWN'];

/** A cheap assertion for hot loops (vitest's expect costs microseconds per call). */
function check(condition: boolean, message: () => string): asserts condition {
  if (!condition) throw new Error(message());
}

function show(value: unknown): string {
  return JSON.stringify(value);
}

function effectUri(effect: ClientEffect): string | null {
  return 'uri' in effect ? effect.uri : null;
}

function isRead(stepRecord: TraceStep): boolean {
  return stepRecord.answered !== null && stepRecord.answered.sent.method === 'resources/read';
}

function isDeadRequest(stepRecord: TraceStep): boolean {
  return stepRecord.answered !== null && (!stepRecord.answered.sessionAlive || stepRecord.answered.crashedSince);
}

function commandUri(stepRecord: TraceStep): string | null {
  const action = stepRecord.action;
  return action.kind === 'subscribe' || action.kind === 'unsubscribe' ? canonicalOf(action.resource) : null;
}

/** The new record a SubscribeCommanded creates (none when the URI already has an open one). */
function createdUri(stepRecord: TraceStep): string | null {
  if (stepRecord.input?.type !== 'SubscribeCommanded') return null;
  const uri = commandUri(stepRecord)!;
  const previous = stepRecord.before.ledger.subscriptions[uri]?.state;
  return previous === undefined || closingStates.includes(previous) ? uri : null;
}

function expectUnknownResponseOnly(stepRecord: TraceStep): void {
  expect(stepRecord.effects).toEqual([
    { type: 'AuditWritten', kind: 'UNKNOWN_RESPONSE', uri: '', requestId: stepRecord.answered!.sent.requestId, detail: expect.any(String) },
  ]);
  expect(stepRecord.after.ledger).toEqual(stepRecord.before.ledger);
}

function expectStaleAfterCloseOnly(stepRecord: TraceStep): void {
  const sent = stepRecord.answered!.sent;
  expect(stepRecord.effects).toEqual([
    { type: 'AuditWritten', kind: 'STALE_AFTER_CLOSE', uri: sent.uri, requestId: sent.requestId, detail: expect.any(String) },
  ]);
  expect(stepRecord.after.ledger).toEqual(stepRecord.before.ledger);
}

/** Plain JSON data only: what JSON round-trips exactly (no undefined, NaN, -0, class instances). */
function isJsonData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isJsonData);
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value as object).every(isJsonData);
}

// -- properties: ordinal fence ------------------------------------------------------------------------

describe('reducer, model-based: ordinal fence', () => {
  test.prop([actionsArbitrary], { numRuns })('accepted read ordinals strictly increase per URI and per subscriptionGeneration', (actions) => {
    const trace = drive(actions);
    const acceptedByUri = new Map<string, number>();
    const acceptedByGeneration = new Map<string, number>();
    const issuedByUri = new Map<string, number>();
    for (const stepRecord of trace.steps) {
      for (const read of readsSent(stepRecord.effects)) {
        check(read.readOrdinal! > (issuedByUri.get(read.uri) ?? 0), () => `issued ordinal went backwards: ${show(read)}`);
        issuedByUri.set(read.uri, read.readOrdinal!);
      }
      let accepts = 0;
      for (const effect of stepRecord.effects) {
        if (effect.type !== 'VersionAccepted' && effect.type !== 'TombstonePending') continue;
        accepts += 1;
        const last = acceptedByUri.get(effect.uri) ?? 0;
        check(effect.readOrdinal > last, () => `accepted ordinal ${effect.readOrdinal} after ${last}: ${show(effect)}`);
        acceptedByUri.set(effect.uri, effect.readOrdinal);
        // It is the answer to a live read of this URI with this ordinal, issued in the current session.
        const answered = stepRecord.answered;
        check(answered !== null, () => `${effect.type} without a read response: ${show(stepRecord.input)}`);
        expect(answered.sent).toMatchObject({ method: 'resources/read', uri: effect.uri, readOrdinal: effect.readOrdinal });
        check(answered.sessionAlive && !answered.crashedSince && !answered.unsubscribedSince, () => `accepted a dead read ${show(answered)}`);
        const before = stepRecord.before.ledger.subscriptions[effect.uri]!;
        if (effect.type === 'VersionAccepted') {
          const key = `${effect.uri}#${effect.subscriptionGeneration}`;
          check(effect.readOrdinal > (acceptedByGeneration.get(key) ?? 0), () => `per-generation ordinal went backwards ${show(effect)}`);
          acceptedByGeneration.set(key, effect.readOrdinal);
          expect(effect).toMatchObject({
            text: stepRecord.answeredText,
            sessionGeneration: answered.sent.sessionGeneration,
            subscriptionGeneration: before.subscriptionGeneration,
            watermarkBefore: before.lastAcceptedOrdinal,
          });
        }
        expect(stepRecord.after.ledger.subscriptions[effect.uri]!.lastAcceptedOrdinal).toBe(effect.readOrdinal);
      }
      check(accepts <= 1, () => `more than one accept in a step: ${show(stepRecord.effects)}`);
      for (const stale of effectsOf(stepRecord.effects, 'StaleReceiptWritten')) {
        if (stale.reason === 'ORDINAL') check(stale.readOrdinal <= stale.watermark, () => `ORDINAL stale receipt above the watermark ${show(stale)}`);
      }
    }
  });

  test.prop([actionsArbitrary], { numRuns })('outbox sequences strictly increase and every upsert comes with its accepted version', (actions) => {
    const trace = drive(actions);
    let sequence = 0;
    for (const stepRecord of trace.steps) {
      for (const entry of effectsOf(stepRecord.effects, 'OutboxEntryWritten')) {
        check(entry.sequence > sequence, () => `outbox sequence ${entry.sequence} after ${sequence}`);
        sequence = entry.sequence;
        if (entry.operation === 'upsert') {
          expect(effectsOf(stepRecord.effects, 'VersionAccepted')).toMatchObject([{ uri: entry.uri, digest: entry.digest }]);
        }
      }
    }
  });
});

// -- properties: close fence and the state machine ------------------------------------------------------

describe('reducer, model-based: close fence', () => {
  test.prop([actionsArbitrary], { numRuns })(
    'after UnsubscribeCommanded and until the next SubscribeCommanded: no accept, tombstone, outbox or read; responses only audit',
    (actions) => {
      const trace = drive(actions);
      const closed = new Set<string>();
      for (const stepRecord of trace.steps) {
        const uri = commandUri(stepRecord);
        if (stepRecord.input?.type === 'SubscribeCommanded') closed.delete(uri!);
        if (stepRecord.input?.type === 'UnsubscribeCommanded') closed.add(uri!);
        for (const effect of stepRecord.effects) {
          const effectOn = effectUri(effect);
          if (effectOn === null || !closed.has(effectOn)) continue;
          const forbidden =
            effect.type === 'VersionAccepted' ||
            effect.type === 'TombstonePending' ||
            effect.type === 'OutboxEntryWritten' ||
            (effect.type === 'RequestSent' && effect.method === 'resources/read');
          check(!forbidden, () => `${effect.type} for ${effectOn} after its unsubscribe: ${show(effect)}`);
        }
        if (!isRead(stepRecord)) continue;
        const answered = stepRecord.answered!;
        if (!closed.has(answered.sent.uri) && !answered.unsubscribedSince) continue;
        // A read answered during a close, or issued before one, never yields more than an audit.
        if (isDeadRequest(stepRecord)) expectUnknownResponseOnly(stepRecord);
        else expectStaleAfterCloseOnly(stepRecord);
      }
    },
  );

  test.prop([actionsArbitrary], { numRuns })(
    'every state change, recovery included, is a Transitioned table edge chaining from the recorded state; nothing leaves CLOSED / UNSUBSCRIBE_UNKNOWN',
    (actions) => {
      const trace = drive(actions);
      for (const stepRecord of trace.steps) {
        // A crash is a step too: recovery moves every subscription through the table (recoverStep).
        if (stepRecord.crashed) expectRecoveredStates(stepRecord);
        const before = stepRecord.before.ledger.subscriptions;
        const after = stepRecord.after.ledger.subscriptions;
        const created = createdUri(stepRecord);
        const reached = new Map<string, SubscriptionState>();
        for (const moved of effectsOf(stepRecord.effects, 'Transitioned')) {
          const edge = transition(moved.from, moved.event);
          check(edge.ok && edge.to === moved.to, () => `not a table edge: ${show(moved)}`);
          check(
            !closedStates.includes(moved.from) || (moved.from === 'UNSUBSCRIBE_UNKNOWN' && moved.to === 'CLOSED'),
            () => `left a closed state: ${show(moved)}`,
          );
          // A new record (SubscribeCommanded on a closed URI) starts over at DISCOVERED.
          const prior = reached.get(moved.uri) ?? (moved.uri === created ? 'DISCOVERED' : before[moved.uri]?.state);
          check(moved.from === prior, () => `transition from ${moved.from}, but the record was ${prior}: ${show(moved)}`);
          reached.set(moved.uri, moved.to);
        }
        for (const uri in after) {
          const previous = before[uri]?.state;
          const expected = reached.get(uri) ?? (uri === created ? 'DISCOVERED' : previous);
          const actual = after[uri]!.state;
          check(actual === expected, () => `${uri} is ${actual} without a Transitioned effect from ${previous}`);
          check(
            previous === undefined || !closedStates.includes(previous) || uri === created || closedStates.includes(actual),
            () => `${uri} left ${previous} for ${actual}`,
          );
          // A step always settles an accept: VERSION_ACCEPTED never outlives the step that entered it.
          check(actual !== 'VERSION_ACCEPTED', () => `${uri} rests in VERSION_ACCEPTED`);
        }
        check(Object.keys(before).every((uri) => uri in after), () => 'a subscription record disappeared');
      }
    },
  );
});

function expectRecoveredStates(stepRecord: TraceStep): void {
  const before = stepRecord.before.ledger.subscriptions;
  const after = stepRecord.after.ledger.subscriptions;
  expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  for (const uri in before) {
    const previous = before[uri]!.state;
    const expected: SubscriptionState = closingStates.includes(previous)
      ? 'CLOSED'
      : previous === 'DISCOVERED' || previous === 'RECONCILIATION_REQUIRED'
        ? previous
        : 'RECONCILIATION_REQUIRED';
    expect(after[uri]!.state, `${uri} recovered from ${previous}`).toBe(expected);
  }
}

// -- properties: purity ----------------------------------------------------------------------------------

describe('reducer, model-based: purity', () => {
  test.prop([actionsArbitrary], { numRuns })('state always JSON round-trips and the (deep-frozen) input state is never mutated', (actions) => {
    // drive() deep-freezes every state and input before stepping, so a write to either throws here.
    const trace = drive(actions, testConfig(), { snapshots: true });
    for (const stepRecord of trace.steps) {
      check(Object.isFrozen(stepRecord.before.ledger) && Object.isFrozen(stepRecord.before.volatile), () => 'state not frozen');
      check(JSON.stringify(stepRecord.before) === stepRecord.beforeJson, () => `step mutated its input state: ${show(stepRecord.input)}`);
      check(isJsonData(stepRecord.after), () => `state is not plain JSON data after ${show(stepRecord.input)}`);
      check(isJsonData(stepRecord.effects), () => `effects are not plain JSON data: ${show(stepRecord.effects)}`);
    }
    expect(jsonCopy(trace.final)).toStrictEqual(trace.final);
  });

  test.prop([actionsArbitrary], { numRuns: 60 })('the same input on an equal (JSON-copied) state gives the same state and effects', (actions) => {
    const trace = drive(actions);
    for (const stepRecord of trace.steps) {
      if (stepRecord.input === null) continue;
      const again = step(jsonCopy(stepRecord.before), jsonCopy(stepRecord.input));
      check(JSON.stringify(again.effects) === JSON.stringify(stepRecord.effects), () => `effects differ for ${show(stepRecord.input)}`);
      check(JSON.stringify(again.state) === JSON.stringify(stepRecord.after), () => `state differs for ${show(stepRecord.input)}`);
    }
  });
});

// -- properties: timers ------------------------------------------------------------------------------------

describe('reducer, model-based: timers', () => {
  test.prop([actionsArbitrary], { numRuns: 300 })('a stale TimerFired (wrong deadline, disarmed, already fired) yields no effects and an equal state', (actions) => {
    const trace = drive(actions);
    for (const stepRecord of trace.steps) {
      if (stepRecord.input?.type !== 'TimerFired') continue;
      const fired = stepRecord.input;
      const kind = timerKinds.indexOf(fired.timer.kind);
      const armedMs = stepRecord.before.volatile.uris[fired.timer.uri]?.deadlines[kind] ?? -1;
      // Stale as the model knows it (re-armed, fired already, session ended) or as the state says (disarmed).
      const stale = stepRecord.timer!.staleByModel || armedMs === -1 || armedMs !== fired.deadlineMs;
      if (!stale) continue;
      expect(stepRecord.effects, `stale ${show(fired)}`).toEqual([]);
      expect(stepRecord.after).toEqual(stepRecord.before);
    }
  });
});

describe('reducer: stale timer examples', () => {
  const uri = 'file:///a.txt';
  const subscribing = (): CoreState => runInputs(initialState(testConfig()), [connected(0, 1), subscribeCommanded(0, uri)]).state;
  /** The subscribe ACK delivered: ACTIVE, then READ_PENDING on its initial read. */
  const acked = (): { state: CoreState; effects: ClientEffect[] } => {
    const state = subscribing();
    const subscribe = state.volatile.uris[uri]!.requests[0]!;
    return runInputs(state, [responded(1, 1, subscribe.requestId, ackOutcome)]);
  };
  /** ACTIVE with no accepted version: the initial read failed, so no lease timer was ever armed. */
  const activeWithoutLease = (): CoreState => {
    const { state, effects } = acked();
    const read = readsSent(effects)[0]!;
    return runInputs(state, [responded(2, 1, read.requestId, internalErrorOutcome)]).state;
  };

  it.each([
    ['reconcile while SUBSCRIBING', subscribing, 'reconcile'],
    ['lease while ACTIVE without a lease', activeWithoutLease, 'lease'],
    ['debounce while ACTIVE', activeWithoutLease, 'debounce'],
    ['resubscribe while ACTIVE', activeWithoutLease, 'resubscribe'],
  ])('a TimerFired with deadline -1 for a disarmed timer is a no-op (%s)', (_name, setup, kind) => {
    const state = setup();
    expect(state.ledger.subscriptions[uri]!.state).toBe(kind === 'reconcile' ? 'SUBSCRIBING' : 'ACTIVE');
    const result = step(deepFreeze(state), timerFired(50, { kind: kind as TimerKind, uri }, -1));
    expect(result.effects).toEqual([]);
    expect(result.state).toEqual(state);
  });

  it('a TimerFired with the armed deadline acts, once; a second firing of it is a no-op', () => {
    const { state, effects } = acked();
    const reconcile = effectsOf(effects, 'TimerArmed').find((timer) => timer.timer.kind === 'reconcile' && timer.timer.uri === uri)!;
    const early = step(deepFreeze(state), timerFired(reconcile.deadlineMs, reconcile.timer, reconcile.deadlineMs - 1));
    expect(early.effects).toEqual([]);
    const fired = step(deepFreeze(state), timerFired(reconcile.deadlineMs, reconcile.timer, reconcile.deadlineMs));
    expect(effectsOf(fired.effects, 'TimerArmed').map((timer) => timer.timer)).toEqual([{ kind: 'reconcile', uri }]);
    const again = step(deepFreeze(fired.state), timerFired(reconcile.deadlineMs, reconcile.timer, reconcile.deadlineMs));
    expect(again.effects).toEqual([]);
    expect(again.state).toEqual(fired.state);
  });
});

// -- properties: sessions, disconnects and crashes ------------------------------------------------------------

describe('reducer, model-based: sessions', () => {
  test.prop([actionsArbitrary], { numRuns })('a notification on an old session (or while disconnected) is audited and changes nothing', (actions) => {
    const trace = drive(actions);
    for (const stepRecord of trace.steps) {
      if (stepRecord.input?.type !== 'NotificationArrived') continue;
      if (stepRecord.connectedBefore && stepRecord.input.sessionGeneration === stepRecord.sessionBefore) continue;
      const uri = canonicalOf((stepRecord.action as Extract<Action, { kind: 'notify' }>).resource);
      expect(stepRecord.effects).toEqual([{ type: 'AuditWritten', kind: 'OLD_SESSION_NOTIFICATION', uri, requestId: 0, detail: expect.any(String) }]);
      expect(stepRecord.after).toEqual(stepRecord.before);
    }
  });

  test.prop([actionsArbitrary], { numRuns })(
    'after Disconnected no late response of the dead session is accepted; the next Connected re-subscribes every wanted URI with a new generation',
    (actions) => {
      const trace = drive(actions);
      let generationMax = 0;
      for (const stepRecord of trace.steps) {
        if (isDeadRequest(stepRecord)) expectUnknownResponseOnly(stepRecord);
        if (stepRecord.input?.type === 'Disconnected') {
          expect(effectsOf(stepRecord.effects, 'RequestSent')).toEqual([]);
          expect(stepRecord.after.volatile.connected).toBe(false);
          for (const uri of stepRecord.wantedBefore) {
            expect(['DISCOVERED', 'RECONCILIATION_REQUIRED']).toContain(stepRecord.after.ledger.subscriptions[uri]!.state);
          }
        }
        if (stepRecord.input?.type === 'Connected') {
          const session = stepRecord.input.sessionGeneration;
          const sent = effectsOf(stepRecord.effects, 'RequestSent').filter((request) => request.method !== 'resources/list');
          const expected = stepRecord.input.capabilities.subscribe
            ? stepRecord.wantedBefore.map((uri) => ['resources/subscribe', uri, session])
            : stepRecord.wantedBefore.map((uri) => ['resources/read', uri, session]);
          expect(sent.map((request) => [request.method, request.uri, request.sessionGeneration]).sort()).toEqual(expected);
          for (const uri of stepRecord.wantedBefore) {
            const record = stepRecord.after.ledger.subscriptions[uri]!;
            expect(record.sessionGeneration).toBe(session);
            expect(record.subscriptionGeneration).toBeGreaterThan(generationMax);
            expect(record.subscriptionGeneration).toBeGreaterThanOrEqual(stepRecord.before.ledger.nextSubscriptionGeneration);
          }
        }
        for (const uri in stepRecord.after.ledger.subscriptions) {
          generationMax = Math.max(generationMax, stepRecord.after.ledger.subscriptions[uri]!.subscriptionGeneration);
        }
      }
    },
  );

  test.prop([actionsArbitrary], { numRuns })('durable counters and per-URI watermarks never go backwards (crash, reconnect, resubscribe)', (actions) => {
    const trace = drive(actions);
    for (const stepRecord of trace.steps) checkLedgerNotBehind(stepRecord.before, stepRecord.after);
  });
});

function checkLedgerNotBehind(before: CoreState, after: CoreState): void {
  const was = before.ledger;
  const is = after.ledger;
  for (const counter of ['nextRequestId', 'nextSubscriptionGeneration', 'closeEpoch', 'outboxSequence', 'sessionGeneration'] as const) {
    check(is[counter] >= was[counter], () => `${counter} went back from ${was[counter]} to ${is[counter]}`);
  }
  for (const uri in was.subscriptions) {
    const previous = was.subscriptions[uri]!;
    const next = is.subscriptions[uri];
    check(next !== undefined, () => `subscription ${uri} lost`);
    check(next.lastIssuedOrdinal >= previous.lastIssuedOrdinal, () => `${uri} lastIssuedOrdinal went back: ${show([previous, next])}`);
    check(next.lastAcceptedOrdinal >= previous.lastAcceptedOrdinal, () => `${uri} lastAcceptedOrdinal went back: ${show([previous, next])}`);
    check(next.lastAcceptedOrdinal <= next.lastIssuedOrdinal, () => `${uri} accepted an ordinal never issued: ${show(next)}`);
    check(next.subscriptionGeneration === 0 || next.subscriptionGeneration >= previous.subscriptionGeneration, () => `${uri} generation went back`);
  }
}

const answerOldest = (count: number): Action[] =>
  Array.from({ length: count }, (_, index) => ({
    kind: 'respond' as const,
    advanceMs: 1,
    jitter: index,
    pick: 0,
    liveOnly: false,
    reply: index % 3 === 2 ? ('not-found' as const) : ('ok' as const),
    text: index,
    spelling: 0,
  }));

describe('reducer: crash and recovery', () => {
  test.prop([actionsArbitrary, fc.array(actionArbitrary, { maxLength: 20, size: 'max' })], { numRuns: 100 })(
    'after a crash and a new session, no pre-crash response is accepted and watermarks are not behind',
    (prefix, suffix) => {
      const crashAt = prefix.length;
      const trace: Trace = drive([
        ...prefix,
        { kind: 'crash', advanceMs: 10, jitter: 0 },
        { kind: 'connect', advanceMs: 10, jitter: 0, subscribe: true },
        ...answerOldest(30),
        ...suffix,
      ]);
      const beforeCrash = trace.steps[crashAt]!.before;
      const recovered = trace.steps[crashAt]!.after;
      // Recovery is recoverFromLedger over the durable part (through JSON, as from disk), keeping every watermark.
      expect(recovered).toEqual(recoverFromLedger(beforeCrash.config, jsonCopy(durableLedger(beforeCrash))));
      expect(recovered.volatile.connected).toBe(false);
      expect(recovered.ledger.nextRequestId).toBe(beforeCrash.ledger.nextRequestId);
      for (const uri in beforeCrash.ledger.subscriptions) {
        const was = beforeCrash.ledger.subscriptions[uri]!;
        expect(recovered.ledger.subscriptions[uri]).toMatchObject({
          lastIssuedOrdinal: was.lastIssuedOrdinal,
          lastAcceptedOrdinal: was.lastAcceptedOrdinal,
          lastAcceptedDigest: was.lastAcceptedDigest,
        });
      }
      for (const stepRecord of trace.steps.slice(crashAt + 1)) {
        checkLedgerNotBehind(beforeCrash, stepRecord.after);
        if (stepRecord.answered?.crashedSince) {
          expect(effectsOf(stepRecord.effects, 'VersionAccepted')).toEqual([]);
          expectUnknownResponseOnly(stepRecord);
        }
      }
    },
  );

  it('referenceClient exposes the same step, durable and recover', () => {
    const config = testConfig();
    const state = referenceClient.init(config);
    expect(referenceClient.step).toBe(step);
    expect(referenceClient.durable!(state)).toEqual(durableLedger(state));
    // recover is a step: the restarted state (what recoverFromLedger gives) and the effects of the restart
    expect(referenceClient.recover!(config, durableLedger(state))).toEqual(recoverStep(config, durableLedger(state)));
    expect(referenceClient.recover!(config, durableLedger(state)).state).toEqual(recoverFromLedger(config, durableLedger(state)));
  });
});

// -- the generator reaches what the properties judge ("sometimes" assertions) ------------------------------------

/** Situations of one trace, named; the properties above are vacuous for any the generator never reaches. */
function reached(trace: Trace): Set<string> {
  const names = new Set<string>();
  for (const stepRecord of trace.steps) {
    for (const effect of stepRecord.effects) {
      if (effect.type === 'VersionAccepted') names.add('version accepted');
      else if (effect.type === 'TombstonePending') names.add('tombstone pending');
      else if (effect.type === 'StaleReceiptWritten') names.add(`stale receipt ${effect.reason}`);
      else if (effect.type === 'Transitioned') names.add(`edge ${effect.from} --${effect.event}-->`);
      else if (effect.type === 'AuditWritten') names.add(`audit ${effect.kind}`);
    }
    if (stepRecord.timer !== null) names.add(stepRecord.timer.staleByModel ? 'stale timer' : 'live timer');
    if (stepRecord.input?.type === 'TimerFired' && stepRecord.input.deadlineMs === -1) names.add('timer fired at -1');
    if (stepRecord.answered !== null && isDeadRequest(stepRecord)) {
      names.add(stepRecord.answered.crashedSince ? 'pre-crash response' : 'dead session response');
    }
    if (isRead(stepRecord) && stepRecord.answered!.unsubscribedSince && !isDeadRequest(stepRecord)) names.add('read answered after close');
    if (stepRecord.input?.type === 'Connected' && stepRecord.wantedBefore.length > 0) names.add('reconnect with wanted URIs');
    if (createdUri(stepRecord) !== null && stepRecord.before.ledger.subscriptions[createdUri(stepRecord)!] !== undefined) {
      names.add('resubscribed after close');
    }
  }
  return names;
}

it('the action generator reaches every situation the properties judge', () => {
  const counts = new Map<string, number>();
  for (const actions of fc.sample(actionsArbitrary, { seed: 20_240_601, numRuns: 400 })) {
    for (const name of reached(drive(actions))) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const required = [
    'version accepted',
    'tombstone pending',
    'stale receipt ORDINAL',
    'audit STALE_AFTER_CLOSE',
    'audit UNKNOWN_RESPONSE',
    'audit OLD_SESSION_NOTIFICATION',
    'read answered after close',
    'stale timer',
    'live timer',
    'timer fired at -1',
    'dead session response',
    'pre-crash response',
    'reconnect with wanted URIs',
    'resubscribed after close',
    'edge UPDATE_SEEN --read_issued-->',
    'edge READ_PENDING --read_issued-->',
    'edge VERSION_ACCEPTED --reads_outstanding-->',
    'edge TOMBSTONE_PENDING --update_seen-->',
    'edge UNSUBSCRIBING --unsubscribe_timed_out-->',
    'edge UNSUBSCRIBE_UNKNOWN --unsubscribe_acked-->',
    'edge RECONCILIATION_REQUIRED --resubscribe-->',
    'edge DISCOVERED --poll_started-->',
  ];
  expect(required.filter((name) => !counts.has(name))).toEqual([]);
});
