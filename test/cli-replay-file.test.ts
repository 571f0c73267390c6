/**
 * The decision log as the replay unit, through the command line: `shrink --out f.json` then
 * `replay --file f.json` reproduces the same invariant; bad files (corrupted, truncated, wrong schema,
 * out of range, diverging, unknown scenario or client) exit 2 naming the problem; the gate shrinks its
 * first failure into DIR/shrunk-<seed>.json and report.json.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { runRange } from '../sim/gate.js';
import { parseReplay, replaySchema } from '../sim/replay-file.js';
import { runCli } from './cli-io.js';

/** The wall clock: the shrink budget must not be hit by a fake clock. */
const realClock = { nowMs: () => performance.now() };
const scenarioName = 'read-race';
const clientName = 'naive-overwrite';

let scratch = '';
let seed = 0;
let invariant = '';
let shrunkPath = '';
let shrunkText = '';
let shrinkRun = { code: -1, stdout: '', stderr: '' };

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fencesim-replay-'));
  const failure = runRange({ seed: 11, interleavings: 20, scenario: scenarioName, client: clientName, maxFailures: 1 }, findScenario(scenarioName)!, findClient(clientName)!, 0, 20).failures[0]!;
  seed = failure.seed;
  invariant = failure.invariant;
  shrunkPath = join(scratch, 'shrunk.json');
  shrinkRun = await runCli(['shrink', '--seed', String(seed), '--scenario', scenarioName, '--client', clientName, '--out', shrunkPath], realClock);
  shrunkText = await readFile(shrunkPath, 'utf8');
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function fileWith(name: string, text: string): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, text);
  return path;
}

function shrunkJson(): { schema: string; runSpec: Record<string, unknown>; invariant: string; decisions: [string, number, number][] } {
  return JSON.parse(shrunkText);
}

describe('shrink, then replay the file', () => {
  it('shrink exits 1, prints the counts before and after, the replays, the minimal timeline and writes the file', () => {
    expect(shrinkRun.code).toBe(1);
    expect(shrinkRun.stdout).toMatch(new RegExp(`shrunk ${invariant} in \\d+ ms with \\d+ replays \\(complete`));
    expect(shrinkRun.stdout).toMatch(/decisions up to the violation: \d+ → \d+/);
    expect(shrinkRun.stdout).toMatch(/timeline lines up to the violation: \d+ → \d+/);
    expect(shrinkRun.stdout).toContain('minimal timeline:');
    expect(shrinkRun.stdout).toContain(`<== ${invariant}`);
    expect(shrinkRun.stdout).toContain(`replay it: npx fencesim replay --file ${shrunkPath}`);
    const parsed = parseReplay(shrunkText);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.file.schema).toBe(replaySchema);
      expect(parsed.file.runSpec).toEqual({ seed, scenario: scenarioName, client: clientName });
      expect(parsed.file.invariant).toBe(invariant);
    }
  });

  it('replay --file reproduces the same invariant (exit 1), stopping at it', async () => {
    const replay = await runCli(['replay', '--file', shrunkPath]);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(`verdict: VIOLATION ${invariant}`);
    expect(replay.stdout).toContain(`violates ${invariant}; the run stops there`);
    expect(replay.stdout.split('\n').filter((line) => line.trimStart().startsWith(`!! ${invariant}:`)).length).toBeGreaterThanOrEqual(1);
  });

  it('the decisions alone determine the run: with its seed removed or changed, the file replays identically', async () => {
    const original = await runCli(['replay', '--file', shrunkPath]);
    const { seed: _seed, ...withoutSeed } = shrunkJson().runSpec;
    const timelineOf = (stdout: string): string => stdout.slice(stdout.indexOf('timeline:'));
    const traceHashOf = (stdout: string): string => /trace hash (0x[0-9a-f]+)/.exec(stdout)![1]!;
    for (const runSpec of [withoutSeed, { ...withoutSeed, seed: 123_456_789 }]) {
      const path = await fileWith(`seed-${String(runSpec.seed ?? 'none')}.json`, JSON.stringify({ ...shrunkJson(), runSpec }));
      const replay = await runCli(['replay', '--file', path]);
      expect(replay.code).toBe(original.code);
      expect(timelineOf(replay.stdout)).toBe(timelineOf(original.stdout));
      expect(traceHashOf(replay.stdout)).toBe(traceHashOf(original.stdout));
    }
  });

  it('shrinking the shrunk file again keeps it (1-minimal: nothing left to remove)', async () => {
    const again = join(scratch, 'again.json');
    const rerun = await runCli(['shrink', '--file', shrunkPath, '--out', again], realClock);
    expect(rerun.code).toBe(1);
    expect(JSON.parse(await readFile(again, 'utf8')).decisions).toEqual(shrunkJson().decisions);
  });

  it('replay --file --client replays the same schedule against another client, leniently', async () => {
    const replay = await runCli(['replay', '--file', shrunkPath, '--client', 'reference']);
    expect([0, 1]).toContain(replay.code);
    expect(replay.stdout).toContain(`recorded against ${clientName}, replayed leniently against reference`);
    expect(replay.stdout).not.toContain(`verdict: VIOLATION ${invariant}`);
  });

  it('shrink of an interleaving that violates nothing says so and exits 0', async () => {
    const passing = await runCli(['shrink', '--seed', String(seed), '--scenario', scenarioName, '--client', 'reference', '--out', join(scratch, 'none.json')], realClock);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain('nothing to shrink: this interleaving violates no invariant');
  });

  it('shrink --invariant that the run does not violate exits 2 naming it', async () => {
    const other = invariant === 'uri_confusion' ? 'late_tombstone' : 'uri_confusion';
    const result = await runCli(['shrink', '--seed', String(seed), '--scenario', scenarioName, '--client', clientName, '--invariant', other], realClock);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`does not violate ${other}`);
  });
});

