/**
 * A planted bug of the capability rules (sim/checkers/offered.ts): a copy of the reference core that takes a
 * subscribe or discover command on a server without the resources capability silently (no CapabilityMissing
 * rejection), as if it could poll or list (caught by `command_not_refused`); one that refuses such a subscribe and
 * starts it all the same, and one whose connection to such a server starts the subscriptions a restarted client took
 * before it knew the server (both promise a staleness bound no read can keep: `bound_unkeepable`). Each caught in the
 * no-resources-capability scenario on a seed where the unpatched copy violates nothing, and shrinks to at most 30
 * timeline lines. And one that cancels a 2025-11-25 subscribe still in flight as a listen when the URI is closed
 * (`request_not_offered`: a 2025-11-25 connection has no listen), caught in close-race.
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
  {
    name: 'no-resources-refused-and-taken',
    description: 'a subscribe on a server without resources is refused, and then started as a polled subscription all the same',
    patches: [{ file: 'reducer.ts', find: '  refuseForCapability(d, input.type);\n  return true;', replace: '  refuseForCapability(d, input.type);\n  return false;' }],
    scenarios: ['no-resources-capability'],
    invariants: ['bound_unkeepable'],
  },
  {
    name: 'no-resources-connection-starts-subscriptions',
    description: 'a connection to a server without resources starts the subscriptions taken before it (polling what it cannot read)',
    patches: [{ file: 'reducer-sessions.ts', find: '  if (!volatile.capabilities.resources) {\n    refuseForCapability', replace: '  if (!volatile.capabilities.resources && input0()) {\n    refuseForCapability' }, { file: 'reducer-sessions.ts', find: '// -- sessions --', replace: 'const input0 = (): boolean => false;\n\n// -- sessions --' }],
    scenarios: ['no-resources-capability'],
    invariants: ['bound_unkeepable'],
  },
  {
    name: 'listen-cancelled-in-2025',
    description: 'an unsubscribe cancels the in-flight request of the subscription as a listen whatever the era: a 2025-11-25 subscribe still unanswered is "cancelled" as if it were a listen',
    patches: [{ file: 'reducer.ts', find: '  if (isEra2026(d) && d.subscription(checked.uri) !== undefined', replace: '  if (d.subscription(checked.uri) !== undefined' }],
    scenarios: ['close-race'],
    invariants: ['request_not_offered'],
  },
];

describePlantedBugs('planted bug of a client that takes commands it cannot carry out', 'capability', 0x5eed_0f14, bugs);
