/**
 * The 2026-07-28 metrics of the observation fold (listens, acks by honored filter, serves past TTL) over
 * simulated 2026 interleavings, checked against the simulator's ground truth where it has one:
 * - honored acks = the acks the world delivered whose filter held a resource (the oracle's truth stream);
 * - narrowed acks = the times the world's `listen-ack-narrower` fault fired (the only cause of a narrowed ack);
 * - TTL: the oracle has no TTL figure. The test counts serves past TTL itself from what the world delivered
 *   (the `ttlMs` on each result the core accepted, and the serve times), and a serve past TTL must be one the
 *   core refused; every TTL re-read follows such a serve.
 */
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../../../core/reducer.js';
import type { ClientUnderTest } from '../../../core/types.js';
import { faultIndex } from '../../../sim/faults.js';
import { countOf } from '../../../observe/state.js';
import { healthOf } from '../../../observe/health.js';
import { observedClient } from './dashboards.js';
import { plan, ratio, runInterleaving, workload, type FaultPlan, type Scenario } from './sim-support.js';

const seeds = Array.from({ length: 10 }, (_, index) => 2_600 + index);

function era2026Scenario(name: string, faults: FaultPlan): Scenario {
  return {
    name,
    description: `observation dashboard, 2026-07-28: ${name}`,
    targets: [],
    catches: [],
    sometimes: [],
    plan: (chooser) => ({ ...plan(faults, workload(chooser, { serveIntervalMsMin: 1_000, serveIntervalMsMax: 3_000, faultPhaseMs: 30_000 })), era2026: { ttlMsMin: 0, ttlMsMax: 8_000 } }),
  };
}

interface TtlTruth {
  refusedServes: number;
  pastTtlServes: number;
}

/**
 * The client, with serves past TTL counted independently of the fold: the expiry of a URI is the receipt
 * time of the result whose content the core accepted plus the `ttlMs` the server put on it (absent or
 * not positive: 0).
 */
function withTtlTruth<S>(client: ClientUnderTest<S>): { client: ClientUnderTest<S>; truth: TtlTruth } {
  const truth: TtlTruth = { refusedServes: 0, pastTtlServes: 0 };
  const expiresAtMs = new Map<string, number>();
  return {
    truth,
    client: {
      ...client,
      step(state, input) {
        const result = client.step(state, input);
        for (const effect of result.effects) {
          if (effect.type === 'VersionAccepted' && input.type === 'ResponseArrived' && input.outcome.type === 'result') {
            const ttlMs = (input.outcome.result as { ttlMs?: unknown }).ttlMs;
            expiresAtMs.set(effect.uri, input.nowMs + (typeof ttlMs === 'number' && ttlMs > 0 ? Math.floor(ttlMs) : 0));
          }
          if (effect.type === 'PurgeDone') expiresAtMs.delete(effect.uri);
          if (input.type !== 'ServeCommanded' || (effect.type !== 'ContentServed' && effect.type !== 'ContentRefused')) continue;
          if (effect.type === 'ContentRefused') truth.refusedServes++;
          const expiry = expiresAtMs.get(effect.uri);
          if (expiry !== undefined && input.nowMs >= expiry) truth.pastTtlServes++;
        }
        return result;
      },
    },
  };
}

describe('the 2026-07-28 metrics over simulated interleavings', () => {
  it('listens and honored acks equal the world: one listen per watch, every delivered ack counted once', () => {
    let acks = 0;
    for (const seed of seeds) {
      const observed = observedClient(referenceClient);
      const run = runInterleaving(seed, era2026Scenario('no-fault', {}), observed.client, { trace: false, record: false });
      const state = observed.observed.state;
      expect(state.era2026, `seed ${seed}`).toBe(true);
      expect(countOf(state, 'listenAcks', { 'fencesim.ack.filter': 'honored' }), `seed ${seed}`).toBe(run.oracle.listenAcks);
      expect(countOf(state, 'listenAcks', { 'fencesim.ack.filter': 'narrowed' }), `seed ${seed}`).toBe(0);
      expect(countOf(state, 'listens'), `seed ${seed}`).toBeGreaterThanOrEqual(run.oracle.listenAcks);
      expect(countOf(state, 'subscribeAttempts'), `seed ${seed}`).toBe(0); // 2026 has no resources/subscribe
      acks += run.oracle.listenAcks;
    }
    expect(acks).toBeGreaterThan(seeds.length);
  });

  it('narrowed acks equal the times the server narrowed the filter; the health verdict names them', () => {
    let narrowed = 0;
    for (const seed of seeds) {
      const observed = observedClient(referenceClient);
      const run = runInterleaving(seed, era2026Scenario('listen-ack-narrower', { 'listen-ack-narrower': ratio(1, 3) }), observed.client, { trace: false, record: false });
      const state = observed.observed.state;
      const fired = run.faultCounts[faultIndex['listen-ack-narrower']]!;
      expect(countOf(state, 'listenAcks', { 'fencesim.ack.filter': 'narrowed' }), `seed ${seed}`).toBe(fired);
      expect(countOf(state, 'listenAcks', { 'fencesim.ack.filter': 'honored' }), `seed ${seed}`).toBe(run.oracle.listenAcks);
      narrowed += fired;
      const health = healthOf(state, run.endMs);
      expect(health.listen?.acksNarrowed, `seed ${seed}`).toBe(fired);
    }
    expect(narrowed).toBeGreaterThan(0);
  });

  it('serves past TTL are refused by the core and are what the TTL re-reads answer', () => {
    let expired = 0;
    for (const seed of seeds) {
      const ttl = withTtlTruth(referenceClient);
      const observed = observedClient(ttl.client);
      runInterleaving(seed, era2026Scenario('no-fault', {}), observed.client, { trace: false, record: false });
      const state = observed.observed.state;
      const pastTtl = countOf(state, 'ttlExpiredServes');
      expect(pastTtl, `seed ${seed}`).toBe(ttl.truth.pastTtlServes);
      expect(pastTtl, `seed ${seed}`).toBeLessThanOrEqual(ttl.truth.refusedServes);
      expect(countOf(state, 'reads', { 'fencesim.read.reason': 'ttl' }), `seed ${seed}`).toBeLessThanOrEqual(pastTtl);
      expired += pastTtl;
    }
    expect(expired).toBeGreaterThan(0);
  });
});
