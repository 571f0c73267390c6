/**
 * The indexer in `fencesim gate`: which interleaving indexes also run an indexer interleaving, with which
 * seed and indexer, and the indexer's part of the verdict.
 *
 * Share: the default gate (reference indexer) runs one indexer interleaving every `indexerEveryDefault`
 * client interleavings (indexes 0, 100, 200, ...: 1,000 of the default 100,000), which costs about what
 * 10,000 client interleavings cost. `--indexer NAME` (an indexer under test) runs one at every index. The
 * indexer interleaving of gate index i has seed deriveSeed(deriveSeed(rootSeed, indexerStream), i), its own
 * stream, so it depends on the index alone: workers, shards and merge stay exact.
 *
 * The invariants are gated on every run; the metric gates and the sometimes-counters (every fault fired)
 * from `indexerEnforceMinimum` indexer interleavings on, where a miss is meaningful.
 */
import { indexerInvariants } from './checkers/registry.js';
import { indexerFailureKinds, addIndexerRun, failuresOf, indexerTotalsOf } from './gate-figures.js';
import { indexerConfig } from './indexers.js';
import { deriveSeed } from './kernel-imports.js';
import { gateMetrics, type MetricResult } from './metric-gates.js';
import { runIndexerInterleaving } from './runner.js';
import { indexerFaults } from './sim-plan.js';
import type { IndexerConfig } from './types.js';

export const indexerEveryDefault = 100;
export const indexerEnforceMinimum = 200;
const indexerStream = 0x1de;

/** What the gate's run spec says about the indexer (RunSpec.indexer: absent = the reference at the default share). */
export interface IndexerSpec {
  seed: number;
  indexer?: string;
}

export function indexerNameOf(spec: IndexerSpec): string {
  return spec.indexer ?? 'reference';
}

export function indexerEveryOf(spec: IndexerSpec): number {
  return spec.indexer === undefined ? indexerEveryDefault : 1;
}

export function indexerDue(spec: IndexerSpec, index: number): boolean {
  return index % indexerEveryOf(spec) === 0;
}

export function indexerSeedOf(rootSeed: number, index: number): number {
  return deriveSeed(deriveSeed(rootSeed, indexerStream), index);
}

/** How many indexer interleavings gate indexes [0, interleavings) run. */
export function indexerInterleavingsFor(spec: IndexerSpec, interleavings: number): number {
  return Math.ceil(interleavings / indexerEveryOf(spec));
}

const configs = new Map<string, IndexerConfig>();

function configOf(name: string): IndexerConfig {
  let config = configs.get(name);
  if (config === undefined) {
    const found = indexerConfig(name);
    if (found === null) throw new Error(`unknown indexer ${JSON.stringify(name)}`);
    config = found;
    configs.set(name, config);
  }
  return config;
}

/** Runs gate index `index`'s indexer interleaving (when due) into the figures. */
export function runIndexerAt(figures: Float64Array, spec: IndexerSpec, index: number): void {
  if (!indexerDue(spec, index)) return;
  addIndexerRun(figures, index, runIndexerInterleaving(indexerSeedOf(spec.seed, index), configOf(indexerNameOf(spec))));
}

export interface IndexerVerdict {
  interleavings: number;
  enforced: boolean;
  metricResults: MetricResult[];
  faultsNeverFired: string[];
  reasons: string[];
}

export function indexerVerdictOf(figures: Float64Array): IndexerVerdict {
  const totals = indexerTotalsOf(figures);
  const enforced = totals.interleavings >= indexerEnforceMinimum;
  const metricResults = gateMetrics(totals.metrics);
  const faultsNeverFired = indexerFaults.filter((fault) => (totals.metrics.faultsFired[fault] ?? 0) === 0);
  const reasons: string[] = [];
  for (const name of indexerInvariants) {
    const count = totals.counts[name]!;
    if (count.violated > 0) reasons.push(`indexer ${name}: ${count.violated} violations in ${totals.interleavings} indexer interleavings`);
  }
  if (enforced) {
    for (const metric of metricResults) if (!metric.passed) reasons.push(`indexer ${metric.name} = ${round4(metric.value)} misses its gate (${metric.gate})`);
    if (faultsNeverFired.length > 0) reasons.push(`indexer sometimes: faults never fired in ${totals.interleavings} indexer interleavings: ${faultsNeverFired.join(', ')}`);
  }
  return { interleavings: totals.interleavings, enforced, metricResults, faultsNeverFired, reasons };
}

/** The gate's reasons from the indexer part (none when no indexer interleaving ran). */
export function indexerReasons(figures: Float64Array): string[] {
  return indexerTotalsOf(figures).interleavings === 0 ? [] : indexerVerdictOf(figures).reasons;
}

export function indexerFailureKind(kind: number): string {
  return indexerFailureKinds[kind] ?? 'unknown';
}

export { failuresOf as indexerFailuresOf };

function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
