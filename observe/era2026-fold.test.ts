/**
 * The 2026-07-28 metrics of the fold, pinned on hand-written steps of the reference core: a listen per
 * watch, acks by honored filter (honored, narrowed, ignored), and serves past the TTL from receipt — not
 * one millisecond before, counted from the `ttlMs` of the accepted result.
 */
import { describe, expect, it } from 'vitest';
import { capabilitiesSubscribe, contentOutcome, responded, subscribeCommanded } from '../core/testing.js';
import { formatHealth, healthOf } from './health.js';
import { ack2026 as ack, connected2026, content2026 as content, Run, serve } from './testing.js';

const A = 'file:///a.txt';
const B = 'https://example.com/b';

describe('the fold on 2026-07-28 connections', () => {
  it('counts listens and acks by honored filter, and serves past TTL from the receipt of the accepted result', () => {
    const run = new Run();
    run.feed(connected2026(0, 1));
    run.feed(subscribeCommanded(0, A));
    const listenA = run.request('subscriptions/listen', A);
    run.feed(subscribeCommanded(0, B));
    const listenB = run.request('subscriptions/listen', B);
    expect(run.count('listens')).toBe(2);
    expect(run.count('subscribeAttempts')).toBe(0);

    run.feed(ack(10, listenA, [A]));
    run.feed(ack(11, listenB, [])); // the server left B out: polled, not watched
    run.feed(ack(12, listenA, [A])); // a second ack: no listen is waiting for one
    expect(run.count('listenAcks', { 'fencesim.ack.filter': 'honored' })).toBe(1);
    expect(run.count('listenAcks', { 'fencesim.ack.filter': 'narrowed' })).toBe(1);
    expect(run.count('listenAcks', { 'fencesim.ack.filter': 'ignored' })).toBe(1);

    run.feed(responded(100, 1, run.request('resources/read', A, run.all), content(A, 'v1', 5_000)));
    run.feed(serve(5_099, A));
    expect(run.count('serves')).toBe(1);
    expect(run.count('ttlExpiredServes')).toBe(0);
    run.feed(serve(5_100, A)); // receipt 100 + ttlMs 5000: stale from here on
    expect(run.effects.map((effect) => effect.type)).toContain('ContentRefused');
    expect(run.count('ttlExpiredServes')).toBe(1);
    expect(run.count('reads', { 'fencesim.read.reason': 'ttl' })).toBe(1);

    const health = healthOf(run.observe, 5_100);
    expect(health.listen).toEqual({ listens: 2, acksHonored: 1, acksNarrowed: 1, acksIgnored: 1, ttlExpiredServes: 1 });
    expect(health.reasons.map((reason) => reason.code)).toContain('LISTENS_NARROWED');
    expect(formatHealth(health)).toContain('2026-07-28: 2 listens, acks 1 honored / 1 narrowed / 1 ignored, 1 serves past TTL');
  });

  it('a 2025-11-25 connection has no listen figures and no TTL: results without ttlMs never expire', () => {
    const run = new Run();
    run.feed({ type: 'Connected', nowMs: 0, jitter: 0, sessionGeneration: 1, capabilities: capabilitiesSubscribe });
    run.feed(subscribeCommanded(0, A));
    run.feed(responded(1, 1, run.request('resources/subscribe', A), { type: 'result', result: {} }));
    run.feed(responded(2, 1, run.request('resources/read', A), contentOutcome(A, 'v1')));
    run.feed(serve(50_000, A));
    expect(run.count('ttlExpiredServes')).toBe(0);
    expect(healthOf(run.observe, 50_000).listen).toBeNull();
  });
});
