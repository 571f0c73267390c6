/**
 * `fencesim shrink`: record one failing interleaving's decisions (from its seed, or from a replay file),
 * shrink them while the SAME invariant still fails, print the minimal timeline and write the minimal
 * replay file. Exit 1 with a failing minimal replay, 0 when the run does not fail (nothing to shrink),
 * 2 on bad input.
 */
import { invariantExplanations, type InvariantName } from '../../sim/oracle.js';
import { formatSeed } from '../../sim/prng.js';
import { parseOptions, UsageError } from '../args.js';
import { columns } from '../format.js';
import type { Io } from '../io.js';
import { resolveRunInput, runInput } from '../replay-input.js';
import { applicabilityOf, reducerClaims } from '../../sim/applicability.js';
import { takeClientModule } from '../client-module.js';
import { moduleRunInput, moduleShrink } from '../module-replay.js';
import { scenarioForProtocol } from '../protocol.js';
import { shrinkLimitsDefault, shrinkSummaryLines, shrinkWithBudget, writeReplayFile } from '../shrinking.js';

export const shrinkOptions = {
  seed: 'seed',
  scenario: 'scenario',
  client: 'client',
  file: 'file',
  out: 'file',
  invariant: 'invariant',
  'budget-ms': 'milliseconds',
  attempts: 'count',
  protocol: 'protocol',
} as const;

export const shrinkOutDefault = './fencesim-shrunk.json';

export async function shrinkCommand(argv: readonly string[], io: Io): Promise<number> {
  const taken = await takeClientModule(argv, 'shrink');
  const options = parseOptions('shrink', taken.argv, shrinkOptions);
  const module = await moduleRunInput('shrink', options, taken.loaded);
  if (module !== null) return moduleShrink(module.input, options.invariant, options.out ?? shrinkOutDefault, { budgetMs: options['budget-ms'], attemptsMax: options.attempts }, io);
  if (taken.loaded?.kind === 'reducer') options.client = taken.loaded.reducer;
  const input = await resolveRunInput('shrink', options);
  if (taken.loaded?.kind === 'reducer') input.scenario = applicabilityOf(input.scenario, reducerClaims(input.client)).scenario; // as the gate ran it
  scenarioForProtocol(input.scenario, options.protocol, input.scenario.name, undefined, 'shrink');
  const out = options.out ?? shrinkOutDefault;
  // A file that names its invariant was recorded up to that violation; replay it the same way.
  const recorded = runInput('shrink', input, false, options.invariant ?? ((input.file?.content.invariant ?? null) as InvariantName | null));
  const invariant = chooseInvariant(options.invariant, recorded.oracle.violations.map((violation) => violation.invariant));
  const source = input.file === null ? `seed ${formatSeed(input.seed)}` : `${input.file.path}`;
  const header = [
    'fencesim shrink',
    ...columns([
      ['input', source],
      ['seed', formatSeed(input.seed)],
      ['scenario', input.scenario.name],
      ['protocol', recorded.plan.era2026 === undefined ? '2025-11-25' : '2026-07-28'],
      ['client', `${input.client.name}${input.clientOverridden ? ` (the file's schedule was recorded against ${input.file!.content.runSpec.client})` : ''}`],
      ['invariant', invariant === null ? '(none violated)' : `${invariant}${options.invariant === undefined ? ' (the first violation of the run)' : ''}`],
    ]),
  ];
  io.stdout(`${header.join('\n')}\n`);
  if (invariant === null) {
    io.stdout('nothing to shrink: this interleaving violates no invariant\n');
    return 0;
  }
  const limits = { budgetMs: options['budget-ms'] ?? shrinkLimitsDefault.budgetMs, attemptsMax: options.attempts ?? shrinkLimitsDefault.attemptsMax };
  const shrunk = shrinkWithBudget(input.seed, input.scenario, input.client, recorded.decisions!, invariant, limits, io);
  if (!shrunk.result.reproduced) {
    io.stderr(`fencesim shrink: replaying the recorded decisions did not reproduce ${invariant}: the client or the simulator is not deterministic\n`);
    return 4;
  }
  await writeReplayFile('shrink', 'out', out, shrunk);
  const lines = [
    ...shrinkSummaryLines(shrunk),
    'minimal timeline:',
    ...shrunk.timeline.lines,
    `${invariant}: ${invariantExplanations[invariant]}`,
    `wrote ${out} (${shrunk.result.decisions.length} decisions)`,
    `replay it: npx fencesim replay --file ${out}`,
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return 1;
}

function chooseInvariant(asked: InvariantName | undefined, violated: readonly InvariantName[]): InvariantName | null {
  if (asked === undefined) return violated[0] ?? null;
  if (violated.includes(asked)) return asked;
  const seen = violated.length === 0 ? 'it violates none' : `it violates ${[...new Set(violated)].join(', ')}`;
  throw new UsageError(`--invariant ${asked}: this interleaving does not violate ${asked} (${seen})`, 'shrink');
}
