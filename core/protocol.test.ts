/**
 * Malformed protocol input (SPEC §11): the core never throws on it; it records a typed rejection (or an
 * audit) and keeps the durable ledger intact. Validation helpers are tested directly, and through `step`.
 */
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { checkRequestId, checkUri, interpretNotification, interpretRead, isNotFound } from './protocol.js';
import { step } from './reducer.js';
import { initialState, type CoreState, type Ledger } from './state.js';
import {
  ackOutcome,
  connected,
  contentOutcome,
  deepFreeze,
  effectsOf,
  readsSent,
  responded,
  runInputs,
  subscribeCommanded,
  testConfig,
  unsubscribeCommanded,
} from './testing.js';
import type { ClientConfig, ClientEffect, ClientInput, ResponseOutcome } from './types.js';

const uri = 'file:///a.txt';
const otherUri = 'file:///b.txt';
const session = 1;

interface Fixture {
  name: string;
  state: CoreState;
  /** Request ids of reads in flight (ascending). */
  reads: number[];
  /** Every request id in flight. */
  inflight: number[];
}

/** Subscribed and ACKed; `cycles` reads answered; then `pending` reconcile-style reads left in flight. */
function readPending(config: ClientConfig = testConfig()): Fixture {
  let { state, effects } = runInputs(initialState(config), [connected(0, session), subscribeCommanded(0, uri), subscribeCommanded(0, otherUri)]);
  const subscribes = effectsOf(effects, 'RequestSent');
  ({ state, effects } = runInputs(state, subscribes.map((request, index) => responded(1 + index, session, request.requestId, ackOutcome))));
  const reads = readsSent(effects).map((read) => read.requestId);
  // Answer the second resource's read so only the first one's read (one, not dirty) is in flight.
  const other = readsSent(effects).find((read) => read.uri === otherUri)!;
  ({ state } = runInputs(state, [responded(5, session, other.requestId, contentOutcome(otherUri, 'b'))]));
  const mine = reads.filter((id) => id !== other.requestId);
  expect(state.ledger.subscriptions[uri]!.state).toBe('READ_PENDING');
  return { name: 'READ_PENDING', state, reads: mine, inflight: mine };
}

function fixtures(): Fixture[] {
  const fresh = initialState(testConfig());
  const pending = readPending();
  const closing = runInputs(pending.state, [unsubscribeCommanded(10, uri)]);
  const unsubscribe = effectsOf(closing.effects, 'RequestSent').map((request) => request.requestId);
  return [
    { name: 'fresh', state: fresh, reads: [], inflight: [] },
    pending,
    { name: 'UNSUBSCRIBING', state: closing.state, reads: pending.reads, inflight: [...pending.reads, ...unsubscribe] },
  ];
}

const allFixtures = fixtures();
const fixtureArbitrary = fc.constantFrom(...allFixtures);

/** fc.anything with the odd shapes too (null prototypes, boxed values, maps, typed arrays, bigint, dates). */
const anything = fc.anything({
  withNullPrototype: true,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withBigInt: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withObjectString: true,
  maxDepth: 3,
});

const knownInputTypes = new Set([
  'SubscribeCommanded',
  'UnsubscribeCommanded',
  'DiscoverCommanded',
  'ServeCommanded',
  'CompletenessTaskCommanded',
  'Connected',
  'Disconnected',
  'ResponseArrived',
  'NotificationArrived',
  'TimerFired',
  'AuthorizationChanged',
]);

function stepFrozen(state: CoreState, input: ClientInput): { state: CoreState; effects: ClientEffect[] } {
  return step(deepFreeze(state), input);
}

function rejectionKinds(effects: ClientEffect[]): string[] {
  return effectsOf(effects, 'ProtocolRejected').map((effect) => effect.rejection.kind);
}

/** The ledger with every subscription's state field removed (a read that settles moves READ_PENDING -> ACTIVE). */
function ledgerWithoutStates(ledger: Ledger): unknown {
  const subscriptions: Record<string, unknown> = {};
  for (const key in ledger.subscriptions) subscriptions[key] = { ...ledger.subscriptions[key], state: undefined };
  return { ...ledger, subscriptions };
}

