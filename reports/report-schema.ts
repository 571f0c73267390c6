/**
 * The shape of report.json (schema `fencesim.report.v1`): every section's type. reports/json.ts builds a
 * Report from a gate's accumulator and verdict; reports/report-serialize.ts writes its exact bytes.
 */
import type { EraReportSection } from './era-section.js';
import type { ReportApplicability } from '../sim/applicability.js';
import type { IndexerReportSection } from './indexer-section.js';
import type { ObserveReportSection } from './observe-section.js';
import type { coverageOf, Failure, freshnessFigures, GateOutcome, MetricReport, MetricThreshold, RunSpec } from '../sim/gate.js';
import type { ReportChecker } from './checkers.js';
import type { AccumulatorSection } from './accumulator-json.js';
import type { ReportIntegrity } from './integrity.js';
import type { DeterminismCheck, DeterminismMismatch } from '../sim/determinism.js';
import type { FaultName } from '../sim/faults.js';
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

/** One sampled interleaving whose two traced runs disagreed (sim/determinism.ts). */
export type ReportNondeterminism = DeterminismMismatch;

/** The determinism self-check: a sample of interleavings run twice, trace hashes compared (the first traced). */
export type ReportDeterminism = DeterminismCheck;

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

export interface ReportFailure extends Failure {
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
