/**
 * The gate's accumulator: the results of interleavings folded into fixed-layout counters and histograms, so
 * accumulators of disjoint ranges (threads, workers, shards) merge into exactly the unsharded result.
 */
import { addEraRun, emptyEraFigures } from './era-figures.js';
import { transitionTable } from '../core/transitions.js';
import { faultNames } from './faults.js';
import { allInvariants, type InvariantName } from './invariants.js';
import type { InterleavingResult } from './world.js';
import { runOutcomeIndex, runOutcomes } from './verdict.js';
import { convergenceBucketCount, convergenceBucketOf, revocationBucketCount, revocationBucketOf } from './gate-histograms.js';
import { replayCommand, type RunSpec } from './run-spec.js';
import { emptyIndexerFigures, mergeIndexerFigures } from '../indexer/gate-figures.js';
import { emptyObserveFigures } from '../observe/gate-figures.js';

/** A failing interleaving: its first violation and the command that replays it. */
export interface Failure {
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
