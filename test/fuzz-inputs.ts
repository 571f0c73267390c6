/**
 * A seeded input generator for fuzzing any client-under-test (test support, never shipped): a host that
 * drives the client with valid inputs (connect, subscribe, answer its requests with content, not-found,
 * errors and list pages, fire its timers, notify, revoke, serve, discover, crash-free session churn) and,
 * among them, malformed ones. A malformed input is a valid one with one field replaced by a hostile value
 * that is invalid for that field (so nothing a malformed input carries may change what the client keeps):
 *   - `caller`: a field the host fills in (time, jitter, session, timer, capabilities, subject, URI, type);
 *   - `protocol`: a field the server fills in (request id, outcome, result, content, page, method, params).
 */
import type { ClientEffect, ClientInput, RequestMethod, ResponseOutcome } from '../core/types.js';
import { createPrng, type Prng } from '../sim/prng.js';

export type FuzzKind = 'valid' | 'caller' | 'protocol';

export interface FuzzInput {
  kind: FuzzKind;
  /** What was corrupted (for messages). */
  field: string;
  input: ClientInput;
}

const uris = ['file:///a.txt', 'file:///b.txt', 'https://example.com/c', 'mem:d'];
const subjects = ['default', 'alice', 'bob'];

function badToString(): unknown {
  return { toString: 1, valueOf: 1 };
}

function nullPrototype(): unknown {
  const value = Object.create(null) as Record<string, unknown>;
  value.uri = uris[0];
  return value;
}

/** Hostile values: not a finite time, a string, a boolean or a plain record of the right shape. */
const hostile: readonly (() => unknown)[] = [
  () => null,
  () => undefined,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => Number.NEGATIVE_INFINITY,
  () => -0,
  () => 1e300,
  () => 2 ** 60 + 0.5,
  () => 10n,
  () => Symbol('fuzz'),
  badToString,
  nullPrototype,
  () => [],
  () => [1, [2, [3]]],
  () => ({}),
  () => ({ deep: { deeper: { deepest: badToString() } } }),
  () => 'x'.repeat(100_000),
  () => '',
  () => '\u0000\ud800',
];

const hostileTime: readonly unknown[] = [Number.NaN, Number.POSITIVE_INFINITY, -Number.MAX_VALUE, 1e300, '5', null, undefined, -0, [], {}];
const hostileSession: readonly unknown[] = [Number.NaN, 1.5, '1', null, undefined, Number.POSITIVE_INFINITY, -0, 2 ** 60];
const hostileUri: readonly unknown[] = ['not a uri', 'file:///a b', 'x'.repeat(9_000), 'http://[::1/x', '%zz', 5, null];
const hostileString: readonly unknown[] = [5, null, true, 's'.repeat(5_000)];

interface Outstanding {
  requestId: number;
  session: number;
  method: RequestMethod;
  uri: string;
}

export class FuzzHost {
  nowMs = 0;
  private readonly random: Prng;
  private session = 0;
  private connected = false;
  private outstanding: Outstanding[] = [];
  private timers: { timer: { kind: string; uri: string }; deadlineMs: number }[] = [];
  private lastAnswered: Outstanding | null = null;

  constructor(seed: number, private readonly malformedPercent: number) {
    this.random = createPrng(seed);
  }

  private below(n: number): number {
    return this.random.nextBelow(n);
  }

  private pick<T>(values: readonly T[]): T {
    return values[this.below(values.length)]!;
  }

  private hostileValue(): unknown {
    return this.pick(hostile)();
  }

  /** Learns what the client asked for (requests to answer, timers to fire). */
  observe(effects: readonly ClientEffect[]): void {
    for (const effect of effects) {
      if (effect.type === 'RequestSent') {
        this.outstanding.push({ requestId: effect.requestId, session: effect.sessionGeneration, method: effect.method, uri: effect.uri });
      } else if (effect.type === 'TimerArmed') {
        this.timers = this.timers.filter((armed) => armed.timer.kind !== effect.timer.kind || armed.timer.uri !== effect.timer.uri);
        this.timers.push({ timer: effect.timer, deadlineMs: effect.deadlineMs });
      }
    }
  }

  next(): FuzzInput {
    this.nowMs += this.pick([0, 0, 1, 7, 120, 900, 6_000]);
    const input = this.validInput();
    const roll = this.below(100);
    if (roll >= this.malformedPercent) return { kind: 'valid', field: '', input };
    return this.below(2) === 0 ? this.corruptCaller(input) : this.corruptProtocol(input);
  }

  // -- valid inputs ------------------------------------------------------------------------------

  private base(): { nowMs: number; jitter: number } {
    return { nowMs: this.nowMs, jitter: this.random.nextUint32() };
  }