/** When `read` answers (virtual ms). */
const answeredAtMs = 20;

function read(requestId: unknown, outcome: ResponseOutcome): ClientInput {
  return responded(answeredAtMs, session, requestId, outcome);
}

// -- step never throws on malformed input ------------------------------------------------------------------

describe('step never throws on malformed protocol input: responses', () => {
  test.prop([fixtureArbitrary, anything, anything], { numRuns: 150 })(
    'a response id that is not a positive integer: one MalformedResponse rejection, state unchanged',
    (fixture, requestId, result) => {
      fc.pre(checkRequestId(requestId) === null);
      const output = stepFrozen(fixture.state, read(requestId, { type: 'result', result }));
      expect(output.effects).toEqual([{ type: 'ProtocolRejected', rejection: { kind: 'MalformedResponse', detail: expect.any(String) } }]);
      expect(output.state).toEqual(fixture.state);
    },
  );

  test.prop([fixtureArbitrary, fc.integer({ min: 1, max: 1_000_000 }), anything, anything, anything], { numRuns: 150 })(
    'a response for no request in flight (any outcome): one UNKNOWN_RESPONSE audit, state unchanged',
    (fixture, requestId, result, code, message) => {
      fc.pre(!fixture.inflight.includes(requestId));
      for (const outcome of [{ type: 'result', result }, { type: 'error', code, message }] as ResponseOutcome[]) {
        const output = stepFrozen(fixture.state, read(requestId, outcome));
        expect(output.effects).toEqual([{ type: 'AuditWritten', kind: 'UNKNOWN_RESPONSE', uri: '', requestId, detail: expect.any(String) }]);
        expect(output.state).toEqual(fixture.state);
      }
    },
  );

  test.prop([anything, anything, anything, anything, fc.boolean()], { numRuns: 300 })(
    'a read answered with any result, code or message: no throw, no accept unless valid, the fence ledger intact when rejected',
    (result, code, message, data, isError) => {
      const fixture = allFixtures[1]!;
      const outcome: ResponseOutcome = isError ? { type: 'error', code, message, data } : { type: 'result', result };
      const output = stepFrozen(fixture.state, read(fixture.reads[0], outcome));
      const verdict = interpretRead(outcome, uri, testConfig().contentCharsMax);
      expect(effectsOf(output.effects, 'VersionAccepted').length).toBe(verdict.type === 'content' ? 1 : 0);
      expect(effectsOf(output.effects, 'TombstonePending').length).toBe(verdict.type === 'not-found' ? 1 : 0);
      if (verdict.type === 'rejected') {
        expect(rejectionKinds(output.effects)).toEqual([verdict.rejection.kind]);
        // The read settled (READ_PENDING -> ACTIVE); watermarks, versions, outbox and counters are untouched; it brought
        // nothing, so the next reconciliation read comes readHedgeMs from now (core/reducer-responses.ts retrySoon).
        expect(ledgerWithoutStates(output.state.ledger)).toEqual(ledgerWithoutStates(fixture.state.ledger));
        expect(output.effects.map((effect) => effect.type)).toEqual(['ProtocolRejected', 'Transitioned', 'TimerArmed']);
        expect(output.effects[2]).toEqual({ type: 'TimerArmed', timer: { kind: 'reconcile', uri }, deadlineMs: answeredAtMs + testConfig().readHedgeMs });
      }
    },
  );
});

