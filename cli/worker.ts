/**
 * Worker thread for `fencesim gate --workers K`: runs the interleaving ranges it is sent and posts back
 * each range's accumulator as plain data. Interleaving i always uses deriveSeed(rootSeed, i), so which
 * worker runs which range cannot change any result.
 */
import { parentPort } from 'node:worker_threads';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { runRange, type RunSpec } from '../sim/gate.js';
import { InterleavingCrash } from '../sim/kernel/interleaving.js';
import { accumulatorData } from './accumulator-data.js';

export interface RangeTask {
  spec: RunSpec;
  start: number;
  end: number;
}

parentPort?.on('message', async (task: RangeTask) => {
  try {
    const scenario = findScenario(task.spec.scenario);
    const client = findClient(task.spec.client);
    if (scenario === undefined || client === undefined) throw new Error(`unknown scenario or client in ${JSON.stringify(task.spec)}`);
    const accumulator =
      task.spec.transport === 'sdk'
        ? await (await import('../adapters/mcp-sdk/sim/sdk-gate.js')).runSdkRange(task.spec, scenario, client, task.start, task.end) // loads the SDK only when asked
        : runRange(task.spec, scenario, client, task.start, task.end);
    parentPort!.postMessage({ ok: true, start: task.start, data: accumulatorData(accumulator) });
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const crash = error instanceof InterleavingCrash ? { index: error.index, seed: error.seed } : null;
    parentPort!.postMessage({ ok: false, start: task.start, message, crash });
  }
});
