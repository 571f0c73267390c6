/**
 * A planted bug of the capability rules (sim/checkers/offered.ts): a copy of the reference core that takes a
 * subscribe or discover command on a server without the resources capability silently (no CapabilityMissing
 * rejection), as if it could poll or list. Caught by `command_not_refused` in the no-resources-capability
 * scenario on a seed where the unpatched copy violates nothing, and shrinks to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'no-resources-not-refused',
    description: 'subscribe and discover commands are taken without a CapabilityMissing rejection on a server without resources',
    patches: [{ file: 'reducer.ts', find: '  if (resourcesOffered(d)) return false;', replace: '  if (resourcesOffered(d) || input.nowMs >= 0) return false;' }],
    scenarios: ['no-resources-capability'],
    invariants: ['command_not_refused'],
  },
];

describePlantedBugs('planted bug of a client that takes commands it cannot carry out', 'capability', 0x5eed_0f14, bugs);
