/**
 * A planted bug of a client that counts a watched URI as polled (scenario quiet-slow-reads: quiet resources read slowly,
 * served often): a copy of the reference core whose isPolling (core/era.ts) is true whenever the server offers
 * subscribe, in either era. Its leases then follow the polling bound while the bound it published is the
 * subscription one, so it refuses fresh content while a slow read is on its way (refused_fresh). Caught on a seed where
 * the unpatched copy violates nothing, and shrunk to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'watched-counted-polled',
    description: 'a URI with an acknowledged watch is counted as polled: polling leases under a subscription bound',
    patches: [
      { file: 'era.ts', find: "  if (isEra2026(d)) return !d.v.capabilities.subscribe || listenOf(d, uri) === undefined;\n  return !d.v.capabilities.subscribe;", replace: '  return true;' },
    ],
    scenarios: ['quiet-slow-reads'],
    invariants: ['refused_fresh'],
  },
];

describePlantedBugs('planted bug of a client that counts a watched URI as polled', 'polling', 0x5eed_0f17, bugs, 200);
