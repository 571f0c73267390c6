/**
 * Runs a gate's chunks on `node:worker_threads`. Chunks are handed out in index order to whichever worker
 * is free; results are merged in chunk order, so the report is identical to a single-threaded run.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import type { Scenario } from '../sim/scenario.js';
import { GateAccumulator, type RunSpec } from '../sim/gate.js';
import { InterleavingCrash } from '../sim/kernel/interleaving.js';
import { ModuleContractError } from '../adapters/mcp-sdk/module/contract.js';
import type { ShardRange } from '../sim/shard.js';
import { accumulatorFromData, type AccumulatorData } from './accumulator-data.js';
import { isModulePath } from './client-module.js';
import type { RangeSelfCheck, RangeTask } from './worker.js';
import { mergeSelfChecks, type DeterminismCheck } from '../sim/determinism.js';
import { indexerInterleavingsFor } from '../indexer/gate-part.js';

/** The determinism self-check a gate asks of its workers: the sampled indices (sim/determinism.ts selfCheckIndices). */
export interface SelfCheckSample {
  indices: readonly number[];
  ratioPercent: number;
}

/** A gate's accumulated results, and its self-check when the workers ran it (with their summed time on it). */
export interface PoolRun {
  accumulator: GateAccumulator;
  selfCheck: { check: DeterminismCheck; ms: number } | null;
}

type WorkerReply = { ok: true; start: number; data: AccumulatorData; selfChecked: RangeSelfCheck | null } | { ok: false; start: number; message: string; crash: { index: number; seed: number; contract: boolean; stack: string } | null };

