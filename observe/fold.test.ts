/**
 * The observation fold over the reference core's steps: hand-written sequences pin each metric's meaning;
 * a model-based property drives random sessions (core/testing.ts `drive`) and checks the totals against
 * counts taken directly from the inputs and effects, and that folding never changes its input state.
 */
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import {
  ackOutcome,
  connected,
  contentOutcome,
  deepFreeze,
  disconnected,
  drive,
  jsonCopy,
  responded,
  subscribeCommanded,
  testConfig,
  timerFired,
  unsubscribeCommanded,
  updated,
  type Action,
} from '../core/testing.js';
import type { ClientEffect, ClientInput } from '../core/types.js';
import { foldAdapterEffect, foldStep, foldStepOwned } from './fold.js';
import { instruments } from './instruments.js';
import { countsOf, initialObserveState, seriesKey, type Measurement, type ObserveState } from './state.js';
import { Run, subscribed } from './testing.js';

const A = 'mem://docs/a';
const B = 'mem://docs/b';

describe('the observation fold, metric by metric', () => {
  it('subscribe attempts and outcomes, connections, reads by reason, accepted versions', () => {
    const run = new Run();
    run.feed(connected(0, 1));
    subscribed(run, A, 10);
    expect(run.count('connections', { 'fencesim.connection.kind': 'first' })).toBe(1);
    expect(run.count('subscribeAttempts')).toBe(1);
    expect(run.count('subscribeOutcomes', { 'fencesim.outcome': 'acked' })).toBe(1);
    expect(run.count('reads', { 'fencesim.read.reason': 'initial' })).toBe(1);
    expect(run.count('fenceDecisions', { 'fencesim.fence.decision': 'accepted' })).toBe(1);
    expect(Object.keys(run.observe.live)).toEqual([A]);
  });

  it('notification fates: acted on, coalesced, audited (old session, unsubscribed), rejected', () => {
    const run = new Run();
    run.feed(connected(0, 1));
    subscribed(run, A, 10);
    run.feed(updated(100, 1, A)); // ACTIVE -> UPDATE_SEEN: acted on
    run.feed(updated(150, 1, A)); // while its read is in flight: one follow-up read, acted on
    run.feed(updated(155, 1, A)); // the follow-up is already due: coalesced into it
    run.feed(updated(160, 0, A)); // an older session
    run.feed(updated(170, 1, B)); // never subscribed
    run.feed({ type: 'NotificationArrived', nowMs: 180, jitter: 0, sessionGeneration: 1, method: 'notifications/resources/updated', params: { uri: 42 } });
    const fate = (value: string): number => run.count('notifications', { 'fencesim.notification.kind': 'updated', 'fencesim.notification.fate': value });
    expect([fate('acted_on'), fate('coalesced'), fate('audited_old_session'), fate('audited_unsubscribed'), fate('rejected')]).toEqual([2, 1, 1, 1, 1]);
    expect(run.count('protocolRejections', { 'fencesim.rejection.kind': 'InvalidUri', 'fencesim.rejection.source': 'core' })).toBe(1);
    expect(run.observe.window.at(-1)!.updatedNotifications).toBe(3);
  });

  it('fence decisions: a late read leaves a stale ORDINAL receipt; a read after unsubscribe is after_close', () => {
    const run = new Run();
    run.feed(connected(0, 1));
    subscribed(run, A, 10);
    run.feed(updated(100, 1, A)); // leading edge: read at once
    const slow = run.request('resources/read', A);
    run.feed(updated(500, 1, A)); // dirty while the read is in flight: hedge armed
    run.fire(`hedge:${A}`);
    const hedge = run.request('resources/read', A);
    run.feed(responded(1_500, 1, hedge, contentOutcome(A, 'v3')));
    run.feed(responded(1_600, 1, slow, contentOutcome(A, 'v2')));
    expect(run.count('fenceDecisions', { 'fencesim.fence.decision': 'stale', 'fencesim.stale.reason': 'ordinal' })).toBe(1);
    expect(run.count('reads', { 'fencesim.read.reason': 'notification' })).toBe(2);

    run.feed(updated(2_000, 1, A));
    const late = run.request('resources/read', A);
    run.feed(unsubscribeCommanded(2_400, A));
    run.feed(responded(2_500, 1, late, contentOutcome(A, 'v4')));
    expect(run.count('fenceDecisions', { 'fencesim.fence.decision': 'after_close' })).toBe(1);
    expect(run.observe.wanted).toEqual({});
  });

  it('cache age at serve is the time since the read that last confirmed the content', () => {
    const run = new Run();
    run.feed(connected(0, 1));
    subscribed(run, A, 10); // accepted at 12
    run.feed({ type: 'ServeCommanded', nowMs: 5_012, jitter: 0, uri: A, subject: 'default' });
    run.feed({ type: 'ServeCommanded', nowMs: 5_013, jitter: 0, uri: A, subject: 'mallory' });
    expect(run.observe.histograms[seriesKey('serveAge', {})]).toEqual({ count: 1, sumMs: 5_000, maxMs: 5_000 });
    expect(run.count('serves')).toBe(1);
    expect(run.count('refusals', { 'fencesim.refusal.reason': 'other_subject' })).toBe(1);
    run.feed({ type: 'ServeCommanded', nowMs: 5_014, jitter: 0, uri: B, subject: 'default' });
    expect(run.count('refusals', { 'fencesim.refusal.reason': 'not_cached' })).toBe(1);
  });

  it('revocation: purge latency from the feed event, then refusals name the revocation', () => {
    const run = new Run();
    run.feed(connected(0, 1));
    subscribed(run, A, 10);
    run.feed({ type: 'AuthorizationChanged', nowMs: 50, jitter: 0, subject: 'default', uri: A, allowed: false });
    run.feed({ type: 'ServeCommanded', nowMs: 60, jitter: 0, uri: A, subject: 'default' });
    expect(run.observe.histograms[seriesKey('revocationPurgeDuration', {})]).toEqual({ count: 1, sumMs: 0, maxMs: 0 });
    expect(run.observe.revocationsPending).toEqual({});
    expect(run.count('refusals', { 'fencesim.refusal.reason': 'revoked' })).toBe(1);
    // The same revocation again: already purged, nothing is pending; a grant then a new revocation purges again.
    run.feed({ type: 'AuthorizationChanged', nowMs: 70, jitter: 0, subject: 'default', uri: A, allowed: false });
    expect(run.observe.revocationsPending).toEqual({});
    run.feed({ type: 'AuthorizationChanged', nowMs: 80, jitter: 0, subject: 'default', uri: A, allowed: true });
    run.feed({ type: 'AuthorizationChanged', nowMs: 90, jitter: 0, subject: 'default', uri: A, allowed: false });
    expect(run.observe.revocationsPending).toEqual({});
    expect(run.observe.histograms[seriesKey('revocationPurgeDuration', {})]!.count).toBe(2);
  });

  it('a reconnect: the resubscription round completes when every wanted URI is acked, with its duration', () => {
    const run = new Run();
    run.feed(connected(0, 1));
    subscribed(run, A, 10);
    subscribed(run, B, 20);
    run.feed(disconnected(1_000, 1));
    const reconnected = run.feed(connected(1_500, 2));
    run.feed(responded(1_600, 2, run.request('resources/subscribe', A, reconnected), ackOutcome));
    expect(run.observe.round).toMatchObject({ wanted: 2, resubscribed: 1 });
    run.feed(responded(1_900, 2, run.request('resources/subscribe', B, reconnected), ackOutcome));
    expect(run.count('connections', { 'fencesim.connection.kind': 'reconnect' })).toBe(1);
    expect(run.count('disconnections')).toBe(1);
    expect(run.count('resubscriptionUris', { 'fencesim.resubscription.state': 'wanted' })).toBe(2);
    expect(run.count('resubscriptionUris', { 'fencesim.resubscription.state': 'resubscribed' })).toBe(2);
    expect(run.count('resubscriptionRounds', { 'fencesim.outcome': 'complete' })).toBe(1);
    expect(run.observe.histograms[seriesKey('resubscriptionDuration', {})]).toEqual({ count: 1, sumMs: 400, maxMs: 400 });
    expect(run.observe.lastRound).toMatchObject({ outcome: 'complete', wanted: 2, resubscribed: 2, durationMs: 400 });
  });

  it('a round is interrupted when the session ends first, incomplete when its deadline passes; a lost subscribe is counted', () => {
    const run = new Run();
    run.feed(connected(0, 1));
    subscribed(run, A, 10);
    run.feed(disconnected(1_000, 1));
    run.feed(connected(1_500, 2)); // the subscribe of A is never answered
    run.feed(disconnected(2_000, 2));
    expect(run.count('resubscriptionRounds', { 'fencesim.outcome': 'interrupted' })).toBe(1);
    expect(run.count('subscribeOutcomes', { 'fencesim.outcome': 'session_lost' })).toBe(1);
    run.feed(connected(2_500, 3));
    run.feed({ type: 'ServeCommanded', nowMs: 2_500 + 30_001, jitter: 0, uri: A, subject: 'default' });
    expect(run.count('resubscriptionRounds', { 'fencesim.outcome': 'incomplete' })).toBe(1);
    expect(run.observe.lastRound).toMatchObject({ sessionGeneration: 3, outcome: 'incomplete', wanted: 1, resubscribed: 0, durationMs: null });
  });

  it('reconciliation changes: a reconcile read that brings a new digest is counted, an unchanged one is not', () => {
    const run = new Run();
    run.feed(connected(0, 1));
    subscribed(run, A, 10);
    run.reconcile(A, `${A} v1`);
    expect(run.count('reconciliationChanges')).toBe(0);
    run.reconcile(A, 'v2');
    expect(run.count('reconciliationChanges')).toBe(1);
    expect(run.count('reads', { 'fencesim.read.reason': 'reconcile' })).toBe(2);
    expect(run.observe.window.reduce((sum, bucket) => sum + bucket.reconciliationChanges, 0)).toBe(1);
  });

  it('adapter-observed rejections are counted with source adapter', () => {
    const folded = foldAdapterEffect(initialObserveState(), 5, { type: 'ProtocolRejected', rejection: { kind: 'MalformedResponse', detail: 'x' } });
    expect(folded.measurements).toEqual([{ instrument: 'protocolRejections', value: 1, attributes: { 'fencesim.rejection.kind': 'MalformedResponse', 'fencesim.rejection.source': 'adapter' }, uri: null }]);
  });
});