describe('bad replay files exit 2 and name the problem', () => {
  const cases: [string, () => string, string[] | (() => string[])][] = [
    ['corrupted', () => shrunkText.replace('"decisions"', '"decisions" x'), ['not valid JSON']],
    ['truncated', () => shrunkText.slice(0, Math.floor(shrunkText.length / 2)), ['not valid JSON', 'truncated']],
    ['wrong schema', () => shrunkText.replace(replaySchema, 'fencesim.replay.v0'), ['schema must be "fencesim.replay.v1"', 'fencesim.replay.v0']],
    ['a value out of its range', () => withDecision(0, (decision) => [decision[0], decision[2], decision[2]]), ['decisions[0]', 'outside [0,']],
    ['a value the code does not draw', () => withDecision(0, (decision) => [decision[0], decision[2] + 5, decision[2] + 10]), ['replay diverged at decision 0', 'outside [0,']],
    ['a changed range', () => withDecision(0, (decision) => [decision[0], decision[1], decision[2] + 10]), ['replay diverged at decision 0', 'the file drew it from']],
    ['a diverging label', () => withDecision(0, (decision) => ['not a label the code draws', decision[1], decision[2]]), () => ['replay diverged at decision 0', '"not a label the code draws"', `"${shrunkJson().decisions[0]![0]}"`]],
    ['decisions the run never uses', () => JSON.stringify({ ...shrunkJson(), decisions: [...shrunkJson().decisions, ['latency', 0, 25]] }), ['the run ended after', 'decisions']],
    ['an unknown scenario', () => JSON.stringify({ ...shrunkJson(), runSpec: { ...shrunkJson().runSpec, scenario: 'nope' } }), ['runSpec.scenario "nope" is not a known scenario']],
    ['an unknown client', () => JSON.stringify({ ...shrunkJson(), runSpec: { ...shrunkJson().runSpec, client: 'nope' } }), ['runSpec.client "nope" is not a known client']],
    ['an unknown invariant', () => JSON.stringify({ ...shrunkJson(), invariant: 'nope' }), ['invariant "nope" is not an invariant']],
    ['a seed out of range', () => JSON.stringify({ ...shrunkJson(), runSpec: { ...shrunkJson().runSpec, seed: -1 } }), ['runSpec.seed must be an integer']],
  ];

  it.each(cases)('%s', async (name, text, fragments) => {
    const path = await fileWith(`${name.replaceAll(' ', '-')}.json`, text());
    for (const command of ['replay', 'shrink']) {
      const result = await runCli([command, '--file', path], realClock);
      expect(result.code, `${command}: ${result.stderr}`).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`--file ${path}`);
      for (const fragment of typeof fragments === 'function' ? fragments() : fragments) expect(result.stderr).toContain(fragment);
    }
  });

  it('a file that does not exist', async () => {
    const result = await runCli(['replay', '--file', join(scratch, 'missing.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot read it');
  });

  it('--file together with --seed', async () => {
    const result = await runCli(['replay', '--file', shrunkPath, '--seed', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give --file without --seed and --scenario');
  });
});

function withDecision(index: number, change: (decision: [string, number, number]) => [string, number, number]): string {
  const json = shrunkJson();
  json.decisions[index] = change(json.decisions[index]!);
  return JSON.stringify(json);
}

describe('the gate shrinks its first failure', () => {
  it('writes DIR/shrunk-<seed>.json and puts its path, decision count and timeline into report.json', async () => {
    const out = join(scratch, 'gate');
    const gate = await runCli(['gate', '--client', clientName, '--scenario', scenarioName, '--interleavings', '30', '--seed', '5', '--workers', '1', '--out', out], realClock);
    expect(gate.code).toBe(1);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    const failure = report.failures[0];
    const shrunk = failure.shrunk;
    expect(shrunk.file).toBe(`shrunk-${failure.seed}.json`);
    expect(shrunk.invariant).toBe(failure.invariant);
    expect(shrunk.complete).toBe(true);
    expect(shrunk.timeline).toHaveLength(shrunk.timelineLines);
    expect(shrunk.timelineLines).toBeLessThan(30);
    expect(shrunk.timeline.some((line: string) => line.includes(`<== ${failure.invariant}`))).toBe(true);
    expect(report.failures.slice(1).every((other: Record<string, unknown>) => other.shrunk === undefined)).toBe(true);
    const file = JSON.parse(await readFile(join(out, shrunk.file), 'utf8'));
    expect(file.decisions).toHaveLength(shrunk.decisions);
    expect(gate.stdout).toContain(`replay it: npx fencesim replay --file ${join(out, shrunk.file)}`);
    const replay = await runCli(['replay', '--file', join(out, shrunk.file)]);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(`verdict: VIOLATION ${failure.invariant}`);
  });

  it('--no-shrink leaves it unshrunk and says so', async () => {
    const out = join(scratch, 'gate-no-shrink');
    const gate = await runCli(['gate', '--client', clientName, '--scenario', scenarioName, '--interleavings', '10', '--seed', '5', '--workers', '1', '--no-shrink', '--out', out], realClock);
    expect(gate.code).toBe(1);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    expect(report.failures[0].shrunk).toEqual({ skipped: 'not shrunk: --no-shrink' });
    expect(report.timing.shrinkMs).toBeLessThan(1_000);
  });
});
