/**
 * The release gate: run interleavings [start, end) of one RunSpec and fold their results into a mergeable
 * accumulator. Interleaving i always uses seed deriveSeed(rootSeed, i), so results do not depend on worker
 * count, shard or order; accumulators of disjoint ranges merge into exactly the unsharded result.
 */
import { addEraRun, emptyEraFigures } from './era-figures.js';
import { edgeName, transitionTable } from '../core/transitions.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from './scenario.js';
import { faultNames, type FaultName } from './faults.js';
import { allInvariants, failingLivenessInvariants, invariantIndex, livenessInvariants, safetyInvariants, type InvariantName } from './oracle.js';
import { deriveSeed } from './prng.js';
import { runInterleaving, type InterleavingResult } from './world.js';
import { evidenceReasons, exitCodeOf, gateOutcomeOf, runOutcomeIndex, runOutcomes, type GateOutcome, type VerdictEvidence } from './verdict.js';

export { exitCodeOf, gateExitCodes, outcomeOf, runOutcomes, type GateOutcome, type RunOutcome, type VerdictEvidence } from './verdict.js';
import { emptyIndexerFigures, mergeIndexerFigures } from '../indexer/gate-figures.js';
import { indexerReasons, runIndexerAt } from '../indexer/gate-part.js';
import { addObservedRun, emptyObserveFigures, figuresOfRun, observeDue, observedForGate } from '../observe/gate-figures.js';
import { initialObserveState } from '../observe/state.js';

export interface RunSpec {
  seed: number;
  interleavings: number;
  scenario: string;
  client: string;
  maxFailures: number;
  /** How messages travel: 'sdk' = real JSON-RPC between SDK Client and Server (adapters/mcp-sdk); absent = pure. */
  transport?: Transport;
  /** `--indexer NAME`: the indexer under test, run at every index; absent = the reference at the default share (indexer/gate-part.ts). */
  indexer?: string;
}

/** 'pure': the simulator's own message queue; 'sdk': the real MCP SDK on both ends over a virtual link. */
export type Transport = 'pure' | 'sdk';

export interface Failure {
  index: number;
  seed: number;
  scenario: string;
  client: string;
  invariant: InvariantName;
  timeMs: number;
  uri: string;
  detail: string;
  replay: string;
}

export interface MetricThreshold {
  comparator: '<' | '>=';
  value: number;
}

export type MetricName = 'read_amplification' | 'convergence_60s' | 'revocation_p99_ms' | 'staleness_at_serve_p99_ms';

export const thresholds: Record<MetricName, MetricThreshold> = {
  read_amplification: { comparator: '<', value: 1.2 },
  convergence_60s: { comparator: '>=', value: 0.999 },
  revocation_p99_ms: { comparator: '<', value: 30_000 },
  // 2026-07-28 (sim/checkers/era2026-ttl.ts): p99 of how stale served content is, under the longest ttlMs the era scenarios hand out.
  staleness_at_serve_p99_ms: { comparator: '<', value: 30_000 },
};

/**
 * Latencies are kept as mergeable histograms: bucket i counts latencies in [i, i + 1) x 100 ms; the last
 * bucket counts everything beyond (revocation: at or above 120 s; convergence: at or above 60 s, which
 * includes changes never reflected).
 */
export const revocationBucketMs = 100;
export const revocationBucketCount = 1_201;
export const convergenceBucketMs = 100;
export const convergenceBucketCount = 601;

export function revocationBucketOf(latencyMs: number): number {
  return bucketOf(latencyMs, revocationBucketMs, revocationBucketCount);
}

export function convergenceBucketOf(latencyMs: number): number {
  return bucketOf(latencyMs, convergenceBucketMs, convergenceBucketCount);
}

function bucketOf(latencyMs: number, bucketMs: number, count: number): number {
  const bucket = Math.floor(latencyMs / bucketMs);
  return bucket < 0 ? 0 : bucket >= count - 1 ? count - 1 : bucket;
}