// -- the model-based property ------------------------------------------------------------------------

const advanceMs = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 500, max: 40_000 }));
const jitter = fc.integer({ min: 0, max: 0xffff_ffff });
const resource = fc.nat({ max: 1 });
const spelling = fc.nat({ max: 2 });
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('connect' as const), advanceMs, jitter, subscribe: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('disconnect' as const), advanceMs, jitter }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('subscribe' as const), advanceMs, jitter, resource, spelling }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unsubscribe' as const), advanceMs, jitter, resource, spelling }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('notify' as const), advanceMs, jitter, resource, spelling, oldSession: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('fire' as const), advanceMs, jitter, pick: fc.nat({ max: 30 }), liveOnly: fc.boolean(), skewMs: fc.constant(0) }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('respond' as const),
      advanceMs,
      jitter,
      pick: fc.nat({ max: 30 }),
      liveOnly: fc.boolean(),
      reply: fc.constantFrom('ok' as const, 'ok' as const, 'not-found' as const, 'error' as const, 'drop' as const),
      text: fc.nat({ max: 4 }),
      spelling,
    }),
  },
);

function foldTrace(actions: Action[]): { state: ObserveState; measurements: Measurement[]; inputs: ClientInput[]; effects: ClientEffect[] } {
  let state = initialObserveState();
  const measurements: Measurement[] = [];
  const inputs: ClientInput[] = [];
  const effects: ClientEffect[] = [];
  for (const traced of drive(actions).steps) {
    if (traced.input === null) continue;
    const before = jsonCopy(state);
    const folded = foldStep(deepFreeze(state), traced.input, traced.effects);
    expect(state).toEqual(before); // the fold never changes its input
    state = folded.state;
    measurements.push(...folded.measurements);
    inputs.push(traced.input);
    effects.push(...traced.effects);
  }
  return { state, measurements, inputs, effects };
}

