/**
 * Planted bugs for the 2026-07-28 serving invariants (sim/checkers/era2026-*.ts): a copy of the reference
 * core with one rule of the era removed is caught by the 2026 gate (era2026-swarm) through exactly the
 * invariant that rule protects, on a seed where the unpatched copy does not violate it, and the failure
 * shrinks to a timeline of at most 30 lines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { invariantIndex, type InvariantName } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';
import { measurementLine, shrinkBudgetMs, shrinkFailure } from './shrink-check.js';

const rootSeed = 0x5eed_2026;
const searchInterleavings = 600;
const timelineLinesMax = 30;
const scenarioName = 'era2026-swarm';

const era2026Bugs: readonly (PlantedBug & { invariant: InvariantName })[] = [
  {
    name: 'updated-keeps-entry-fresh',
    description: 'a 2026 updated of the live listen does not make the cached entry stale (it is served until the re-read lands)',
    patches: [{ file: 'reducer.ts', find: '    invalidateOnUpdated(d, route.uri);\n', replace: '' }],
    scenarios: [scenarioName],
    invariants: ['read_your_notification'],
    invariant: 'read_your_notification',
  },
  {
    name: 'ttl-ignored',
    description: 'the serving lease is not narrowed to ttlMs from receipt (only the authorization lease bounds serving)',
    patches: [{ file: 'ttl.ts', find: '  if (until < d.uriState(uri).leaseUntilMs) d.setLease(uri, until);', replace: '  void until;' }],
    scenarios: [scenarioName],
    invariants: ['ttl_staleness'],
    invariant: 'ttl_staleness',
  },
  {
    name: 'one-cache-for-all-subjects',
    description: 'cached content is served to any subject, whoever it was read for and whatever its cacheScope',
    patches: [{ file: 'authorization.ts', find: "  if (version.subject !== subject) return refuse(`cached content was read for ${version.subject}, not ${subject}`);\n", replace: '' }],
    scenarios: [scenarioName],
    invariants: ['scope_isolation'],
    invariant: 'scope_isolation',
  },
  {
    name: 'no-ordinal-fence',
    description: 'the read-ordinal fence is gone: an older read answered late replaces newer content',
    patches: [{ file: 'fence.ts', find: 'if (request.readOrdinal <= sub.lastAcceptedOrdinal) return', replace: 'if (request.readOrdinal < 0) return' }],
    scenarios: [scenarioName],
    invariants: ['monotonic_reads'],
    invariant: 'monotonic_reads',
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...era2026Bugs]) loaded.set(bug.name, await plantedClient(bug));
});

/** The first era2026-swarm seed on which the planted copy violates `invariant` and the unpatched copy does not. */
function findCatch(client: ClientUnderTest<any>, invariant: InvariantName): { seed: number; index: number } | null {
  const scenario = findScenario(scenarioName)!;
  const control = loaded.get(unpatchedControl.name)!;
  for (let index = 0; index < searchInterleavings; index++) {
    const seed = deriveSeed(rootSeed, index);
    const planted = runInterleaving(seed, scenario, client, { trace: false, record: false });
    if (planted.oracle.counts[invariantIndex[invariant]]! === 0) continue;
    const unpatched = runInterleaving(seed, scenario, control, { trace: false, record: false });
    if (unpatched.oracle.counts[invariantIndex[invariant]]! === 0) return { seed, index };
  }
  return null;
}

describe('planted bugs of the 2026-07-28 serving invariants', () => {
  it('covers each of the four invariants', () => {
    expect(new Set(era2026Bugs.map((bug) => bug.invariant))).toEqual(new Set(['read_your_notification', 'ttl_staleness', 'monotonic_reads', 'scope_isolation']));
  });

  it.each(era2026Bugs.map((bug) => [bug.name, bug] as const))('%s: the 2026 gate catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
    const client = loaded.get(bug.name)!;
    const found = findCatch(client, bug.invariant);
    expect(found, `${bug.name}: no catching seed in ${searchInterleavings} ${scenarioName} interleavings`).not.toBeNull();
    const measurement = shrinkFailure(bug.name, found!.seed, findScenario(scenarioName)!, client, bug.invariant);
    console.log(`${bug.name}: caught at ${scenarioName} index ${found!.index} by ${bug.invariant}; ${measurementLine(measurement)}`);
    expect(measurement.wallMs).toBeLessThan(shrinkBudgetMs);
    expect(measurement.linesFocused).toBeLessThanOrEqual(timelineLinesMax);
    expect(measurement.focused.some((line) => line.trimStart().startsWith(`!! ${bug.invariant}:`))).toBe(true);
  });
}, 600_000);
