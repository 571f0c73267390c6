/**
 * `fencesim replay`: re-run exactly one interleaving by its own seed (the seed in a failure's replay
 * command, not the gate's root seed) with the timeline on, and print header, timeline and verdict.
 */
import { allInvariants, invariantExplanations } from '../../sim/oracle.js';
import { formatSeed } from '../../sim/prng.js';
import { runInterleaving, type InterleavingResult } from '../../sim/world.js';
import { parseOptions, requireOptions } from '../args.js';
import { columns, grouped } from '../format.js';
import type { Io } from '../io.js';

export const replayOptions = { seed: 'seed', scenario: 'scenario', client: 'client' } as const;

export async function replayCommandRun(argv: readonly string[], io: Io): Promise<number> {
  const options = parseOptions('replay', argv, replayOptions);
  requireOptions('replay', options, ['seed', 'scenario', 'client']);
  const scenario = options.scenario!;
  const client = options.client!;
  const result = runInterleaving(options.seed!, scenario, client, { trace: true, record: false });
  io.stdout(`${headerLines(result, scenario.name, client.name).join('\n')}\n`);
  io.stdout(`timeline:\n${(result.timeline ?? []).join('\n')}\n`);
  io.stdout(`${verdictLines(result).join('\n')}\n`);
  return result.oracle.violations.length > 0 ? 1 : 0;
}

function headerLines(result: InterleavingResult, scenario: string, client: string): string[] {
  const workload = result.plan.workload;
  const rows = [
    ['seed', formatSeed(result.seed)],
    ['scenario', scenario],
    ['client', client],
    ['fault plan', JSON.stringify(result.plan.faults)],
    ['resources', workload.resources.map((resource) => resource.uri).join(', ')],
    ['phases', `faults for ${workload.faultPhaseMs} ms, then heal for ${workload.healPhaseMs} ms`],
    ['run', `${grouped(result.events)} events, ${grouped(result.steps)} client steps, trace hash 0x${result.traceHash.toString(16).padStart(8, '0')}`],
  ];
  return ['fencesim replay', ...columns(rows)];
}

function verdictLines(result: InterleavingResult): string[] {
  const first = result.oracle.violations[0];
  if (first === undefined) return ['verdict: no violation'];
  return [
    `verdict: VIOLATION ${first.invariant} at ${first.timeMs} ms on ${first.uri}`,
    `  detail: ${first.detail}`,
    `  meaning: ${invariantExplanations[first.invariant]}`,
    `  violations in this interleaving: ${countsText(result)}`,
  ];
}

function countsText(result: InterleavingResult): string {
  const counts = result.oracle.counts;
  const parts: string[] = [];
  allInvariants.forEach((name, index) => {
    if (counts[index]! > 0) parts.push(`${name} ${counts[index]}`);
  });
  return parts.join(', ');
}
