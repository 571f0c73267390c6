/**
 * The reference core on 2026-07-28 connections: listen, ack, demultiplexing, end of watch, TTL, read
 * re-issue. Examples pin each rule; the property test drives random listen traffic (acks right and wrong,
 * tagged and mistagged notifications, graceful completions, lost and late responses, reconnects) and
 * checks the laws against a model the test keeps itself from the inputs and the effects.
 */
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { step } from './reducer.js';
import { initialState, type CoreState } from './state.js';
import { capabilitiesSubscribe, contentOutcome, effectsOf, jsonCopy, responded, subscribeCommanded, testConfig, timerFired, unsubscribeCommanded } from './testing.js';
import { subscriptionIdMetaKey } from './era.js';
import type { ClientEffect, ClientInput, ResponseOutcome, TimerId } from './types.js';

const uriA = 'file:///a.txt';
const uriB = 'https://example.com/b';

function connected2026(nowMs: number, generation: number): ClientInput {
  return { type: 'Connected', nowMs, jitter: 0, sessionGeneration: generation, capabilities: capabilitiesSubscribe, era: '2026-07-28' };
}

function ack(nowMs: number, generation: number, id: unknown, uris: string[]): ClientInput {
  const params = { notifications: { resourceSubscriptions: uris }, _meta: { [subscriptionIdMetaKey]: id } };
  return { type: 'NotificationArrived', nowMs, jitter: 0, sessionGeneration: generation, method: 'notifications/subscriptions/acknowledged', params };
}

function tagged(nowMs: number, generation: number, uri: string, id: unknown): ClientInput {
  const params = id === undefined ? { uri } : { uri, _meta: { [subscriptionIdMetaKey]: id } };
  return { type: 'NotificationArrived', nowMs, jitter: 0, sessionGeneration: generation, method: 'notifications/resources/updated', params };
}

function content(uri: string, text: string, ttlMs: unknown): ResponseOutcome {
  const outcome = contentOutcome(uri, text) as { type: 'result'; result: Record<string, unknown> };
  return { type: 'result', result: { ...outcome.result, ttlMs, cacheScope: 'private' } };
}

function serveCommanded(nowMs: number, uri: string): ClientInput {
  return { type: 'ServeCommanded', nowMs, jitter: 0, uri, subject: 'default' };
}

class Run {
  state: CoreState = initialState(testConfig());
  last: ClientEffect[] = [];
  all: ClientEffect[] = [];
  feed(input: ClientInput): ClientEffect[] {
    const result = step(this.state, input);
    this.state = result.state;
    this.last = result.effects;
    this.all.push(...result.effects);
    return result.effects;
  }
  sent(method: string): Extract<ClientEffect, { type: 'RequestSent' }>[] {
    return effectsOf(this.last, 'RequestSent').filter((effect) => effect.method === method);
  }
  stateOf(uri: string): string | undefined {
    return this.state.ledger.subscriptions[uri]?.state;
  }
}

/** Connected on 2026-07-28, uriA's listen acknowledged at t=10: its initial read (`lost`, never answered here) in flight. */
function readInFlightAfterAck(): { run: Run; lost: Extract<ClientEffect, { type: 'RequestSent' }> } {
  const run = new Run();
  run.feed(connected2026(0, 1));
  run.feed(subscribeCommanded(0, uriA));
  run.feed(ack(10, 1, run.sent('subscriptions/listen')[0]!.requestId, [uriA]));
  return { run, lost: run.sent('resources/read')[0]! };
}

/** Connected on 2026-07-28, subscribed to uriA, the listen acknowledged and the initial read answered at t=100. */
function watchedA(ttlMs: unknown): { run: Run; listenId: number } {
  const run = new Run();
  run.feed(connected2026(0, 1));
  run.feed(subscribeCommanded(0, uriA));
  const listenId = run.sent('subscriptions/listen')[0]!.requestId;
  run.feed(ack(10, 1, listenId, [uriA]));
  const read = run.sent('resources/read')[0]!;
  run.feed(responded(100, 1, read.requestId, content(uriA, 'v1', ttlMs)));
  return { run, listenId };
}

