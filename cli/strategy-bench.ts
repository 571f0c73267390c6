/**
 * `fencesim bench --strategies`: every client strategy of scenarios/strategies.ts under every condition
 * (duplicate rate x drop rate), N seeded interleavings each, measured by the oracle against ground truth.
 *
 * Per strategy and condition (StrategyResult, the shape reports/html.ts draws):
 * - readsPerChange: subscription strategies: notification-triggered reads per distinct notified change
 *   (the gate's read_amplification); polling strategies, which get no notification: all reads per change
 *   to a subscribed resource.
 * - convergenceP50Ms / convergenceP99Ms: percentiles of the change-to-accepted-content latency histogram
 *   (100 ms buckets, upper bucket edge; 60,100 means "60 s or more, or never").
 * - staleServedPercent: the share of ContentServed whose content's truth version was below the resource's
 *   truth version at serve time (ground truth; content the oracle cannot date counts as stale).
 * - reconciliationReadsPerMinute: reads not triggered by a notification (initial, reconciliation, poll,
 *   authorization-lease revalidation) per subscribed resource-minute of virtual time.
 * Polling strategies never subscribe, so notification faults cannot touch them: they are run once and
 * reported under the condition "any (no notifications)".
 */
import type { ClientConfig } from '../core/types.js';
import { convergenceBucketCount, convergenceBucketOf, histogramPercentileMs } from '../sim/gate.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import type { StrategyResult } from '../reports/html.js';
import { conditionName, strategies, strategyConditions, strategyScenario, type Strategy, type StrategyCondition } from '../scenarios/strategies.js';
import { safetyInvariants } from '../sim/oracle.js';
import type { InterleavingResult } from '../sim/kernel/interleaving.js';

export const strategyBenchDefaults = { interleavings: 1_000, seed: 1 };

export const pollingConditionName = 'any (no notifications)';

/** A StrategyResult plus what the terminal table shows beside it. */
export interface StrategyRow extends StrategyResult {
  /** Interleavings run, and their safety violations (naive strategies are expected to have some). */
  interleavings: number;
  safetyViolations: number;
  /** The safety violations by invariant, the nonzero ones in the oracle's order (what the count above is made of). */
  safetyViolationsByInvariant: Record<string, number>;
  /** All reads per change to a subscribed resource, whatever triggered them. */
  totalReadsPerChange: number;
}

/** The sums one cell folds its interleavings into. */
export interface Sums {
  interleavings: number;
  notificationReads: number;
  notifiedChanges: number;
  totalReads: number;
  changesTracked: number;
  served: number;
  staleServes: number;
  resourceMs: number;
  /** Per safety invariant (safetyInvariants order): violations (the row's safetyViolations is their sum). */
  violations: Float64Array;
  convergence: Float64Array;
}

export interface StrategyCell {
  strategy: Strategy;
  condition: StrategyCondition;
  conditionName: string;
}

/** The cells in table order: per strategy, every condition (a polling strategy once). */
export function strategyCells(): StrategyCell[] {
  const cells: StrategyCell[] = [];
  for (const strategy of strategies) {
    if (strategy.polling) {
      cells.push({ strategy, condition: { duplicateRatePercent: 0, dropRatePercent: 0 }, conditionName: pollingConditionName });
      continue;
    }
    for (const condition of strategyConditions) cells.push({ strategy, condition, conditionName: conditionName(condition) });
  }
  return cells;
}

/**
 * Runs interleavings [0, interleavings) of one cell (seed i = deriveSeed(seed, i), as in the gate). `clientConfig`:
 * settings laid over the scenario's for the client (scripts/freshness-tradeoff.mts varies the coalescing window).
 */
export function runStrategyCell(cell: StrategyCell, seed: number, interleavings: number, clientConfig?: Partial<ClientConfig>): StrategyRow {
  const base = strategyScenario(cell.condition);
  const scenario = clientConfig === undefined ? base : { ...base, clientConfig: { ...base.clientConfig, ...clientConfig } };
  const sums = emptySums();
  for (let index = 0; index < interleavings; index++) foldInterleaving(sums, runInterleaving(deriveSeed(seed, index), scenario, cell.strategy.client, { trace: false, record: false }));
  return rowOf(cell.strategy.client.name, cell.strategy.polling, cell, sums);
}

export function emptySums(): Sums {
  return {
    interleavings: 0,
    notificationReads: 0,
    notifiedChanges: 0,
    totalReads: 0,
    changesTracked: 0,
    served: 0,
    staleServes: 0,
    resourceMs: 0,
    violations: new Float64Array(safetyInvariants.length),
    convergence: new Float64Array(convergenceBucketCount),
  };
}

/** Adds one interleaving's measures (from its oracle, whichever world ran it) to a cell's sums. */
export function foldInterleaving(sums: Sums, result: InterleavingResult): void {
  const oracle = result.oracle;
  sums.interleavings++;
  sums.notificationReads += oracle.notificationReads;
  sums.notifiedChanges += oracle.notifiedChanges;
  sums.totalReads += oracle.totalReads;
  sums.changesTracked += oracle.changesTracked;
  sums.served += oracle.revocation.served;
  sums.staleServes += oracle.staleServes;
  sums.resourceMs += result.plan.workload.resources.length * result.endMs;
  for (let i = 0; i < safetyInvariants.length; i++) sums.violations[i]! += oracle.counts[i]!;
  const latencies = oracle.convergenceLatenciesMs;
  for (let i = 0; i < latencies.length; i++) sums.convergence[convergenceBucketOf(latencies[i]!)]! += 1;
}

/** A cell's row: `polling` strategies report all reads per change as reads/change. */
export function rowOf(strategy: string, polling: boolean, cell: Pick<StrategyCell, 'condition' | 'conditionName'>, sums: Sums): StrategyRow {
  const totalReadsPerChange = ratio(sums.totalReads, sums.changesTracked);
  return {
    strategy,
    condition: cell.conditionName,
    duplicateRatePercent: cell.condition.duplicateRatePercent,
    dropRatePercent: cell.condition.dropRatePercent,
    readsPerChange: round(polling ? totalReadsPerChange : ratio(sums.notificationReads, sums.notifiedChanges), 3),
    convergenceP50Ms: histogramPercentileMs(sums.convergence, 0.5),
    convergenceP99Ms: histogramPercentileMs(sums.convergence, 0.99),
    staleServedPercent: round(ratio(sums.staleServes, sums.served) * 100, 1),
    reconciliationReadsPerMinute: round(ratio(sums.totalReads - sums.notificationReads, sums.resourceMs / 60_000), 2),
    interleavings: sums.interleavings,
    safetyViolations: sums.violations.reduce((sum, count) => sum + count, 0),
    safetyViolationsByInvariant: Object.fromEntries(safetyInvariants.flatMap((name, i) => (sums.violations[i]! > 0 ? [[name, sums.violations[i]!]] : []))),
    totalReadsPerChange: round(totalReadsPerChange, 3),
  };
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

function round(value: number, places: number): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}

