/**
 * Planted bugs of the session fence (sim/checkers/sessions.ts): a copy of the reference core that ignores being
 * told its connection ended (the Disconnected step does nothing), so until the next Connected its timers keep
 * sending requests on the dead session (reconnect scenario); and one that takes the Connected of a new session,
 * while it believes the old one is up, as a mere update of the session number (scenario unannounced-disconnect:
 * the transport never reported the close), so its reads in flight on the old session wedge their URIs and the
 * server's forgotten subscriptions are never renewed. Each is caught on a seed where the unpatched copy violates
 * nothing, and shrinks to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'disconnect-ignored',
    description: 'the Disconnected step is ignored: the client goes on sending requests on the session that ended',
    patches: [{ file: 'reducer.ts', find: '      if (d.v.connected && input.sessionGeneration === d.v.sessionGeneration) sessionLost(d);', replace: '      void sessionLost;' }],
    scenarios: ['reconnect'],
    invariants: ['old_session_effect'],
  },
  {
    name: 'new-connection-continues-old',
    description: 'a Connected while connected only updates the session number: the old session is never ended',
    patches: [{ file: 'reducer-sessions.ts', find: '    if (sessionGeneration === d.v.sessionGeneration) return;\n    sessionLost(d);', replace: '    if (sessionGeneration === d.v.sessionGeneration) return;' }],
    scenarios: ['unannounced-disconnect'],
    invariants: ['healed_convergence', 'old_session_effect', 'convergence_60s'],
  },
];


describePlantedBugs('planted bugs of a client that misses the end of its session', 'sessions', 0x5eed_0f13, bugs);