describe('2026-07-28 listen: acks, updates and completion', () => {
  it('sends one listen, and only its ack (holding the URI) starts the watch with a re-read', () => {
    const run = new Run();
    run.feed(connected2026(0, 1));
    run.feed(subscribeCommanded(0, uriA));
    expect(run.sent('resources/subscribe')).toEqual([]);
    const listen = run.sent('subscriptions/listen')[0]!;
    expect(run.stateOf(uriA)).toBe('SUBSCRIBING');
    run.feed(tagged(5, 1, uriA, listen.requestId));
    expect(effectsOf(run.last, 'AuditWritten').map((a) => a.kind)).toEqual(['LISTEN_MISMATCH']);
    expect(run.stateOf(uriA)).toBe('SUBSCRIBING');
    run.feed(ack(10, 1, listen.requestId, [uriA]));
    expect(run.stateOf(uriA)).toBe('READ_PENDING');
    expect(run.sent('resources/read').map((r) => r.reason)).toEqual(['initial']);
    expect(effectsOf(run.last, 'StalenessBoundPublished')[0]!.mode).toBe('subscription');
  });

  it('acts on an updated only with the id of the live listen of that URI', () => {
    const { run, listenId } = watchedA(10_000);
    for (const id of [undefined, listenId + 1000, 'listen:1']) {
      run.feed(tagged(200, 1, uriA, id));
      expect(effectsOf(run.last, 'Transitioned')).toEqual([]);
      expect(effectsOf(run.last, 'AuditWritten')[0]!.kind).toBe('LISTEN_MISMATCH');
    }
    run.feed(tagged(200, 1, uriA, listenId));
    expect(effectsOf(run.last, 'Transitioned').map((t) => t.event)).toEqual(['read_issued']); // the leading-edge read of the first pulse
  });

  it('an ack that leaves the URI out cancels the listen and polls', () => {
    const run = new Run();
    run.feed(connected2026(0, 1));
    run.feed(subscribeCommanded(0, uriA));
    const listenId = run.sent('subscriptions/listen')[0]!.requestId;
    run.feed(ack(10, 1, listenId, [uriB]));
    expect(effectsOf(run.last, 'ListenCancelled').map((c) => c.requestId)).toEqual([listenId]);
    expect(effectsOf(run.last, 'StalenessBoundPublished')[0]!.mode).toBe('polling');
    expect(run.sent('resources/read').map((r) => r.reason)).toEqual(['poll']);
    run.feed(tagged(20, 1, uriA, listenId));
    expect(effectsOf(run.last, 'Transitioned')).toEqual([]);
  });

  it('graceful completion ends the watch, abandons reads, and a new listen (new id) follows', () => {
    const { run, listenId } = watchedA(10_000);
    run.feed(tagged(200, 1, uriA, listenId));
    run.feed(responded(300, 1, listenId, { type: 'result', result: { resultType: 'complete' } }));
    expect(run.stateOf(uriA)).toBe('RECONCILIATION_REQUIRED');
    const retry = effectsOf(run.last, 'TimerArmed').find((t) => t.timer.kind === 'resubscribe')!;
    run.feed(tagged(310, 1, uriA, listenId));
    expect(effectsOf(run.last, 'Transitioned')).toEqual([]);
    run.feed(timerFired(retry.deadlineMs, retry.timer, retry.deadlineMs));
    const again = run.sent('subscriptions/listen')[0]!;
    expect(again.requestId).not.toBe(listenId);
    expect(run.stateOf(uriA)).toBe('SUBSCRIBING');
  });

  it('an ack that never comes cancels the listen and retries', () => {
    const run = new Run();
    run.feed(connected2026(0, 1));
    run.feed(subscribeCommanded(0, uriA));
    const listenId = run.sent('subscriptions/listen')[0]!.requestId;
    const deadline = effectsOf(run.last, 'TimerArmed').find((t) => t.timer.kind === 'resubscribe')!;
    run.feed(timerFired(deadline.deadlineMs, deadline.timer, deadline.deadlineMs));
    expect(effectsOf(run.last, 'ListenCancelled').map((c) => c.requestId)).toEqual([listenId]);
    expect(run.stateOf(uriA)).toBe('RECONCILIATION_REQUIRED');
    run.feed(ack(deadline.deadlineMs + 1, 1, listenId, [uriA]));
    expect(run.stateOf(uriA)).toBe('RECONCILIATION_REQUIRED');
  });
});

