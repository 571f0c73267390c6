/**
 * A planted bug of the close record (sim/checkers/close-record.ts): a copy of the reference core whose
 * SubscriptionClosed after an unsubscribe ACK reports close epoch 0 for every close. Caught by
 * `close_record_untrue` in close-race on a seed where the unpatched copy violates nothing, shrunk to <= 30 lines.
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const bug: PlantedBug = {
  name: 'close-epoch-zero',
  description: 'every close acknowledged by the server is reported with close epoch 0',
  patches: [{ file: 'fence.ts', find: '    closeEpoch: sub.closeEpoch ?? 0,', replace: '    closeEpoch: 0,' }],
  scenarios: ['close-race'],
  invariants: ['close_record_untrue'],
};

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const planted of [unpatchedControl, bug]) loaded.set(planted.name, await plantedClient(planted));
});

describe('planted bug of a close reported untruthfully', () => {
  it(`${bug.name}: close-race catches it and it shrinks to <= 30 timeline lines`, () => {
    expectCaughtAndShrunk('close-record', 0x5eed_0f16, 200, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, 'close-race');
  });
}, 600_000);