describe('step never throws on malformed protocol input: notifications, input types, helpers', () => {
  test.prop([fixtureArbitrary, anything, anything], { numRuns: 200 })(
    'a notification with any method and params: a rejection for anything malformed, state unchanged',
    (fixture, method, params) => {
      const input: ClientInput = { type: 'NotificationArrived', nowMs: 20, jitter: 0, sessionGeneration: session, method, params };
      const output = stepFrozen(fixture.state, input);
      const verdict = interpretNotification(method, params);
      if (verdict.type === 'rejected') {
        expect(output.effects).toEqual([{ type: 'ProtocolRejected', rejection: verdict.rejection }]);
        expect(output.state).toEqual(fixture.state);
      }
    },
  );

  test.prop([fixtureArbitrary, fc.oneof(fc.string(), anything)], { numRuns: 150 })(
    'an unknown input type: one rejection, state unchanged',
    (fixture, type) => {
      fc.pre(typeof type !== 'string' || !knownInputTypes.has(type));
      const output = stepFrozen(fixture.state, { type, nowMs: 20, jitter: 0 } as unknown as ClientInput);
      expect(output.effects).toEqual([{ type: 'ProtocolRejected', rejection: { kind: 'MalformedInput', detail: expect.any(String) } }]);
      expect(output.state).toEqual(fixture.state);
    },
  );

  test.prop([anything, anything, anything])('the validation helpers never throw', (value, code, message) => {
    checkRequestId(value);
    checkUri(value, 'test');
    isNotFound(code, message);
    interpretNotification(value, code);
    interpretNotification('notifications/resources/updated', value);
    interpretRead({ type: 'result', result: value }, uri, 100);
    interpretRead({ type: 'result', result: { contents: value } }, uri, 100);
    interpretRead({ type: 'result', result: { contents: [value] } }, uri, 100);
    interpretRead({ type: 'result', result: { contents: [{ uri, text: value, mimeType: code }] } }, uri, 100);
    interpretRead({ type: 'error', code, message: value }, uri, 100);
  });
});

// -- targeted malformed responses through step ---------------------------------------------------------------