describe('2026-07-28 listen: close and reconnect', () => {
  it('a local close cancels the listen and closes at once (no unsubscribe request)', () => {
    const { run, listenId } = watchedA(10_000);
    run.feed(unsubscribeCommanded(200, uriA));
    expect(effectsOf(run.last, 'ListenCancelled').map((c) => c.requestId)).toEqual([listenId]);
    expect(run.sent('resources/unsubscribe')).toEqual([]);
    expect(run.stateOf(uriA)).toBe('CLOSED');
    run.feed(tagged(210, 1, uriA, listenId));
    expect(effectsOf(run.last, 'Transitioned')).toEqual([]);
  });

  it('a new connection re-listens with a new id', () => {
    const { run, listenId } = watchedA(10_000);
    run.feed(connected2026(500, 2));
    const again = run.sent('subscriptions/listen')[0]!;
    expect(again.requestId).not.toBe(listenId);
    run.feed(tagged(510, 2, uriA, listenId));
    expect(effectsOf(run.last, 'Transitioned')).toEqual([]);
  });
});

describe('2026-07-28 listen: TTL and re-issued reads', () => {
  it('serves within ttlMs from receipt only, then re-fetches on demand', () => {
    const { run } = watchedA(1_000);
    run.feed(serveCommanded(1_099, uriA));
    expect(effectsOf(run.last, 'ContentServed')).toHaveLength(1);
    run.feed(serveCommanded(1_100, uriA));
    expect(effectsOf(run.last, 'ContentRefused')).toHaveLength(1);
    expect(run.sent('resources/read').map((r) => r.reason)).toEqual(['ttl']);
  });

  it.each([0, -5, undefined, 'soon', Number.NaN])('ttlMs %s is immediately stale', (ttlMs) => {
    const { run } = watchedA(ttlMs);
    run.feed(serveCommanded(100, uriA));
    expect(effectsOf(run.last, 'ContentServed')).toEqual([]);
  });

  it('re-issues a lost read with a new id; the late answer to the abandoned id never passes the fence', () => {
    const { run, lost } = readInFlightAfterAck();
    const deadline = effectsOf(run.last, 'TimerArmed').find((t) => t.timer.kind === 'hedge')!;
    run.feed(timerFired(deadline.deadlineMs, deadline.timer, deadline.deadlineMs));
    expect(effectsOf(run.last, 'AuditWritten').map((a) => [a.kind, a.requestId])).toEqual([['READ_ABANDONED', lost.requestId]]);
    const retry = run.sent('resources/read')[0]!;
    expect(retry.requestId).not.toBe(lost.requestId);
    run.feed(responded(deadline.deadlineMs + 5, 1, lost.requestId, content(uriA, 'late', 10_000)));
    expect(effectsOf(run.last, 'VersionAccepted')).toEqual([]);
    run.feed(responded(deadline.deadlineMs + 6, 1, retry.requestId, content(uriA, 'fresh', 10_000)));
    expect(effectsOf(run.last, 'VersionAccepted').map((v) => v.text)).toEqual(['fresh']);
  });

  it('a late not-found to an abandoned read older than the accepted one changes nothing; a newer one stops serving (ordinal fence)', () => {
    const notFound: ResponseOutcome = { type: 'error', code: -32602, message: 'Resource not found' };
    const { run, lost } = readInFlightAfterAck();
    let deadline = effectsOf(run.last, 'TimerArmed').find((t) => t.timer.kind === 'hedge')!;
    run.feed(timerFired(deadline.deadlineMs, deadline.timer, deadline.deadlineMs));
    const retry = run.sent('resources/read')[0]!;
    let nowMs = deadline.deadlineMs + 5;
    run.feed(responded(nowMs, 1, retry.requestId, content(uriA, 'fresh', 60_000)));
    run.feed(responded(++nowMs, 1, lost.requestId, notFound));
    run.feed(serveCommanded(++nowMs, uriA));
    expect(effectsOf(run.last, 'ContentServed').length, 'the older not-found withheld content a later read brought').toBe(1);
    // A read issued after the accepted one, lost and re-issued: its late not-found is newer news than what is served.
    const listenId = effectsOf(run.all, 'RequestSent').find((e) => e.method === 'subscriptions/listen')!.requestId;
    run.feed(tagged(++nowMs, 1, uriA, listenId));
    for (const timer of effectsOf(run.last, 'TimerArmed').filter((t) => t.timer.kind !== 'hedge')) run.feed(timerFired(timer.deadlineMs, timer.timer, timer.deadlineMs));
    const later = effectsOf(run.all, 'RequestSent').filter((e) => e.method === 'resources/read').at(-1)!;
    expect(later.readOrdinal!).toBeGreaterThan(retry.readOrdinal!);
    deadline = effectsOf(run.all, 'TimerArmed').filter((t) => t.timer.kind === 'hedge').at(-1)!;
    run.feed(timerFired(deadline.deadlineMs, deadline.timer, deadline.deadlineMs));
    nowMs = deadline.deadlineMs + 1;
    run.feed(responded(nowMs, 1, later.requestId, notFound));
    run.feed(serveCommanded(++nowMs, uriA));
    expect(effectsOf(run.last, 'ContentServed')).toEqual([]);
  });
});

