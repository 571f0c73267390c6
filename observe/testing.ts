/**
 * Test support: the reference core and the observation fold stepped side by side, as the fenced cache runs
 * them (not part of the build).
 */
import { step } from '../core/reducer.js';
import { initialState, type CoreState } from '../core/state.js';
import { ackOutcome, capabilitiesSubscribe, contentOutcome, deepFreeze, responded, subscribeCommanded, testConfig, timerFired } from '../core/testing.js';
import { subscriptionIdMetaKey } from '../core/era.js';
import { timerName, type ClientConfig, type ClientEffect, type ClientInput, type ResponseOutcome } from '../core/types.js';
import { foldStep } from './fold.js';
import type { instruments } from './instruments.js';
import { countOf, initialObserveState, type Measurement, type ObserveConfig, type ObserveState } from './state.js';

/** The reference core and the fold side by side, as the fenced cache runs them. */
export class Run {
  core: CoreState;
  observe: ObserveState;
  readonly measurements: Measurement[] = [];
  effects: ClientEffect[] = [];
  readonly all: ClientEffect[] = [];
  nowMs = 0;

  constructor(config: Partial<ClientConfig> = {}, observeConfig: Partial<ObserveConfig> = {}) {
    this.core = initialState(testConfig(config));
    this.observe = initialObserveState(observeConfig);
  }

  feed(input: ClientInput): ClientEffect[] {
    this.nowMs = input.nowMs;
    const result = step(this.core, input);
    this.core = result.state;
    this.effects = result.effects;
    this.all.push(...result.effects);
    const folded = foldStep(deepFreeze(this.observe), input, result.effects);
    this.observe = folded.state;
    this.measurements.push(...folded.measurements);
    return result.effects;
  }

  /** The request id of the last RequestSent for `uri` with `method`. */
  request(method: string, uri: string, effects = this.effects): number {
    const sent = effects.filter((effect) => effect.type === 'RequestSent' && effect.method === method && effect.uri === uri);
    if (sent.length === 0) throw new Error(`no ${method} for ${uri} in ${JSON.stringify(effects.map((effect) => effect.type))}`);
    return (sent[sent.length - 1] as Extract<ClientEffect, { type: 'RequestSent' }>).requestId;
  }

  /** Fires the latest arming of the timer named `name` (`kind:uri`, core timerName) at its deadline. */
  fire(name: string): void {
    const armed = this.all.filter((effect): effect is Extract<ClientEffect, { type: 'TimerArmed' }> => effect.type === 'TimerArmed' && timerName(effect.timer) === name).at(-1);
    if (armed === undefined) throw new Error(`timer ${name} was never armed`);
    this.feed(timerFired(armed.deadlineMs, armed.timer, armed.deadlineMs));
  }

  /** Fires the reconciliation timer of `uri` and answers its read with `text`. */
  reconcile(uri: string, text: string, session = 1): void {
    this.fire(`reconcile:${uri}`);
    this.feed(responded(this.nowMs + 5, session, this.request('resources/read', uri), contentOutcome(uri, text)));
  }

  count(instrument: keyof typeof instruments, attributes: Record<string, string> = {}): number {
    return countOf(this.observe, instrument, attributes);
  }
}

export function subscribed(run: Run, uri: string, nowMs: number, session = 1): number {
  run.feed(subscribeCommanded(nowMs, uri));
  run.feed(responded(nowMs + 1, session, run.request('resources/subscribe', uri), ackOutcome));
  const readId = run.request('resources/read', uri);
  run.feed(responded(nowMs + 2, session, readId, contentOutcome(uri, `${uri} v1`)));
  return readId;
}

// -- 2026-07-28 inputs -------------------------------------------------------------------------

export function connected2026(nowMs: number, generation: number): ClientInput {
  return { type: 'Connected', nowMs, jitter: 0, sessionGeneration: generation, capabilities: capabilitiesSubscribe, era: '2026-07-28' };
}

export function ack2026(nowMs: number, id: number, uris: string[]): ClientInput {
  const params = { notifications: { resourceSubscriptions: uris }, _meta: { [subscriptionIdMetaKey]: id } };
  return { type: 'NotificationArrived', nowMs, jitter: 0, sessionGeneration: 1, method: 'notifications/subscriptions/acknowledged', params };
}

export function content2026(uri: string, text: string, ttlMs: unknown): ResponseOutcome {
  const outcome = contentOutcome(uri, text) as { type: 'result'; result: Record<string, unknown> };
  return { type: 'result', result: { ...outcome.result, ttlMs, cacheScope: 'private' } };
}

export const serve = (nowMs: number, uri: string): ClientInput => ({ type: 'ServeCommanded', nowMs, jitter: 0, uri, subject: 'default' });
