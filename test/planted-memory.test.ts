/**
 * Planted bugs of what the client must remember across an answer still on its way (scenarios revocation-race and
 * era2026-read-race): a copy of the reference core that forgets a learned revocation (core/draft-ledger.ts putRevoked
 * records nothing), so a read answered before the revocation is accepted and served to the subject that lost
 * access; and one that never marks reads in flight superseded by a 2026-07-28 `updated` (core/state.ts
 * markSuperseded), so such a read's answer is served as fresh until its TTL. Each is caught on a seed where the
 * unpatched copy violates nothing, and shrinks to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'revocation-not-remembered',
    description: 'a learned revocation is not kept in the ledger: reads of the subject go on and their answers are accepted',
    patches: [{ file: 'draft-ledger.ts', find: '    else ledger.revoked[key] = atMs;', replace: '    else void atMs;' }],
    scenarios: ['revocation-race'],
    invariants: ['served_after_revocation'],
  },
  {
    name: 'updated-supersedes-nothing',
    description: 'a 2026-07-28 updated leaves the reads already in flight as they were: their answers are served as fresh',
    patches: [{ file: 'ttl.ts', find: '  d.markSuperseded(uri);', replace: '  void uri;' }],
    scenarios: ['era2026-read-race'],
    invariants: ['read_your_notification'],
  },
];


describePlantedBugs('planted bugs of a client that forgets what an answer on its way must meet', 'memory', 0x5eed_0f12, bugs);