/** The p-th percentile (0 < p <= 1) of a histogram: the upper edge of the bucket where it falls; 0 when empty. */
export function histogramPercentileMs(histogram: Float64Array, p: number): number {
  let total = 0;
  for (let i = 0; i < histogram.length; i++) total += histogram[i]!;
  if (total === 0) return 0;
  const rank = Math.ceil(total * p);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!;
    if (seen >= rank) return (i + 1) * revocationBucketMs;
  }
  return histogram.length * revocationBucketMs;
}

/** The "sometimes" expectations are enforced only on runs large enough to make a miss meaningful. */
export const sometimesMinimumInterleavings = 1_000;

export function replayCommand(seed: number, scenario: string, client: string, transport: Transport = 'pure'): string {
  return `npx fencesim replay --seed ${seed} --scenario ${scenario} --client ${client}${transport === 'pure' ? '' : ` --transport ${transport}`}`;
}

/** Freshness figures summed over interleavings (sim/checkers/convergence.ts), in `GateAccumulator.freshness` order. */
export const freshnessFigures = ['servesJudged', 'staleServes', 'servesBeyondBound', 'staleReceiptsJudged', 'overRejections', 'healedJudged', 'healedFailed'] as const;

export class GateAccumulator {
  interleavings = 0;
  events = 0;
  steps = 0;
  readonly violationCounts = new Float64Array(allInvariants.length);
  readonly failingInterleavings = new Float64Array(allInvariants.length);
  /** Per invariant: how many times it was checked (effects judged against it; convergence: changes judged). */
  readonly checks = new Float64Array(allInvariants.length);
  readonly faultCounts = new Float64Array(faultNames.length);
  readonly edgeHits = new Float64Array(transitionTable.length);
  /** Interleavings by tag, in `runOutcomes` order (this accumulator only holds finished runs: passed, safety, liveness). */
  readonly outcomes = new Float64Array(runOutcomes.length);
  /** See `freshnessFigures`. */
  readonly freshness = new Float64Array(freshnessFigures.length);
  notificationReads = 0;
  notifiedChanges = 0;
  totalReads = 0;
  changesTracked = 0;
  changesConverged = 0;
  staleReceipts = 0;
  audits = 0;
  rejections = 0;
  accepts = 0;
  virtualMs = 0;
  /** Revocation latency histogram (see revocationBucketOf); its total is the number of measured revocations. */
  readonly revocationHistogram = new Float64Array(revocationBucketCount);
  /** Change-to-reflection latency histogram (see convergenceBucketOf), every tracked change that was judged. */
  readonly convergenceHistogram = new Float64Array(convergenceBucketCount);
  /** 2026-07-28: staleness at serve of every serve on a 2026-07-28 connection (100 ms buckets, as convergence). */
  readonly stalenessAtServeHistogram = new Float64Array(convergenceBucketCount);
  crashes = 0;
  passesCompleted = 0;
  catalogsPublished = 0;
  catalogsProven = 0;
  tasksAccepted = 0;
  tasksRefused = 0;
  contentServed = 0;
  contentRefused = 0;
  revocations = 0;
  purges = 0;
  /** The indexer's interleavings (indexer/gate-figures.ts: one fixed-layout array, so it travels and merges like the rest). */
  readonly indexerFigures = emptyIndexerFigures();
  /** The observation fold's dashboard figures, overall, without faults and per fault (observe/gate-figures.ts). */
  readonly observeFigures = emptyObserveFigures();
  /** The figures per protocol era (sim/era-figures.ts). */
  readonly eraFigures = emptyEraFigures();
  failures: Failure[] = [];

  constructor(readonly spec: RunSpec) {}

