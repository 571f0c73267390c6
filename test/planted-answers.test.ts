/**
 * Planted bugs for `answer_unrecorded` (sim/checkers/answers.ts) and `request_not_offered`
 * (sim/checkers/offered.ts): a copy of the reference core that drops a fenced-off answer silently (no stale
 * receipt, no STALE_AFTER_CLOSE audit), takes a not-found without a TombstonePending effect, or sends
 * resources/unsubscribe where the server offers none (polling, 2026-07-28) is caught, on a seed where the
 * unpatched copy does not violate the invariant, and the traced replay of that seed names it. These are
 * survivors of core/fence.ts (writeStale, writeAfterClose, acceptNotFound's emit, sendUnsubscribe's local
 * close: scripts/mutation-before-fence.txt) that no invariant judged before.
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';
import { expectCaughtAndNamed } from './planted-search.js';

const rootSeed = 0x5eed_2026;
const searchInterleavings = 100;

const silentBugs: readonly PlantedBug[] = [
  {
    name: 'stale-receipt-dropped',
    description: 'a response the ordinal fence rejects is dropped without its stale receipt',
    patches: [{ file: 'fence.ts', find: "  d.emit({ type: 'StaleReceiptWritten', uri: request.uri, requestId, readOrdinal: request.readOrdinal, watermark, reason });", replace: '' }],
    scenarios: ['read-race'],
    invariants: ['answer_unrecorded'],
  },
  {
    name: 'after-close-audit-dropped',
    description: 'a response that arrives after closing began is dropped without its STALE_AFTER_CLOSE audit',
    patches: [{ file: 'reducer-responses.ts', find: '    writeAfterClose(d, requestId, request, verdict.closeOrdinal);\n', replace: '' }],
    scenarios: ['late-content-after-close'],
    invariants: ['answer_unrecorded'],
  },
  {
    name: 'tombstone-pending-unsaid',
    description: 'a not-found that passes the fences moves the resource to TOMBSTONE_PENDING without the TombstonePending effect',
    patches: [{ file: 'fence.ts', find: "  d.emit({ type: 'TombstonePending', uri: request.uri, readOrdinal: request.readOrdinal });", replace: '' }],
    scenarios: ['multi-page-lost-notifications'],
    invariants: ['answer_unrecorded'],
  },
  {
    name: 'polling-unsubscribe-sent',
    description: 'closing a polled subscription sends resources/unsubscribe to a server that did not declare subscribe',
    patches: [{ file: 'fence.ts', find: "(!d.v.capabilities.subscribe || d.v.capabilities.era === '2026-07-28')", replace: "(d.v.capabilities.era === '2026-07-28')" }],
    scenarios: ['swarm'],
    invariants: ['request_not_offered'],
  },
  {
    name: 'era2026-unsubscribe-sent',
    description: 'closing a 2026-07-28 watch sends resources/unsubscribe, a method the era does not have',
    patches: [{ file: 'fence.ts', find: "(!d.v.capabilities.subscribe || d.v.capabilities.era === '2026-07-28')", replace: '(!d.v.capabilities.subscribe)' }],
    scenarios: ['era2026-swarm'],
    invariants: ['request_not_offered'],
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...silentBugs]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bugs of answer_unrecorded and request_not_offered', () => {
  it.each(silentBugs.map((bug) => [bug.name, bug] as const))('%s: its scenario catches it, and the traced replay names the invariant', (name, bug) => {
    expectCaughtAndNamed(rootSeed, searchInterleavings, bug, loaded.get(name)!, loaded.get(unpatchedControl.name)!);
  });
}, 600_000);
