/**
 * The JSON report (schema `fencesim.report.v1`): the one source every other report renders from
 * (Markdown, JUnit, HTML, the CLI summary). Everything except `timing` is a pure function of the
 * accumulated results, with keys in a fixed order, so identical runs write byte-identical reports
 * apart from `timing`. No clock, hostname or date is read here; timing is measured by the caller.
 */
import { eraSectionOf, type EraReportSection } from './era-section.js';
import type { ReportApplicability } from '../sim/applicability.js';
import { indexerSectionOf, type IndexerReportSection } from './indexer-section.js';
import { observeSectionOf, type ObserveReportSection } from './observe-section.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { coverageOf, GateAccumulator, GateOutcome, GateVerdict, MetricReport, MetricThreshold, RunSpec } from '../sim/gate.js';
import { convergenceBucketMs, freshnessFigures, revocationBucketMs, thresholds } from '../sim/gate.js';
import { checkersOf, freshnessOf, type ReportChecker } from './checkers.js';
import { accumulatorSection, type AccumulatorSection } from './accumulator-json.js';
import { writeFileAtomic } from './atomic-file.js';
import { sealedReport, type ReportIntegrity } from './integrity.js';
import { faultNames, type FaultName } from '../sim/faults.js';
import type { InvariantName } from '../sim/oracle.js';

export const reportSchema = 'fencesim.report.v1';
export const reportFileName = 'report.json';

export type Coverage = ReturnType<typeof coverageOf>;

/** A latency histogram as report.json carries it: bucket i counts values in [i, i + 1) x bucketMs. */
export interface Histogram {
  bucketMs: number;
  counts: number[];
  /** Values at or beyond counts.length x bucketMs. */
  overflow: number;
}

export interface ReportTiming {
  wallMs: number;
  interleavingsPerSecond: number;
  eventsPerSecond: number;
  peakRssBytes: number;
  /** Wall time of the determinism self-check and of shrinking the first failure (0 when not run). */
  selfCheckMs?: number;
  shrinkMs?: number;
  /** Written with report.json: binds these timing figures to the content digest (see integrity.ts). */
  sha256?: string;
}

/** The first failure, shrunk (`fencesim gate` does it unless --no-shrink). Deterministic unless the budget stopped it. */
export interface ReportShrunk {
  /** The minimal replay file, relative to report.json's directory: `fencesim replay --file DIR/<file>`. */
  file: string;
  invariant: InvariantName;
  /** Decisions in the file (a strict replay consumes exactly these), and in the original run up to the violation. */
  decisions: number;
  decisionsBefore: number;
  /** Replays the shrinker ran. */
  replays: number;
  /** True when the result is 1-minimal; false when the replay budget or the wall-clock safety net (stoppedBy "wall-clock": not reproducible) stopped it. */
  complete: boolean;
  stoppedBy: string;
  /** The minimal timeline up to the violation, focused on the violation's resources. */
  timelineLines: number;
  /** Lines of that timeline left out because they are only about other resources. */
  hiddenLines: number;
  timeline: string[];
}

/** Why the gate did not shrink its first failure (`--no-shrink`, or the failure did not reproduce on replay). */
export interface ReportShrinkSkipped {
  skipped: string;
}

/** One sampled interleaving whose two traced runs disagreed. */
export interface ReportNondeterminism {
  index: number;
  seed: number;
  firstTraceHash: number;
  secondTraceHash: number;
  /** First timeline line (1-based) where the two runs differ, with both versions; 0 when the timelines agree. */
  line: number;
  first: string;
  second: string;
}

/** The determinism self-check: a sample of interleavings run twice, trace hashes compared (the first traced). */
export interface ReportDeterminism {
  selfCheckRatioPercent: number;
  checked: number;
  nondeterministic_interleavings: number;
  mismatches: ReportNondeterminism[];
}

export interface ReportExtras {
  determinism?: ReportDeterminism;
  shrunk?: ReportShrunk | ReportShrinkSkipped;
  /** The slice of the run this report covers (`gate --shard i/n`); absent for a whole run or a merge. */
  shard?: ReportShard;
  /** A client loaded by path: what applies to it (sim/applicability.ts). */
  applicability?: ReportApplicability;
}

/**
 * `gate --shard index/count` ran interleavings [start, end), start = floor((index - 1) N / count) and
 * end = floor(index N / count) for N = runSpec.interleavings.
 */
export interface ReportShard {
  index: number;
  count: number;
  start: number;
  end: number;
}

export interface ReportRunSpec extends RunSpec {
  shard?: ReportShard;
}

/** The gate's RunSpec of a report's run spec (without the shard; transport only when not pure). */
export function runSpecOf(spec: ReportRunSpec): RunSpec {
  const runSpec: RunSpec = { seed: spec.seed, interleavings: spec.interleavings, scenario: spec.scenario, client: spec.client, maxFailures: spec.maxFailures };
  if (spec.transport !== undefined && spec.transport !== 'pure') runSpec.transport = spec.transport;
  if (spec.indexer !== undefined) runSpec.indexer = spec.indexer;
  return runSpec;
}

