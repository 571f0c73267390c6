/**
 * Worker thread for `fencesim gate --workers K`: runs the interleaving ranges it is sent and posts back
 * each range's accumulator as plain data. Interleaving i always uses deriveSeed(rootSeed, i), so which
 * worker runs which range cannot change any result.
 */
import { parentPort } from 'node:worker_threads';
import { findScenario } from '../scenarios/catalog.js';
import { applicabilityOf, reducerClaims } from '../sim/applicability.js';
import { findClient } from '../scenarios/clients.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { runRange, type GateAccumulator, type RunSpec } from '../sim/gate.js';
import { isModulePath, loadClientModule } from './client-module.js';
import { InterleavingCrash } from '../sim/kernel/interleaving.js';
import { accumulatorData } from './accumulator-data.js';

export interface RangeTask {
  spec: RunSpec;
  start: number;
  end: number;
}

parentPort?.on('message', async (task: RangeTask) => {
  try {
    const accumulator = await runTask(task);
    parentPort!.postMessage({ ok: true, start: task.start, data: accumulatorData(accumulator) });
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const crash = error instanceof InterleavingCrash ? { index: error.index, seed: error.seed } : null;
    parentPort!.postMessage({ ok: false, start: task.start, message, crash });
  }
});

/** Rebuilds the run from its spec: the scenario by name, the client by registry name or module path. */
async function runTask(task: RangeTask): Promise<GateAccumulator> {
  const spec = task.spec;
  const scenario = findScenario(spec.scenario);
  if (scenario === undefined) throw new Error(`unknown scenario in ${JSON.stringify(spec)}`);
  if (isModulePath(spec.client)) {
    const loaded = await loadClientModule(spec.client, 'gate');
    if (loaded.kind === 'module') return (await import('../adapters/mcp-sdk/module/module-gate.js')).runModuleRange(spec, scenario, loaded.module, task.start, task.end);
    return runReducerRange(spec, applicabilityOf(scenario, reducerClaims(loaded.reducer)).scenario, loaded.reducer, task);
  }
  const client = findClient(spec.client);
  if (client === undefined) throw new Error(`unknown client in ${JSON.stringify(spec)}`);
  return runReducerRange(spec, scenario, client, task);
}

async function runReducerRange(spec: RunSpec, scenario: Scenario, client: ClientUnderTest<any>, task: RangeTask): Promise<GateAccumulator> {
  if (spec.transport === 'sdk') return (await import('../adapters/mcp-sdk/sim/sdk-gate.js')).runSdkRange(spec, scenario, client, task.start, task.end); // loads the SDK only when asked
  return runRange(spec, scenario, client, task.start, task.end);
}