  add(index: number, result: InterleavingResult): void {
    const oracle = result.oracle;
    this.interleavings++;
    this.events += result.events;
    this.steps += result.steps;
    this.virtualMs += result.endMs;
    for (let i = 0; i < oracle.counts.length; i++) {
      const count = oracle.counts[i]!;
      if (count > 0) {
        this.violationCounts[i]! += count;
        this.failingInterleavings[i]! += 1;
      }
    }
    this.outcomes[runOutcomeIndex[result.outcome]]! += 1;
    for (let i = 0; i < oracle.checks.length; i++) this.checks[i]! += oracle.checks[i]!;
    for (let i = 0; i < result.faultCounts.length; i++) this.faultCounts[i]! += result.faultCounts[i]!;
    for (let i = 0; i < oracle.edgeHits.length; i++) this.edgeHits[i]! += oracle.edgeHits[i]!;
    const convergence = oracle.convergence;
    const freshness = this.freshness;
    freshness[0]! += convergence.servesJudged;
    freshness[1]! += convergence.staleServes;
    freshness[2]! += convergence.servesBeyondBound;
    freshness[3]! += convergence.staleReceiptsJudged;
    freshness[4]! += convergence.overRejections;
    freshness[5]! += convergence.healedJudged;
    freshness[6]! += convergence.healedFailed;
    this.notificationReads += oracle.notificationReads;
    this.notifiedChanges += oracle.notifiedChanges;
    this.totalReads += oracle.totalReads;
    this.changesTracked += oracle.changesTracked;
    this.changesConverged += oracle.changesConverged;
    this.staleReceipts += oracle.staleReceipts;
    this.audits += oracle.audits;
    this.rejections += oracle.rejections;
    this.accepts += oracle.accepts;
    const revocationLatencies = oracle.revocation.latenciesMs;
    for (let i = 0; i < revocationLatencies.length; i++) this.revocationHistogram[revocationBucketOf(revocationLatencies[i]!)]! += 1;
    const latencies = convergence.latenciesMs;
    for (let i = 0; i < latencies.length; i++) this.convergenceHistogram[convergenceBucketOf(latencies[i]!)]! += 1;
    const staleness = oracle.era2026Serving.ttl.stalenessAtServeMs;
    for (let i = 0; i < staleness.length; i++) this.stalenessAtServeHistogram[convergenceBucketOf(staleness[i]!)]! += 1;
    this.crashes += oracle.crashes;
    const catalog = oracle.catalog;
    this.passesCompleted += catalog.passesCompleted;
    this.catalogsPublished += catalog.catalogsPublished;
    this.catalogsProven += catalog.catalogsProven;
    this.tasksAccepted += catalog.tasksAccepted;
    this.tasksRefused += catalog.tasksRefused;
    const revocation = oracle.revocation;
    this.contentServed += revocation.served;
    this.contentRefused += revocation.refused;
    this.revocations += revocation.revocations;
    this.purges += revocation.purges;
    addEraRun(this.eraFigures, result);
    const first = oracle.violations[0];
    if (first !== undefined && this.failures.length < this.spec.maxFailures) {
      this.failures.push({
        index,
        seed: result.seed,
        scenario: this.spec.scenario,
        client: this.spec.client,
        invariant: first.invariant,
        timeMs: first.timeMs,
        uri: first.uri,
        detail: first.detail,
        replay: replayCommand(result.seed, this.spec.scenario, this.spec.client, this.spec.transport),
      });
    }
  }