const sumOf = (counts: Record<string, number>, instrument: string): number =>
  Object.entries(counts).reduce((sum, [key, value]) => (key === instrument || key.startsWith(instrument + '|') ? sum + value : sum), 0);

describe('the observation fold over random sessions of the reference core', () => {
  test.prop([fc.array(actionArbitrary, { minLength: 1, maxLength: 60 })], { numRuns: 150 })(
    'totals equal the measurements and the counts taken directly from inputs and effects; the fold is deterministic',
    (actions) => {
      const { state, measurements, inputs, effects } = foldTrace(actions);
      const counted: Record<string, number> = {};
      for (const measurement of measurements) {
        if (instruments[measurement.instrument].kind === 'counter') {
          const key = seriesKey(measurement.instrument, measurement.attributes);
          counted[key] = (counted[key] ?? 0) + measurement.value;
        }
        for (const [name, value] of Object.entries(measurement.attributes)) {
          expect(instruments[measurement.instrument].attributes[name], `${measurement.instrument} ${name}`).toContain(value);
        }
      }
      for (const key of Object.keys(counted)) if (counted[key] === 0) delete counted[key];
      const counts = countsOf(state);
      expect(counts).toEqual(counted);
      const ofType = (type: string, method?: string): number => effects.filter((effect) => effect.type === type && (method === undefined || (effect as { method?: string }).method === method)).length;
      expect(sumOf(counts, 'reads')).toBe(ofType('RequestSent', 'resources/read'));
      expect(sumOf(counts, 'subscribeAttempts')).toBe(ofType('RequestSent', 'resources/subscribe'));
      expect(sumOf(counts, 'notifications')).toBe(inputs.filter((input) => input.type === 'NotificationArrived').length);
      expect(sumOf(counts, 'connections')).toBe(inputs.filter((input) => input.type === 'Connected').length);
      expect(counts[seriesKey('fenceDecisions', { 'fencesim.fence.decision': 'accepted' })] ?? 0).toBe(ofType('VersionAccepted'));
      expect(sumOf(counts, 'fenceDecisions')).toBe(ofType('VersionAccepted') + ofType('TombstonePending') + ofType('StaleReceiptWritten') + effects.filter((effect) => effect.type === 'AuditWritten' && effect.kind === 'STALE_AFTER_CLOSE').length);
      expect(sumOf(counts, 'protocolRejections')).toBe(ofType('ProtocolRejected'));
      const resubscribed = counts[seriesKey('resubscriptionUris', { 'fencesim.resubscription.state': 'resubscribed' })] ?? 0;
      expect(resubscribed).toBeLessThanOrEqual(counts[seriesKey('resubscriptionUris', { 'fencesim.resubscription.state': 'wanted' })] ?? 0);
      expect(sumOf(counts, 'resubscriptionRounds')).toBeLessThanOrEqual(counts[seriesKey('connections', { 'fencesim.connection.kind': 'reconnect' })] ?? 0);
      expect(JSON.stringify(foldTrace(actions).state)).toBe(JSON.stringify(state));
    },
  );
});

describe('the owning fold (the gate\'s sampled fold)', () => {
  test.prop([fc.array(actionArbitrary, { minLength: 1, maxLength: 60 })], { numRuns: 100 })(
    'gives the measurements and the state the pure fold gives, step by step',
    (actions) => {
      let pure = initialObserveState();
      let owned = initialObserveState();
      for (const traced of drive(actions).steps) {
        if (traced.input === null) continue;
        const expected = foldStep(pure, traced.input, traced.effects);
        const actual = foldStepOwned(owned, traced.input, traced.effects);
        expect(actual.measurements).toEqual(expected.measurements);
        expect(actual.state).toEqual(expected.state);
        pure = expected.state;
        owned = actual.state;
      }
    },
  );
});
