/**
 * Test support for the core's own tests (never imported by non-test code): deep-freezing, input
 * builders, and a model-based driver that turns a list of abstract actions into inputs against the live
 * reducer state (it answers outstanding requests and fires armed timers that earlier effects announced).
 *
 * The driver is pure and deterministic; the arbitraries that generate actions live in the test files.
 */
import { durableLedger, step } from './reducer.js';
import { recoverStep } from './recovery.js';
import { initialState, type CoreState } from './state.js';
import type { ClientConfig, ClientEffect, ClientInput, ResponseOutcome, ServerCapabilities, TimerId } from './types.js';
import { defaultClientConfig, timerName } from './types.js';

// -- data helpers ---------------------------------------------------------------------------------

/** Recursively freezes plain data (objects and arrays); returns the same value. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value as object)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

/** A JSON round trip (what a ledger file or a replay would hold). */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A private, unfrozen copy of the default config (freezing the shared default would leak into other tests). */
export function testConfig(overrides: Partial<ClientConfig> = {}): ClientConfig {
  return { ...defaultClientConfig, ...overrides };
}

export const capabilitiesSubscribe: ServerCapabilities = { resources: true, subscribe: true, listChanged: true, snapshotId: false };
export const capabilitiesPollOnly: ServerCapabilities = { resources: true, subscribe: false, listChanged: false, snapshotId: false };

/** Resources the driver works with: canonical form first, then equivalent spellings (SPEC §3.7). */
export const resourceSpellings: readonly (readonly string[])[] = [
  ['file:///a.txt', 'FILE:///a.txt', 'file:///x/../a.txt'],
  ['https://example.com/b', 'HTTPS://Example.COM:443/b', 'https://example.com/%62'],
];

export function canonicalOf(resource: number): string {
  return resourceSpellings[resource % resourceSpellings.length]![0]!;
}

export function spellingOf(resource: number, spelling: number): string {
  const spellings = resourceSpellings[resource % resourceSpellings.length]!;
  return spellings[spelling % spellings.length]!;
}

// -- input builders ------------------------------------------------------------------------------

export function connected(nowMs: number, sessionGeneration: number, capabilities = capabilitiesSubscribe): ClientInput {
  return { type: 'Connected', nowMs, jitter: 0, sessionGeneration, capabilities };
}

export function disconnected(nowMs: number, sessionGeneration: number): ClientInput {
  return { type: 'Disconnected', nowMs, jitter: 0, sessionGeneration };
}

export function subscribeCommanded(nowMs: number, uri: string): ClientInput {
  return { type: 'SubscribeCommanded', nowMs, jitter: 0, uri };
}

export function unsubscribeCommanded(nowMs: number, uri: string): ClientInput {
  return { type: 'UnsubscribeCommanded', nowMs, jitter: 0, uri };
}

export function updated(nowMs: number, sessionGeneration: number, uri: string): ClientInput {
  return { type: 'NotificationArrived', nowMs, jitter: 0, sessionGeneration, method: 'notifications/resources/updated', params: { uri } };
}

export function responded(nowMs: number, sessionGeneration: number, requestId: unknown, outcome: ResponseOutcome): ClientInput {
  return { type: 'ResponseArrived', nowMs, jitter: 0, sessionGeneration, requestId, outcome };
}

export function timerFired(nowMs: number, timer: TimerId, deadlineMs: number): ClientInput {
  return { type: 'TimerFired', nowMs, jitter: 0, timer, deadlineMs };
}

export function contentOutcome(uri: string, text: string): ResponseOutcome {
  return { type: 'result', result: { contents: [{ uri, mimeType: 'text/plain', text }] } };
}

export const notFoundOutcome: ResponseOutcome = { type: 'error', code: -32002, message: 'Resource not found' };
export const internalErrorOutcome: ResponseOutcome = { type: 'error', code: -32603, message: 'Internal error' };
export const ackOutcome: ResponseOutcome = { type: 'result', result: {} };

// -- effect helpers ------------------------------------------------------------------------------

export type EffectOf<T extends ClientEffect['type']> = Extract<ClientEffect, { type: T }>;

export function effectsOf<T extends ClientEffect['type']>(effects: readonly ClientEffect[], type: T): EffectOf<T>[] {
  return effects.filter((effect): effect is EffectOf<T> => effect.type === type);
}

export function readsSent(effects: readonly ClientEffect[]): EffectOf<'RequestSent'>[] {
  return effectsOf(effects, 'RequestSent').filter((effect) => effect.method === 'resources/read');
}

/** Steps through inputs, deep-freezing every state first; returns the final state and all effects. */
export function runInputs(state: CoreState, inputs: readonly ClientInput[]): { state: CoreState; effects: ClientEffect[] } {
  const effects: ClientEffect[] = [];
  let current = state;
  for (const input of inputs) {
    const result = step(deepFreeze(current), input);
    effects.push(...result.effects);
    current = result.state;
  }
  return { state: current, effects };
}

// -- the model-based driver -------------------------------------------------------------------------

export type ReplyKind = 'ok' | 'not-found' | 'error' | 'drop';

