/**
 * Planted bugs for `healed_catalog` (sim/checkers/catalog-liveness.ts): a copy of the reference core too
 * cautious to publish (it never starts a scan, never reconciles two live passes, or never reviews its catalog)
 * breaks no safety rule, so before this checker nothing judged it (core/scan.ts survivors in
 * scripts/mutation-before-scan.txt: requestDiscovery, completePass, publish). The default gate's scenario
 * (era-both) catches each through healed_catalog on a seed where the unpatched copy does not violate it, and
 * the failure shrinks to a timeline of at most 30 lines naming the invariant.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_0c47;
const searchInterleavings = 200;

const cautiousBugs: readonly PlantedBug[] = [
  {
    name: 'discovery-start-inverted',
    description: 'asked to discover, the client starts a pass only when one is already running (an inverted null check): it never lists',
    patches: [{ file: 'scan.ts', find: '  if (discovery.running === null && d.v.connected) startPass(d);', replace: '  if (discovery.running !== null && d.v.connected) startPass(d);' }],
    scenarios: ['era-both'],
    invariants: ['healed_catalog'],
  },
  {
    name: 'ab-never-reconciles',
    description: 'A/B reconciliation compares the scan ids of its two passes instead of their sessions: two live passes never match, so without a snapshot-ID server no catalog is ever published',
    patches: [{ file: 'scan.ts', find: '    previous.sessionGeneration === complete.sessionGeneration &&', replace: '    previous.scanId === complete.scanId &&' }],
    scenarios: ['era-both'],
    invariants: ['healed_catalog'],
  },
  {
    name: 'review-not-armed',
    description: 'a published catalog never arms its review timer: it is re-scanned only when the application or a list_changed asks, never at the review time it published',
    patches: [{ file: 'scan.ts', find: "  d.armTimer('discover', discoveryTimerUri, Math.max(nextReviewAtMs, d.nowMs));\n", replace: '' }],
    scenarios: ['era-both'],
    invariants: ['healed_catalog'],
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...cautiousBugs]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bugs of healed_catalog (a client too cautious to publish)', () => {
  it('the planted copies claim catalogs, as the reference does', () => {
    for (const bug of cautiousBugs) expect(loaded.get(bug.name)!.features?.catalogs, bug.name).toBe(true);
  });

  it.each(cautiousBugs.map((bug) => [bug.name, bug] as const))('%s: the default gate catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
    expectCaughtAndShrunk('catalog-liveness', rootSeed, searchInterleavings, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, bug.scenarios[0]);
  });
}, 600_000);
