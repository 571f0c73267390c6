/**
 * Planted bugs of the three classes of issue 10 (test/planted-classes.ts): the default gate (swarm) catches
 * each within a few hundred interleavings through its class's new check, where the unpatched copy does not
 * violate it on that seed, and the failure shrinks to a timeline of at most 30 lines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { invariantIndex, type InvariantName } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { classBugs } from './planted-classes.js';
import { plantedClient, unpatchedControl } from './planting.js';
import { measurementLine, shrinkBudgetMs, shrinkFailure } from './shrink-check.js';

const rootSeed = 0x5eed_2026;
const searchInterleavings = 300;
const timelineLinesMax = 30;

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...classBugs]) loaded.set(bug.name, await plantedClient(bug));
});

/** The first swarm seed on which the planted copy violates one of `invariants` and the unpatched copy does not. */
function findCatch(client: ClientUnderTest<any>, invariants: readonly InvariantName[]): { seed: number; index: number; invariant: InvariantName } | null {
  const scenario = findScenario('swarm')!;
  const control = loaded.get(unpatchedControl.name)!;
  for (let index = 0; index < searchInterleavings; index++) {
    const seed = deriveSeed(rootSeed, index);
    const planted = runInterleaving(seed, scenario, client, { trace: false, record: false });
    const invariant = invariants.find((name) => planted.oracle.counts[invariantIndex[name]]! > 0);
    if (invariant === undefined) continue;
    const unpatched = runInterleaving(seed, scenario, control, { trace: false, record: false });
    if (unpatched.oracle.counts[invariantIndex[invariant]]! === 0) return { seed, index, invariant };
  }
  return null;
}

describe('planted bugs of the three classes of issue 10', () => {
  it('covers every class', () => {
    expect(new Set(classBugs.map((bug) => bug.issueClass))).toEqual(new Set([1, 2, 3]));
  });

  it.each(classBugs.map((bug) => [bug.name, bug] as const))('%s: the default gate catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
    const client = loaded.get(bug.name)!;
    const found = findCatch(client, bug.invariants);
    expect(found, `${bug.name}: no catching seed in ${searchInterleavings} swarm interleavings`).not.toBeNull();
    const measurement = shrinkFailure(bug.name, found!.seed, findScenario('swarm')!, client, found!.invariant);
    console.log(`class ${bug.issueClass} ${bug.name}: caught at swarm index ${found!.index} by ${found!.invariant}; ${measurementLine(measurement)}`);
    expect(measurement.wallMs).toBeLessThan(shrinkBudgetMs);
    expect(measurement.linesFocused).toBeLessThanOrEqual(timelineLinesMax);
    expect(measurement.focused.some((line) => line.trimStart().startsWith(`!! ${found!.invariant}:`))).toBe(true);
  });
});
