/**
 * `fencesim replay` and `fencesim shrink` for a module client (`--client ./x.mjs`, or a replay file whose
 * runSpec.client is a module path): one interleaving by its seed or a file's decisions (replayed exactly when
 * the file was recorded against this client, else leniently as a schedule), on the scenario as it applies
 * to the client's claimed features. The timeline is shown cut at the first violation and focused on its
 * resource; the exit code is 1 when the run violates an invariant.
 */
import { resolve } from 'node:path';
import { featuresOf, type ModuleClient } from '../adapters/mcp-sdk/module/contract.js';
import { moduleApplicability } from '../adapters/mcp-sdk/module/module-gate.js';
import { shrinkModuleFailure } from '../adapters/mcp-sdk/module/module-shrink.js';
import { runModuleInterleaving } from '../adapters/mcp-sdk/module/module-world.js';
import type { Scenario } from '../scenarios/scenario.js';
import { ReplayDivergence, type Decision } from '../sim/chooser.js';
import type { InterleavingResult } from '../sim/kernel/interleaving.js';
import { invariantExplanations, type InvariantName } from '../sim/oracle.js';
import { formatSeed } from '../sim/prng.js';
import { replayProblem, replaySchema, serializeReplay } from '../sim/replay-file.js';
import { violationTimeline } from '../sim/timeline-focus.js';
import { writeFileAtomic } from '../reports/atomic-file.js';
import { findScenario, scenarioNames } from '../scenarios/catalog.js';
import { UsageError } from './args.js';
import { isModulePath, loadClientModule, type LoadedClient } from './client-module.js';
import { divergenceText, loadReplayFile } from './replay-input.js';
import { columns, grouped } from './format.js';
import type { Io } from './io.js';
import { moduleShrinkAttemptsMax } from './module-gate.js';
import { shrinkLimitsDefault } from './shrinking.js';
import { shrinkStopText } from '../sim/shrink.js';

export interface ModuleRunInput {
  seed: number;
  scenario: Scenario;
  /** The path as given (what runSpec.client holds). */
  path: string;
  client: ModuleClient;
  decisions: readonly Decision[] | null;
  /** Where the decisions came from (a replay file), or null for a seed. */
  file: string | null;
  /** The file was recorded against this client: it must replay exactly (else it is a schedule for another client). */
  strict: boolean;
}

/**
 * Runs the input once. A file recorded against this client replays strictly: a run that asks for another
 * decision than the file's, or leaves some unconsumed, is a UsageError naming the first divergent decision
 * (exit 2, as for reducer files); a file recorded against another client is a schedule, replayed leniently.
 */
async function runOnce(input: ModuleRunInput, trace: boolean, command: string): Promise<InterleavingResult> {
  const scenario = moduleApplicability(input.scenario, input.client).scenario;
  const decisions = input.decisions;
  const run = (strict: boolean) => runModuleInterleaving(input.seed, scenario, input.client, { trace, record: true, ...(decisions === null ? {} : { replay: { decisions, strict } }) });
  if (decisions === null || !input.strict) return run(false);
  let result: InterleavingResult;
  try {
    result = await run(true);
  } catch (error) {
    if (!(error instanceof ReplayDivergence)) throw error;
    const problem = replayProblem(decisions, (await run(false)).decisions!) ?? error.message;
    throw new UsageError(divergenceText(input.file!, problem), command);
  }
  const problem = replayProblem(decisions, result.decisions!);
  if (problem !== null) throw new UsageError(divergenceText(input.file!, problem), command);
  return result;
}

function headerRows(input: ModuleRunInput, result: InterleavingResult | null): string[][] {
  const claimed = Object.entries(featuresOf(input.client)).filter(([, on]) => on).map(([name]) => name);
  return [
    ...(input.file === null ? [] : [['file', `${input.file} (${input.decisions!.length} decisions, replayed ${input.strict ? 'exactly' : `leniently: recorded against another client`})`]]),
    ['seed', formatSeed(input.seed)],
    ['scenario', input.scenario.name],
    ['client', `${input.path} (module client ${input.client.name}: claims ${claimed.join(', ') || 'nothing'})`],
    ...(result === null ? [] : [['fault plan', JSON.stringify(result.plan.faults)], ['run', `${grouped(result.events)} events, trace hash 0x${result.traceHash.toString(16).padStart(8, '0')}`]]),
  ];
}

/** The timeline cut at the first violation of `invariant` (or the first one) and focused on its resource. */
function shownTimeline(result: InterleavingResult, invariant: InvariantName | null): { lines: string[]; hidden: number } {
  const violation = (invariant === null ? undefined : result.oracle.violations.find((entry) => entry.invariant === invariant)) ?? result.oracle.violations[0];
  if (violation === undefined) return { lines: result.timeline ?? [], hidden: 0 };
  return violationTimeline(result.timelineEntries ?? [], violation.invariant, violation.uri, result.plan.workload.resources.map((resource) => resource.uri));
}

