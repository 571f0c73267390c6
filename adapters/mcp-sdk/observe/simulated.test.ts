/**
 * Simulated operations (issue 16 item 3, the part that needs no change to the simulator): the same pure
 * fold that feeds the fenced cache's metrics runs over simulated interleavings (`runInterleaving`, read-only,
 * through a client wrapper that hands every step to the fold). Healthy and unhealthy dashboards side by side
 * (no fault vs `drop-notification`), and the figures checked against the oracle where both exist.
 */
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../../../core/reducer.js';
import type { ObserveState } from '../../../observe/state.js';
import { countOf } from '../../../observe/state.js';
import { dashboardOf, dashboardScenario, observedClient, totalOf } from './dashboards.js';
import { healthOf } from '../../../observe/health.js';
import { naiveCacheAfterRevoke, naiveNoResubscribe, ratio, runInterleaving, type InterleavingResult } from './sim-support.js';

const seeds = Array.from({ length: 12 }, (_, index) => 1_000 + index);

/** Where the oracle counts the same thing from the same effects, the fold agrees exactly. */
function agreesWithOracle(state: ObserveState, result: InterleavingResult, seed: number): void {
  expect(totalOf(state, 'reads'), `seed ${seed}`).toBe(result.oracle.totalReads);
  expect(countOf(state, 'fenceDecisions', { 'fencesim.fence.decision': 'accepted' }), `seed ${seed}`).toBe(result.oracle.accepts);
  expect(totalOf(state, 'fenceDecisions|fencesim.fence.decision=stale'), `seed ${seed}`).toBe(result.oracle.staleReceipts);
  expect(totalOf(state, 'protocolRejections'), `seed ${seed}`).toBe(result.oracle.rejections);
}

describe('the observation fold over simulated interleavings', () => {
  it('healthy vs drop-notification dashboards: reconciliation finds the changes the lost notifications did not bring', () => {
    const healthy = dashboardOf(dashboardScenario('no-fault', {}), referenceClient, seeds, agreesWithOracle);
    const lossy = dashboardOf(dashboardScenario('drop-notification', { 'drop-notification': ratio(1, 2) }), referenceClient, seeds, agreesWithOracle);
    console.log(JSON.stringify({ healthy, lossy }));
    expect(healthy.reconciliationChanges).toBe(0);
    expect(lossy.reconciliationChanges).toBeGreaterThan(0);
    expect(lossy.notifications).toBeLessThan(healthy.notifications);
    expect(lossy.serveAgeMsMean).toBeGreaterThan(healthy.serveAgeMsMean);
    expect(healthy.verdicts).toEqual({ healthy: seeds.length, degraded: 0, unhealthy: 0 });
    expect(lossy.verdicts.healthy).toBeLessThan(seeds.length);
  });

  it('resubscription completeness agrees with the oracle: the reference client completes every round; naive-no-resubscribe leaves rounds incomplete where convergence fails', () => {
    const reconnects = dashboardScenario('disconnect', { disconnect: ratio(1, 8) });
    let divergedSeeds = 0;
    let completeRounds = 0;
    for (const seed of seeds) {
      const reference = observedClient(referenceClient);
      const referenceRun = runInterleaving(seed, reconnects, reference.client, { trace: false, record: false });
      expect(countOf(reference.observed.state, 'resubscriptionRounds', { 'fencesim.outcome': 'incomplete' }), `seed ${seed}`).toBe(0);
      completeRounds += countOf(reference.observed.state, 'resubscriptionRounds', { 'fencesim.outcome': 'complete' });
      expect(referenceRun.oracle.violations.filter((violation) => violation.invariant === 'convergence_60s' || violation.invariant === 'old_session_effect'), `seed ${seed}`).toEqual([]);

      const naive = observedClient(naiveNoResubscribe);
      const naiveRun = runInterleaving(seed, reconnects, naive.client, { trace: false, record: false });
      const incomplete = countOf(naive.observed.state, 'resubscriptionRounds', { 'fencesim.outcome': 'incomplete' }) + (naive.observed.state.round === null ? 0 : 1);
      const diverged = naiveRun.oracle.violations.some((violation) => violation.invariant === 'convergence_60s');
      if (diverged) expect(incomplete, `seed ${seed}: the oracle saw no convergence, the fold must see an incomplete resubscription`).toBeGreaterThan(0);
      if (diverged) divergedSeeds++;
    }
    expect(completeRounds).toBeGreaterThan(0); // reconnects happened and the reference client re-subscribed
    expect(divergedSeeds).toBeGreaterThan(0); // the naive client really was caught, so the check above was exercised
  });

  it('revocations: the reference client purges at once (never REVOCATION_NOT_PURGED); where the oracle sees content served after a revocation, the fold sees it not purged', () => {
    const revocations = dashboardScenario('permission-revocation', { 'permission-revocation': ratio(1, 4) });
    let caught = 0;
    for (const seed of seeds) {
      const reference = observedClient(referenceClient);
      const referenceRun = runInterleaving(seed, revocations, reference.client, { trace: false, record: false });
      expect(healthOf(reference.observed.state, referenceRun.endMs).reasons.map((reason) => reason.code), `seed ${seed}`).not.toContain('REVOCATION_NOT_PURGED');
      const naive = observedClient(naiveCacheAfterRevoke);
      const naiveRun = runInterleaving(seed, revocations, naive.client, { trace: false, record: false });
      if (!naiveRun.oracle.violations.some((violation) => violation.invariant === 'served_after_revocation')) continue;
      caught++;
      expect(healthOf(naive.observed.state, naiveRun.endMs).reasons.map((reason) => reason.code), `seed ${seed}`).toContain('REVOCATION_NOT_PURGED');
    }
    expect(caught).toBeGreaterThan(0);
  });
});