describe('2026-07-28 listen: abandoned and superseded reads, the era check', () => {
  it('forgets an abandoned read 3 x readReissueMs after it was sent, so it does not stay in flight until the connection ends', () => {
    const { run, lost } = readInFlightAfterAck();
    const inFlight = (): number[] => (run.state.volatile.uris[uriA]?.requests ?? []).map((request) => request.requestId);
    let deadline = effectsOf(run.last, 'TimerArmed').find((t) => t.timer.kind === 'hedge')!;
    run.feed(timerFired(deadline.deadlineMs, deadline.timer, deadline.deadlineMs));
    const retry = run.sent('resources/read')[0]!;
    run.feed(responded(deadline.deadlineMs + 5, 1, retry.requestId, content(uriA, 'fresh', 10_000)));
    expect(inFlight()).toContain(lost.requestId);
    deadline = [...run.all].reverse().find((effect): effect is Extract<ClientEffect, { type: 'TimerArmed' }> => effect.type === 'TimerArmed' && effect.timer.kind === 'hedge')!;
    expect(deadline.deadlineMs).toBe(10 + 3 * 4_000);
    run.feed(timerFired(deadline.deadlineMs, deadline.timer, deadline.deadlineMs));
    expect(inFlight()).not.toContain(lost.requestId);
    run.feed(responded(deadline.deadlineMs + 1, 1, lost.requestId, content(uriA, 'late', 10_000)));
    expect(effectsOf(run.last, 'VersionAccepted')).toEqual([]);
    expect(effectsOf(run.last, 'AuditWritten').map((a) => a.kind)).toEqual(['UNKNOWN_RESPONSE']);
  });

  it('a read left in flight by a closed subscription does not re-arm the read deadline every millisecond', () => {
    const { run, lost } = readInFlightAfterAck();
    const deadline = effectsOf(run.last, 'TimerArmed').find((t) => t.timer.kind === 'hedge')!;
    run.feed(unsubscribeCommanded(20, uriA));
    expect(run.stateOf(uriA)).toBe('CLOSED');
    run.feed(timerFired(deadline.deadlineMs, deadline.timer, deadline.deadlineMs));
    // Nothing to re-issue for a closed subscription: no new read, and no deadline armed for the read it left.
    expect(run.sent('resources/read')).toEqual([]);
    expect(effectsOf(run.last, 'TimerArmed').filter((t) => t.timer.kind === 'hedge')).toEqual([]);
    // Its late answer is still recognised (after close: a STALE_AFTER_CLOSE audit, no version).
    run.feed(responded(deadline.deadlineMs + 50, 1, lost.requestId, content(uriA, 'late', 10_000)));
    expect(effectsOf(run.last, 'VersionAccepted')).toEqual([]);
    expect(effectsOf(run.last, 'AuditWritten').map((a) => a.kind)).toEqual(['STALE_AFTER_CLOSE']);
  });

  it("an updated of the live listen makes the entry stale at once, and a read sent before it is accepted but never served", () => {
    const { run, listenId } = watchedA(10_000);
    run.feed(serveCommanded(200, uriA));
    expect(effectsOf(run.last, 'ContentServed')).toHaveLength(1);
    run.feed(tagged(300, 1, uriA, listenId));
    const first = run.sent('resources/read')[0]!;
    run.feed(serveCommanded(301, uriA));
    expect(effectsOf(run.last, 'ContentServed')).toEqual([]);
    run.feed(tagged(302, 1, uriA, listenId));
    run.feed(responded(400, 1, first.requestId, content(uriA, 'v2', 10_000)));
    expect(effectsOf(run.last, 'VersionAccepted')).toHaveLength(1);
    const followUp = run.sent('resources/read')[0]!;
    run.feed(serveCommanded(401, uriA));
    expect(effectsOf(run.last, 'ContentServed')).toEqual([]);
    run.feed(responded(450, 1, followUp.requestId, content(uriA, 'v3', 10_000)));
    run.feed(serveCommanded(451, uriA));
    expect(effectsOf(run.last, 'ContentServed')).toHaveLength(1);
  });

  it('rejects a Connected.era that is not a revision, leaving the state as it was', () => {
    const run = new Run();
    const before = run.state;
    run.feed({ ...connected2026(0, 1), era: '2027-01-01' } as unknown as ClientInput);
    expect(run.state).toBe(before);
    expect(effectsOf(run.last, 'ProtocolRejected')[0]!.rejection.kind).toBe('MalformedInput');
  });
});

