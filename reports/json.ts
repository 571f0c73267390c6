/**
 * The JSON report (schema `fencesim.report.v1`): the one source every other report renders from
 * (Markdown, JUnit, HTML, the CLI summary). Everything except `timing` is a pure function of the
 * accumulated results, with keys in a fixed order, so identical runs write byte-identical reports
 * apart from `timing`. No clock, hostname or date is read here; timing is measured by the caller.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { coverageOf, GateAccumulator, GateVerdict, MetricReport, MetricThreshold, RunSpec } from '../sim/gate.js';
import { thresholds } from '../sim/gate.js';
import { faultNames, type FaultName } from '../sim/faults.js';
import type { InvariantName } from '../sim/oracle.js';

export const reportSchema = 'fencesim.report.v1';
export const reportFileName = 'report.json';

export type Coverage = ReturnType<typeof coverageOf>;

export interface ReportTiming {
  wallMs: number;
  interleavingsPerSecond: number;
  eventsPerSecond: number;
  peakRssBytes: number;
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
}

export interface Report {
  schema: typeof reportSchema;
  runSpec: RunSpec;
  interleavings: number;
  passed: boolean;
  reasons: string[];
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
  failures: ReportFailure[];
  /** The only part that differs between identical runs. */
  timing: ReportTiming;
}

export function buildReport(accumulator: GateAccumulator, verdict: GateVerdict, coverage: Coverage, timing: ReportTiming): Report {
  const spec = accumulator.spec;
  return {
    schema: reportSchema,
    runSpec: { seed: spec.seed, interleavings: spec.interleavings, scenario: spec.scenario, client: spec.client, maxFailures: spec.maxFailures },
    interleavings: accumulator.interleavings,
    passed: verdict.passed,
    reasons: [...verdict.reasons],
    counters: { ...verdict.counters },
    liveness: { ...verdict.liveness },
    metrics: metricsOf(verdict),
    thresholds: thresholdsOf(),
    coverage: coverageCopy(coverage),
    faults: faultsOf(accumulator),
    sometimes: sometimesOf(verdict),
    totals: totalsOf(accumulator),
    failures: accumulator.failures.map(failureOf),
    timing: { wallMs: timing.wallMs, interleavingsPerSecond: timing.interleavingsPerSecond, eventsPerSecond: timing.eventsPerSecond, peakRssBytes: timing.peakRssBytes },
  };
}

/** Writes `dir/report.json`, creating `dir` (and its parents) first; returns the file's path. */
export async function writeReport(dir: string, report: Report): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, reportFileName);
  await writeFile(path, serializeReport(report));
  return path;
}

/** The exact bytes of report.json: two-space indented JSON and a final newline. */
export function serializeReport(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
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