/** The compiled worker script dist/cli/`name`.js, also when the CLI runs from TypeScript sources. */
export function workerScript(name: string): string {
  const beside = fileURLToPath(new URL(`./${name}.js`, import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL(`../dist/cli/${name}.js`, import.meta.url));
}

/**
 * Hands `jobs` out in order to whichever of up to `workerCount` threads running `script` is free, passing
 * every reply to `onReply` (which throws to fail the run); the threads are terminated at the end.
 */
/** Young-generation size of each worker thread, in MB. */
const youngGenerationMb = 64;

export async function runJobsOnWorkers<Job, Reply>(script: string, jobs: readonly Job[], workerCount: number, onReply: (reply: Reply) => void, stopped: () => boolean = () => false): Promise<void> {
  let next = 0;
  // A larger young generation (64 MB instead of V8's default) cuts the scavenges of the per-interleaving
  // garbage: 5-7 % less CPU on the default gate, measured side by side (3,000 era-both interleavings, 2 workers).
  const options = { resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } };
  const workers = Array.from({ length: Math.min(workerCount, jobs.length) }, () => new Worker(script, options));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const sendNext = (): void => {
              if (next >= jobs.length || stopped()) return resolve();
              worker.postMessage(jobs[next++]);
            };
            worker.on('message', (reply: Reply) => {
              try {
                onReply(reply);
              } catch (error) {
                return reject(error);
              }
              sendNext();
            });
            worker.on('error', reject);
            sendNext();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/**
 * Worker threads rebuild the run from names (scenario and client registries): an object that is not the
 * registry's under its name cannot cross, so it is refused, naming what to do, rather than guessed at.
 */
export function refuseUnrebuildable(spec: RunSpec, scenario: Scenario, client: ClientUnderTest<any>): void {
  if (findScenario(spec.scenario) !== scenario && !isModulePath(spec.client)) throw new Error(`workers rebuild the scenario by name, and scenario ${JSON.stringify(spec.scenario)} is not the catalogue's: run it with one worker`);
  if (findClient(spec.client) !== client && !isModulePath(spec.client)) throw new Error(`workers rebuild the client by name, and client ${JSON.stringify(spec.client)} is not the registry's: run it with one worker`);
}

export async function runOnWorkers(
  spec: RunSpec,
  range: ShardRange,
  workerCount: number,
  chunk: number,
  onProgress: (done: number) => void,
  locateCrash: (start: number, end: number, error: unknown) => Error,
): Promise<GateAccumulator> {
  return (await runOnWorkersChecked({ spec, range, workerCount, chunk, onProgress, locateCrash, sample: null })).accumulator;
}

/** What an interleaving on a worker threw, rebuilt: its message and its stack (a broken module contract as such). */
function thrownIn(message: string, crash: { contract: boolean; stack: string }): Error {
  const error = crash.contract ? new ModuleContractError(message) : new Error(message);
  error.stack = crash.stack;
  return error;
}

/** What `runOnWorkersChecked` runs: `runOnWorkers`'s arguments, and the self-check sample (null: none). */
export interface PoolGate {
  spec: RunSpec;
  range: ShardRange;
  workerCount: number;
  chunk: number;
  onProgress: (done: number) => void;
  locateCrash: (start: number, end: number, error: unknown) => Error;
  sample: SelfCheckSample | null;
}

/**
 * `runOnWorkers`, with the self-check of `gate.sample` run by the workers inside their ranges. On the pure
 * transport with a registry client, the indexer's part of each range runs on threads of its own (one for the
 * default share, `workerCount` for an indexer under test, which runs at every index): sharing an isolate with
 * the client's interleavings made both slower (sim/gate.ts GatePart). Results do not depend on it.
 */
export async function runOnWorkersChecked(gate: PoolGate): Promise<PoolRun> {
  const { spec, range, chunk, sample } = gate;
  const ranges = chunkRanges(range, chunk, gate.workerCount);
  const endOf = new Map(ranges.map((part) => [part.start, part.end]));
  const split = spec.transport !== 'sdk' && !isModulePath(spec.client) && indexerInterleavingsIn(spec, range) > 0;
  const clientResults = new Map<number, GateAccumulator>();
  const indexerResults = new Map<number, GateAccumulator>();
  const checks: RangeSelfCheck[] = [];
  let done = 0;
  let failed = false;
  const stopped = (): boolean => failed;
  // The crash reported is the first in index order whatever the worker count: after one, no range is handed out, the
  // ranges on their way (every earlier one was handed out before it) finish, and the lowest crashing index wins.
  let crash: InterleavingCrash | null = null;
  const take = (results: Map<number, GateAccumulator>, counted: boolean) => (reply: WorkerReply): void => {
    const end = endOf.get(reply.start)!;
    if (!reply.ok) failed = true;
    if (!reply.ok && reply.crash !== null) {
      if (crash === null || reply.crash.index < crash.index) crash = new InterleavingCrash(reply.crash.index, reply.crash.seed, thrownIn(reply.message, reply.crash));
      return;
    }
    if (!reply.ok) throw gate.locateCrash(reply.start, end, new Error(reply.message));
    if (failed) return; // a range that finished after a crash: its results are not needed
    results.set(reply.start, accumulatorFromData(spec, reply.data));
    if (reply.selfChecked !== null) checks.push(reply.selfChecked);
    if (!counted) return;
    done += end - reply.start;
    gate.onProgress(done);
  };
  // Each range carries the sampled indices inside it: its worker re-runs them traced, in parallel with the rest.
  const clientJobs = ranges.map(({ start, end }) => {
    const job: RangeTask = { spec, start, end };
    if (split) job.part = 'client';
    if (sample !== null) job.selfCheck = { indices: sample.indices.filter((index) => index >= start && index < end), ratioPercent: sample.ratioPercent };
    return job;
  });
  const indexerJobs: RangeTask[] = split ? ranges.map(({ start, end }) => ({ spec, start, end, part: 'indexer' })) : [];
  const indexerWorkers = spec.indexer === undefined ? 1 : gate.workerCount;
  await Promise.all([
    runJobsOnWorkers(workerScript('worker'), clientJobs, gate.workerCount, take(clientResults, true), stopped),
    runJobsOnWorkers(workerScript('worker'), indexerJobs, indexerWorkers, take(indexerResults, false), stopped),
  ]);
  if (crash !== null) throw crash;
  const total = new GateAccumulator(spec);
  for (const { start } of ranges) {
    total.merge(clientResults.get(start)!);
    if (split) total.merge(indexerResults.get(start)!);
  }
  if (sample === null) return { accumulator: total, selfCheck: null };
  const ms = checks.reduce((sum, part) => sum + part.ms, 0);
  return { accumulator: total, selfCheck: { check: mergeSelfChecks(checks.map((part) => part.check), sample.ratioPercent), ms } };
}

/** How many indexer interleavings the range runs (indexer/gate-part.ts: every index, or one in the default share). */
function indexerInterleavingsIn(spec: RunSpec, range: ShardRange): number {
  return indexerInterleavingsFor(spec, range.end) - indexerInterleavingsFor(spec, range.start);
}

/** The tail of a run is cut finer: its last `workerCount` chunks' worth of interleavings, in pieces this many times smaller. */
export const tailSplit = 8;

/**
 * The ranges a pool hands out, in index order: chunks of `chunk`, except the last `workerCount` chunks' worth,
 * cut in pieces of chunk / tailSplit, so the workers finish together instead of one waiting on the other's
 * last whole chunk. Results do not depend on it (disjoint ranges merge exactly, sim/gate-accumulator.ts).
 */
export function chunkRanges(range: ShardRange, chunk: number, workerCount: number): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  const tailStart = Math.max(range.start, range.end - workerCount * chunk);
  const piece = Math.max(1, Math.ceil(chunk / tailSplit));
  for (let start = range.start; start < range.end; ) {
    const size = start >= tailStart ? piece : Math.min(chunk, tailStart - start);
    const end = Math.min(range.end, start + size);
    ranges.push({ start, end });
    start = end;
  }
  return ranges;
}
