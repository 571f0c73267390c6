/**
 * Shrinking the shipped naive clients: for every naive client and the first scenario that claims to catch
 * it (`scenario.catches`), the gate's first failure shrinks within 10 s to a 1-minimal decision list whose
 * timeline (up to the violation, focused on the violation's resources) is short and names the invariant on
 * the line that breaks it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { scenarios } from '../scenarios/catalog.js';
import { clients } from '../scenarios/clients.js';
import { runRange, type RunSpec } from '../sim/gate.js';
import { measurementLine, oneMinimalityCounterexamples, shrinkBudgetMs, readabilityProblems, shrinkFailure, type ShrinkMeasurement } from './shrink-check.js';

const rootSeed = 20_260_101;
const searchInterleavings = 50;

/** Each naive client with the first scenario (in catalog order) whose `catches` names it. */
const naiveClients = clients.filter((client) => client.name !== 'reference');
const cases = naiveClients.flatMap((client) => {
  const scenario = scenarios.find((candidate) => candidate.catches.includes(client.name));
  return scenario === undefined ? [] : [{ client, scenario }];
});

const measurements: ShrinkMeasurement[] = [];
afterAll(() => {
  console.log(['shrinking the naive clients:', ...measurements.map(measurementLine)].join('\n'));
});

describe('shrink: every naive client, in the first scenario that claims to catch it', () => {
  it('every naive client is claimed by at least one scenario', () => {
    for (const client of naiveClients) expect(cases.some((entry) => entry.client === client), client.name).toBe(true);
  });

  it.each(cases.map((entry) => [entry.client.name, entry.scenario.name, entry] as const))(
    '%s in %s: the first failure shrinks within 10 s to a 1-minimal, short, strictly replaying timeline',
    (_client, _scenario, { client, scenario }) => {
      const spec: RunSpec = { seed: rootSeed, interleavings: searchInterleavings, scenario: scenario.name, client: client.name, maxFailures: 1 };
      const failure = runRange(spec, scenario, client, 0, searchInterleavings).failures[0];
      expect(failure, `the gate must catch ${client.name} in ${scenario.name} within ${searchInterleavings} interleavings`).toBeDefined();
      const measurement = shrinkFailure(`${client.name}`, failure!.seed, scenario, client, failure!.invariant);
      measurements.push(measurement);
      expect(measurement.wallMs).toBeLessThan(shrinkBudgetMs);
      expect(measurement.complete).toBe(true);
      expect(oneMinimalityCounterexamples(failure!.seed, scenario, client, measurement.result.canonical, failure!.invariant)).toEqual([]);
      expect(readabilityProblems(measurement)).toEqual([]);
    },
  );
});
