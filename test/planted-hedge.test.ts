/**
 * Planted bugs of the hedge (core/reducer-notifications.ts, core/reducer-timers.ts) under an overloaded server (scenario
 * slow-server: a third of the reads up to 12 s late, beyond notified_unread's 5 s): a client that never reads again
 * while a slow read is on its way (the 2025-11-25 hedge firing does nothing), and one that arms the hedge only when an
 * update makes a URI dirty, so an update reaching a URI a catalog already made dirty (core/scan.ts reconcileTombstones)
 * waits for the slow read (the reference's own bug before this scenario). Each caught by notified_unread on a seed where
 * the unpatched copy violates nothing, shrunk to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'hedge-never-reads',
    description: 'the hedge timer fires and sends nothing: news waits for the slow read on its way',
    patches: [{ file: 'reducer-timers.ts', find: "      if (sub.state === 'READ_PENDING' && d.uriState(uri).dirty) issueRead", replace: "      if (sub.state === 'READ_PENDING' && d.uriState(uri).dirty && d.nowMs < 0) issueRead" }],
    scenarios: ['slow-server'],
    invariants: ['notified_unread'],
  },
  {
    name: 'hedge-only-when-made-dirty',
    description: 'an update reaching a URI already dirty (by a catalog) arms no hedge: it waits for the slow read',
    patches: [{ file: 'reducer-notifications.ts', find: "  if (d.timerDeadline('hedge', uri) === -1) d.armTimer(", replace: "  if (d.nowMs < 0) d.armTimer(" }],
    scenarios: ['slow-server'],
    invariants: ['notified_unread'],
  },
];

describePlantedBugs('planted bugs of the hedge under slow reads', 'hedge', 0x5eed_0f17, bugs);
