/**
 * Planted bug for `watch_not_renewed` (sim/checkers/era2026-renewal.ts): a copy of the reference core that, when a
 * listen ends without the client closing it (graceful completion, a closed stream), leaves the URI without a watch:
 * the retry of the listen is never armed (core/listen.ts endListenWatch), as a client on the SDK v2, which has no
 * automatic re-listen, would. It is caught by era2026-swarm on a seed where the unpatched copy violates nothing, and
 * shrinks to at most 30 timeline lines.
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_2026;
const searchInterleavings = 200;
const scenario = 'era2026-swarm';

const noRelisten: PlantedBug = {
  name: 'no-relisten-after-remote-end',
  description: 'a listen that ended without the client closing it is not followed by a new listen (no retry armed)',
  patches: [{ file: 'listen.ts', find: "  d.armTimer('resubscribe', uri, d.nowMs + d.config.subscribeRetryMs);\n", replace: '' }],
  scenarios: [scenario],
  invariants: ['watch_not_renewed'],
};

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, noRelisten]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bug of a lost watch left unrenewed', () => {
  it('no-relisten-after-remote-end: era2026-swarm catches it and it shrinks to <= 30 timeline lines', () => {
    expectCaughtAndShrunk('renewal', rootSeed, searchInterleavings, noRelisten, loaded.get(noRelisten.name)!, loaded.get(unpatchedControl.name)!, scenario);
  }, 600_000);
});
