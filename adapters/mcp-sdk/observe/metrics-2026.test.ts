/**
 * The 2026-07-28 instruments through OpenTelemetry: the fenced cache's observer (the same fold as `health()`)
 * over the reference core's steps on a 2026-07-28 connection, exported by the SDK's in-memory exporter —
 * listens, acks by honored filter, serves past TTL (with the opt-in URI label), and the same figures in health().
 */
import { describe, expect, it } from 'vitest';
import { step } from '../../../core/reducer.js';
import { initialState } from '../../../core/state.js';
import { responded, subscribeCommanded, testConfig } from '../../../core/testing.js';
import type { ClientEffect, ClientInput } from '../../../core/types.js';
import { ack2026, connected2026, content2026, serve } from '../../../observe/testing.js';
import { CacheObserver } from './metrics.js';
import { testMeter, valueOf } from './otel-testing.js';

const A = 'file:///a.txt';
const B = 'https://example.com/b';

describe('the 2026-07-28 metrics through OpenTelemetry', () => {
  it('exports listens, acks by honored filter and serves past TTL, as health() reports them', async () => {
    const meter = testMeter();
    const observer = new CacheObserver({ meterProvider: meter.meterProvider, uriLabel: (uri) => (uri.startsWith('file:') ? 'files' : 'web') });
    let core = initialState(testConfig());
    let effects: ClientEffect[] = [];
    const feed = (input: ClientInput): void => {
      const result = step(core, input);
      core = result.state;
      effects = result.effects;
      observer.step(input, effects);
    };
    const sent = (method: string, uri: string): number => {
      const found = effects.find((effect) => effect.type === 'RequestSent' && effect.method === method && effect.uri === uri);
      if (found === undefined || found.type !== 'RequestSent') throw new Error(`no ${method} for ${uri}`);
      return found.requestId;
    };
    feed(connected2026(0, 1));
    feed(subscribeCommanded(0, A));
    const listenA = sent('subscriptions/listen', A);
    feed(subscribeCommanded(0, B));
    const listenB = sent('subscriptions/listen', B);
    feed(ack2026(10, listenA, [A]));
    const readA = sent('resources/read', A);
    feed(ack2026(11, listenB, []));
    feed(responded(100, 1, readA, content2026(A, 'v1', 1_000)));
    feed(serve(500, A));
    feed(serve(1_100, A));
    feed(serve(1_200, A));

    const byName = await meter.exported();
    expect(valueOf(byName, 'fencesim.cache.listens')).toBe(2);
    expect(valueOf(byName, 'fencesim.cache.listen.acks', { 'fencesim.ack.filter': 'honored' })).toBe(1);
    expect(valueOf(byName, 'fencesim.cache.listen.acks', { 'fencesim.ack.filter': 'narrowed' })).toBe(1);
    expect(valueOf(byName, 'fencesim.cache.ttl.expired', { 'fencesim.uri.label': 'files' })).toBe(2);
    expect(valueOf(byName, 'fencesim.cache.subscribe.attempts')).toBe(0);
    expect(observer.health(1_200).listen).toEqual({ listens: 2, acksHonored: 1, acksNarrowed: 1, acksIgnored: 0, ttlExpiredServes: 2 });
    await meter.meterProvider.shutdown();
  });
});