// -- property: random 2026-07-28 traffic --------------------------------------------------------------

type Act =
  | { kind: 'subscribe' | 'close' | 'serve'; resource: number }
  | { kind: 'ack'; pick: number; shape: 'exact' | 'other' | 'wide' }
  | { kind: 'updated'; resource: number; tag: 'live' | 'stale' | 'missing' | 'other' }
  | { kind: 'answer'; pick: number; ttlMs: number; late: boolean }
  | { kind: 'complete'; pick: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'reconnect' };

const resources = [uriA, uriB];
const resource = fc.nat({ max: 1 });
const actArbitrary: fc.Arbitrary<Act> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('subscribe' as const), resource }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), resource }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('serve' as const), resource }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('ack' as const), pick: fc.nat(), shape: fc.constantFrom('exact' as const, 'exact' as const, 'other' as const, 'wide' as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('updated' as const), resource, tag: fc.constantFrom('live' as const, 'stale' as const, 'missing' as const, 'other' as const) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('answer' as const), pick: fc.nat(), ttlMs: fc.constantFrom(0, 50, 1_000, 100_000, -1), late: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('complete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.oneof(fc.integer({ min: 1, max: 1_500 }), fc.integer({ min: 1, max: 8_000 })) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reconnect' as const }) },
);

interface Model {
  nowMs: number;
  generation: number;
  /** Requests sent on the current connection and not answered: id -> the RequestSent. */
  pending: Map<number, Extract<ClientEffect, { type: 'RequestSent' }>>;
  /** Every request id ever sent, by id (for stale tags and late answers). */
  everSent: Map<number, Extract<ClientEffect, { type: 'RequestSent' }>>;
  /** Listen ids acknowledged with their URI, neither cancelled, answered, nor on an old connection. */
  liveAcked: Map<number, string>;
  abandoned: Set<number>;
  timers: Map<string, { timer: { kind: string; uri: string }; deadlineMs: number }>;
  /** uri -> until when the last accepted version may be served. */
  freshUntil: Map<string, number>;
  /** ttl of each read response the test sent, by request id. */
  ttlOfAnswer: Map<number, number>;
}

