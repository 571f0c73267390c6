/**
 * The JSON report (schema `fencesim.report.v1`): the one source every other report renders from
 * (Markdown, JUnit, HTML, the CLI summary). Everything except `timing` is a pure function of the
 * accumulated results, with keys in a fixed order, so identical runs write byte-identical reports
 * apart from `timing`. No clock, hostname or date is read here; timing is measured by the caller.
 */
import { eraSectionOf, type EraReportSection } from './era-section.js';
import { indexerSectionOf, type IndexerReportSection } from './indexer-section.js';
import { observeSectionOf, type ObserveReportSection } from './observe-section.js';
import type { GateAccumulator, GateVerdict, MetricReport, MetricThreshold, RunSpec } from '../sim/gate.js';
import { convergenceBucketMs, revocationBucketMs, thresholds } from '../sim/gate.js';
import { checkersOf, freshnessOf } from './checkers.js';
import { accumulatorSection } from './accumulator-json.js';
import { faultNames, type FaultName } from '../sim/faults.js';
import { reportSchema, type Coverage, type Histogram, type Report, type ReportDeterminism, type ReportExtras, type ReportFailure, type ReportRunSpec, type ReportShrinkSkipped, type ReportShrunk, type ReportTiming, type ReportTotals } from './report-schema.js';

export * from './report-schema.js';
export { serializeFields, serializeReport, writeReport } from './report-serialize.js';

/** The gate's RunSpec of a report's run spec (without the shard; transport only when not pure). */
export function runSpecOf(spec: ReportRunSpec): RunSpec {
  const runSpec: RunSpec = { seed: spec.seed, interleavings: spec.interleavings, scenario: spec.scenario, client: spec.client, maxFailures: spec.maxFailures };
  if (spec.transport !== undefined && spec.transport !== 'pure') runSpec.transport = spec.transport;
  if (spec.indexer !== undefined) runSpec.indexer = spec.indexer;
  return runSpec;
}

const determinismNotChecked: ReportDeterminism = { selfCheckRatioPercent: 0, checked: 0, nondeterministic_interleavings: 0, mismatches: [] };

/**
 * The report of one gate run. A nondeterministic interleaving found by the self-check fails the gate on
 * its own (`nondeterministic_interleavings` > 0), whatever the safety counters say.
 */
export function buildReport(accumulator: GateAccumulator, verdict: GateVerdict, coverage: Coverage, timing: ReportTiming, extras: ReportExtras = {}): Report {
  const spec = accumulator.spec;
  const determinism = determinismOf(extras.determinism ?? determinismNotChecked);
  // The verdict (sim/gate-verdict.ts verdictOf) alone decides; it must have weighed this report's self-check.
  if ((verdict.evidence.determinism?.nondeterministic_interleavings ?? 0) !== determinism.nondeterministic_interleavings) {
    throw new Error('buildReport: the verdict was not given the determinism self-check this report carries (pass it to verdictOf)');
  }
  const reasons = [...verdict.reasons];
  const failures = accumulator.failures.map(failureOf);
  if (failures.length > 0 && extras.shrunk !== undefined) failures[0]!.shrunk = shrunkOf(extras.shrunk);
  const runSpec: ReportRunSpec = runSpecOf(spec);
  if (extras.shard !== undefined) runSpec.shard = { index: extras.shard.index, count: extras.shard.count, start: extras.shard.start, end: extras.shard.end };
  return {
    schema: reportSchema,
    runSpec,
    interleavings: accumulator.interleavings,
    passed: verdict.passed,
    outcome: verdict.outcome,
    reasons,
    ...(extras.applicability === undefined ? {} : { applicability: structuredClone(extras.applicability) }),
    counters: { ...verdict.counters },
    liveness: { ...verdict.liveness },
    metrics: metricsOf(verdict),
    thresholds: thresholdsOf(),
    coverage: coverageCopy(coverage),
    faults: faultsOf(accumulator),
    sometimes: sometimesOf(verdict),
    totals: totalsOf(accumulator),
    distributions: {
      convergenceMs: histogramOf(accumulator.convergenceHistogram, convergenceBucketMs),
      revocationMs: histogramOf(accumulator.revocationHistogram, revocationBucketMs),
    },
    checkers: checkersOf(accumulator),
    freshness: freshnessOf(accumulator),
    failures,
    ...indexerOf(accumulator),
    ...observabilityOf(accumulator),
    ...erasOf(accumulator),
    determinism,
    accumulator: accumulatorSection(accumulator),
    timing: {
      wallMs: timing.wallMs,
      interleavingsPerSecond: timing.interleavingsPerSecond,
      eventsPerSecond: timing.eventsPerSecond,
      peakRssBytes: timing.peakRssBytes,
      selfCheckMs: timing.selfCheckMs ?? 0,
      shrinkMs: timing.shrinkMs ?? 0,
    },
  };
}

