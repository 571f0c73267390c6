/**
 * Test support for planted bugs: find the first default-gate (swarm, or another scenario's) interleaving on
 * which a planted copy violates one of the bug's invariants while the unpatched copy does not, and shrink it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { invariantIndex, type InvariantName } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';
import { measurementLine, shrinkFailure } from './shrink-check.js';

export interface PlantedCatch {
  seed: number;
  index: number;
  invariant: InvariantName;
}

export function findSwarmCatch(rootSeed: number, interleavingsMax: number, client: ClientUnderTest<any>, control: ClientUnderTest<any>, invariants: readonly InvariantName[], scenarioName = 'swarm'): PlantedCatch | null {
  const scenario = findScenario(scenarioName)!;
  for (let index = 0; index < interleavingsMax; index++) {
    const seed = deriveSeed(rootSeed, index);
    const planted = runInterleaving(seed, scenario, client, { trace: false, record: false });
    const invariant = invariants.find((name) => planted.oracle.counts[invariantIndex[name]]! > 0);
    if (invariant === undefined) continue;
    const unpatched = runInterleaving(seed, scenario, control, { trace: false, record: false });
    if (unpatched.oracle.counts[invariantIndex[invariant]]! === 0) return { seed, index, invariant };
  }
  return null;
}

/** Finds a catching seed of the bug's first scenario and asserts that the traced replay of that seed names the invariant. */
export function expectCaughtAndNamed(rootSeed: number, interleavingsMax: number, bug: PlantedBug, client: ClientUnderTest<any>, control: ClientUnderTest<any>): void {
  const scenarioName = bug.scenarios[0]!;
  const invariant = bug.invariants[0]!;
  const found = findSwarmCatch(rootSeed, interleavingsMax, client, control, bug.invariants, scenarioName);
  expect(found, `${bug.name}: no catching seed in ${interleavingsMax} ${scenarioName} interleavings`).not.toBeNull();
  const traced = runInterleaving(found!.seed, findScenario(scenarioName)!, client, { trace: true, record: false, stopAtInvariant: invariant });
  expect(traced.timeline!.some((line) => line.trimStart().startsWith(`!! ${invariant}:`))).toBe(true);
}

export const plantedTimelineLinesMax = 30;

/** Finds a catching seed of `scenarioName` for `bug` and shrinks it; asserts the catch, the shrink completing within its replay budget and the timeline bound. */
export function expectCaughtAndShrunk(label: string, rootSeed: number, interleavingsMax: number, bug: PlantedBug, client: ClientUnderTest<any>, control: ClientUnderTest<any>, scenarioName = 'swarm'): void {
  const found = findSwarmCatch(rootSeed, interleavingsMax, client, control, bug.invariants, scenarioName);
  expect(found, `${bug.name}: no catching seed in ${interleavingsMax} ${scenarioName} interleavings`).not.toBeNull();
  const measurement = shrinkFailure(bug.name, found!.seed, findScenario(scenarioName)!, client, found!.invariant);
  console.log(`${label} ${bug.name}: caught at ${scenarioName} index ${found!.index} by ${found!.invariant}; ${measurementLine(measurement)}`);
  expect(measurement.complete, `${bug.name}: the shrink did not complete within ${measurement.attempts} replays`).toBe(true);
  expect(measurement.linesFocused).toBeLessThanOrEqual(plantedTimelineLinesMax);
  expect(measurement.focused.some((line) => line.trimStart().startsWith(`!! ${found!.invariant}:`))).toBe(true);
}

/**
 * The whole suite of a planted-bug test file: each bug planted beside the unpatched control, then caught in its first
 * scenario (`bug.scenarios[0]`) on a seed where the control violates nothing, and shrunk to at most
 * `plantedTimelineLinesMax` timeline lines (expectCaughtAndShrunk).
 */
export function describePlantedBugs(title: string, label: string, rootSeed: number, bugs: readonly PlantedBug[], interleavingsMax = 200): void {
  const loaded = new Map<string, ClientUnderTest<any>>();
  beforeAll(async () => {
    for (const planted of [unpatchedControl, ...bugs]) loaded.set(planted.name, await plantedClient(planted));
  });
  describe(title, () => {
    it.each(bugs.map((bug) => [bug.name, bug] as const))('%s: its scenario catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
      expectCaughtAndShrunk(label, rootSeed, interleavingsMax, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, bug.scenarios[0]!);
    });
  }, 600_000);
}