function violations(acts: readonly Act[]): string[] {
  const model: Model = { nowMs: 0, generation: 1, pending: new Map(), everSent: new Map(), liveAcked: new Map(), abandoned: new Set(), timers: new Map(), freshUntil: new Map(), ttlOfAnswer: new Map() };
  let state = initialState(testConfig());
  const problems: string[] = [];
  const feed = (input: ClientInput): void => {
    const before = jsonCopy(state);
    const result = step(state, input);
    expect(state).toEqual(before); // inputs never mutate the state they were given
    state = result.state;
    problems.push(...judge(model, input, result.effects));
  };
  feed(connected2026(0, 1));
  for (const act of acts) {
    for (const input of inputsOf(model, act)) feed(input);
  }
  expect(jsonCopy(state)).toEqual(state);
  return problems;
}

function inputsOf(model: Model, act: Act): ClientInput[] {
  const { nowMs, generation } = model;
  const listens = [...model.pending.values()].filter((r) => r.method === 'subscriptions/listen');
  switch (act.kind) {
    case 'subscribe':
      return [subscribeCommanded(nowMs, resources[act.resource]!)];
    case 'close':
      return [unsubscribeCommanded(nowMs, resources[act.resource]!)];
    case 'serve':
      return [serveCommanded(nowMs, resources[act.resource]!)];
    case 'reconnect':
      model.generation += 1;
      model.pending.clear();
      model.liveAcked.clear();
      model.timers.clear();
      return [connected2026(nowMs, model.generation)];
    case 'ack': {
      const listen = listens[act.pick % Math.max(1, listens.length)];
      if (listen === undefined) return [ack(nowMs, generation, act.pick + 1, [uriA])];
      const other = listen.uri === uriA ? uriB : uriA;
      const uris = act.shape === 'exact' ? [listen.uri] : act.shape === 'other' ? [other] : [listen.uri, other];
      return [ack(nowMs, generation, listen.requestId, uris)];
    }
    case 'updated': {
      const uri = resources[act.resource]!;
      const live = [...model.liveAcked].find(([, watched]) => watched === uri)?.[0];
      const ids = [...model.everSent.keys()];
      const id = act.tag === 'missing' ? undefined : act.tag === 'live' ? (live ?? ids[0]) : act.tag === 'stale' ? ids[ids.length - 1] : 9_999;
      return [tagged(nowMs, generation, uri, id)];
    }
    case 'answer':
      return answer(model, act);
    case 'complete': {
      const listen = listens[act.pick % Math.max(1, listens.length)];
      if (listen === undefined) return [];
      model.pending.delete(listen.requestId);
      model.liveAcked.delete(listen.requestId);
      return [responded(nowMs, listen.sessionGeneration, listen.requestId, { type: 'result', result: { resultType: 'complete' } })];
    }
    case 'tick': {
      model.nowMs += act.ms;
      const due = [...model.timers.values()].filter((t) => t.deadlineMs <= model.nowMs).sort((a, b) => a.deadlineMs - b.deadlineMs);
      return due.map((t) => timerFired(model.nowMs, t.timer as TimerId, t.deadlineMs));
    }
  }
}

function answer(model: Model, act: Extract<Act, { kind: 'answer' }>): ClientInput[] {
  const pending = [...model.pending.values()].filter((r) => r.method !== 'subscriptions/listen');
  const pool = act.late && model.abandoned.size > 0 ? [...model.abandoned].map((id) => model.everSent.get(id)!) : pending;
  const request = pool[act.pick % Math.max(1, pool.length)];
  if (request === undefined) return [];
  model.pending.delete(request.requestId);
  if (request.method !== 'resources/read') return [responded(model.nowMs, request.sessionGeneration, request.requestId, { type: 'result', result: { resources: [] } })];
  model.ttlOfAnswer.set(request.requestId, act.ttlMs);
  return [responded(model.nowMs, request.sessionGeneration, request.requestId, content(request.uri, `v${request.requestId}`, act.ttlMs))];
}

