/**
 * Planted bugs for `catalog_hint_narrowed` (sim/checkers/era2026-catalog-hints.ts): a copy of the reference
 * core whose list-hint fold is stricter than its pages (ttlMs 0, or always private) is caught by
 * era2026-listing through that invariant, on a seed where the unpatched copy does not violate it, and the
 * traced replay of that seed names the invariant. These are the survivors of core/ttl.ts aggregateHints that
 * only a check from below can kill (scripts/mutation-before-ttl.txt); the check from above (scope_isolation,
 * ttl_staleness) is test/planted-era2026.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { invariantIndex } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_2026;
const searchInterleavings = 200;
const invariant = 'catalog_hint_narrowed';

const narrowingBugs: readonly PlantedBug[] = [
  {
    name: 'list-ttl-always-zero',
    description: "a list's folded ttlMs starts at 0 instead of the clamp, so every catalog is published immediately stale",
    patches: [{ file: 'ttl.ts', find: '  let ttlMs = pages.length === 0 ? 0 : ttlMsMax;', replace: '  let ttlMs = 0;' }],
    scenarios: ['era2026-listing'],
    invariants: [invariant],
  },
  {
    name: 'list-scope-always-private',
    description: 'a list is folded as private whatever its pages say, so an all-public catalog is published private',
    patches: [{ file: 'ttl.ts', find: "  return { ttlMs, cacheScope: pages.length === 0 ? 'private' : cacheScope };", replace: "  return { ttlMs, cacheScope: 'private' };" }],
    scenarios: ['era2026-listing'],
    invariants: [invariant],
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...narrowingBugs]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bugs of catalog_hint_narrowed', () => {
  it.each(narrowingBugs.map((bug) => [bug.name] as const))('%s: era2026-listing catches it, and the traced replay names the invariant', (name) => {
    const scenario = findScenario('era2026-listing')!;
    const client = loaded.get(name)!;
    const control = loaded.get(unpatchedControl.name)!;
    let caught: number | null = null;
    for (let index = 0; index < searchInterleavings && caught === null; index++) {
      const seed = deriveSeed(rootSeed, index);
      if (runInterleaving(seed, scenario, client, { trace: false, record: false }).oracle.counts[invariantIndex[invariant]]! === 0) continue;
      if (runInterleaving(seed, scenario, control, { trace: false, record: false }).oracle.counts[invariantIndex[invariant]]! === 0) caught = seed;
    }
    expect(caught, `${name}: no catching seed in ${searchInterleavings} era2026-listing interleavings`).not.toBeNull();
    const traced = runInterleaving(caught!, scenario, client, { trace: true, record: false, stopAtInvariant: invariant });
    expect(traced.timeline!.some((line) => line.trimStart().startsWith(`!! ${invariant}:`))).toBe(true);
  });
}, 600_000);
