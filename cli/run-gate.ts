/**
 * Runs a gate on this thread in chunks of interleavings, merging one accumulator per chunk (disjoint
 * ranges merge into exactly the unsharded result, see sim/gate-accumulator.ts). Chunks give progress at a
 * granularity the CLI controls and let the event loop breathe between them. When the simulator throws,
 * the chunk is re-run one interleaving at a time to name the seed that crashes.
 */
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { GateAccumulator, runRange, type RunSpec } from '../sim/gate.js';
import { deriveSeed } from '../sim/prng.js';
import type { ShardRange } from '../sim/shard.js';
import { InterleavingCrash } from '../sim/kernel/interleaving.js';
import { refuseUnrebuildable, runOnWorkersChecked, type PoolRun, type SelfCheckSample } from './pool.js';

export { InterleavingCrash } from '../sim/kernel/interleaving.js';

const chunkCount = 100;
const chunkSizeMax = 1_000;

export function chunkSize(interleavings: number): number {
  return Math.max(1, Math.min(chunkSizeMax, Math.ceil(interleavings / chunkCount)));
}

/**
 * Runs interleavings [range.start, range.end) of the spec (all of them by default; a shard runs its slice).
 * `onProgress` counts interleavings done within the range.
 */
export async function runGate(
  spec: RunSpec,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  onProgress: (done: number) => void,
  workers = 1,
  range: ShardRange = { start: 0, end: spec.interleavings },
): Promise<GateAccumulator> {
  return (await runGateChecked(spec, scenario, client, onProgress, { workers, range, sample: null })).accumulator;
}

/**
 * `runGate`, asking for the determinism self-check of `sample` too: on workers each range's sampled indices
 * are checked by the worker that ran it, in parallel (`selfCheck` then holds the result); on this thread
 * `selfCheck` is null and the caller runs it (sim/determinism.ts), as the same sample gives the same value.
 */
export async function runGateChecked(
  spec: RunSpec,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  onProgress: (done: number) => void,
  how: { workers: number; range: ShardRange; sample: SelfCheckSample | null },
): Promise<PoolRun> {
  const { workers, range } = how;
  const count = range.end - range.start;
  if (workers > 1 && count > chunkSize(count)) {
    refuseUnrebuildable(spec, scenario, client);
    const locate = (start: number, end: number, error: unknown): Error => locateCrash(spec, scenario, client, start, end, error);
    return runOnWorkersChecked({ spec, range, workerCount: workers, chunk: chunkSize(count), onProgress, locateCrash: locate, sample: how.sample });
  }
  const total = new GateAccumulator(spec);
  const size = chunkSize(count);
  for (let start = range.start; start < range.end; start += size) {
    const end = Math.min(range.end, start + size);
    total.merge(runChunk(spec, scenario, client, start, end, (done) => onProgress(start - range.start + done)));
    onProgress(end - range.start);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { accumulator: total, selfCheck: null };
}

function runChunk(
  spec: RunSpec,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  start: number,
  end: number,
  onProgress: (done: number) => void,
): GateAccumulator {
  try {
    return runRange(spec, scenario, client, start, end, onProgress);
  } catch (error) {
    throw locateCrash(spec, scenario, client, start, end, error);
  }
}

function locateCrash(spec: RunSpec, scenario: Scenario, client: ClientUnderTest<any>, start: number, end: number, original: unknown): Error {
  for (let index = start; index < end; index++) {
    try {
      runRange(spec, scenario, client, index, index + 1);
    } catch (error) {
      return new InterleavingCrash(index, deriveSeed(spec.seed, index), error);
    }
  }
  // Not reproducible one by one: the simulator is not deterministic. Say so rather than guess a seed.
  const message = original instanceof Error ? original.message : String(original);
  return new Error(`interleavings ${start}..${end - 1} threw (${message}) but none threw when re-run alone: nondeterminism in the simulator`);
}