describe('malformed read responses are rejected with a typed error and keep the ledger intact', () => {
  const cases: [string, unknown, string][] = [
    ['result not an object', 'hello', 'MalformedResponse'],
    ['result null', null, 'MalformedResponse'],
    ['contents missing', {}, 'MalformedResponse'],
    ['contents not an array', { contents: { uri, text: 'x' } }, 'MalformedResponse'],
    ['contents a string', { contents: 'x' }, 'MalformedResponse'],
    ['contents empty', { contents: [] }, 'MalformedResponse'],
    ['content item not an object', { contents: [42] }, 'MalformedResponse'],
    ['content item of another resource', { contents: [{ uri: otherUri, mimeType: 'text/plain', text: 'x' }] }, 'ContentUriMismatch'],
    ['content item of a sub-resource', { contents: [{ uri: uri + '/child', text: 'x' }] }, 'ContentUriMismatch'],
    ['content item uri missing', { contents: [{ mimeType: 'text/plain', text: 'x' }] }, 'InvalidUri'],
    ['content item uri unparseable', { contents: [{ uri: 'not a uri', text: 'x' }] }, 'InvalidUri'],
    ['content item uri with a bad escape', { contents: [{ uri: 'file:///a%zz', text: 'x' }] }, 'InvalidUri'],
    ['text a number', { contents: [{ uri, mimeType: 'text/plain', text: 5 }] }, 'MalformedResponse'],
    ['text null and no blob', { contents: [{ uri, mimeType: 'text/plain', text: null }] }, 'MalformedResponse'],
    ['mimeType not a string', { contents: [{ uri, mimeType: 7, text: 'x' }] }, 'MalformedResponse'],
  ];

  it.each(cases)('%s', (_name, result, kind) => {
    const fixture = readPending();
    const output = stepFrozen(fixture.state, read(fixture.reads[0], { type: 'result', result }));
    expect(output.effects).toEqual([
      { type: 'ProtocolRejected', rejection: { kind, detail: expect.any(String) } },
      { type: 'Transitioned', uri, from: 'READ_PENDING', to: 'ACTIVE', event: 'read_settled' },
      // It brought nothing: the next reconciliation read is brought forward (core/reducer-responses.ts retrySoon).
      { type: 'TimerArmed', timer: { kind: 'reconcile', uri }, deadlineMs: answeredAtMs + testConfig().readHedgeMs },
    ]);
    expect(ledgerWithoutStates(output.state.ledger)).toEqual(ledgerWithoutStates(fixture.state.ledger));
    expect(output.state.volatile.uris[uri]!.requests).toEqual([]);
  });

  it('content larger than contentCharsMax is ContentTooLarge; exactly contentCharsMax is accepted', () => {
    const fixture = readPending(testConfig({ contentCharsMax: 16 }));
    const tooLarge = stepFrozen(fixture.state, read(fixture.reads[0], contentOutcome(uri, 'x'.repeat(17))));
    expect(rejectionKinds(tooLarge.effects)).toEqual(['ContentTooLarge']);
    expect(effectsOf(tooLarge.effects, 'VersionAccepted')).toEqual([]);
    expect(ledgerWithoutStates(tooLarge.state.ledger)).toEqual(ledgerWithoutStates(fixture.state.ledger));
    const fits = stepFrozen(fixture.state, read(fixture.reads[0], contentOutcome(uri, 'x'.repeat(16))));
    expect(effectsOf(fits.effects, 'VersionAccepted')).toMatchObject([{ text: 'x'.repeat(16) }]);
  });

  it('a huge content with the default limit is ContentTooLarge', () => {
    const fixture = readPending();
    const huge = 'y'.repeat(testConfig().contentCharsMax + 1);
    const output = stepFrozen(fixture.state, read(fixture.reads[0], { type: 'result', result: { contents: [{ uri, blob: huge }] } }));
    expect(rejectionKinds(output.effects)).toEqual(['ContentTooLarge']);
    expect(ledgerWithoutStates(output.state.ledger)).toEqual(ledgerWithoutStates(fixture.state.ledger));
  });

  it('an equivalent spelling of the URI is the same resource; the matching item among others is taken', () => {
    const fixture = readPending();
    const result = { contents: [{ uri: otherUri, text: 'no' }, { uri: 'FILE:///x/../a.txt', text: 'yes' }] };
    const output = stepFrozen(fixture.state, read(fixture.reads[0], { type: 'result', result }));
    expect(effectsOf(output.effects, 'VersionAccepted')).toMatchObject([{ uri, text: 'yes', mimeType: 'application/octet-stream' }]);
  });

  it.each([
    ['-32002', { type: 'error', code: -32002, message: 'Resource not found' }, 'not-found'],
    ['-32602 "not found"', { type: 'error', code: -32602, message: 'Resource Not Found: file:///a.txt' }, 'not-found'],
    ['-32602 other', { type: 'error', code: -32602, message: 'Invalid params' }, 'failed'],
    ['code a string', { type: 'error', code: '-32002', message: 'Resource not found' }, 'rejected'],
    ['code fractional', { type: 'error', code: -32002.5, message: 'x' }, 'rejected'],
  ] as [string, ResponseOutcome, string][])('error outcome %s', (_name, outcome, expected) => {
    expect(interpretRead(outcome, uri, 100).type).toBe(expected);
    const fixture = readPending();
    const output = stepFrozen(fixture.state, read(fixture.reads[0], outcome));
    expect(effectsOf(output.effects, 'TombstonePending').length).toBe(expected === 'not-found' ? 1 : 0);
    expect(rejectionKinds(output.effects)).toEqual(expected === 'rejected' ? ['MalformedResponse'] : []);
  });
});

describe('malformed request ids', () => {
  it.each([
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    ["'5'", '5'],
    ['null', null],
    ['undefined', undefined],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['2^53', 2 ** 53],
    ['an array', [2]],
    ['an object', { id: 2 }],
    ['true', true],
  ])('request id %s is MalformedResponse and changes nothing', (_name, requestId) => {
    const fixture = readPending();
    const output = stepFrozen(fixture.state, read(requestId, contentOutcome(uri, 'x')));
    expect(output.effects).toEqual([{ type: 'ProtocolRejected', rejection: { kind: 'MalformedResponse', detail: expect.any(String) } }]);
    expect(output.state).toEqual(fixture.state);
  });

  it('the id of a read in flight spelled as a string (or as a float string) is not that read', () => {
    const fixture = readPending();
    for (const spelled of [String(fixture.reads[0]), `${fixture.reads[0]}.0`, ` ${fixture.reads[0]}`]) {
      const output = stepFrozen(fixture.state, read(spelled, contentOutcome(uri, 'x')));
      expect(rejectionKinds(output.effects)).toEqual(['MalformedResponse']);
      expect(output.state).toEqual(fixture.state);
    }
  });
});

