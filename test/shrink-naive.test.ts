/**
 * Shrinking the shipped naive clients: for every naive client and the first scenario that claims to catch
 * it (`scenario.catches`), the gate's first failure shrinks within its replay budget to a 1-minimal decision list whose
 * timeline (up to the violation, focused on the violation's resources) is short and names the invariant on
 * the line that breaks it; and the full `fencesim replay --file` of the shrunk replay file prints at most
 * 30 timeline lines (draws whose 0 is the simplest choice let the shrinker remove unrelated activity).
 */
import { livenessInvariants } from '../sim/invariants.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarios } from '../scenarios/catalog.js';
import { clients } from '../scenarios/clients.js';
import { runRange, type RunSpec } from '../sim/gate.js';
import { replaySchema, serializeReplay } from '../sim/replay-file.js';
import { runCli } from './cli-io.js';
import { measurementLine, oneMinimalityCounterexamples, readabilityProblems, shrinkFailure, type ShrinkMeasurement } from './shrink-check.js';

const rootSeed = 20_260_101;
const searchInterleavings = 50;

/** Each naive client with the first scenario (in catalog order) whose `catches` names it. */
const naiveClients = clients.filter((client) => client.name !== 'reference');
const cases = naiveClients.flatMap((client) => {
  const scenario = scenarios.find((candidate) => candidate.catches.includes(client.name));
  return scenario === undefined ? [] : [{ client, scenario }];
});

/** The most timeline lines the full replay of a shrunk naive failure may print. */
const replayLinesMax = 30;
/**
 * A liveness failure (healed_convergence) is judged at its deadline after the heal, so its replay runs on
 * through the quiet phase's periodic timers and list passes; its focused timeline keeps the 30-line bound
 * of readabilityProblems, the full replay gets this one.
 */
const replayLinesMaxLiveness = 45;

const measurements: ShrinkMeasurement[] = [];
const replayLines: string[] = [];
let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fencesim-shrink-naive-'));
});
afterAll(async () => {
  console.log(['shrinking the naive clients:', ...measurements.map(measurementLine), 'full replay --file of each shrunk failure:', ...replayLines].join('\n'));
  await rm(scratch, { recursive: true, force: true });
});

/** The timeline lines `fencesim replay --file` prints (between `timeline:` and the verdict). */
function timelineLinesOf(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.indexOf('timeline:');
  const end = lines.findIndex((line) => line.startsWith('verdict:'));
  return lines.slice(start + 1, end);
}

describe('shrink: every naive client, in the first scenario that claims to catch it', () => {
  it('every naive client is claimed by at least one scenario', () => {
    for (const client of naiveClients) expect(cases.some((entry) => entry.client === client), client.name).toBe(true);
  });

  it.each(cases.map((entry) => [entry.client.name, entry.scenario.name, entry] as const))(
    '%s in %s: the first failure shrinks within its replay budget to a 1-minimal, short, strictly replaying timeline',
    async (_client, _scenario, { client, scenario }) => {
      const spec: RunSpec = { seed: rootSeed, interleavings: searchInterleavings, scenario: scenario.name, client: client.name, maxFailures: 1 };
      const failure = runRange(spec, scenario, client, 0, searchInterleavings).failures[0];
      expect(failure, `the gate must catch ${client.name} in ${scenario.name} within ${searchInterleavings} interleavings`).toBeDefined();
      const measurement = shrinkFailure(`${client.name}`, failure!.seed, scenario, client, failure!.invariant);
      measurements.push(measurement);
      expect(measurement.complete).toBe(true);
      expect(oneMinimalityCounterexamples(failure!.seed, scenario, client, measurement.result.canonical, failure!.invariant)).toEqual([]);
      expect(readabilityProblems(measurement)).toEqual([]);
      const path = join(scratch, `${client.name}.json`);
      const runSpec = { seed: failure!.seed, scenario: scenario.name, client: client.name };
      await writeFile(path, serializeReplay({ schema: replaySchema, runSpec, invariant: failure!.invariant, decisions: measurement.result.decisions }));
      const replay = await runCli(['replay', '--file', path]);
      expect(replay.code, replay.stderr).toBe(1);
      const lines = timelineLinesOf(replay.stdout);
      replayLines.push(`  ${client.name} in ${scenario.name}: ${lines.length} lines`);
      const liveness = (livenessInvariants as readonly string[]).includes(failure!.invariant);
      expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(liveness ? replayLinesMaxLiveness : replayLinesMax);
    },
  );
});
