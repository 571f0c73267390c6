/**
 * The release gate: run interleavings [start, end) of one RunSpec and fold their results into a mergeable
 * accumulator. Interleaving i always uses seed deriveSeed(rootSeed, i), so results do not depend on worker
 * count, shard or order; accumulators of disjoint ranges merge into exactly the unsharded result.
 */
import { edgeName, transitionTable } from '../core/transitions.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from './scenario.js';
import { deriveSeed } from './prng.js';
import { runInterleaving } from './world.js';
import { GateAccumulator } from './gate-accumulator.js';
import type { RunSpec } from './run-spec.js';
import { runIndexerAt } from '../indexer/gate-part.js';
import { addObservedRun, figuresOfRun, GateObservation, observeDue } from '../observe/gate-figures.js';

export { exitCodeOf, gateExitCodes, outcomeOf, runOutcomes, type GateOutcome, type RunOutcome, type VerdictEvidence } from './verdict.js';
export { replayCommand, type RunSpec, type Transport } from './run-spec.js';
export { convergenceBucketCount, convergenceBucketMs, convergenceBucketOf, histogramPercentileMs, revocationBucketCount, revocationBucketMs, revocationBucketOf } from './gate-histograms.js';
export { freshnessFigures, GateAccumulator, type Failure } from './gate-accumulator.js';
export { round6, sometimesMinimumInterleavings, thresholds, verdictOf, type GateVerdict, type MetricName, type MetricReport, type MetricThreshold } from './gate-verdict.js';

export interface ProgressSink {
  (done: number, total: number): void;
}

/**
 * Which part of each index a range runs: the client's interleaving and the indexer's when due (`both`, the
 * default), or one of them. The pool (cli/pool.ts) runs the indexer's part on threads of its own: in one V8
 * isolate the two simulations share the kernel's code (queue, chooser, PRNG) and each makes the other's call
 * sites polymorphic (measured: the client part alone 17 % less CPU with the indexer's 4 % moved away).
 */
export type GatePart = 'both' | 'client' | 'indexer';

/** Runs interleavings [start, end) of the spec on this thread (the parts of them `part` names). */
export function runRange(
  spec: RunSpec,
  scenario: Scenario,
  client: ClientUnderTest,
  start: number,
  end: number,
  progress?: ProgressSink,
  part: GatePart = 'both',
): GateAccumulator {
  const accumulator = new GateAccumulator(spec);
  if (part === 'indexer') {
    for (let index = start; index < end; index++) runIndexerAt(accumulator.indexerFigures, spec, index);
    return accumulator;
  }
  const progressEvery = 1_000;
  const observation = new GateObservation();
  const plain = { trace: false, record: false };
  const observed = { trace: false, record: false, onStep: observation.onStep };
  for (let index = start; index < end; index++) {
    const seed = deriveSeed(spec.seed, index);
    const observing = observeDue(index);
    if (observing) observation.reset();
    const result = runInterleaving(seed, scenario, client, observing ? observed : plain);
    accumulator.add(index, result);
    if (observing) addObservedRun(accumulator.observeFigures, figuresOfRun(observation.state, result.endMs), result.faultCounts);
    if (part === 'both') runIndexerAt(accumulator.indexerFigures, spec, index);
    if (progress !== undefined && (index - start + 1) % progressEvery === 0) progress(index - start + 1, end - start);
  }
  return accumulator;
}

export function coverageOf(accumulator: GateAccumulator): { hit: number; total: number; edges: { edge: string; hits: number }[]; unreached: string[] } {
  const edges = transitionTable.map((edge, index) => ({ edge: edgeName(edge), hits: accumulator.edgeHits[index]! }));
  const unreached = edges.filter((edge) => edge.hits === 0).map((edge) => edge.edge);
  return { hit: edges.length - unreached.length, total: edges.length, edges, unreached };
}