  /** Folds another accumulator of a disjoint range into this one. */
  merge(other: GateAccumulator): void {
    this.interleavings += other.interleavings;
    this.events += other.events;
    this.steps += other.steps;
    this.virtualMs += other.virtualMs;
    addInto(this.violationCounts, other.violationCounts);
    addInto(this.failingInterleavings, other.failingInterleavings);
    addInto(this.checks, other.checks);
    addInto(this.faultCounts, other.faultCounts);
    addInto(this.edgeHits, other.edgeHits);
    addInto(this.outcomes, other.outcomes);
    addInto(this.freshness, other.freshness);
    this.notificationReads += other.notificationReads;
    this.notifiedChanges += other.notifiedChanges;
    this.totalReads += other.totalReads;
    this.changesTracked += other.changesTracked;
    this.changesConverged += other.changesConverged;
    this.staleReceipts += other.staleReceipts;
    this.audits += other.audits;
    this.rejections += other.rejections;
    this.accepts += other.accepts;
    addInto(this.revocationHistogram, other.revocationHistogram);
    addInto(this.convergenceHistogram, other.convergenceHistogram);
    addInto(this.stalenessAtServeHistogram, other.stalenessAtServeHistogram);
    this.crashes += other.crashes;
    this.passesCompleted += other.passesCompleted;
    this.catalogsPublished += other.catalogsPublished;
    this.catalogsProven += other.catalogsProven;
    this.tasksAccepted += other.tasksAccepted;
    this.tasksRefused += other.tasksRefused;
    this.contentServed += other.contentServed;
    this.contentRefused += other.contentRefused;
    this.revocations += other.revocations;
    this.purges += other.purges;
    mergeIndexerFigures(this.indexerFigures, other.indexerFigures);
    addInto(this.observeFigures, other.observeFigures);
    addInto(this.eraFigures, other.eraFigures);
    this.failures = [...this.failures, ...other.failures].sort((a, b) => a.index - b.index).slice(0, this.spec.maxFailures);
  }
}

function addInto(target: Float64Array, source: Float64Array): void {
  for (let i = 0; i < target.length; i++) target[i]! += source[i]!;
}

export interface ProgressSink {
  (done: number, total: number): void;
}

/** Runs interleavings [start, end) of the spec on this thread. */
export function runRange(
  spec: RunSpec,
  scenario: Scenario,
  client: ClientUnderTest,
  start: number,
  end: number,
  progress?: ProgressSink,
): GateAccumulator {
  const accumulator = new GateAccumulator(spec);
  const progressEvery = 1_000;
  const observed = observedForGate(client);
  for (let index = start; index < end; index++) {
    const seed = deriveSeed(spec.seed, index);
    const observing = observeDue(index);
    if (observing) observed.observed.state = initialObserveState();
    const result = runInterleaving(seed, scenario, observing ? observed.client : client, { trace: false, record: false });
    accumulator.add(index, result);
    if (observing) addObservedRun(accumulator.observeFigures, figuresOfRun(observed.observed.state, result.endMs), result.faultCounts);
    runIndexerAt(accumulator.indexerFigures, spec, index);
    if (progress !== undefined && (index - start + 1) % progressEvery === 0) progress(index - start + 1, end - start);
  }
  return accumulator;
}

export interface MetricReport {
  value: number;
  threshold: MetricThreshold;
  passed: boolean;
  numerator: number;
  denominator: number;
  /** False when the run produced no sample (denominator 0): `value` is then a placeholder, never a measurement. */
  measured?: boolean;
}

export interface GateVerdict {
  passed: boolean;
  /** `passed` unless `failed`; `nondeterministic` when the self-check found a run giving two traces. */
  outcome: GateOutcome;
  /** The exit code of `outcome` (verdict.ts gateExitCodes). */
  exitCode: number;
  /** The evidence beyond the accumulator this verdict weighed (buildReport checks it matches the report's). */
  evidence: VerdictEvidence;
  reasons: string[];
  counters: Record<string, number>;
  liveness: Record<string, number>;
  metrics: Record<string, MetricReport>;
  sometimes: Record<string, { fired: number; required: boolean }>;
}

function metric(name: MetricName, numerator: number, denominator: number, emptyValue: number): MetricReport {
  const threshold = thresholds[name];
  const value = denominator === 0 ? emptyValue : numerator / denominator;
  const passed = threshold.comparator === '<' ? value < threshold.value : value >= threshold.value;
  return { value: round6(value), threshold, passed, numerator, denominator };
}

/** p99 of the revocation latencies: numerator is the p99 in ms, denominator the number of revocations measured. */
function p99Metric(histogram: Float64Array, name: 'revocation_p99_ms' | 'staleness_at_serve_p99_ms' = 'revocation_p99_ms'): MetricReport {
  let measured = 0;
  for (let i = 0; i < histogram.length; i++) measured += histogram[i]!;
  const value = histogramPercentileMs(histogram, 0.99);
  const threshold = thresholds[name];
  return { value, threshold, passed: value < threshold.value, numerator: value, denominator: measured };
}