/** `full`: the whole timeline, every resource and every line (for tracing what the focused one folds away). */
export async function moduleReplay(input: ModuleRunInput, invariant: InvariantName | null, io: Io, full = false): Promise<number> {
  const result = await runOnce(input, true, 'replay');
  const timeline = full ? { lines: result.timeline ?? [], hidden: 0 } : shownTimeline(result, invariant);
  const violation = result.oracle.violations[0];
  const shown = violation === undefined ? '' : full ? ' (whole run, every resource)' : ` up to the first violation, focused on ${violation.uri} (${timeline.hidden} lines about other resources hidden; --full shows all)`;
  const lines = [
    'fencesim replay',
    ...columns(headerRows(input, result)),
    `timeline${shown}:`,
    ...timeline.lines,
    violation === undefined ? 'verdict: no violation' : `verdict: VIOLATION ${violation.invariant} at ${violation.timeMs} ms on ${violation.uri}\n  detail: ${violation.detail}\n  meaning: ${invariantExplanations[violation.invariant]}`,
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return violation === undefined ? 0 : 1;
}

export async function moduleShrink(input: ModuleRunInput, asked: InvariantName | undefined, out: string, limits: { budgetMs?: number; attemptsMax?: number }, io: Io): Promise<number> {
  const recorded = await runOnce(input, false, 'shrink');
  const violated = recorded.oracle.violations.map((entry) => entry.invariant);
  if (asked !== undefined && !violated.includes(asked)) throw new UsageError(`--invariant ${asked}: this interleaving does not violate ${asked}`, 'shrink');
  const invariant = asked ?? violated[0] ?? null;
  io.stdout(`${['fencesim shrink', ...columns([...headerRows(input, null), ['invariant', invariant ?? '(none violated)']])].join('\n')}\n`);
  if (invariant === null) {
    io.stdout('nothing to shrink: this interleaving violates no invariant\n');
    return 0;
  }
  const startMs = io.nowMs();
  const budgetMs = limits.budgetMs ?? shrinkLimitsDefault.budgetMs;
  const applicable = moduleApplicability(input.scenario, input.client).scenario;
  const shrunk = await shrinkModuleFailure(input.seed, applicable, input.client, invariant, { attemptsMax: limits.attemptsMax ?? moduleShrinkAttemptsMax, shouldStop: () => io.nowMs() - startMs > budgetMs });
  if (!shrunk.reproduced) {
    io.stderr(`fencesim shrink: replaying the recorded decisions did not reproduce ${invariant}: the client or the simulator is not deterministic\n`);
    return 4;
  }
  await writeFileAtomic(out, serializeReplay({ schema: replaySchema, runSpec: { seed: input.seed, scenario: input.scenario.name, client: input.path }, invariant, decisions: shrunk.decisions })).catch((error: unknown) => {
    throw new UsageError(`--out: cannot write the replay file ${JSON.stringify(out)}: ${error instanceof Error ? error.message : String(error)}`, 'shrink');
  });
  io.stdout(
    [
      `shrunk ${invariant} from ${shrunk.decisionsBefore} to ${shrunk.decisions.length} decisions with ${shrunk.attempts} replays (${shrunk.complete ? 'complete' : `stopped by ${shrinkStopText(shrunk.stoppedBy)}`})`,
      `minimal timeline (${shrunk.timeline.hidden} lines about other resources hidden):`,
      ...shrunk.timeline.lines,
      `${invariant}: ${invariantExplanations[invariant]}`,
      `wrote ${out} (${shrunk.decisions.length} decisions)`,
      `replay it: npx fencesim replay --file ${out}`,
      '',
    ].join('\n'),
  );
  return 1;
}

/** Do two client paths name one file (`./x.mjs` and its absolute path, say), resolved against the working directory? */
function sameFile(a: string, b: string): boolean {
  return resolve(a) === resolve(b);
}

/**
 * The module client run `replay`/`shrink` asks for, or null when the client is not a module client: given by
 * `--client PATH` (with --seed and --scenario, or a --file schedule), or by a file whose runSpec.client is a path
 * when no `--client` names another (a registry client: `options.client`, which then replays the file's schedule).
 */
export async function moduleRunInput(
  command: string,
  options: { seed?: number; scenario?: Scenario; file?: string; client?: unknown },
  loaded: LoadedClient | null,
): Promise<{ input: ModuleRunInput; invariant: InvariantName | null } | null> {
  if (options.file === undefined) {
    if (loaded?.kind !== 'module') return null;
    for (const name of ['seed', 'scenario'] as const) {
      if (options[name] === undefined) throw new UsageError(`missing required option --${name} (or give --file replay.json)`, command);
    }
    return { input: { seed: options.seed!, scenario: options.scenario!, path: loaded.path, client: loaded.module, decisions: null, file: null, strict: false }, invariant: null };
  }
  if (loaded !== null && loaded.kind !== 'module') return null;
  if (loaded === null && options.client !== undefined) return null; // --client NAME: the reducer path replays the schedule
  if (options.seed !== undefined || options.scenario !== undefined) {
    if (loaded === null) return null; // the reducer path reports it, in its order
    throw new UsageError('--file takes the seed and the scenario from the file: give --file without --seed and --scenario', command);
  }
  // Without --client, only a readable file naming a module path is ours; every other problem is the reducer path's to report.
  const content = loaded !== null ? await loadReplayFile(command, options.file) : await loadReplayFile(command, options.file).catch(() => null);
  if (content === null) return null;
  const client = loaded ?? (isModulePath(content.runSpec.client) ? await loadClientModule(content.runSpec.client, command) : null);
  if (client?.kind !== 'module') return null;
  const scenario = findScenario(content.runSpec.scenario);
  if (scenario === undefined) throw new UsageError(`--file ${options.file}: runSpec.scenario ${JSON.stringify(content.runSpec.scenario)} is not a known scenario (known: ${scenarioNames().join(', ')})`, command);
  return {
    input: { seed: content.runSpec.seed ?? 0, scenario, path: client.path, client: client.module, decisions: content.decisions, file: options.file, strict: loaded === null || sameFile(loaded.path, content.runSpec.client) },
    invariant: (content.invariant ?? null) as InvariantName | null,
  };
}
