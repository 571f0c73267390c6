/**
 * `--protocol 2025-11-25|2026-07-28|both` (gate, replay, shrink, bench): which MCP era the interleavings
 * speak. The era is a property of the scenario (sim/scenario.ts `era`), so the flag picks the era's
 * default scenario when none is named, and refuses a named scenario of another era. Without the flag the
 * protocol is `both` (`protocolDefault`): a command without --scenario runs era-both, where each
 * interleaving draws its era from its own seed, so a printed replay (`--seed S --scenario era-both`) and
 * a replay file (runSpec.scenario and the era decision among its decisions) reproduce the era it drew. A
 * named --scenario without --protocol runs as named, whatever its era. Module clients (`--client ./x.mjs`
 * with a module client default export) run on either era too (2026-07-28: an SDK v2 server per connection,
 * listens followed by the black-box observer, adapters/mcp-sdk/v2/module-era2026.ts); without --protocol
 * and --scenario they keep their 2025-11-25 default (swarm). The interop pairs pin the SDK of both ends, so
 * a module client (which brings its own) is refused on them. `--transport sdk` runs each interleaving on
 * its era's SDK (2026-07-28: SDK v2 on both ends).
 */
import type { Scenario } from '../scenarios/scenario.js';
import { findScenario } from '../scenarios/catalog.js';
import type { Transport } from '../sim/gate.js';
import { stepInterfaceFaults } from '../sim/applicability.js';
import { UsageError, type ProtocolChoice } from './args.js';

/** The era of gate, replay, shrink and bench when --protocol is left out. */
export const protocolDefault: ProtocolChoice = 'both';

/** The default scenario of each era when the command's own default is a 2025-11-25 one. */
const eraDefaultScenario: Record<Exclude<ProtocolChoice, '2025-11-25'>, string> = { '2026-07-28': 'era2026-swarm', both: 'era-both' };

export function eraOfScenario(scenario: Scenario): ProtocolChoice {
  return scenario.era ?? '2025-11-25';
}

/** Who the scenario is for: a registry or reducer client, or a module client (every era; no interop pair). */
export type ProtocolClientKind = 'reducer' | 'module';

/**
 * The scenario a command runs: `named` (--scenario) or the command's default for `protocol` (--protocol,
 * else `protocolDefault`; 2025-11-25 for a module client), checked against `protocol` and `transport`.
 * `defaultName` is the command's 2025-11-25 default. Every refusal is a UsageError (exit 2) naming both sides.
 */
export function scenarioForProtocol(
  named: Scenario | undefined,
  protocol: ProtocolChoice | undefined,
  defaultName: string,
  transport: Transport | undefined,
  command: string,
  clientKind: ProtocolClientKind = 'reducer',
): Scenario {
  const chosen = protocol ?? (clientKind === 'module' ? '2025-11-25' : protocolDefault);
  const scenario = named ?? findScenario(chosen === '2025-11-25' ? defaultName : eraDefaultScenario[chosen])!;
  const era = eraOfScenario(scenario);
  if (protocol !== undefined && era !== protocol) {
    throw new UsageError(`--protocol ${protocol}: scenario ${scenario.name} speaks ${era}; pick a ${protocol} scenario (fencesim list) or leave out --scenario`, command);
  }
  if (scenario.sdkPair !== undefined && transport !== 'sdk') {
    throw new UsageError(`scenario ${scenario.name} is an interop pair (an SDK ${scenario.sdkPair.client} client against an SDK ${scenario.sdkPair.server} server): it runs only with --transport sdk`, command);
  }
  if (clientKind === 'module' && scenario.sdkPair !== undefined) {
    throw new UsageError(`scenario ${scenario.name} is an interop pair: it pins the SDK of the client end (${scenario.sdkPair.client}), and a module client brings its own; gate a module client on a 2025-11-25 or 2026-07-28 scenario`, command);
  }
  const stepOnly = scenario.sometimes.find((fault) => stepInterfaceFaults.includes(fault));
  if (transport === 'sdk' && stepOnly !== undefined) {
    throw new UsageError(
      `scenario ${scenario.name} makes ${stepOnly}, which is judged on the step interface only: ${stepOnlyReason(stepOnly)}; run it without --transport sdk`,
      command,
    );
  }
  return scenario; // --transport sdk runs 2026-07-28 over SDK v2 and 2025-11-25 over SDK 1.x (adapters/mcp-sdk/v2/v2-sim-world.ts)
}

/** Why a step-interface fault cannot run over the SDK. */
function stepOnlyReason(fault: string): string {
  return fault === 'malformed-input'
    ? 'the harness hands a step client inputs with malformed fields through its step function, and over the SDK the client is driven by real JSON-RPC messages the SDK validates first'
    : 'over the SDK, an answer that breaks the JSON-RPC envelope is dropped by the SDK and its read hangs until the request timeout (the 2025-11-25 core gives reads no deadline)';
}
