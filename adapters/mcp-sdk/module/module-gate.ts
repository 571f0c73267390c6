/**
 * The release gate of a module client: the same interleavings, seeds and accumulator as every gate, each
 * interleaving run by the module world, with the scenario as it applies to the client's claimed features
 * (sim/applicability.ts). The determinism self-check runs sampled interleavings twice and names the first
 * timeline line where they differ.
 */
import type { Scenario } from '../../../scenarios/scenario.js';
import { applicabilityOf, type Applicability } from '../../../sim/applicability.js';
import type { DeterminismCheck } from '../../../sim/determinism.js';
import type { GateAccumulator, ProgressSink, RunSpec } from '../../../sim/gate.js';
import { featuresOf, type ModuleClient } from './contract.js';
import { runModuleInterleaving } from './module-world.js';
import { asyncSelfCheck, runAsyncRange, type AsyncInterleaving } from '../sim/sdk-gate.js';

/** `scenario` as it applies to `client` (faults of unclaimed features off, and those of the step interface). */
export function moduleApplicability(scenario: Scenario, client: ModuleClient): Applicability {
  return applicabilityOf(scenario, { ...featuresOf(client), stepInterface: false });
}

function interleavingOf(scenario: Scenario, client: ModuleClient): AsyncInterleaving {
  const applicable = moduleApplicability(scenario, client).scenario;
  return (seed, options) => runModuleInterleaving(seed, applicable, client, options);
}

export function runModuleRange(spec: RunSpec, scenario: Scenario, client: ModuleClient, start: number, end: number, progress?: ProgressSink): Promise<GateAccumulator> {
  return runAsyncRange(spec, interleavingOf(scenario, client), start, end, progress);
}

export function moduleSelfCheck(rootSeed: number, scenario: Scenario, client: ModuleClient, indices: readonly number[], ratioPercent: number): Promise<DeterminismCheck> {
  return asyncSelfCheck(rootSeed, interleavingOf(scenario, client), indices, ratioPercent);
}
