/**
 * The indexer's part of the release gate's accumulator, as one Float64Array with a fixed layout, so it
 * travels with the accumulator unchanged (worker threads, report.json's accumulator section, shard merge)
 * and adds up exactly: interleavings and events, checked / violated per invariant, every counter and
 * histogram of IndexerMetrics (similarity per fake model, fired count per fault), and the first failing
 * interleavings (index + 1, kind + 1 pairs; kind = an invariant, or a metric event) — the only slots that
 * merge by "first by index" instead of by addition. The rest of a failure is recomputed from its index.
 */
import { metricFailures } from './catch.js';
import { indexerInvariants } from './checkers/registry.js';
import { fakeModelNames } from './embedding.js';
import { emptyMetrics, histogramBins, type IndexerMetrics } from './sim-metrics.js';
import { indexerFaults } from './sim-plan.js';
import type { IndexerRunResult } from './sim-world.js';

export const indexerFailuresMax = 20;
/** What a failure slot names: an invariant violation, or a metric event (false update, miss, late find). */
export const indexerFailureKinds: readonly string[] = [...indexerInvariants, ...metricFailures];

type ArrayKey = 'purgeMsHistogram' | 'freshnessProbesBySlot' | 'freshnessFreshBySlot';
const template = emptyMetrics();
const scalarKeys = (Object.keys(template) as (keyof IndexerMetrics)[]).filter((key) => typeof template[key] === 'number');
const arrayKeys = (Object.keys(template) as (keyof IndexerMetrics)[]).filter((key) => Array.isArray(template[key])) as ArrayKey[];

interface Layout {
  readonly size: number;
  readonly invariants: number;
  readonly scalars: number;
  readonly arrays: Record<ArrayKey, number>;
  readonly similarity: number;
  readonly faults: number;
  readonly failures: number;
}

const layout: Layout = (() => {
  let at = 2;
  const take = (count: number): number => ((at += count), at - count);
  const invariants = take(indexerInvariants.length * 2);
  const scalars = take(scalarKeys.length);
  const arrays = {} as Record<ArrayKey, number>;
  for (const key of arrayKeys) arrays[key] = take(template[key].length);
  const similarity = take(fakeModelNames.length * 2 * histogramBins);
  const faults = take(indexerFaults.length);
  const failures = take(indexerFailuresMax * 2);
  return { size: at, invariants, scalars, arrays, similarity, faults, failures };
})();

export function emptyIndexerFigures(): Float64Array {
  return new Float64Array(layout.size);
}

export function indexerInterleavingsOf(figures: Float64Array): number {
  return figures[0]!;
}

/** Folds interleaving `index`'s result in. */
export function addIndexerRun(figures: Float64Array, index: number, result: IndexerRunResult): void {
  figures[0]! += 1;
  figures[1]! += result.events;
  indexerInvariants.forEach((name, offset) => {
    const count = result.counts[name];
    if (count === undefined) return;
    figures[layout.invariants + offset * 2]! += count.checked;
    figures[layout.invariants + offset * 2 + 1]! += count.violated;
  });
  const metrics = result.metrics;
  scalarKeys.forEach((key, offset) => (figures[layout.scalars + offset]! += metrics[key] as number));
  for (const key of arrayKeys) metrics[key].forEach((count, offset) => (figures[layout.arrays[key] + offset]! += count));
  fakeModelNames.forEach((model, m) => {
    const histogram = metrics.similarity[model];
    if (histogram === undefined) return;
    const base = layout.similarity + m * 2 * histogramBins;
    for (let bin = 0; bin < histogramBins; bin++) {
      figures[base + bin]! += histogram.changed[bin]!;
      figures[base + histogramBins + bin]! += histogram.unchanged[bin]!;
    }
  });
  indexerFaults.forEach((fault, offset) => (figures[layout.faults + offset]! += metrics.faultsFired[fault] ?? 0));
  const kind = failureKindOf(result);
  if (kind >= 0) insertFailures(figures, [{ index, kind }]);
}

function failureKindOf(result: IndexerRunResult): number {
  const violation = result.violations[0];
  if (violation !== undefined) return indexerFailureKinds.indexOf(violation.invariant);
  const event = result.metricEvents.find((candidate) => (metricFailures as readonly string[]).includes(candidate.invariant));
  return event === undefined ? -1 : indexerFailureKinds.indexOf(event.invariant);
}

/** Folds another range's figures in (disjoint ranges: the result is the unsplit run's). */
export function mergeIndexerFigures(into: Float64Array, from: Float64Array): void {
  for (let at = 0; at < layout.failures; at++) into[at]! += from[at]!;
  insertFailures(into, failuresOf(from));
}

export interface IndexerFailureSlot {
  index: number;
  /** Ordinal in indexerFailureKinds. */
  kind: number;
}

export function failuresOf(figures: Float64Array): IndexerFailureSlot[] {
  const found: IndexerFailureSlot[] = [];
  for (let slot = 0; slot < indexerFailuresMax; slot++) {
    const at = layout.failures + slot * 2;
    if (figures[at] === 0) break;
    found.push({ index: figures[at]! - 1, kind: figures[at + 1]! - 1 });
  }
  return found;
}

function insertFailures(figures: Float64Array, added: readonly IndexerFailureSlot[]): void {
  const all = [...failuresOf(figures), ...added].sort((a, b) => a.index - b.index).slice(0, indexerFailuresMax);
  for (let slot = 0; slot < indexerFailuresMax; slot++) {
    const failure = all[slot];
    figures[layout.failures + slot * 2] = failure === undefined ? 0 : failure.index + 1;
    figures[layout.failures + slot * 2 + 1] = failure === undefined ? 0 : failure.kind + 1;
  }
}

export interface IndexerTotals {
  interleavings: number;
  events: number;
  counts: Record<string, { checked: number; violated: number }>;
  metrics: IndexerMetrics;
}

/** The figures back as the indexer gate's own shapes (counts per invariant, IndexerMetrics). */
export function indexerTotalsOf(figures: Float64Array): IndexerTotals {
  const counts: Record<string, { checked: number; violated: number }> = {};
  indexerInvariants.forEach((name, offset) => {
    counts[name] = { checked: figures[layout.invariants + offset * 2]!, violated: figures[layout.invariants + offset * 2 + 1]! };
  });
  const metrics = emptyMetrics();
  scalarKeys.forEach((key, offset) => ((metrics[key] as number) = figures[layout.scalars + offset]!));
  for (const key of arrayKeys) metrics[key] = Array.from(figures.subarray(layout.arrays[key], layout.arrays[key] + metrics[key].length));
  fakeModelNames.forEach((model, m) => {
    const base = layout.similarity + m * 2 * histogramBins;
    const changed = Array.from(figures.subarray(base, base + histogramBins));
    const unchanged = Array.from(figures.subarray(base + histogramBins, base + 2 * histogramBins));
    if (changed.some((count) => count > 0) || unchanged.some((count) => count > 0)) metrics.similarity[model] = { changed, unchanged };
  });
  indexerFaults.forEach((fault, offset) => {
    if (figures[layout.faults + offset]! > 0) metrics.faultsFired[fault] = figures[layout.faults + offset]!;
  });
  return { interleavings: figures[0]!, events: figures[1]!, counts, metrics };
}
