/**
 * Replay files: one interleaving as `{ schema: "fencesim.replay.v1", runSpec, decisions }`. The decision
 * list is the replay unit: replaying it strictly reproduces the run, or stops at the first decision whose
 * label differs (for example after a code change) and names it.
 */
import type { Decision } from './chooser.js';
import { allInvariants } from './oracle.js';

export const replaySchema = 'fencesim.replay.v1';

export interface ReplayRunSpec {
  /**
   * The interleaving seed the decisions were first drawn from: informational only, since every draw of a
   * run (jitter and cursor tokens included) is a decision. It may be left out.
   */
  seed?: number;
  scenario: string;
  client: string;
}

export interface ReplayFile {
  schema: typeof replaySchema;
  runSpec: ReplayRunSpec;
  /** The invariant this run violates, when it was written for a failure. */
  invariant: string | null;
  decisions: Decision[];
}

export type ReplayParse = { ok: true; file: ReplayFile } | { ok: false; problem: string };

export function serializeReplay(file: ReplayFile): string {
  const decisions = file.decisions.map((decision) => `    ${JSON.stringify([decision.label, decision.value, decision.range])}`);
  return [
    '{',
    `  "schema": ${JSON.stringify(file.schema)},`,
    `  "runSpec": ${JSON.stringify(file.runSpec)},`,
    `  "invariant": ${JSON.stringify(file.invariant)},`,
    `  "decisions": [${decisions.length === 0 ? ']' : `\n${decisions.join(',\n')}\n  ]`}`,
    '}',
    '',
  ].join('\n');
}

/** Parses and validates a replay file's text; the problem names the field or decision that is wrong. */
export function parseReplay(text: string): ReplayParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `not valid JSON (truncated or corrupted?): ${reason}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('the file must hold a JSON object');
  const object = value as Record<string, unknown>;
  if (object.schema !== replaySchema) {
    return fail(`schema must be "${replaySchema}", got ${JSON.stringify(object.schema) ?? 'nothing'}`);
  }
  const runSpec = object.runSpec as Record<string, unknown> | undefined;
  if (typeof runSpec !== 'object' || runSpec === null) return fail('runSpec must be an object');
  if (runSpec.seed !== undefined && (!Number.isInteger(runSpec.seed) || (runSpec.seed as number) < 0 || (runSpec.seed as number) > 0xffffffff)) {
    return fail('runSpec.seed must be an integer from 0 to 4294967295, or left out');
  }
  if (typeof runSpec.scenario !== 'string') return fail('runSpec.scenario must be a string');
  if (typeof runSpec.client !== 'string') return fail('runSpec.client must be a string');
  const invariant = object.invariant ?? null;
  if (invariant !== null && typeof invariant !== 'string') return fail('invariant must be a string or null');
  if (invariant !== null && !(allInvariants as readonly string[]).includes(invariant)) {
    return fail(`invariant ${JSON.stringify(invariant)} is not an invariant of this version (known: ${allInvariants.join(', ')})`);
  }
  if (!Array.isArray(object.decisions)) return fail('decisions must be an array');
  const decisions: Decision[] = [];
  for (let index = 0; index < object.decisions.length; index++) {
    const entry: unknown = object.decisions[index];
    if (!Array.isArray(entry) || entry.length !== 3) return fail(`decisions[${index}] must be [label, value, range]`);
    const [label, choice, range] = entry as unknown[];
    if (typeof label !== 'string') return fail(`decisions[${index}]: label must be a string`);
    if (!Number.isInteger(range) || (range as number) < 1) return fail(`decisions[${index}] (${label}): range must be a positive integer`);
    if (!Number.isInteger(choice) || (choice as number) < 0 || (choice as number) >= (range as number)) {
      return fail(`decisions[${index}] (${label}): value ${JSON.stringify(choice)} is outside [0, ${String(range)})`);
    }
    decisions.push({ label, value: choice as number, range: range as number });
  }
  return {
    ok: true,
    file: {
      schema: replaySchema,
      runSpec: { ...(runSpec.seed === undefined ? {} : { seed: runSpec.seed as number }), scenario: runSpec.scenario, client: runSpec.client },
      invariant: invariant as string | null,
      decisions,
    },
  };
}

function fail(problem: string): ReplayParse {
  return { ok: false, problem };
}

/**
 * The first way a run did not consume a file's decisions exactly, or null: a label that differs (the
 * chooser's ReplayDivergence), a value outside the range the code now draws from (a replaying chooser reads
 * it as 0), a range that changed, a run that needed more decisions than the file has, or decisions the
 * run never used. `consumed` is the decision log of a lenient replay of `file`, which matches a strict one
 * up to the first problem.
 */
export function replayProblem(file: readonly Decision[], consumed: readonly Decision[]): string | null {
  const length = Math.min(file.length, consumed.length);
  for (let index = 0; index < length; index++) {
    const expected = file[index]!;
    const actual = consumed[index]!;
    if (expected.label !== actual.label) {
      return `replay diverged at decision ${index}: the file has "${expected.label}", the code asked for "${actual.label}"`;
    }
    if (expected.value >= actual.range) {
      return `replay diverged at decision ${index} (${expected.label}): value ${expected.value} is outside [0, ${actual.range}), the range the code draws it from`;
    }
    if (expected.range !== actual.range) {
      return `replay diverged at decision ${index} (${expected.label}): the file drew it from [0, ${expected.range}), the code draws it from [0, ${actual.range})`;
    }
  }
  if (consumed.length > file.length) {
    return `replay diverged at decision ${file.length}: the file has no more decisions, the code asked for "${consumed[file.length]!.label}"`;
  }
  if (consumed.length < file.length) {
    return `replay diverged: the run ended after ${consumed.length} of the file's ${file.length} decisions (the first unused one is decision ${consumed.length}, "${file[consumed.length]!.label}")`;
  }
  return null;
}
