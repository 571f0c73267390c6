/**
 * What `replay` and `shrink` run: one interleaving given either by its seed (`--seed --scenario --client`)
 * or by a replay file (`--file`, scenario and client from the file's runSpec, `--client` may override).
 * Every problem with the input (unreadable, corrupted, truncated, wrong schema, out-of-range value, unknown
 * scenario or client, a replay that diverges from its decisions) is a UsageError naming it: exit 2.
 */
import { readFile } from 'node:fs/promises';
import type { ClientUnderTest } from '../core/types.js';
import { findScenario, scenarioNames } from '../scenarios/catalog.js';
import { clientNames, findClient } from '../scenarios/clients.js';
import type { Scenario } from '../scenarios/scenario.js';
import { ReplayDivergence, type Decision } from '../sim/chooser.js';
import type { InvariantName } from '../sim/oracle.js';
import { parseReplay, replayProblem, type ReplayFile } from '../sim/replay-file.js';
import { runInterleaving, type InterleavingOptions, type InterleavingResult } from '../sim/world.js';
import { UsageError } from './args.js';

/** One interleaving to run: from a seed, or from a file's decisions. */
export interface RunInput {
  seed: number;
  scenario: Scenario;
  client: ClientUnderTest<any>;
  /** The replay file, when given; its decisions replace the seed's draws. */
  file: { path: string; content: ReplayFile } | null;
  /** True when `--client` replays a file's schedule against a different client (lenient replay). */
  clientOverridden: boolean;
}

interface InputOptions {
  seed?: number;
  scenario?: Scenario;
  client?: ClientUnderTest<any>;
  file?: string;
}

export async function resolveRunInput(command: string, options: InputOptions): Promise<RunInput> {
  if (options.file === undefined) {
    for (const name of ['seed', 'scenario', 'client'] as const) {
      if (options[name] === undefined) throw new UsageError(`missing required option --${name} (or give --file replay.json)`, command);
    }
    return { seed: options.seed!, scenario: options.scenario!, client: options.client!, file: null, clientOverridden: false };
  }
  if (options.seed !== undefined || options.scenario !== undefined) {
    throw new UsageError('--file takes the seed and the scenario from the file: give --file without --seed and --scenario', command);
  }
  const content = await loadReplayFile(command, options.file);
  const scenario = findScenario(content.runSpec.scenario);
  if (scenario === undefined) {
    throw new UsageError(`--file ${options.file}: runSpec.scenario ${JSON.stringify(content.runSpec.scenario)} is not a known scenario (known: ${scenarioNames().join(', ')})`, command);
  }
  const fileClient = findClient(content.runSpec.client);
  if (fileClient === undefined && options.client === undefined) {
    throw new UsageError(`--file ${options.file}: runSpec.client ${JSON.stringify(content.runSpec.client)} is not a known client (known: ${clientNames().join(', ')}; --client overrides it)`, command);
  }
  const client = options.client ?? fileClient!;
  return {
    seed: content.runSpec.seed ?? 0, // informational: the decisions alone determine the run
    scenario,
    client,
    file: { path: options.file, content },
    clientOverridden: client.name !== content.runSpec.client,
  };
}

export async function loadReplayFile(command: string, path: string): Promise<ReplayFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--file ${path}: cannot read it: ${error instanceof Error ? error.message : String(error)}`, command);
  }
  const parsed = parseReplay(text);
  if (!parsed.ok) throw new UsageError(`--file ${path}: ${parsed.problem}`, command);
  return parsed.file;
}

/**
 * Runs the input once, recording its decisions. A file replays strictly (its own client) or leniently (an
 * overriding client); a strict replay that diverges from the file is a UsageError naming the decision.
 */
export function runInput(command: string, input: RunInput, trace: boolean, stopAtInvariant: InvariantName | null): InterleavingResult {
  const options: InterleavingOptions = { trace, record: true, stopAtInvariant };
  if (input.file === null) return runInterleaving(input.seed, input.scenario, input.client, options);
  const decisions = input.file.content.decisions;
  const lenient = (): InterleavingResult => runInterleaving(input.seed, input.scenario, input.client, { ...options, replay: { decisions, strict: false } });
  if (input.clientOverridden) return lenient();
  let result: InterleavingResult;
  try {
    result = runInterleaving(input.seed, input.scenario, input.client, { ...options, replay: { decisions, strict: true } });
  } catch (error) {
    if (!(error instanceof ReplayDivergence)) throw error;
    // The strict replay stopped at a label; a lenient one shows whether an earlier value was already off.
    const problem = replayProblem(decisions, lenient().decisions!) ?? error.message;
    throw new UsageError(divergenceText(input.file.path, problem), command);
  }
  const problem = replayProblem(decisions, result.decisions!);
  if (problem !== null) throw new UsageError(divergenceText(input.file.path, problem), command);
  return result;
}

export function divergenceText(path: string, problem: string): string {
  return `--file ${path}: ${problem} (the simulator, the scenario or the client changed since the file was written, or the file was edited)`;
}

/** The first decision where a lenient replay's labels part from the file's (for a note), or null. */
export function firstLabelDifference(file: readonly Decision[], consumed: readonly Decision[]): string | null {
  const length = Math.min(file.length, consumed.length);
  for (let index = 0; index < length; index++) {
    if (file[index]!.label !== consumed[index]!.label) {
      return `decision ${index}: the file has "${file[index]!.label}", this client's run asked for "${consumed[index]!.label}"`;
    }
  }
  return null;
}