/** An abstract action; indices are resolved against what is outstanding when the action runs. */
export type Action =
  | { kind: 'connect'; advanceMs: number; jitter: number; subscribe: boolean }
  | { kind: 'disconnect'; advanceMs: number; jitter: number }
  | { kind: 'subscribe'; advanceMs: number; jitter: number; resource: number; spelling: number }
  | { kind: 'unsubscribe'; advanceMs: number; jitter: number; resource: number; spelling: number }
  | { kind: 'notify'; advanceMs: number; jitter: number; resource: number; spelling: number; oldSession: boolean }
  /**
   * Fires one of the timers earlier effects armed (among the model-live ones only when `liveOnly`).
   * skewMs 0 fires at the armed deadline; anything else is a wrong deadline; null fires with deadline -1.
   */
  | { kind: 'fire'; advanceMs: number; jitter: number; pick: number; liveOnly: boolean; skewMs: number | null }
  /** Answers (or drops) one outstanding request, among those of the live session only when `liveOnly`. */
  | { kind: 'respond'; advanceMs: number; jitter: number; pick: number; liveOnly: boolean; reply: ReplyKind; text: number; spelling: number }
  | { kind: 'crash'; advanceMs: number; jitter: number };

export interface OutstandingRequest {
  sent: EffectOf<'RequestSent'>;
  /** Index of the trace step that sent it. */
  sentAtStep: number;
  /** False once its session ended (Disconnected, a new Connected, or a crash). */
  sessionAlive: boolean;
  /** True once the client crashed after sending it. */
  crashedSince: boolean;
  /** True once an UnsubscribeCommanded for its URI was delivered after it was sent. */
  unsubscribedSince: boolean;
}

export interface ArmedTimer {
  timer: TimerId;
  deadlineMs: number;
  /** Model view: the latest arming of this key, not fired since, and its session did not end. */
  live: boolean;
}

export interface TraceStep {
  action: Action;
  /** Null for actions that deliver nothing (crash, a dropped response, nothing to answer or fire). */
  input: ClientInput | null;
  before: CoreState;
  after: CoreState;
  effects: ClientEffect[];
  /** Serialized `before`, taken before the step ran (to prove it was not mutated); '' unless snapshots. */
  beforeJson: string;
  /** For responses: the request answered. */
  answered: OutstandingRequest | null;
  /** For responses: the content text sent (when the reply was content). */
  answeredText: string | null;
  /** For timer firings: the timer chosen and whether the model knows the firing is stale. */
  timer: { armed: ArmedTimer; staleByModel: boolean } | null;
  /** Canonical URIs the workload wants subscribed before this step (last command was subscribe). */
  wantedBefore: string[];
  connectedBefore: boolean;
  /** The session generation the driver considers current (or last) before this step. */
  sessionBefore: number;
  crashed: boolean;
}

export interface Trace {
  steps: TraceStep[];
  final: CoreState;
}

export interface DriveOptions {
  /** Serialize every state before its step into `beforeJson` (to prove the step did not mutate it). */
  snapshots: boolean;
}

export const textPool: readonly string[] = ['alpha', 'beta', 'gamma', '', 'delta\nline 2'];

/** Runs actions against the reference reducer. Throws if step throws (e.g. on a frozen-state write). */
export function drive(actions: readonly Action[], config: ClientConfig = testConfig(), options: DriveOptions = { snapshots: false }): Trace {
  const driver = new ModelDriver(initialState(deepFreeze({ ...config })), options);
  const steps = actions.map((action) => driver.run(action));
  return { steps, final: driver.state };
}

/** What the driver knows from the outside: sessions, outstanding requests, armed timers, wanted URIs. */
class ModelDriver {
  nowMs = 0;
  private connected = false;
  private session = 0;
  private readonly outstanding: OutstandingRequest[] = [];
  private readonly timers: ArmedTimer[] = [];
  private readonly wanted = new Set<string>();
  private stepCount = 0;

  constructor(
    public state: CoreState,
    private readonly options: DriveOptions,
  ) {}

  run(action: Action): TraceStep {
    this.nowMs += action.advanceMs;
    const before = deepFreeze(this.state);
    const record: TraceStep = {
      action,
      input: null,
      before,
      after: before,
      effects: [],
      beforeJson: this.options.snapshots ? JSON.stringify(before) : '',
      answered: null,
      answeredText: null,
      timer: null,
      wantedBefore: [...this.wanted].sort(),
      connectedBefore: this.connected,
      sessionBefore: this.session,
      crashed: false,
    };
    const input = this.inputFor(action, record);
    if (input !== null) {
      record.input = deepFreeze(input);
      const result = step(before, input);
      this.state = result.state;
      record.after = deepFreeze(result.state);
      record.effects = result.effects;
      this.observe(result.effects);
    }
    this.stepCount += 1;
    return record;
  }