/** Latency distributions (mergeable histograms, 100 ms buckets; `overflow` counts the last, open bucket). */
export interface ReportDistributions {
  /** Change to accepted content; overflow: 60 s or more, including changes never reflected. */
  convergenceMs: Histogram;
  /** Truth revocation to purge complete; overflow: 120 s or more, including never purged. */
  revocationMs: Histogram;
}

export interface ReportTotals {
  events: number;
  steps: number;
  reads: number;
  staleReceipts: number;
  audits: number;
  rejections: number;
  accepts: number;
  virtualMs: number;
}

export interface ReportFailure {
  /** The interleaving's index in the run: its seed is deriveSeed(runSpec.seed, index). */
  index: number;
  seed: number;
  scenario: string;
  client: string;
  invariant: InvariantName;
  timeMs: number;
  uri: string;
  detail: string;
  /** The command that replays exactly this interleaving. */
  replay: string;
  /** Only on failures[0] of a gate that shrinks. */
  shrunk?: ReportShrunk | ReportShrinkSkipped;
}

export interface Report {
  schema: typeof reportSchema;
  runSpec: ReportRunSpec;
  interleavings: number;
  passed: boolean;
  /** The verdict's outcome (sim/verdict.ts): passed, failed or nondeterministic; its exit code is gateExitCodes[outcome]. */
  outcome: GateOutcome;
  reasons: string[];
  /** A client loaded by path (module or reducer): its claims, the faults not applicable to it, the invariants judged. */
  applicability?: ReportApplicability;
  /** Every safety counter by name, in the oracle's order; each must be 0. */
  counters: Record<string, number>;
  /** Liveness invariants: interleavings that did not converge. */
  liveness: Record<string, number>;
  metrics: Record<string, MetricReport>;
  thresholds: Record<string, MetricThreshold>;
  coverage: Coverage;
  /** Fired count per fault name, every fault of the catalogue in catalogue order. */
  faults: Record<FaultName, number>;
  sometimes: Record<string, { fired: number; required: boolean }>;
  totals: ReportTotals;
  distributions: ReportDistributions;
  /** Per checker (sim/checkers/*): effects checked against its invariants, violations, failing interleavings. */
  checkers?: Record<string, ReportChecker>;
  /** Freshness against the client's own promises: serves judged / stale / beyond the published bound, over-rejections, healed-phase judgements. */
  freshness?: Record<(typeof freshnessFigures)[number], number>;
  failures: ReportFailure[];
  /** The downstream indexer's part of the run (reports/indexer-section.ts); absent when no indexer interleaving ran. */
  indexer?: IndexerReportSection;
  /** The observation fold's figures over the simulated runs, per fault (reports/observe-section.ts). */
  observability?: ObserveReportSection;
  eras?: EraReportSection;
  determinism: ReportDeterminism;
  /** Everything the gate accumulated, raw, so shard reports merge exactly (`fencesim merge`). */
  accumulator: AccumulatorSection;
  /** The fencesim version that wrote report.json and a digest over its content (integrity.ts); set when it is written. */
  integrity?: ReportIntegrity;
  /** The only part that differs between identical runs. */
  timing: ReportTiming;
}

const determinismNotChecked: ReportDeterminism = { selfCheckRatioPercent: 0, checked: 0, nondeterministic_interleavings: 0, mismatches: [] };

/**
 * The report of one gate run. A nondeterministic interleaving found by the self-check fails the gate on
 * its own (`nondeterministic_interleavings` > 0), whatever the safety counters say.
 */
export function buildReport(accumulator: GateAccumulator, verdict: GateVerdict, coverage: Coverage, timing: ReportTiming, extras: ReportExtras = {}): Report {
  const spec = accumulator.spec;
  const determinism = determinismOf(extras.determinism ?? determinismNotChecked);
  // The verdict (sim/gate.ts verdictOf) alone decides; it must have weighed this report's self-check.
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

/** Writes `dir/report.json` (through a temporary file and a rename), creating `dir` first; returns the file's path. */
export async function writeReport(dir: string, report: Report): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, reportFileName);
  await writeFileAtomic(path, serializeReport(report));
  return path;
}

/**
 * The exact bytes of report.json: two-space indented JSON, arrays of numbers on one line, a final newline,
 * sealed with this version's `integrity` section and `timing.sha256` (whatever the report held before).
 */
export function serializeReport(report: Report): string {
  return serializeFields(sealedReport(report, serializeFields));
}

/** The serialization itself, of exactly the fields given. */
export function serializeFields(report: Report): string {
  const text = JSON.stringify(report, (_key, value: unknown) => (isNumberArray(value) ? `${numbersMarker}[${value.join(', ')}]` : value), 2);
  return `${text.replace(markedNumbers, '$1')}\n`;
}

/** Arrays of numbers (the histograms run to 1,200 entries) are written inline through a marked string. */
const numbersMarker = '\u0001fencesim-numbers\u0001';
const markedNumbers = /"\\u0001fencesim-numbers\\u0001(\[[-0-9., e+E]*\])"/g;

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number' && Number.isFinite(item));
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
