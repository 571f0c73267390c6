/**
 * Simulated operations (issue 16 item 3, the part that needs no change to the simulator): the same pure
 * fold that feeds the fenced cache's metrics runs over simulated interleavings (`runInterleaving`, read-only,
 * through a client wrapper that hands every step to the fold). Healthy and unhealthy dashboards side by side
 * (no fault vs `drop-notification`), and the figures checked against the oracle where both exist.
 */
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../../../core/reducer.js';
import type { ClientUnderTest } from '../../../core/types.js';
import { foldStep } from '../../../observe/fold.js';
import { healthOf, type CacheHealth } from '../../../observe/health.js';
import { countOf, countsOf, initialObserveState, seriesKey, type ObserveState } from '../../../observe/state.js';
import { naiveNoResubscribe, plan, ratio, runInterleaving, workload, type FaultPlan, type Scenario } from './sim-support.js';

/** The client under test, unchanged, with every step also folded into `observed.state`. */
function observedClient<S>(client: ClientUnderTest<S>): { client: ClientUnderTest<S>; observed: { state: ObserveState } } {
  const observed = { state: initialObserveState() };
  return {
    observed,
    client: {
      ...client,
      step(state, input) {
        const result = client.step(state, input);
        observed.state = foldStep(observed.state, input, result.effects).state;
        return result;
      },
    },
  };
}

function scenarioWith(name: string, faults: FaultPlan): Scenario {
  return {
    name,
    description: `observation dashboard: ${name}`,
    targets: [],
    catches: [],
    sometimes: [],
    plan: (chooser) => plan(faults, workload(chooser, { serveIntervalMsMin: 1_000, serveIntervalMsMax: 3_000, faultPhaseMs: 30_000 })),
  };
}

const count = countOf;
const total = (state: ObserveState, instrument: string): number =>
  Object.entries(countsOf(state)).reduce((sum, [key, value]) => (key === instrument || key.startsWith(instrument + '|') ? sum + value : sum), 0);

interface Dashboard {
  reconciliationChanges: number;
  updatedNotifications: number;
  serveAgeMsMean: number;
  serveAgeMsMax: number;
  verdicts: Record<CacheHealth['verdict'], number>;
}

function dashboardOf(scenario: Scenario, seeds: readonly number[]): Dashboard {
  const dashboard: Dashboard = { reconciliationChanges: 0, updatedNotifications: 0, serveAgeMsMean: 0, serveAgeMsMax: 0, verdicts: { healthy: 0, degraded: 0, unhealthy: 0 } };
  let ageSumMs = 0;
  let ageCount = 0;
  for (const seed of seeds) {
    const { client, observed } = observedClient(referenceClient);
    const result = runInterleaving(seed, scenario, client, { trace: false, record: false });
    const state = observed.state;
    // Where the oracle counts the same thing from the same effects, the fold agrees exactly.
    expect(total(state, 'reads'), `seed ${seed}`).toBe(result.oracle.totalReads);
    expect(count(state, 'fenceDecisions', { 'fencesim.fence.decision': 'accepted' }), `seed ${seed}`).toBe(result.oracle.accepts);
    expect(total(state, 'fenceDecisions') - count(state, 'fenceDecisions', { 'fencesim.fence.decision': 'accepted' }) - count(state, 'fenceDecisions', { 'fencesim.fence.decision': 'not_found' }) - count(state, 'fenceDecisions', { 'fencesim.fence.decision': 'after_close' })).toBe(result.oracle.staleReceipts);
    expect(total(state, 'protocolRejections'), `seed ${seed}`).toBe(result.oracle.rejections);
    dashboard.reconciliationChanges += count(state, 'reconciliationChanges');
    dashboard.updatedNotifications += total(state, 'notifications');
    const age = state.histograms[seriesKey('serveAge', {})];
    if (age !== undefined) {
      ageSumMs += age.sumMs;
      ageCount += age.count;
      dashboard.serveAgeMsMax = Math.max(dashboard.serveAgeMsMax, age.maxMs);
    }
    dashboard.verdicts[healthOf(state, result.endMs).verdict]++;
  }
  dashboard.serveAgeMsMean = ageCount === 0 ? 0 : Math.round(ageSumMs / ageCount);
  return dashboard;
}

const seeds = Array.from({ length: 12 }, (_, index) => 1_000 + index);

describe('the observation fold over simulated interleavings', () => {
  it('healthy vs drop-notification dashboards: reconciliation finds the changes the lost notifications did not bring', () => {
    const healthy = dashboardOf(scenarioWith('no-fault', {}), seeds);
    const lossy = dashboardOf(scenarioWith('drop-notification', { 'drop-notification': ratio(1, 2) }), seeds);
    console.log(JSON.stringify({ healthy, lossy }));
    expect(lossy.reconciliationChanges).toBeGreaterThan(healthy.reconciliationChanges);
    expect(lossy.updatedNotifications).toBeLessThan(healthy.updatedNotifications);
  });

  it('resubscription completeness agrees with the oracle: the reference client completes every round; naive-no-resubscribe leaves rounds incomplete where convergence fails', () => {
    const reconnects = scenarioWith('disconnect', { disconnect: ratio(1, 8) });
    let divergedSeeds = 0;
    let completeRounds = 0;
    for (const seed of seeds) {
      const reference = observedClient(referenceClient);
      const referenceRun = runInterleaving(seed, reconnects, reference.client, { trace: false, record: false });
      expect(count(reference.observed.state, 'resubscriptionRounds', { 'fencesim.outcome': 'incomplete' }), `seed ${seed}`).toBe(0);
      completeRounds += count(reference.observed.state, 'resubscriptionRounds', { 'fencesim.outcome': 'complete' });
      expect(referenceRun.oracle.violations.filter((violation) => violation.invariant === 'convergence_60s' || violation.invariant === 'old_session_effect'), `seed ${seed}`).toEqual([]);

      const naive = observedClient(naiveNoResubscribe);
      const naiveRun = runInterleaving(seed, reconnects, naive.client, { trace: false, record: false });
      const incomplete = count(naive.observed.state, 'resubscriptionRounds', { 'fencesim.outcome': 'incomplete' }) + (naive.observed.state.round === null ? 0 : 1);
      const diverged = naiveRun.oracle.violations.some((violation) => violation.invariant === 'convergence_60s');
      if (diverged) expect(incomplete, `seed ${seed}: the oracle saw no convergence, the fold must see an incomplete resubscription`).toBeGreaterThan(0);
      if (diverged) divergedSeeds++;
    }
    expect(completeRounds).toBeGreaterThan(0); // reconnects happened and the reference client re-subscribed
    expect(divergedSeeds).toBeGreaterThan(0); // the naive client really was caught, so the check above was exercised
  });
});
