/**
 * A planted bug of the close record (sim/checkers/close-record.ts): a copy of the reference core whose
 * SubscriptionClosed after an unsubscribe ACK reports close epoch 0 for every close; one whose session end leaves an
 * UNSUBSCRIBING subscription open (no CLOSED, no record) into the next session. Each caught by `close_record_untrue`
 * (in close-race, and long-outage) on a seed where the unpatched copy violates nothing, shrunk to <= 30 lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'close-epoch-zero',
    description: 'every close acknowledged by the server is reported with close epoch 0',
    patches: [{ file: 'fence.ts', find: '    closeEpoch: sub.closeEpoch ?? 0,', replace: '    closeEpoch: 0,' }],
    scenarios: ['close-race'],
    invariants: ['close_record_untrue'],
  },
  {
    name: 'close-left-open-at-session-end',
    description: 'the end of a session leaves a subscription UNSUBSCRIBING (never moved to CLOSED, never reported) instead of closing it',
    patches: [{ file: 'reducer-sessions.ts', find: "if (state === 'UNSUBSCRIBING' || state === 'UNSUBSCRIBE_UNKNOWN') closeSubscription", replace: "if (state === 'UNSUBSCRIBE_UNKNOWN') closeSubscription" }],
    scenarios: ['long-outage'],
    invariants: ['close_record_untrue'],
  },
];

describePlantedBugs('planted bug of a close reported untruthfully', 'close-record', 0x5eed_0f16, bugs);
