/**
 * Worker thread for `fencesim gate --workers K`: runs the interleaving ranges it is sent and posts back
 * each range's accumulator as plain data. Interleaving i always uses deriveSeed(rootSeed, i), so which
 * worker runs which range cannot change any result.
 */
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { findScenario } from '../scenarios/catalog.js';
import { applicabilityOf, reducerClaims } from '../sim/applicability.js';
import { findClient } from '../scenarios/clients.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { runRange, type GateAccumulator, type GatePart, type RunSpec } from '../sim/gate.js';
import { isModulePath, loadClientModule } from './client-module.js';
import { InterleavingCrash } from '../sim/kernel/interleaving.js';
import { ModuleContractError } from '../adapters/mcp-sdk/module/contract.js';
import { accumulatorData } from './accumulator-data.js';
import { selfCheck, type DeterminismCheck } from '../sim/determinism.js';

export interface RangeTask {
  spec: RunSpec;
  start: number;
  end: number;
  /** Which part of each index to run (sim/gate.ts GatePart; pure transport, registry clients): both when absent. */
  part?: GatePart;
  /** The determinism self-check's sampled indices within [start, end), run twice traced after the range (sim/determinism.ts). */
  selfCheck?: { indices: number[]; ratioPercent: number };
}

/** What a range's self-check found, and how long this thread spent on it. */
export interface RangeSelfCheck {
  check: DeterminismCheck;
  ms: number;
}

parentPort?.on('message', async (task: RangeTask) => {
  try {
    const { accumulator, selfChecked } = await runTask(task);
    parentPort!.postMessage({ ok: true, start: task.start, data: accumulatorData(accumulator), selfChecked });
  } catch (error) {
    if (error instanceof InterleavingCrash) {
      // What the interleaving threw, message and stack (the client's own frames, for a client loaded by path), rebuilt
      // by the pool (cli/pool.ts); a broken module contract is bad input (exit 2), told by its message alone.
      const inner = error.error instanceof Error ? error.error : new Error(String(error.error));
      const crash = { index: error.index, seed: error.seed, contract: inner instanceof ModuleContractError, stack: inner.stack ?? inner.message };
      parentPort!.postMessage({ ok: false, start: task.start, message: inner.message, crash });
      return;
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort!.postMessage({ ok: false, start: task.start, message, crash: null });
  }
});

interface RangeDone {
  accumulator: GateAccumulator;
  /** Null unless the task asked for a self-check (the pure transport only: cli/commands/gate.ts). */
  selfChecked: RangeSelfCheck | null;
}

/** Rebuilds the run from its spec: the scenario by name, the client by registry name or module path. */
async function runTask(task: RangeTask): Promise<RangeDone> {
  const spec = task.spec;
  const scenario = findScenario(spec.scenario);
  if (scenario === undefined) throw new Error(`unknown scenario in ${JSON.stringify(spec)}`);
  if (isModulePath(spec.client)) {
    const loaded = await loadClientModule(spec.client, 'gate');
    if (loaded.kind === 'module') return { accumulator: await (await import('../adapters/mcp-sdk/module/module-gate.js')).runModuleRange(spec, scenario, loaded.module, task.start, task.end), selfChecked: null };
    return runReducerRange(spec, applicabilityOf(scenario, reducerClaims(loaded.reducer)).scenario, loaded.reducer, task);
  }
  const client = findClient(spec.client);
  if (client === undefined) throw new Error(`unknown client in ${JSON.stringify(spec)}`);
  return runReducerRange(spec, scenario, client, task);
}

async function runReducerRange(spec: RunSpec, scenario: Scenario, client: ClientUnderTest<any>, task: RangeTask): Promise<RangeDone> {
  if (spec.transport === 'sdk') return { accumulator: await (await import('../adapters/mcp-sdk/sim/sdk-gate.js')).runSdkRange(spec, scenario, client, task.start, task.end), selfChecked: null }; // loads the SDK only when asked
  const accumulator = runRange(spec, scenario, client, task.start, task.end, undefined, task.part ?? 'both');
  const sample = task.selfCheck;
  if (sample === undefined) return { accumulator, selfChecked: null };
  // The range's sampled interleavings, run twice more by this thread (sim/determinism.ts: the first traced).
  const startMs = performance.now();
  const check = selfCheck(spec.seed, scenario, client, sample.indices, sample.ratioPercent);
  return { accumulator, selfChecked: { check, ms: performance.now() - startMs } };
}
