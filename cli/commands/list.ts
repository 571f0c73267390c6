/** `fencesim list`: scenarios, clients, faults and invariants, one line each, in sections. */
import { scenarios } from '../../scenarios/catalog.js';
import { clients } from '../../scenarios/clients.js';
import { faultDescriptions, faultNames } from '../../sim/faults.js';
import { allInvariants, invariantExplanations, safetyInvariants } from '../../sim/oracle.js';
import { parseOptions } from '../args.js';
import { columns } from '../format.js';
import type { Io } from '../io.js';

export async function listCommand(argv: readonly string[], io: Io): Promise<number> {
  parseOptions('list', argv, {});
  const lines = [
    'scenarios (name, description, targets, catches):',
    ...columns(scenarios.map((scenario) => [
      scenario.name,
      `${scenario.description}; targets: ${scenario.targets.join(', ')}; catches: ${scenario.catches.join(', ') || 'none'}`,
    ])),
    '',
    'clients:',
    ...columns(clients.map((client) => [client.name, client.description])),
    '',
    'faults (name, description; injected over both transports, the 2026-07-28 ones over the pure transport only):',
    ...columns(faultNames.map((name) => [name, faultDescriptions[name]])),
    '',
    'invariants (name, kind, what a violation means):',
    ...columns(allInvariants.map((name) => [name, (safetyInvariants as readonly string[]).includes(name) ? 'safety' : 'liveness', invariantExplanations[name]])),
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}