  private validInput(): ClientInput {
    const roll = this.below(100);
    if (!this.connected || roll < 3) return this.connect();
    if (roll < 5) {
      this.connected = false;
      return { type: 'Disconnected', ...this.base(), sessionGeneration: this.session };
    }
    // Every request is answered sooner or later (late answers of ended sessions too): a client's table of
    // requests in flight stays small, as it does against a real server.
    if ((roll < 45 || this.outstanding.length > 32) && this.outstanding.length > 0) return this.answer();
    if (roll < 60 && this.timers.length > 0) return this.fire();
    if (roll < 75) return this.notification();
    if (roll < 82) return { type: 'SubscribeCommanded', ...this.base(), uri: this.pick(uris), subject: this.pick(subjects) };
    if (roll < 85) return { type: 'UnsubscribeCommanded', ...this.base(), uri: this.pick(uris) };
    if (roll < 89) return { type: 'DiscoverCommanded', ...this.base() };
    if (roll < 94) return { type: 'ServeCommanded', ...this.base(), uri: this.pick(uris), subject: this.pick(subjects) };
    if (roll < 97) return { type: 'AuthorizationChanged', ...this.base(), uri: this.pick(uris), subject: this.pick(subjects), allowed: this.below(3) !== 0 };
    return { type: 'CompletenessTaskCommanded', ...this.base(), task: 'cleanup' };
  }

  private connect(): ClientInput {
    this.session += 1;
    this.connected = true;
    const capabilities = { resources: true, subscribe: this.below(6) !== 0, listChanged: true, snapshotId: this.below(2) === 0 };
    return { type: 'Connected', ...this.base(), sessionGeneration: this.session, capabilities };
  }

  private answer(): ClientInput {
    const index = this.below(this.outstanding.length);
    const request = this.outstanding.splice(index, 1)[0]!;
    this.lastAnswered = request;
    return { type: 'ResponseArrived', ...this.base(), sessionGeneration: request.session, requestId: request.requestId, outcome: this.validOutcome(request) };
  }

  private validOutcome(request: Outstanding): ResponseOutcome {
    const roll = this.below(10);
    if (request.method === 'resources/list') {
      const resources = uris.filter(() => this.below(4) !== 0).map((uri) => ({ uri, name: uri }));
      const result: Record<string, unknown> = { resources };
      if (this.below(3) === 0) result.nextCursor = 'c' + this.below(4);
      if (this.below(2) === 0) result.snapshotId = 'snap-1';
      return { type: 'result', result };
    }
    if (request.method !== 'resources/read') return roll === 0 ? { type: 'error', code: -32603, message: 'Internal error' } : { type: 'result', result: {} };
    if (roll === 0) return { type: 'error', code: -32002, message: 'Resource not found' };
    if (roll === 1) return { type: 'error', code: -32003, message: 'Permission denied' };
    if (roll === 2) return { type: 'result', result: { contents: [{ uri: request.uri, mimeType: 'image/png', blob: 'aGVsbG8=' }] } };
    return { type: 'result', result: { contents: [{ uri: request.uri, mimeType: 'text/plain', text: 'v' + this.below(1_000) }] } };
  }

  private fire(): ClientInput {
    const armed = this.timers.splice(this.below(this.timers.length), 1)[0]!;
    if (armed.deadlineMs > this.nowMs) this.nowMs = armed.deadlineMs;
    return { type: 'TimerFired', ...this.base(), timer: armed.timer as never, deadlineMs: armed.deadlineMs };
  }

  private notification(): ClientInput {
    const updated = this.below(5) !== 0;
    const method = updated ? 'notifications/resources/updated' : 'notifications/resources/list_changed';
    return { type: 'NotificationArrived', ...this.base(), sessionGeneration: this.session, method, params: updated ? { uri: this.pick(uris) } : {} };
  }

  // -- corruption ---------------------------------------------------------------------------------

  private corruptCaller(valid: ClientInput): FuzzInput {
    const input = { ...valid } as Record<string, unknown>;
    const fields = ['nowMs', 'jitter', 'type', 'whole'];
    if ('sessionGeneration' in input) fields.push('sessionGeneration');
    if (input.type === 'Connected') fields.push('capabilities', 'capabilities.field');
    if (input.type === 'TimerFired') fields.push('timer', 'deadlineMs');
    if ('uri' in input && input.type !== 'NotificationArrived' && input.type !== 'ResponseArrived') fields.push('uri');
    if ('subject' in input) fields.push('subject');
    if (input.type === 'AuthorizationChanged') fields.push('allowed');
    if (input.type === 'CompletenessTaskCommanded') fields.push('task');
    const field = this.pick(fields);
    switch (field) {
      case 'whole':
        return { kind: 'caller', field, input: this.pick([null, 5, 'Connected', [], nullPrototype()]) as ClientInput };
      case 'type':
        input.type = this.pick(['Bogus', '', 5, null, Symbol('t'), badToString(), 'x'.repeat(10_000)]);
        break;
      case 'nowMs':
      case 'deadlineMs':
        input[field] = this.pick(hostileTime);
        break;
      case 'sessionGeneration':
        input[field] = this.pick(hostileSession);
        break;
      case 'jitter':
        input.jitter = this.pick(['1', null, badToString(), 10n, undefined]);
        break;
      case 'capabilities':
        input.capabilities = this.pick([null, 'all', [], badToString(), nullPrototype(), 7]);
        break;
      case 'capabilities.field':
        input.capabilities = { ...(input.capabilities as object), [this.pick(['subscribe', 'listChanged', 'snapshotId', 'resources'])]: this.pick(['yes', 1, null, badToString()]) };
        break;
      case 'timer':
        input.timer = this.pick([null, 'debounce:file:///a.txt', { kind: 'planted', uri: uris[0] }, { kind: 'debounce', uri: 5 }, {}, badToString()]);
        break;
      case 'uri':
        input.uri = this.pick(hostileUri);
        break;
      case 'subject':
      case 'task':
        input[field] = this.pick(hostileString);
        break;
      case 'allowed':
        input.allowed = this.pick(['false', 0, null, badToString()]);
        break;
    }
    return { kind: 'caller', field, input: input as unknown as ClientInput };
  }