export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * The one verdict of a gate: the accumulated results of its interleavings (safety counters, metrics,
 * "sometimes" faults) and the evidence beside them (the determinism self-check, a partial merge) give the
 * reasons, the outcome and the exit code. Nothing else decides pass or fail.
 */
export function verdictOf(accumulator: GateAccumulator, scenario: Scenario, evidence: VerdictEvidence = {}): GateVerdict {
  const reasons: string[] = [];
  const counters: Record<string, number> = {};
  safetyInvariants.forEach((name, index) => {
    counters[name] = accumulator.violationCounts[index]!;
    if (counters[name]! > 0) reasons.push(`${name}: ${counters[name]} violations in ${accumulator.failingInterleavings[index]} interleavings`);
  });
  const liveness: Record<string, number> = {};
  livenessInvariants.forEach((name, offset) => {
    liveness[name] = accumulator.failingInterleavings[safetyInvariants.length + offset]!;
  });
  // A liveness failure of the healed phase fails its interleaving like a safety violation (sim/invariants.ts).
  for (const name of failingLivenessInvariants) {
    const index = invariantIndex[name];
    if (accumulator.failingInterleavings[index]! > 0) reasons.push(`${name}: ${accumulator.violationCounts[index]} violations in ${accumulator.failingInterleavings[index]} interleavings`);
  }
  const metrics: Record<string, MetricReport> = {
    read_amplification: metric('read_amplification', accumulator.notificationReads, accumulator.notifiedChanges, 0),
    convergence_60s: metric('convergence_60s', accumulator.changesConverged, accumulator.changesTracked, 1),
    revocation_p99_ms: p99Metric(accumulator.revocationHistogram),
    staleness_at_serve_p99_ms: p99Metric(accumulator.stalenessAtServeHistogram, 'staleness_at_serve_p99_ms'),
  };
  const enforce = accumulator.interleavings >= sometimesMinimumInterleavings;
  for (const [name, report] of Object.entries(metrics)) {
    // No sample is "not measured", never a pass on a placeholder value; it fails when the scenario claims the metric.
    report.measured = report.denominator > 0;
    const claimed = (scenario.claims ?? []).includes(name as MetricName);
    if (!report.measured) {
      report.passed = !(claimed && enforce);
      if (!report.passed) reasons.push(`${name} not measured: 0 samples in ${accumulator.interleavings} interleavings, but scenario ${scenario.name} claims this metric`);
    } else if (!report.passed) reasons.push(`${name} = ${report.value} misses its gate (${report.threshold.comparator} ${report.threshold.value})`);
  }
  const sometimes: Record<string, { fired: number; required: boolean }> = {};
  faultNames.forEach((name: FaultName, index) => {
    const required = scenario.sometimes.includes(name);
    const fired = accumulator.faultCounts[index]!;
    if (required || fired > 0) sometimes[name] = { fired, required };
    if (required && enforce && fired === 0) {
      reasons.push(`sometimes: fault ${name} never fired in ${accumulator.interleavings} interleavings, so the scenario did not test what it claims`);
    }
  });
  reasons.push(...indexerReasons(accumulator.indexerFigures));
  reasons.push(...evidenceReasons(evidence));
  const outcome = gateOutcomeOf(reasons, evidence);
  return { passed: outcome === 'passed', outcome, exitCode: exitCodeOf(outcome), evidence, reasons, counters, liveness, metrics, sometimes };
}

export function coverageOf(accumulator: GateAccumulator): { hit: number; total: number; edges: { edge: string; hits: number }[]; unreached: string[] } {
  const edges = transitionTable.map((edge, index) => ({ edge: edgeName(edge), hits: accumulator.edgeHits[index]! }));
  const unreached = edges.filter((edge) => edge.hits === 0).map((edge) => edge.edge);
  return { hit: edges.length - unreached.length, total: edges.length, edges, unreached };
}
