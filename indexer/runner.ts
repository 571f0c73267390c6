/**
 * The indexer gate's runner: interleaving i of a run has seed deriveSeed(root, i); each runs in its own
 * world; counters and metrics add up; the verdict applies the invariants (each 0), the metric gates and
 * the sometimes-counters (every fault of the plan must have fired somewhere).
 */
import { Chooser, deriveSeed, type Decision } from './kernel-imports.js';
import { indexerInvariants } from './checkers/registry.js';
import { emptyMetrics, mergeMetrics, type IndexerMetrics } from './sim-metrics.js';
import { IndexerWorld, type IndexerRunResult } from './sim-world.js';
import type { IndexerConfig } from './types.js';
import { gateMetrics, type MetricResult } from './metric-gates.js';
import { indexerFaults } from './sim-plan.js';

export interface RunOneOptions {
  trace?: boolean;
  record?: boolean;
  stopAt?: string | null;
  replay?: readonly Decision[];
  strict?: boolean;
}

export function runIndexerInterleaving(seed: number, config: IndexerConfig, options: RunOneOptions = {}): IndexerRunResult {
  const chooser = options.replay === undefined ? Chooser.seeded(seed, options.record ?? false) : Chooser.replaying(options.replay, options.strict ?? true);
  const world = new IndexerWorld(chooser, config, { trace: options.trace ?? false, record: options.record ?? false, stopAt: options.stopAt ?? null });
  const result = world.run();
  result.seed = seed;
  return result;
}

export interface IndexerFailure {
  index: number;
  seed: number;
  invariant: string;
  timeMs: number;
  uri: string;
  detail: string;
}

export interface IndexerGateReport {
  rootSeed: number;
  interleavings: number;
  indexer: string;
  counts: Record<string, { checked: number; violated: number }>;
  metrics: IndexerMetrics;
  metricResults: MetricResult[];
  faultsNeverFired: string[];
  failures: IndexerFailure[];
  passed: boolean;
  events: number;
}

export function runIndexerGate(rootSeed: number, interleavings: number, indexer: string, config: IndexerConfig, failuresMax = 20, onProgress?: (done: number) => void): IndexerGateReport {
  const counts: Record<string, { checked: number; violated: number }> = {};
  for (const invariant of indexerInvariants) counts[invariant] = { checked: 0, violated: 0 };
  const metrics = emptyMetrics();
  const failures: IndexerFailure[] = [];
  let events = 0;
  for (let index = 0; index < interleavings; index++) {
    const seed = deriveSeed(rootSeed, index);
    const result = runIndexerInterleaving(seed, config);
    events += result.events;
    for (const invariant in result.counts) {
      counts[invariant]!.checked += result.counts[invariant]!.checked;
      counts[invariant]!.violated += result.counts[invariant]!.violated;
    }
    mergeMetrics(metrics, result.metrics);
    const first = result.violations[0];
    if (first !== undefined && failures.length < failuresMax) failures.push({ index, seed, ...first });
    if (onProgress !== undefined && (index + 1) % 500 === 0) onProgress(index + 1);
  }
  const metricResults = gateMetrics(metrics);
  const faultsNeverFired = indexerFaults.filter((fault) => (metrics.faultsFired[fault] ?? 0) === 0);
  const safe = Object.values(counts).every((count) => count.violated === 0);
  const passed = safe && metricResults.every((metric) => metric.passed) && faultsNeverFired.length === 0;
  return { rootSeed, interleavings, indexer, counts, metrics, metricResults, faultsNeverFired, failures, passed, events };
}