function indexerOf(accumulator: GateAccumulator): { indexer?: IndexerReportSection } {
  const section = indexerSectionOf(accumulator.spec, accumulator.indexerFigures);
  return section === undefined ? {} : { indexer: section };
}

function erasOf(accumulator: GateAccumulator): { eras?: EraReportSection } {
  const section = eraSectionOf(accumulator);
  return section === undefined ? {} : { eras: section };
}

function observabilityOf(accumulator: GateAccumulator): { observability?: ObserveReportSection } {
  const section = observeSectionOf(accumulator.observeFigures);
  return section === undefined ? {} : { observability: section };
}

/** A bucket array whose last bucket is open-ended, as report.json's Histogram. */
function histogramOf(buckets: Float64Array, bucketMs: number): Histogram {
  const last = buckets.length - 1;
  return { bucketMs, counts: Array.from(buckets.subarray(0, last)), overflow: buckets[last]! };
}

function metricsOf(verdict: GateVerdict): Record<string, MetricReport> {
  const metrics: Record<string, MetricReport> = {};
  for (const [name, metric] of Object.entries(verdict.metrics)) {
    metrics[name] = {
      value: metric.value,
      threshold: { comparator: metric.threshold.comparator, value: metric.threshold.value },
      passed: metric.passed,
      numerator: metric.numerator,
      denominator: metric.denominator,
      measured: metric.measured ?? metric.denominator > 0,
    };
  }
  return metrics;
}

function thresholdsOf(): Record<string, MetricThreshold> {
  const copy: Record<string, MetricThreshold> = {};
  for (const [name, threshold] of Object.entries(thresholds)) copy[name] = { comparator: threshold.comparator, value: threshold.value };
  return copy;
}

function coverageCopy(coverage: Coverage): Coverage {
  return {
    hit: coverage.hit,
    total: coverage.total,
    edges: coverage.edges.map((edge) => ({ edge: edge.edge, hits: edge.hits })),
    unreached: [...coverage.unreached],
  };
}

function faultsOf(accumulator: GateAccumulator): Record<FaultName, number> {
  const faults = {} as Record<FaultName, number>;
  faultNames.forEach((name, index) => {
    faults[name] = accumulator.faultCounts[index]!;
  });
  return faults;
}

function sometimesOf(verdict: GateVerdict): Record<string, { fired: number; required: boolean }> {
  const sometimes: Record<string, { fired: number; required: boolean }> = {};
  for (const [name, entry] of Object.entries(verdict.sometimes)) sometimes[name] = { fired: entry.fired, required: entry.required };
  return sometimes;
}

function totalsOf(accumulator: GateAccumulator): ReportTotals {
  return {
    events: accumulator.events,
    steps: accumulator.steps,
    reads: accumulator.totalReads,
    staleReceipts: accumulator.staleReceipts,
    audits: accumulator.audits,
    rejections: accumulator.rejections,
    accepts: accumulator.accepts,
    virtualMs: accumulator.virtualMs,
  };
}

function failureOf(failure: GateAccumulator['failures'][number]): ReportFailure {
  return {
    index: failure.index,
    seed: failure.seed,
    scenario: failure.scenario,
    client: failure.client,
    invariant: failure.invariant,
    timeMs: failure.timeMs,
    uri: failure.uri,
    detail: failure.detail,
    replay: failure.replay,
  };
}

function determinismOf(determinism: ReportDeterminism): ReportDeterminism {
  return {
    selfCheckRatioPercent: determinism.selfCheckRatioPercent,
    checked: determinism.checked,
    nondeterministic_interleavings: determinism.nondeterministic_interleavings,
    mismatches: determinism.mismatches.map((mismatch) => ({
      index: mismatch.index,
      seed: mismatch.seed,
      firstTraceHash: mismatch.firstTraceHash,
      secondTraceHash: mismatch.secondTraceHash,
      line: mismatch.line,
      first: mismatch.first,
      second: mismatch.second,
    })),
  };
}

function shrunkOf(shrunk: ReportShrunk | ReportShrinkSkipped): ReportShrunk | ReportShrinkSkipped {
  if ('skipped' in shrunk) return { skipped: shrunk.skipped };
  return {
    file: shrunk.file,
    invariant: shrunk.invariant,
    decisions: shrunk.decisions,
    decisionsBefore: shrunk.decisionsBefore,
    replays: shrunk.replays,
    complete: shrunk.complete,
    stoppedBy: shrunk.stoppedBy,
    timelineLines: shrunk.timelineLines,
    hiddenLines: shrunk.hiddenLines,
    timeline: [...shrunk.timeline],
  };
}
