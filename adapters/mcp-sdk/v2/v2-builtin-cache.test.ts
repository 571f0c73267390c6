/**
 * examples/v2-builtin-cache: the SDK v2 Client's built-in response cache, used as documented, gated as a
 * module client like any other (the harness is not tuned to it). README.md records what it passes and fails.
 */
import { describe, expect, it } from 'vitest';
import { findScenario } from '../../../scenarios/catalog.js';
import { verdictOf } from '../../../sim/gate.js';
import type { ModuleClient } from '../module/contract.js';
import { moduleApplicability, runModuleRange } from '../module/module-gate.js';

async function gate(scenarioName: string, interleavings: number) {
  const example = 'v2-builtin-cache';
  const client = ((await import(`../../../examples/${example}/client.mjs`)) as { default: ModuleClient }).default;
  const scenario = findScenario(scenarioName)!;
  const spec = { seed: 11, interleavings, scenario: scenarioName, client: client.name, maxFailures: 3 };
  const accumulator = await runModuleRange(spec, scenario, client, 0, interleavings);
  return { accumulator, verdict: verdictOf(accumulator, moduleApplicability(scenario, client).scenario) };
}

describe('examples/v2-builtin-cache', () => {
  it('read-race: a slow early read the SDK returns overwrites a newer one (version_regression)', async () => {
    const { accumulator, verdict } = await gate('read-race', 8);
    expect(verdict.passed).toBe(false);
    expect(accumulator.failures.map((failure) => failure.invariant)).toContain('version_regression');
  }, 120_000);

  it('reconnect and permission-revocation: passes', async () => {
    for (const scenario of ['reconnect', 'permission-revocation']) {
      const { verdict } = await gate(scenario, 8);
      expect(verdict.reasons).toEqual([]);
    }
  }, 180_000);
});
