/**
 * A planted bug of the session fence (sim/checkers/sessions.ts): a copy of the reference core that ignores being
 * told its connection ended (the Disconnected step does nothing), so until the next Connected its timers keep
 * sending requests on the dead session. Caught by `old_session_effect` in the reconnect scenario on a seed where
 * the unpatched copy violates nothing, and shrinks to at most 30 timeline lines.
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const bug: PlantedBug = {
  name: 'disconnect-ignored',
  description: 'the Disconnected step is ignored: the client goes on sending requests on the session that ended',
  patches: [{ file: 'reducer.ts', find: '      if (d.v.connected && input.sessionGeneration === d.v.sessionGeneration) sessionLost(d);', replace: '      void sessionLost;' }],
  scenarios: ['reconnect'],
  invariants: ['old_session_effect'],
};

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const planted of [unpatchedControl, bug]) loaded.set(planted.name, await plantedClient(planted));
});

describe('planted bug of a client that ignores the end of its session', () => {
  it(`${bug.name}: the reconnect scenario catches it and it shrinks to <= 30 timeline lines`, () => {
    expectCaughtAndShrunk('sessions', 0x5eed_0f13, 200, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, 'reconnect');
  });
}, 600_000);
