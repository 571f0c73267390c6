/**
 * Hostile input (issue 14.1, 14.2, 14.5): the cases found by hand, each pinned, plus the resources
 * capability contract and the content kind. The bulk fuzzing is test/fuzz-core.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LEDGER_TEXT_CHARS_MAX } from './protocol.js';
import { step } from './reducer.js';
import { initialState, type CoreState } from './state.js';
import { contentDigest } from './digest.js';
import {
  ackOutcome,
  capabilitiesSubscribe,
  connected,
  deepFreeze,
  effectsOf,
  jsonCopy,
  readsSent,
  responded,
  runInputs,
  subscribeCommanded,
  testConfig,
} from './testing.js';
import type { ClientEffect, ClientInput, ResponseOutcome } from './types.js';

const uri = 'file:///a.txt';

function discovering(): { state: CoreState; listId: number } {
  const { state, effects } = runInputs(initialState(testConfig()), [connected(0, 1), { type: 'DiscoverCommanded', nowMs: 0, jitter: 0 }]);
  const list = effectsOf(effects, 'RequestSent').find((request) => request.method === 'resources/list')!;
  return { state, listId: list.requestId };
}

function rejected(effects: ClientEffect[]): string[] {
  return effectsOf(effects, 'ProtocolRejected').map((effect) => effect.rejection.kind);
}

function readPending(): { state: CoreState; readId: number } {
  let { state, effects } = runInputs(initialState(testConfig()), [connected(0, 1), subscribeCommanded(0, uri)]);
  const subscribe = effectsOf(effects, 'RequestSent')[0]!;
  ({ state, effects } = runInputs(state, [responded(1, 1, subscribe.requestId, ackOutcome)]));
  return { state, readId: readsSent(effects)[0]!.requestId };
}

describe('issue 14.1: the core never throws on protocol input or caller-filled fields', () => {
  it.each([
    ['code with a bad toString', { toString: 1 }],
    ['null-prototype code', Object.create(null) as unknown],
    ['symbol code', Symbol('x')],
  ])('a resources/list error whose code is a %s abandons the pass, no throw', (_name, code) => {
    const { state, listId } = discovering();
    const outcome = { type: 'error', code, message: 'x' } as ResponseOutcome;
    const result = step(deepFreeze(state), responded(1, 1, listId, outcome));
    expect(effectsOf(result.effects, 'ScanAbandoned')).toMatchObject([{ reason: 'LIST_ERROR' }]);
    expect(jsonCopy(result.state)).toEqual(result.state);
  });

  it('Connected { capabilities: null } is a typed rejection; a later valid subscribe works', () => {
    const start = deepFreeze(initialState(testConfig()));
    const bad = step(start, { type: 'Connected', nowMs: 0, jitter: 0, sessionGeneration: 1, capabilities: null } as unknown as ClientInput);
    expect(rejected(bad.effects)).toEqual(['MalformedInput']);
    expect(bad.state).toBe(start);
    const ok = runInputs(bad.state, [connected(1, 1), subscribeCommanded(1, uri)]);
    expect(effectsOf(ok.effects, 'RequestSent').map((request) => request.method)).toEqual(['resources/subscribe']);
  });

  it.each([
    ['nowMs NaN', { type: 'DiscoverCommanded', nowMs: Number.NaN, jitter: 0 }],
    ['nowMs Infinity', { type: 'SubscribeCommanded', nowMs: Number.POSITIVE_INFINITY, jitter: 0, uri }],
    ['nowMs 1e300', { type: 'SubscribeCommanded', nowMs: 1e300, jitter: 0, uri }],
    ['nowMs a string', { type: 'DiscoverCommanded', nowMs: '5', jitter: 0 }],
    ['jitter an object with a bad valueOf', { type: 'DiscoverCommanded', nowMs: 1, jitter: { valueOf: 1 } }],
    ['session NaN', { type: 'Connected', nowMs: 0, jitter: 0, sessionGeneration: Number.NaN, capabilities: capabilitiesSubscribe }],
    ['session 1.5', { type: 'Disconnected', nowMs: 0, jitter: 0, sessionGeneration: 1.5 }],
    ['capabilities.subscribe a string', { type: 'Connected', nowMs: 0, jitter: 0, sessionGeneration: 1, capabilities: { subscribe: 'yes', listChanged: true, snapshotId: false } }],
    ['timer kind unknown', { type: 'TimerFired', nowMs: 0, jitter: 0, timer: { kind: 'planted', uri }, deadlineMs: 0 }],
    ['timer a string', { type: 'TimerFired', nowMs: 0, jitter: 0, timer: 'debounce:' + uri, deadlineMs: 0 }],
    ['deadline NaN', { type: 'TimerFired', nowMs: 0, jitter: 0, timer: { kind: 'debounce', uri }, deadlineMs: Number.NaN }],
    ['subject an object', { type: 'ServeCommanded', nowMs: 0, jitter: 0, uri, subject: { toString: 1 } }],
    ['subject too long', { type: 'SubscribeCommanded', nowMs: 0, jitter: 0, uri, subject: 's'.repeat(LEDGER_TEXT_CHARS_MAX + 1) }],
    ['allowed a string', { type: 'AuthorizationChanged', nowMs: 0, jitter: 0, uri, subject: 'alice', allowed: 'false' }],
    ['an input that is null', null],
    ['an input that is an array', [1, 2]],
  ])('%s: one MalformedInput rejection, the very same state', (_name, input) => {
    const { state } = readPending();
    deepFreeze(state);
    const result = step(state, input as unknown as ClientInput);
    expect(result.effects).toEqual([{ type: 'ProtocolRejected', rejection: { kind: 'MalformedInput', detail: expect.any(String) } }]);
    expect(result.state).toBe(state);
  });
});

describe('issue 14.2: bounded strings and maps', () => {
  it('a snapshotId longer than the cap is a malformed page; the ledger keeps nothing of it', () => {
    const { state, listId } = discovering();
    const page = { type: 'result', result: { resources: [{ uri, name: 'a' }], snapshotId: 'x'.repeat(1_000_000) } } as ResponseOutcome;
    const result = step(deepFreeze(state), responded(1, 1, listId, page));
    expect(rejected(result.effects)).toEqual(['MalformedListPage']);
    expect(JSON.stringify(result.state.ledger).length).toBeLessThan(10_000);
  });

  it.each([3, 17, 5_000])('a page of %i resources whose last one repeats the first is DUPLICATE_URI (short and long pages)', (size) => {
    const { state, listId } = discovering();
    const resources = Array.from({ length: size }, (_, index) => ({ uri: `file:///r/${index === size - 1 ? 0 : index}`, name: 'r' }));
    const result = step(deepFreeze(state), responded(1, 1, listId, { type: 'result', result: { resources } }));
    expect(effectsOf(result.effects, 'ScanAbandoned')).toMatchObject([{ reason: 'DUPLICATE_URI' }]);
    const distinct = resources.map((resource, index) => ({ ...resource, uri: `file:///r/${index}` }));
    const ok = step(deepFreeze(state), responded(1, 1, listId, { type: 'result', result: { resources: distinct } }));
    expect(effectsOf(ok.effects, 'ScanAbandoned')).toEqual([]);
  });

  it('a mimeType longer than the cap is a malformed response; nothing is accepted', () => {
    const { state, readId } = readPending();
    const outcome: ResponseOutcome = { type: 'result', result: { contents: [{ uri, mimeType: 'text/' + 'x'.repeat(LEDGER_TEXT_CHARS_MAX), text: 'a' }] } };
    const result = step(deepFreeze(state), responded(2, 1, readId, outcome));
    expect(rejected(result.effects)).toEqual(['MalformedResponse']);
    expect(result.state.ledger.versions).toEqual(state.ledger.versions);
  });

  it('revocations of resources with no subscription for that subject are announced and purged but not stored', () => {
    const { state } = readPending();
    const inputs: ClientInput[] = [];
    for (let index = 0; index < 500; index++) {
      inputs.push({ type: 'AuthorizationChanged', nowMs: 3, jitter: 0, uri: `file:///unknown/${index}`, subject: 'alice', allowed: false });
    }
    inputs.push({ type: 'AuthorizationChanged', nowMs: 3, jitter: 0, uri, subject: 'mallory', allowed: false });
    const result = runInputs(state, inputs);
    expect(effectsOf(result.effects, 'RevocationLearned')).toHaveLength(501);
    expect(result.state.ledger.revoked).toEqual({});
    // The subscription's own subject is remembered: it blocks reads and accepts in flight.
    const own = step(result.state, { type: 'AuthorizationChanged', nowMs: 4, jitter: 0, uri, subject: 'default', allowed: false });
    expect(Object.keys(own.state.ledger.revoked)).toEqual([`default ${uri}`]);
  });
});

describe('contract: ServerCapabilities.resources', () => {
  const noResources = { resources: false, subscribe: true, listChanged: true, snapshotId: true };

  it('without the resources capability no resources/* request is ever sent and commands are refused', () => {
    const wanted = runInputs(initialState(testConfig()), [subscribeCommanded(0, uri)]);
    const result = runInputs(wanted.state, [
      { type: 'Connected', nowMs: 1, jitter: 0, sessionGeneration: 1, capabilities: noResources },
      subscribeCommanded(2, 'file:///b.txt'),
      { type: 'DiscoverCommanded', nowMs: 3, jitter: 0 },
      { type: 'NotificationArrived', nowMs: 4, jitter: 0, sessionGeneration: 1, method: 'notifications/resources/list_changed', params: {} },
    ]);
    expect(effectsOf(result.effects, 'RequestSent')).toEqual([]);
    expect(rejected(result.effects)).toEqual(['CapabilityMissing', 'CapabilityMissing', 'CapabilityMissing']);
    expect(result.state.volatile.capabilities).toEqual({ resources: false, subscribe: false, listChanged: false, snapshotId: false });
    expect(result.state.ledger.subscriptions[uri]!.state).toBe('DISCOVERED');
  });

  it('a later session with the capability subscribes what was wanted', () => {
    const result = runInputs(initialState(testConfig()), [
      subscribeCommanded(0, uri),
      { type: 'Connected', nowMs: 1, jitter: 0, sessionGeneration: 1, capabilities: noResources },
      connected(2, 2),
    ]);
    expect(effectsOf(result.effects, 'RequestSent').map((request) => request.method)).toEqual(['resources/subscribe']);
  });
});

describe('contract: content kind (issue 14.5)', () => {
  it('a blob is accepted as a blob with its MIME type; its digest differs from a text with the same characters', () => {
    const { state, readId } = readPending();
    const blob = 'aGVsbG8=';
    const outcome: ResponseOutcome = { type: 'result', result: { contents: [{ uri, mimeType: 'image/png', blob }] } };
    const result = step(deepFreeze(state), responded(2, 1, readId, outcome));
    const accepted = effectsOf(result.effects, 'VersionAccepted');
    expect(accepted).toMatchObject([{ text: blob, encoding: 'blob', mimeType: 'image/png', digest: contentDigest(blob, 'blob') }]);
    expect(result.state.ledger.versions[uri]).toMatchObject({ encoding: 'blob', mimeType: 'image/png' });
    expect(contentDigest(blob, 'blob')).not.toBe(contentDigest(blob, 'text'));
    expect(contentDigest(blob)).toBe(contentDigest(blob, 'text'));
  });

  it('a text body is text; a blob that is not base64 is rejected', () => {
    const { state, readId } = readPending();
    const text = step(deepFreeze(state), responded(2, 1, readId, { type: 'result', result: { contents: [{ uri, mimeType: 'text/html', text: '<script>' }] } }));
    expect(effectsOf(text.effects, 'VersionAccepted')).toMatchObject([{ encoding: 'text', mimeType: 'text/html' }]);
    const bad = step(deepFreeze(state), responded(2, 1, readId, { type: 'result', result: { contents: [{ uri, blob: 'not base64!' }] } }));
    expect(rejected(bad.effects)).toEqual(['MalformedResponse']);
    expect(effectsOf(bad.effects, 'VersionAccepted')).toEqual([]);
  });
});
