/**
 * What the SDK transport (`--transport sdk`) can run. Kept free of SDK imports, so the CLI can check a
 * scenario before it loads the SDK.
 */
import { scenarios } from '../../scenarios/catalog.js';
import type { Scenario } from '../../scenarios/scenario.js';
import type { FaultName } from '../../sim/faults.js';

/** Faults the SDK transport cannot inject yet; a plan that switches one on is refused. */
export const sdkUnsupportedFaults: readonly FaultName[] = [];

/**
 * Scenarios whose plans only switch on faults the SDK transport injects: every scenario but client-crash
 * and swarm (which may draw client-crash); sdk-swarm is swarm without it.
 */
export const sdkScenarioNames: readonly string[] = scenarios
  .filter((scenario) => !scenario.sometimes.some((fault) => sdkUnsupportedFaults.includes(fault)))
  .map((scenario) => scenario.name);

/** Why `scenario` cannot run over the SDK transport, or null when it can. */
export function sdkScenarioProblem(scenario: Scenario): string | null {
  if (sdkScenarioNames.includes(scenario.name)) return null;
  const faults = scenario.sometimes.filter((fault) => sdkUnsupportedFaults.includes(fault));
  const why = faults.length > 0 ? `its plans may switch on ${faults.join(', ')}, which the SDK transport cannot inject yet` : 'it is not known to run over the SDK transport';
  return `scenario ${scenario.name} cannot run with --transport sdk: ${why}; scenarios that can: ${sdkScenarioNames.join(', ')}`;
}
