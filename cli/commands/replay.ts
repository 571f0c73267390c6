/**
 * `fencesim replay`: re-run exactly one interleaving with the timeline on, and print header, timeline and
 * verdict. The interleaving is given by its own seed (the seed in a failure's replay command, not the
 * gate's root seed), or by a replay file: its decisions are replayed strictly, and a run that diverges
 * from them stops with the decision index and both labels (exit 2). `--client` with `--file` replays the
 * file's schedule against another client, leniently (decisions are applied by position).
 */
import { allInvariants, invariantExplanations, type InvariantName } from '../../sim/oracle.js';
import { formatSeed } from '../../sim/prng.js';
import type { InterleavingResult } from '../../sim/world.js';
import { parseOptions, UsageError } from '../args.js';
import { columns, grouped } from '../format.js';
import type { Io } from '../io.js';
import { applicabilityOf, reducerClaims } from '../../sim/applicability.js';
import { takeClientModule } from '../client-module.js';
import { moduleReplay, moduleRunInput } from '../module-replay.js';
import { firstLabelDifference, resolveRunInput, runInput, type RunInput } from '../replay-input.js';
import { scenarioForProtocol } from '../protocol.js';

export const replayOptions = { seed: 'seed', scenario: 'scenario', client: 'client', file: 'file', transport: 'transport', protocol: 'protocol', full: 'flag' } as const;

export async function replayCommandRun(argv: readonly string[], io: Io): Promise<number> {
  const taken = await takeClientModule(argv, 'replay');
  const options = parseOptions('replay', taken.argv, replayOptions);
  if (options.transport === 'sdk' && options.file !== undefined) {
    throw new UsageError('--transport sdk replays an interleaving by --seed --scenario --client (replay files hold pure-transport decisions)', 'replay');
  }
  const module = await moduleRunInput('replay', options, taken.loaded);
  if (module !== null) return moduleReplay(module.input, module.invariant, io, options.full === true);
  if (taken.loaded?.kind === 'reducer') options.client = taken.loaded.reducer;
  const input = await resolveRunInput('replay', options);
  if (taken.loaded?.kind === 'reducer') input.scenario = applicabilityOf(input.scenario, reducerClaims(input.client)).scenario; // as the gate ran it
  scenarioForProtocol(input.scenario, options.protocol, input.scenario.name, options.transport, 'replay');
  const invariant = (input.file?.content.invariant ?? null) as InvariantName | null;
  const sdk = options.transport === 'sdk';
  const result = sdk ? await runOverSdk(input) : runInput('replay', input, true, invariant);
  io.stdout(`${headerLines(result, input, invariant, sdk).join('\n')}\n`);
  io.stdout(`timeline:\n${(result.timeline ?? []).join('\n')}\n`);
  io.stdout(`${verdictLines(result, invariant).join('\n')}\n`);
  return result.oracle.violations.length > 0 ? 1 : 0;
}

function headerLines(result: InterleavingResult, input: RunInput, invariant: InvariantName | null, sdk: boolean): string[] {
  const workload = result.plan.workload;
  const rows: string[][] = [];
  if (input.file !== null) {
    const file = input.file.content;
    rows.push(['file', `${input.file.path} (${file.decisions.length} decisions${invariant === null ? '' : `, violates ${invariant}; the run stops there`})`]);
    if (input.clientOverridden) {
      const difference = firstLabelDifference(file.decisions, result.decisions ?? []);
      rows.push(['schedule', `recorded against ${file.runSpec.client}, replayed leniently against ${input.client.name}${difference === null ? '' : `; it parts from the recording at ${difference}`}`]);
    }
  }
  rows.push(
    ['seed', formatSeed(result.seed)],
    ['scenario', input.scenario.name],
    ['protocol', `${result.plan.era2026 === undefined ? '2025-11-25' : '2026-07-28'}${input.scenario.era === 'both' ? ' (drawn by this interleaving)' : ''}`],
    ['client', input.client.name],
    ...(sdk ? [['transport', 'sdk (JSON-RPC between a real SDK Client and Server on virtual time)']] : []),
    ['fault plan', JSON.stringify(result.plan.faults)],
    ['resources', workload.resources.map((resource) => resource.uri).join(', ')],
    ['phases', `faults for ${workload.faultPhaseMs} ms, then heal for ${workload.healPhaseMs} ms`],
    ['run', `${grouped(result.events)} events, ${grouped(result.steps)} client steps, trace hash 0x${result.traceHash.toString(16).padStart(8, '0')}`],
  );
  return ['fencesim replay', ...columns(rows)];
}

/** The interleaving over the SDK transport (it runs every scenario: the actors see only the world port). */
async function runOverSdk(input: RunInput): Promise<InterleavingResult> {
  const { runSdkEraInterleaving } = await import('../../adapters/mcp-sdk/v2/v2-sim-world.js');
  return runSdkEraInterleaving(input.seed, input.scenario, input.client, { trace: true, record: true });
}

function verdictLines(result: InterleavingResult, invariant: InvariantName | null): string[] {
  const first = (invariant === null ? undefined : result.oracle.violations.find((violation) => violation.invariant === invariant)) ?? result.oracle.violations[0];
  if (first === undefined) return [invariant === null ? 'verdict: no violation' : `verdict: no violation (the file's ${invariant} did not occur)`];
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
