/**
 * Planted bugs for `healed_deletion` (sim/checkers/deletion.ts): a copy of the reference core whose deletion
 * confirmation is broken by one line — the not-found evidence is recorded without its time (so it never
 * counts), or the confirmation is carried out without its TombstoneConfirmed effect — is caught by the default
 * gate (era-both), on a seed where the unpatched copy does not violate the invariant, and the traced replay of
 * that seed names it. These are survivors of core/fence.ts (acceptNotFound's evidence, confirmTombstone) that
 * no invariant judged before: nothing required a deletion to be confirmed.
 *
 * And for `reappeared_reread` (sim/checkers/reappearance.ts): a copy whose catalog reconciliation (core/scan.ts
 * reconcileTombstones) no longer re-reads a TOMBSTONE_PENDING resource that a reconciled listing shows again. It
 * still re-reads it at its next reconcile tick (reconcileIntervalMs), so no other invariant judged the line: it
 * was among the 45 surviving mutants of reconcileTombstones (scripts/mutation-after-scan.txt).
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';
import { expectCaughtAndNamed } from './planted-search.js';

const rootSeed = 0x5eed_0d1e;
const searchInterleavings = 200;
const defaultGateScenario = 'era-both';

const deletionBugs: readonly PlantedBug[] = [
  {
    name: 'deletion-evidence-untimed',
    description: 'the not-found read after a catalog is recorded as evidence without when it arrived, so no later catalog can confirm the deletion',
    patches: [{ file: 'fence.ts', find: 'd.setConfirmAfter(request.uri, confirmAfter, d.nowMs);', replace: 'd.setConfirmAfter(request.uri, confirmAfter);' }],
    scenarios: [defaultGateScenario],
    invariants: ['healed_deletion'],
  },
  {
    name: 'tombstone-confirmed-unsaid',
    description: 'a confirmed deletion writes its outbox delete but not the TombstoneConfirmed effect',
    patches: [{ file: 'fence.ts', find: "  d.emit({ type: 'TombstoneConfirmed', uri });\n", replace: '' }],
    scenarios: [defaultGateScenario],
    invariants: ['healed_deletion'],
  },
  {
    name: 'reappeared-not-reread',
    description: 'a TOMBSTONE_PENDING resource listed again by a reconciled catalog is not re-read (it waits for its reconcile tick)',
    patches: [{ file: 'scan.ts', find: "      if (sub.state === 'TOMBSTONE_PENDING' && progress.inFlight === 0) issueRead(d, uri, 'reappeared');\n", replace: '' }],
    scenarios: [defaultGateScenario],
    invariants: ['reappeared_reread'],
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...deletionBugs]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bugs of healed_deletion and reappeared_reread', () => {
  it.each(deletionBugs.map((bug) => [bug.name, bug] as const))('%s: the default gate catches it, and the traced replay names the invariant', (name, bug) => {
    expectCaughtAndNamed(rootSeed, searchInterleavings, bug, loaded.get(name)!, loaded.get(unpatchedControl.name)!);
  });
}, 600_000);