  private corruptProtocol(valid: ClientInput): FuzzInput {
    if (valid.type === 'ResponseArrived' || (this.outstanding.length > 0 && this.below(2) === 0)) {
      const base = valid.type === 'ResponseArrived' ? valid : this.answer();
      return this.corruptResponse(base as Extract<ClientInput, { type: 'ResponseArrived' }>);
    }
    const field = this.pick(['method', 'params', 'params.uri']);
    const params = field === 'params' ? this.hostileValue() : field === 'params.uri' ? { uri: this.pick([...hostileUri, badToString()]) } : { uri: uris[0] };
    const method = field === 'method' ? this.pick(['notifications/other', 5, null, badToString(), 'x'.repeat(10_000)]) : 'notifications/resources/updated';
    const input = { type: 'NotificationArrived', ...this.base(), sessionGeneration: this.session, method, params } as ClientInput;
    return { kind: 'protocol', field, input };
  }

  private corruptResponse(valid: Extract<ClientInput, { type: 'ResponseArrived' }>): FuzzInput {
    const field = this.pick(['requestId', 'outcome', 'result', 'error', 'content', 'page']);
    const input = { ...valid } as Record<string, unknown>;
    const uri = uris[this.below(uris.length)];
    // A real answer still comes later (a late duplicate for the client that took the malformed one), so
    // a client's table of requests in flight stays small.
    if (this.lastAnswered !== null && this.lastAnswered.requestId === valid.requestId) this.outstanding.push(this.lastAnswered);
    switch (field) {
      case 'requestId':
        input.requestId = this.pick([0, -1, 1.5, '1', null, badToString(), Number.NaN, 2 ** 60]);
        break;
      case 'outcome':
        input.outcome = this.pick([null, 'result', [], { type: 'weird' }, badToString(), nullPrototype()]);
        break;
      case 'result':
        input.outcome = { type: 'result', result: this.hostileValue() };
        break;
      case 'error':
        // Never a valid integer code: a real not-found or permission error is valid input.
        input.outcome = { type: 'error', code: this.pick([badToString(), nullPrototype(), '-32003', 1.5, null, Symbol('c'), 10n]), message: this.hostileValue() };
        break;
      case 'content':
        input.outcome = { type: 'result', result: { contents: this.pick(badContents)(uri) } };
        break;
      case 'page':
        input.outcome = { type: 'result', result: this.pick(badPages)(uri) };
        break;
    }
    // The outcome envelope ({type: 'result' | 'error'}) is built by the host from a JSON-RPC message.
    return { kind: field === 'outcome' ? 'caller' : 'protocol', field, input: input as unknown as ClientInput };
  }
}

/** Content lists no read may accept (each built on demand: some are large). */
const badContents: readonly ((uri: string) => unknown)[] = [
  () => [],
  (uri) => [{ uri, text: 5 }],
  (uri) => [{ uri, blob: 'not base64!' }],
  (uri) => [{ uri, text: 'a', mimeType: badToString() }],
  (uri) => [{ uri, text: 'a', mimeType: 'm'.repeat(5_000) }],
  (uri) => [{ uri, text: 'x'.repeat(1_100_000) }],
  () => [{ uri: badToString(), text: 'a' }],
  () => [nullPrototype()],
  () => [{ uri: 'https://elsewhere.example/x', text: 'a' }],
  () => 'contents',
];

/** List pages no pass may take (duplicates, bad names, URIs, cursors, snapshot IDs). */
const badPages: readonly ((uri: string) => unknown)[] = [
  (uri) => ({ resources: [{ uri, name: 'a' }, { uri, name: 'a' }] }),
  (uri) => ({ resources: [{ uri, name: 5 }] }),
  () => ({ resources: [{ uri: badToString(), name: 'a' }] }),
  () => ({ resources: 'all' }),
  () => ({ resources: [], nextCursor: '' }),
  () => ({ resources: [], nextCursor: badToString() }),
  () => ({ resources: [], snapshotId: 's'.repeat(100_000) }),
  () => ({ resources: [], snapshotId: badToString() }),
];
