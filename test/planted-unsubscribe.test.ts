/**
 * Planted bugs for `unsubscribe_after_ack` (sim/checkers/unsubscribe-acks.ts, SPEC §3.4 "Unsubscribe ACK → CLOSED"):
 * a copy of the reference core that ignores the ACK of its unsubscribe (core/reducer-responses.ts
 * onUnsubscribeResponse: in UNSUBSCRIBING, or whatever the state) keeps retrying it after the timeout. Survivors of
 * scripts/mutation-core-s13.txt that no invariant judged before. Each is caught on a seed where the unpatched copy
 * violates nothing, and shrinks to at most 30 timeline lines.
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_0ac4;
const searchInterleavings = 100;
const scenario = 'close-race';
const stateTest = "  if (sub.state !== 'UNSUBSCRIBING' && sub.state !== 'UNSUBSCRIBE_UNKNOWN') return;";

const ackIgnoringClients: readonly PlantedBug[] = [
  {
    name: 'ack-ignored-while-unsubscribing',
    description: 'an ACK that reaches an UNSUBSCRIBING subscription is ignored (only UNSUBSCRIBE_UNKNOWN closes on one)',
    patches: [{ file: 'reducer-responses.ts', find: stateTest, replace: "  if (sub.state !== 'UNSUBSCRIBE_UNKNOWN') return;" }],
    scenarios: [scenario],
    invariants: ['unsubscribe_after_ack'],
  },
  {
    name: 'ack-never-closes',
    description: 'an unsubscribe ACK is never taken: the subscription stays closing and the timer retries',
    patches: [{ file: 'reducer-responses.ts', find: stateTest, replace: '  return;' }],
    scenarios: [scenario],
    invariants: ['unsubscribe_after_ack'],
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...ackIgnoringClients]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bugs of unsubscribe_after_ack', () => {
  it.each(ackIgnoringClients.map((bug) => [bug.name, bug] as const))('%s: the close-race scenario catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
    expectCaughtAndShrunk('unsubscribe', rootSeed, searchInterleavings, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, scenario);
  });
}, 600_000);
