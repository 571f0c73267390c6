/**
 * The release gate over the SDK transport (`fencesim gate --transport sdk`): the same interleavings, seeds
 * and accumulator as the pure gate (sim/gate.ts), each interleaving run by the async SDK world
 * (sdk-sim-world.ts). Interleaving i uses seed deriveSeed(rootSeed, i), so ranges merge exactly as the pure
 * gate's do, and workers cannot change a result.
 */
import type { ClientUnderTest } from '../../../core/types.js';
import type { Scenario } from '../../../scenarios/scenario.js';
import { firstDivergence, type DeterminismCheck, type DeterminismMismatch } from '../../../sim/determinism.js';
import { GateAccumulator, type ProgressSink, type RunSpec } from '../../../sim/gate.js';
import { InterleavingCrash, type InterleavingResult } from '../../../sim/kernel/interleaving.js';
import { deriveSeed } from '../../../sim/prng.js';
import { runSdkEraInterleaving as runSdkInterleaving } from '../v2/v2-sim-world.js';
import { runIndexerAt } from '../../../indexer/gate-part.js';


/** One interleaving of an async world (the SDK transport, a module client). */
export type AsyncInterleaving = (seed: number, options: { trace: boolean; record: boolean }) => Promise<InterleavingResult>;

/** Runs interleavings [start, end) of the spec over the SDK transport, one after the other. */
export function runSdkRange(
  spec: RunSpec,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  start: number,
  end: number,
  progress?: ProgressSink,
): Promise<GateAccumulator> {
  return runAsyncRange(spec, (seed, options) => runSdkInterleaving(seed, scenario, client, options), start, end, progress);
}

/** Runs interleavings [start, end) of the spec with `run`, one after the other. */
export async function runAsyncRange(spec: RunSpec, run: AsyncInterleaving, start: number, end: number, progress?: ProgressSink): Promise<GateAccumulator> {
  const accumulator = new GateAccumulator(spec);
  const progressEvery = 100;
  for (let index = start; index < end; index++) {
    const seed = deriveSeed(spec.seed, index);
    let result: InterleavingResult;
    try {
      result = await run(seed, { trace: false, record: false });
    } catch (error) {
      throw new InterleavingCrash(index, seed, error);
    }
    accumulator.add(index, result);
    // The indexer share, as in the pure gate (sim/gate.ts runRange): its interleavings depend on the index alone.
    runIndexerAt(accumulator.indexerFigures, spec, index);
    if (progress !== undefined && (index - start + 1) % progressEvery === 0) progress(index - start + 1, end - start);
  }
  return accumulator;
}

/** The determinism self-check over the SDK transport: each sampled interleaving run twice with tracing. */
export function sdkSelfCheck(
  rootSeed: number,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  indices: readonly number[],
  ratioPercent: number,
): Promise<DeterminismCheck> {
  return asyncSelfCheck(rootSeed, (seed, options) => runSdkInterleaving(seed, scenario, client, options), indices, ratioPercent);
}

/** The determinism self-check of an async world: each sampled interleaving run twice with tracing. */
export async function asyncSelfCheck(rootSeed: number, run: AsyncInterleaving, indices: readonly number[], ratioPercent: number): Promise<DeterminismCheck> {
  const mismatches: DeterminismMismatch[] = [];
  for (const index of indices) {
    const seed = deriveSeed(rootSeed, index);
    const first = await run(seed, { trace: true, record: false });
    const second = await run(seed, { trace: true, record: false });
    if (first.traceHash === second.traceHash) continue;
    mismatches.push({ index, seed, firstTraceHash: first.traceHash, secondTraceHash: second.traceHash, ...firstDivergence(first.timeline ?? [], second.timeline ?? []) });
  }
  return { selfCheckRatioPercent: ratioPercent, checked: indices.length, nondeterministic_interleavings: mismatches.length, mismatches };
}