/** The laws, judged from the input and the effects only. */
function judge(model: Model, input: ClientInput, effects: readonly ClientEffect[]): string[] {
  const problems: string[] = [];
  const acked = input.type === 'NotificationArrived' && input.method === 'notifications/subscriptions/acknowledged';
  if (input.type === 'NotificationArrived' && input.method === 'notifications/resources/updated') {
    // No phantom watch: an updated acts (any effect but an audit) only with the id of a live, acknowledged listen of its URI.
    const params = input.params as { uri: string; _meta?: Record<string, unknown> };
    const id = params._meta?.[subscriptionIdMetaKey];
    const acted = effects.filter((effect) => effect.type !== 'AuditWritten');
    if (acted.length > 0 && (typeof id !== 'number' || model.liveAcked.get(id) !== params.uri)) {
      problems.push(`updated ${params.uri} tagged ${String(id)} acted: ${acted.map((effect) => effect.type).join(' ')}`);
    }
  }
  for (const effect of effects) {
    if (effect.type === 'Transitioned' && effect.event === 'update_seen' && input.type !== 'NotificationArrived') {
      problems.push(`update_seen on ${effect.uri} from ${input.type}`);
    }
    if (effect.type === 'Transitioned' && effect.event === 'subscribe_acked' && !acked) problems.push(`subscribe_acked without an ack (${input.type})`);
    if (effect.type === 'VersionAccepted' && input.type === 'ResponseArrived' && model.abandoned.has(input.requestId as number)) {
      problems.push(`a late answer to abandoned read ${String(input.requestId)} was accepted`);
    }
    if (effect.type === 'ContentServed' && !(model.nowMs < (model.freshUntil.get(effect.uri) ?? -1))) {
      problems.push(`served ${effect.uri} at ${model.nowMs}, fresh until ${model.freshUntil.get(effect.uri) ?? 'never'}`);
    }
  }
  for (const effect of effects) track(model, input, effect);
  return problems;
}

function track(model: Model, input: ClientInput, effect: ClientEffect): void {
  if (effect.type === 'RequestSent') {
    model.pending.set(effect.requestId, effect);
    model.everSent.set(effect.requestId, effect);
  } else if (effect.type === 'TimerArmed') {
    model.timers.set(effect.timer.kind + ':' + effect.timer.uri, effect);
  } else if (effect.type === 'ListenCancelled') {
    model.liveAcked.delete(effect.requestId);
    model.pending.delete(effect.requestId);
  } else if (effect.type === 'AuditWritten' && effect.kind === 'READ_ABANDONED') {
    model.abandoned.add(effect.requestId);
    model.pending.delete(effect.requestId);
  } else if (effect.type === 'Transitioned' && effect.event === 'subscribe_acked' && input.type === 'NotificationArrived') {
    const id = (input.params as { _meta: Record<string, number> })._meta[subscriptionIdMetaKey]!;
    if (model.pending.has(id)) model.liveAcked.set(id, effect.uri);
  } else if (effect.type === 'Transitioned' && (effect.event === 'session_lost' || effect.event === 'unsubscribe_begun')) {
    for (const [id, uri] of model.liveAcked) if (uri === effect.uri) model.liveAcked.delete(id);
  } else if (effect.type === 'VersionAccepted' && input.type === 'ResponseArrived') {
    const ttl = model.ttlOfAnswer.get(input.requestId as number) ?? 0;
    model.freshUntil.set(effect.uri, model.nowMs + Math.max(0, ttl));
  }
}

describe('2026-07-28 laws under random listen traffic', () => {
  test.prop([fc.array(actArbitrary, { minLength: 20, maxLength: 80, size: 'max' })], { numRuns: 300 })(
    'no phantom watch, acks only from acks, abandoned reads never accepted, serves only within ttlMs from receipt',
    (acts) => {
      expect(violations(acts)).toEqual([]);
    },
  );
});