  /** The input an action delivers now (null when it delivers none), updating the model's view first. */
  private inputFor(action: Action, record: TraceStep): ClientInput | null {
    const { nowMs } = this;
    switch (action.kind) {
      case 'connect': {
        this.session += 1;
        this.endSession();
        this.connected = true;
        const capabilities = action.subscribe ? capabilitiesSubscribe : capabilitiesPollOnly;
        return { type: 'Connected', nowMs, jitter: action.jitter, sessionGeneration: this.session, capabilities };
      }
      case 'disconnect':
        if (this.connected) this.endSession();
        this.connected = false;
        return { type: 'Disconnected', nowMs, jitter: action.jitter, sessionGeneration: this.session };
      case 'subscribe':
        this.wanted.add(canonicalOf(action.resource));
        return { type: 'SubscribeCommanded', nowMs, jitter: action.jitter, uri: spellingOf(action.resource, action.spelling) };
      case 'unsubscribe': {
        const uri = canonicalOf(action.resource);
        this.wanted.delete(uri);
        for (const request of this.outstanding) if (request.sent.uri === uri) request.unsubscribedSince = true;
        return { type: 'UnsubscribeCommanded', nowMs, jitter: action.jitter, uri: spellingOf(action.resource, action.spelling) };
      }
      case 'notify': {
        const sessionGeneration = action.oldSession ? this.session - 1 : this.session;
        const params = { uri: spellingOf(action.resource, action.spelling) };
        return { type: 'NotificationArrived', nowMs, jitter: action.jitter, sessionGeneration, method: 'notifications/resources/updated', params };
      }
      case 'fire':
        return this.fire(action, record);
      case 'respond':
        return this.respond(action, record);
      case 'crash':
        const recovered = recoverStep(this.state.config, jsonCopy(durableLedger(this.state)));
        this.state = recovered.state;
        record.effects = recovered.effects;
        this.endSession();
        for (const request of this.outstanding) request.crashedSince = true;
        this.connected = false;
        record.crashed = true;
        record.after = deepFreeze(this.state);
        return null;
    }
  }

  private fire(action: Extract<Action, { kind: 'fire' }>, record: TraceStep): ClientInput | null {
    const candidates = action.liveOnly ? this.timers.filter((timer) => timer.live) : this.timers;
    if (candidates.length === 0) return null;
    const armed = candidates[action.pick % candidates.length]!;
    const deadlineMs = action.skewMs === null ? -1 : armed.deadlineMs + action.skewMs;
    if (deadlineMs > this.nowMs) this.nowMs = deadlineMs;
    // Live only if it matches the current arming of its key (a re-arming may repeat the same deadline).
    const current = this.timers.find((timer) => timer.live && timerName(timer.timer) === timerName(armed.timer) && timer.deadlineMs === deadlineMs);
    record.timer = { armed: { ...armed }, staleByModel: current === undefined };
    if (current !== undefined) current.live = false;
    return { type: 'TimerFired', nowMs: this.nowMs, jitter: action.jitter, timer: armed.timer, deadlineMs };
  }

  private respond(action: Extract<Action, { kind: 'respond' }>, record: TraceStep): ClientInput | null {
    const candidates = action.liveOnly ? this.outstanding.filter((request) => request.sessionAlive && !request.crashedSince) : this.outstanding;
    if (candidates.length === 0) return null;
    const request = candidates[action.pick % candidates.length]!;
    this.outstanding.splice(this.outstanding.indexOf(request), 1);
    if (action.reply === 'drop') return null;
    record.answered = { ...request };
    const outcome = replyOutcome(request.sent, action, record);
    return { type: 'ResponseArrived', nowMs: this.nowMs, jitter: action.jitter, sessionGeneration: request.sent.sessionGeneration, requestId: request.sent.requestId, outcome };
  }

  /** Learns what the step announced: requests to answer later and timers to fire later. */
  private observe(effects: readonly ClientEffect[]): void {
    for (const effect of effects) {
      if (effect.type === 'RequestSent') {
        this.outstanding.push({ sent: effect, sentAtStep: this.stepCount, sessionAlive: true, crashedSince: false, unsubscribedSince: false });
      } else if (effect.type === 'TimerArmed') {
        for (const timer of this.timers) if (timerName(timer.timer) === timerName(effect.timer)) timer.live = false;
        this.timers.push({ timer: effect.timer, deadlineMs: effect.deadlineMs, live: true });
      }
    }
  }

  private endSession(): void {
    for (const request of this.outstanding) request.sessionAlive = false;
    for (const timer of this.timers) timer.live = false;
  }
}

function replyOutcome(sent: EffectOf<'RequestSent'>, action: Extract<Action, { kind: 'respond' }>, record: TraceStep): ResponseOutcome {
  if (action.reply === 'error') return internalErrorOutcome;
  if (sent.method !== 'resources/read') return action.reply === 'ok' ? ackOutcome : notFoundOutcome;
  if (action.reply === 'not-found') return notFoundOutcome;
  const text = textPool[action.text % textPool.length]!;
  record.answeredText = text;
  const resource = resourceSpellings.findIndex((spellings) => spellings[0] === sent.uri);
  return contentOutcome(resource >= 0 ? spellingOf(resource, action.spelling) : sent.uri, text);
}
