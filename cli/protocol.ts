/**
 * `--protocol 2025-11-25|2026-07-28|both` (gate, replay, shrink, bench): which MCP era the interleavings
 * speak. The era is a property of the scenario (sim/scenario.ts `era`), so the flag picks the era's
 * default scenario when none is named, and refuses a named scenario of another era. Without the flag
 * nothing changes: the default stays 2025-11-25 (the 2025 golden traces hold). `--transport sdk` runs
 * each interleaving on its era's SDK (2026-07-28: SDK v2 on both ends).
 */
import type { Scenario } from '../scenarios/scenario.js';
import { findScenario } from '../scenarios/catalog.js';
import type { Transport } from '../sim/gate.js';
import { UsageError, type ProtocolChoice } from './args.js';

/** The default scenario of each era when the command's own default is a 2025-11-25 one. */
const eraDefaultScenario: Record<Exclude<ProtocolChoice, '2025-11-25'>, string> = { '2026-07-28': 'era2026-swarm', both: 'era-both' };

export function eraOfScenario(scenario: Scenario): ProtocolChoice {
  return scenario.era ?? '2025-11-25';
}

/**
 * The scenario a command runs: `named` (--scenario) or the command's default, checked against
 * `protocol` (--protocol) and `transport`. Every refusal is a UsageError (exit 2) naming both sides.
 */
export function scenarioForProtocol(named: Scenario | undefined, protocol: ProtocolChoice | undefined, defaultName: string, transport: Transport | undefined, command: string): Scenario {
  let scenario = named ?? findScenario(defaultName)!;
  if (named === undefined && protocol !== undefined && protocol !== '2025-11-25') scenario = findScenario(eraDefaultScenario[protocol])!;
  const era = eraOfScenario(scenario);
  if (protocol !== undefined && era !== protocol) {
    throw new UsageError(`--protocol ${protocol}: scenario ${scenario.name} speaks ${era}; pick a ${protocol} scenario (fencesim list) or leave out --scenario`, command);
  }
  return scenario; // --transport sdk runs 2026-07-28 over SDK v2 and 2025-11-25 over SDK 1.x (adapters/mcp-sdk/v2/v2-sim-world.ts)
}
