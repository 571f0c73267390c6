/**
 * Simulated dashboards (issue 16 item 3, without changing the simulator): the observation fold over
 * simulated interleavings, through a client wrapper that hands each step to the fold. `dashboardOf` sums
 * the figures an operator would watch over a set of seeds; `npm run build && node dist/bench/observe-dashboards.js`
 * prints them per fault, so healthy and unhealthy dashboards can be compared.
 */
import type { ClientUnderTest } from '../../../core/types.js';
import { foldStep } from '../../../observe/fold.js';
import { healthOf, type CacheHealth } from '../../../observe/health.js';
import { countOf, countsOf, initialObserveState, seriesKey, type ObserveState } from '../../../observe/state.js';
import { plan, runInterleaving, workload, type FaultPlan, type InterleavingResult, type Scenario } from './sim-support.js';

/** The client under test, unchanged, with every step also folded into `observed.state`. */
export function observedClient<S>(client: ClientUnderTest<S>): { client: ClientUnderTest<S>; observed: { state: ObserveState } } {
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

/** A scenario with these faults only, serving on (so cache age at serve is measured). */
export function dashboardScenario(name: string, faults: FaultPlan): Scenario {
  return {
    name,
    description: `observation dashboard: ${name}`,
    targets: [],
    catches: [],
    sometimes: [],
    plan: (chooser) => plan(faults, workload(chooser, { serveIntervalMsMin: 1_000, serveIntervalMsMax: 3_000, faultPhaseMs: 30_000 })),
  };
}

/** The sum of a counter over all its series. */
export function totalOf(state: ObserveState, instrument: string): number {
  return Object.entries(countsOf(state)).reduce((sum, [key, value]) => (key === instrument || key.startsWith(instrument + '|') ? sum + value : sum), 0);
}

export interface Dashboard {
  interleavings: number;
  notifications: number;
  reconciliationChanges: number;
  readsByReason: Record<string, number>;
  staleReceipts: number;
  serveAgeMsMean: number;
  serveAgeMsMax: number;
  resubscriptionRounds: Record<'complete' | 'incomplete' | 'interrupted', number>;
  verdicts: Record<CacheHealth['verdict'], number>;
}

export function dashboardOf(
  scenario: Scenario,
  client: ClientUnderTest<any>,
  seeds: readonly number[],
  eachRun: (state: ObserveState, result: InterleavingResult, seed: number) => void = () => undefined,
): Dashboard {
  const dashboard: Dashboard = {
    interleavings: seeds.length,
    notifications: 0,
    reconciliationChanges: 0,
    readsByReason: {},
    staleReceipts: 0,
    serveAgeMsMean: 0,
    serveAgeMsMax: 0,
    resubscriptionRounds: { complete: 0, incomplete: 0, interrupted: 0 },
    verdicts: { healthy: 0, degraded: 0, unhealthy: 0 },
  };
  let ageSumMs = 0;
  let ageCount = 0;
  for (const seed of seeds) {
    const observed = observedClient(client);
    const result = runInterleaving(seed, scenario, observed.client, { trace: false, record: false });
    const state = observed.observed.state;
    eachRun(state, result, seed);
    dashboard.notifications += totalOf(state, 'notifications');
    dashboard.reconciliationChanges += countOf(state, 'reconciliationChanges');
    dashboard.staleReceipts += countOf(state, 'fenceDecisions', { 'fencesim.fence.decision': 'stale' });
    for (const [key, value] of Object.entries(countsOf(state))) {
      if (key.startsWith('reads|')) dashboard.readsByReason[key.slice(key.indexOf('=') + 1)] = (dashboard.readsByReason[key.slice(key.indexOf('=') + 1)] ?? 0) + value;
    }
    for (const outcome of ['complete', 'incomplete', 'interrupted'] as const) dashboard.resubscriptionRounds[outcome] += countOf(state, 'resubscriptionRounds', { 'fencesim.outcome': outcome });
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
