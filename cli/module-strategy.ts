/**
 * `fencesim bench --strategies --client ./my-client.mjs`: the client module as one more strategy row, beside
 * the reducer strategies, under the same conditions (scenarios/strategies.ts), the same seeds and the same
 * measures (cli/strategy-bench.ts). A module client runs in the module world (its own async code over the SDK
 * path, judged as a black box), with the condition's faults as they apply to its claimed features; a reducer
 * module runs on the pure transport. A client that claims no subscriptions is a poller: notifications never
 * reach it, so it is run once, under "any (no notifications)", as the reducer pollers are.
 */
import { featuresOf } from '../adapters/mcp-sdk/module/contract.js';
import { moduleApplicability } from '../adapters/mcp-sdk/module/module-gate.js';
import { runModuleInterleaving } from '../adapters/mcp-sdk/module/module-world.js';
import { conditionName, strategyConditions, strategyScenario, type StrategyCondition } from '../scenarios/strategies.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import type { LoadedClient } from './client-module.js';
import { emptySums, foldInterleaving, pollingConditionName, rowOf, type StrategyRow } from './strategy-bench.js';

export interface ClientStrategyCell {
  condition: StrategyCondition;
  conditionName: string;
}

/** The strategy's name in the table: the client's name and the path it was loaded from. */
export function clientStrategyName(loaded: LoadedClient): string {
  return `${loaded.kind === 'module' ? loaded.module.name : loaded.reducer.name} (${loaded.path})`;
}

function polls(loaded: LoadedClient): boolean {
  return loaded.kind === 'module' && !featuresOf(loaded.module).subscriptions;
}

/** The client's cells in table order: every condition, or once for a poller. */
export function clientStrategyCells(loaded: LoadedClient): ClientStrategyCell[] {
  if (polls(loaded)) return [{ condition: { duplicateRatePercent: 0, dropRatePercent: 0 }, conditionName: pollingConditionName }];
  return strategyConditions.map((condition) => ({ condition, conditionName: conditionName(condition) }));
}

/** Runs interleavings [0, interleavings) of the client's cell `index` (seed i = deriveSeed(seed, i)). */
export async function runClientStrategyCell(loaded: LoadedClient, index: number, seed: number, interleavings: number): Promise<StrategyRow> {
  const cell = clientStrategyCells(loaded)[index];
  if (cell === undefined) throw new RangeError(`strategy benchmark: ${clientStrategyName(loaded)} has no cell ${index}`);
  const scenario = strategyScenario(cell.condition);
  const sums = emptySums();
  const options = { trace: false, record: false };
  if (loaded.kind === 'reducer') {
    for (let i = 0; i < interleavings; i++) foldInterleaving(sums, runInterleaving(deriveSeed(seed, i), scenario, loaded.reducer, options));
  } else {
    const applicable = moduleApplicability(scenario, loaded.module).scenario;
    for (let i = 0; i < interleavings; i++) foldInterleaving(sums, await runModuleInterleaving(deriveSeed(seed, i), applicable, loaded.module, options));
  }
  return rowOf(clientStrategyName(loaded), polls(loaded), cell, sums);
}
