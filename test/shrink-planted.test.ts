/**
 * Planted bugs: copies of the reference core, each with one subtle bug patched in at test time (see
 * planting.ts). For each, a deterministic search over a few hundred gate seeds finds a scenario where the
 * gate catches it (an invariant an unpatched copy does not violate on that seed), and the failure
 * shrinks within its replay budget to a 1-minimal decision list whose short timeline names the invariant.
 *
 * `>=` instead of `>` in the ordinal fence is planted too, but it is an equivalent mutant under this
 * design: read ordinals are unique per URI and a response is matched to its request once, so a read can
 * never arrive with an ordinal EQUAL to the watermark. The test pins that down instead of pretending to
 * catch it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import type { Scenario } from '../scenarios/scenario.js';
import { runRange, type Failure, type RunSpec } from '../sim/gate.js';
import { invariantIndex } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { plantedBugs, plantedClient, unpatchedControl, type PlantedBug } from './planting.js';
import { measurementLine, oneMinimalityCounterexamples, readabilityProblems, shrinkFailure, type ShrinkMeasurement } from './shrink-check.js';

const rootSeed = 0x5eed_2026;
/** Seeds searched per scenario, in chunks so a catch early in the range ends the search early. */
const searchInterleavings = 300;
const searchChunk = 25;
const equivalentMutant = 'ordinal-fence-ge';

interface Catch {
  scenario: Scenario;
  failure: Failure;
  searched: number;
}

/** The gate's first failure of `client` on an invariant the bug targets and the unpatched copy does not violate on that seed. */
function findCatch(bug: PlantedBug, client: ClientUnderTest<any>, control: ClientUnderTest<any>): Catch | { searched: number } {
  let searched = 0;
  for (const name of bug.scenarios) {
    const scenario = findScenario(name);
    if (scenario === undefined) throw new Error(`planted bug ${bug.name}: unknown scenario ${name}`);
    const spec: RunSpec = { seed: rootSeed, interleavings: searchInterleavings, scenario: name, client: client.name, maxFailures: searchChunk };
    for (let start = 0; start < searchInterleavings; start += searchChunk) {
      const failures = runRange(spec, scenario, client, start, start + searchChunk).failures;
      searched += searchChunk;
      for (const failure of failures) {
        if (!bug.invariants.includes(failure.invariant)) continue;
        const unpatched = runInterleaving(failure.seed, scenario, control, { trace: false, record: false });
        if (unpatched.oracle.counts[invariantIndex[failure.invariant]]! === 0) return { scenario, failure, searched };
      }
    }
  }
  return { searched };
}

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...plantedBugs]) loaded.set(bug.name, await plantedClient(bug));
});

const measurements: ShrinkMeasurement[] = [];
const catches: string[] = [];
afterAll(() => {
  console.log(['catching the planted bugs:', ...catches, 'shrinking the planted bugs:', ...measurements.map(measurementLine)].join('\n'));
});

describe('planted bugs in a copy of the reference core', () => {
  it('every patch pattern is found exactly once (a refactor that removes one fails here)', () => {
    expect([...loaded.keys()]).toEqual([unpatchedControl, ...plantedBugs].map((bug) => bug.name));
  });

  it('ordinal fence >= instead of >: an equivalent mutant, no interleaving tells it from the unpatched copy', () => {
    const client = loaded.get(equivalentMutant)!;
    const control = loaded.get(unpatchedControl.name)!;
    for (const name of ['read-race', 'duplicate-storm', 'close-race']) {
      const scenario = findScenario(name)!;
      for (let index = 0; index < 60; index++) {
        const seed = deriveSeed(rootSeed, index);
        const planted = runInterleaving(seed, scenario, client, { trace: false, record: false });
        const unpatched = runInterleaving(seed, scenario, control, { trace: false, record: false });
        expect(planted.traceHash, `${name} seed ${seed}`).toBe(unpatched.traceHash);
      }
    }
  });

  const detectable = plantedBugs.filter((bug) => bug.name !== equivalentMutant);
  it('at least four planted bugs are detectable', () => {
    expect(detectable.length).toBeGreaterThanOrEqual(4);
  });

  it.each(detectable.map((bug) => [bug.name, bug] as const))(
    '%s: the gate catches it within a few hundred seeds, and it shrinks within its replay budget to a 1-minimal, short timeline',
    (_name, bug) => {
      const client = loaded.get(bug.name)!;
      const found = findCatch(bug, client, loaded.get(unpatchedControl.name)!);
      expect('failure' in found, `${bug.name}: no catching seed in ${found.searched} seeds of ${bug.scenarios.join(', ')}`).toBe(true);
      const { scenario, failure, searched } = found as Catch;
      catches.push(`${bug.name}: caught by ${scenario.name} at gate index ${failure.index} (root seed ${rootSeed}; ${searched} interleavings searched), ${failure.invariant}`);
      const measurement = shrinkFailure(bug.name, failure.seed, scenario, client, failure.invariant);
      measurements.push(measurement);
      expect(measurement.complete).toBe(true);
      expect(oneMinimalityCounterexamples(failure.seed, scenario, client, measurement.result.canonical, failure.invariant)).toEqual([]);
      expect(readabilityProblems(measurement)).toEqual([]);
    },
  );
});
