/**
 * Planted bugs of the refusal class on 2026-07-28 connections (issue 10; sim/checkers/availability-era2026.ts):
 * a copy of the reference core that refuses fresh, authorized, watched content within its TTL is caught by
 * the 2026 gate (era2026-swarm) through `refused_fresh`, on a seed where the unpatched copy does not violate
 * it, and the failure shrinks to a timeline of at most 30 lines. Before the availability checker judged
 * 2026 connections, both passed every 2026 scenario (every other serving checker passes a client that refuses).
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_2610;
const searchInterleavings = 600;
const scenarioName = 'era2026-swarm';

export const refusalBugs2026: readonly PlantedBug[] = [
  {
    name: 'ttl-as-deadline',
    description: 'ttlMs is read as the time the entry expires, not as a duration from receipt: the serving lease ends at once',
    patches: [{ file: 'ttl.ts', find: '  return receivedAtMs + hint.ttlMs;', replace: '  return hint.ttlMs;' }],
    scenarios: [scenarioName],
    invariants: ['refused_fresh'],
  },
  {
    name: 'superseded-inverted',
    description: 'the superseded test of a 2026 accept is inverted: a read no updated overtook is stale at once, an overtaken one fresh for its TTL',
    patches: [{ file: 'ttl.ts', find: 'const until = request.superseded === true ? d.nowMs', replace: 'const until = request.superseded !== true ? d.nowMs' }],
    scenarios: [scenarioName],
    invariants: ['refused_fresh'],
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...refusalBugs2026]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted refusal bugs on 2026-07-28 connections', () => {
  it.each(refusalBugs2026.map((bug) => [bug.name, bug] as const))('%s: era2026-swarm catches it by refused_fresh and it shrinks to <= 30 timeline lines', (_name, bug) => {
    expectCaughtAndShrunk('refusal-2026', rootSeed, searchInterleavings, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, scenarioName);
  });
}, 600_000);
