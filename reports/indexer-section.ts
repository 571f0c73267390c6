/**
 * report.json's `indexer` section: the downstream indexer's figures for the run, rebuilt from the
 * accumulator's indexer figures alone (so `fencesim merge` and `fencesim report`'s verification recompute
 * it exactly): the invariants, the metric gates, the faults fired, the document's dashboard for the run (the
 * similarity histogram per model with the valley the oracle computes and the threshold in use; the
 * freshness curve per 10 s of virtual time; embedding calls; reconciliation drift found and repaired), and
 * the failing interleavings, each re-run from its index for the detail and its replay command, the first
 * shrunk (a bounded number of replays, so the result is the same on every run).
 */
import { catchOf, shrinkCaught } from '../indexer/catch.js';
import { indexerConfig } from '../indexer/indexers.js';
import { indexerTotalsOf } from '../indexer/gate-figures.js';
import { indexerEveryOf, indexerFailureKind, indexerFailuresOf, indexerNameOf, indexerSeedOf, indexerVerdictOf, type IndexerSpec } from '../indexer/gate-part.js';
import { formatSeed } from '../indexer/kernel-imports.js';
import { oracleValley, purgeP99Ms, type MetricResult } from '../indexer/metric-gates.js';
import { runIndexerInterleaving } from '../indexer/runner.js';
import { freshnessSlotMs, histogramBins } from '../indexer/sim-metrics.js';

export interface IndexerReportFailure {
  index: number;
  seed: number;
  kind: string;
  timeMs: number;
  uri: string;
  detail: string;
  replay: string;
}

export interface IndexerReportSection {
  indexer: string;
  /** One indexer interleaving every `every` gate interleavings (index 0 included). */
  every: number;
  interleavings: number;
  events: number;
  passed: boolean;
  /** Whether the metric gates and the sometimes-counters count (enough indexer interleavings). */
  enforced: boolean;
  invariants: Record<string, { checked: number; violated: number }>;
  metrics: MetricResult[];
  faults: Record<string, number>;
  faultsNeverFired: string[];
  dashboard: {
    /** Per model: 50 bins over [0, 1], decisions split by the hidden truth; the oracle's valley; the threshold used. */
    similarity: Record<string, { binWidth: number; changed: number[]; unchanged: number[]; valley: number; threshold: number | null }>;
    freshness: { slotMs: number; probes: number[]; fresh: number[] };
    embedCalls: number;
    embedCallsMigration: number;
    debouncedChanges: number;
    drift: { source: number; store: number; semantic: number };
    purges: number;
    purgeP99Ms: number;
  };
  failures: IndexerReportFailure[];
  shrunk?: { kind: string; decisionsBefore: number; decisions: number; replays: number; timeline: string[] };
}

const shrinkAttemptsMax = 300;

export function indexerSectionOf(spec: IndexerSpec, figures: Float64Array): IndexerReportSection | undefined {
  const totals = indexerTotalsOf(figures);
  if (totals.interleavings === 0) return undefined;
  const name = indexerNameOf(spec);
  const verdict = indexerVerdictOf(figures);
  const m = totals.metrics;
  const thresholds = indexerConfig(name)!.thresholdByModel;
  const similarity: IndexerReportSection['dashboard']['similarity'] = {};
  for (const model of Object.keys(m.similarity).sort()) {
    const histogram = m.similarity[model]!;
    similarity[model] = { binWidth: 1 / histogramBins, changed: histogram.changed, unchanged: histogram.unchanged, valley: oracleValley(histogram).threshold, threshold: thresholds[model] ?? null };
  }
  const metricsFailed = verdict.enforced && verdict.metricResults.some((metric) => !metric.passed);
  const failures = indexerFailuresOf(figures)
    .filter((slot) => metricsFailed || slot.kind < Object.keys(totals.counts).length)
    .map((slot) => failureOf(spec, slot.index, indexerFailureKind(slot.kind)));
  const section: IndexerReportSection = {
    indexer: name, every: indexerEveryOf(spec), interleavings: totals.interleavings, events: totals.events,
    passed: verdict.reasons.length === 0, enforced: verdict.enforced, invariants: totals.counts, metrics: verdict.metricResults,
    faults: m.faultsFired, faultsNeverFired: verdict.faultsNeverFired,
    dashboard: {
      similarity, freshness: { slotMs: freshnessSlotMs, probes: m.freshnessProbesBySlot, fresh: m.freshnessFreshBySlot },
      embedCalls: m.embedCalls, embedCallsMigration: m.embedCallsMigration, debouncedChanges: m.debouncedChanges,
      drift: { source: m.driftSource, store: m.driftStore, semantic: m.driftSemantic }, purges: m.purges, purgeP99Ms: purgeP99Ms(m),
    },
    failures,
  };
  const first = failures[0];
  if (first !== undefined) section.shrunk = shrunkOf(name, first);
  return section;
}

function failureOf(spec: IndexerSpec, index: number, kind: string): IndexerReportFailure {
  const name = indexerNameOf(spec);
  const seed = indexerSeedOf(spec.seed, index);
  const result = runIndexerInterleaving(seed, indexerConfig(name)!);
  const found = [...result.violations, ...result.metricEvents].find((event) => event.invariant === kind);
  return {
    index, seed, kind, timeMs: found?.timeMs ?? 0, uri: found?.uri ?? '', detail: found?.detail ?? '',
    replay: `npx fencesim index-gate --indexer ${name} --replay ${formatSeed(seed)}`,
  };
}

function shrunkOf(name: string, failure: IndexerReportFailure): IndexerReportSection['shrunk'] {
  const config = indexerConfig(name)!;
  const shrunk = shrinkCaught(config, catchOf(failure.index, failure.seed, failure.kind, failure.uri), shrinkAttemptsMax);
  return { kind: failure.kind, decisionsBefore: shrunk.decisionsBefore, decisions: shrunk.decisions, replays: shrunk.attempts, timeline: shrunk.timeline };
}