describe('malformed notifications, input types and URIs', () => {
  it.each([
    ['updated without params', 'MalformedNotification', 'notifications/resources/updated', undefined],
    ['updated with params an array', 'MalformedNotification', 'notifications/resources/updated', [uri]],
    ['updated without uri', 'InvalidUri', 'notifications/resources/updated', {}],
    ['updated with uri a number', 'InvalidUri', 'notifications/resources/updated', { uri: 5 }],
    ['updated with an unparseable uri', 'InvalidUri', 'notifications/resources/updated', { uri: '::not a uri' }],
    ['updated with an empty uri', 'InvalidUri', 'notifications/resources/updated', { uri: '' }],
    ['with an unknown method', 'UnknownNotification', 'notifications/message', { uri }],
    ['with a method not a string', 'UnknownNotification', 42, { uri }],
    ['with a huge unknown method', 'UnknownNotification', 'x'.repeat(100_000), {}],
  ])('notification %s is %s and changes nothing', (_name, kind, method, params) => {
    const fixture = readPending();
    const input: ClientInput = { type: 'NotificationArrived', nowMs: 20, jitter: 0, sessionGeneration: session, method, params };
    const output = stepFrozen(fixture.state, input);
    expect(output.effects).toEqual([{ type: 'ProtocolRejected', rejection: { kind, detail: expect.any(String) } }]);
    expect(output.effects[0]!.type === 'ProtocolRejected' && output.effects[0]!.rejection.detail.length).toBeLessThan(1_000);
    expect(output.state).toEqual(fixture.state);
  });

  it.each([
    ['a null-prototype object', Object.create(null) as unknown],
    ['a symbol', Symbol('x')],
    ['a bigint', 10n],
    ['undefined', undefined],
    ['a huge string', 'T'.repeat(100_000)],
  ])('an input whose type is %s is rejected, not thrown', (_name, type) => {
    const fixture = readPending();
    const output = stepFrozen(fixture.state, { type, nowMs: 20, jitter: 0 } as unknown as ClientInput);
    expect(rejectionKinds(output.effects)).toEqual(['MalformedInput']);
    expect(output.effects[0]!.type === 'ProtocolRejected' && output.effects[0]!.rejection.detail.length).toBeLessThan(1_000);
    expect(output.state).toEqual(fixture.state);
  });

  it.each(['', 'not a uri', '::', 'file:///a b', 'http://[::1/x', 'a%2', 'x'.repeat(9_000)].map((bad) => [bad.slice(0, 20), bad]))(
    'commands with the unparseable URI %j are InvalidUri and change nothing',
    (_name, bad) => {
      const fixture = readPending();
      for (const input of [subscribeCommanded(20, bad), unsubscribeCommanded(20, bad)]) {
        const output = stepFrozen(fixture.state, input);
        expect(output.effects).toEqual([{ type: 'ProtocolRejected', rejection: { kind: 'InvalidUri', detail: expect.any(String) } }]);
        expect(output.state).toEqual(fixture.state);
      }
    },
  );

  it('checkRequestId accepts positive safe integers only', () => {
    expect([1, 7, Number.MAX_SAFE_INTEGER].map(checkRequestId)).toEqual([1, 7, Number.MAX_SAFE_INTEGER]);
    expect([0, -1, 1.5, '5', Number.MAX_SAFE_INTEGER + 1, Number.NaN, null].map(checkRequestId)).toEqual([null, null, null, null, null, null, null]);
  });
});
