/**
 * Planted bugs of a client that takes a failed read for a read (scenario read-errors: one read answer in six is a
 * transient server error): a copy of the reference core that never reads again after a read brought nothing to take
 * (core/reducer-responses.ts retrySoon not called), and one that brings the next read forward only when no other read
 * is on its way, so a failed newest read behind an older one in flight is answered by the older one's stale content
 * (retrySoon's dirty mark dropped). Both leave the news the failed read was sent for unread (notified_unread). Each is
 * caught on a seed where the unpatched copy violates nothing, and shrinks to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'failed-read-forgotten',
    description: 'a read answered with an error or a broken answer is taken as done: nothing is read again before the next reconciliation',
    patches: [{ file: 'reducer-responses.ts', find: "(read.type === 'failed' && read.code !== permissionDeniedCode)) retrySoon(d, request.uri, request.readOrdinal);", replace: "(read.type === 'failed' && read.code !== permissionDeniedCode)) void retrySoon;" }],
    scenarios: ['read-errors'],
    invariants: ['notified_unread'],
  },
  {
    name: 'failed-read-behind-older',
    description: 'a failed newest read does not mark its URI dirty while older reads are on their way: their stale answers settle it',
    patches: [{ file: 'reducer-responses.ts', find: '    if (readOrdinal === sub.lastIssuedOrdinal && !tracking.dirty) d.setReads(uri, tracking.inFlight, true);\n', replace: '' }],
    scenarios: ['read-errors'],
    invariants: ['notified_unread'],
  },
];

describePlantedBugs('planted bugs of a client that takes a failed read for a read', 'retry', 0x5eed_0f13, bugs, 600);
