/**
 * Planted bugs caught in scenario repeated-inputs (scenarios/server-trouble.ts: Connected, subscribe and unsubscribe
 * handed twice, unsubscribe ACKs mostly lost, connections dropping): a client that ends and restarts its session when
 * handed Connected again for the session it holds (core/reducer-sessions.ts onConnected's same-generation test), one
 * that starts a subscription again when asked for one it holds open (core/reducer.ts onSubscribeCommanded's open test),
 * and one whose session end leaves a close whose ACK is unknown (UNSUBSCRIBE_UNKNOWN) open into the next session. Each
 * caught on a seed where the unpatched copy violates nothing, shrunk to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'connected-again-restarts-session',
    description: 'a Connected for the session the client already holds ends it and starts it over',
    patches: [{ file: 'reducer-sessions.ts', find: '    if (sessionGeneration === d.v.sessionGeneration) return;', replace: '    if (sessionGeneration < 0) return;' }],
    scenarios: ['repeated-inputs'],
    invariants: ['malformed_input_accepted', 'notified_unread'],
  },
  {
    name: 'subscribe-again-restarts-subscription',
    description: 'a subscribe command for a URI already subscribed (open) starts its subscription over',
    patches: [{ file: 'reducer.ts', find: '  if (previous !== undefined && isOpen(previous.state)) return;', replace: '  if (previous !== undefined && previous.state === null) return;' }],
    scenarios: ['repeated-inputs'],
    invariants: ['malformed_input_accepted'],
  },
  {
    name: 'unknown-close-left-open-at-session-end',
    description: 'the end of a session leaves an UNSUBSCRIBE_UNKNOWN subscription open (never CLOSED, never reported)',
    patches: [{ file: 'reducer-sessions.ts', find: "if (state === 'UNSUBSCRIBING' || state === 'UNSUBSCRIBE_UNKNOWN') closeSubscription", replace: "if (state === 'UNSUBSCRIBING') closeSubscription" }],
    scenarios: ['repeated-inputs'],
    invariants: ['close_record_untrue'],
  },
];

describePlantedBugs('planted bugs of a client handed its inputs twice', 'repeats', 0x5eed_0f18, bugs);
