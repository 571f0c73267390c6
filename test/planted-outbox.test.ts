/**
 * Planted bugs of the outbox lineage (sim/checkers/outbox-lineage.ts): a copy of the reference core whose delete
 * entry for a confirmed deletion names none of the URI's derived entries (the index keeps them), and one whose
 * upsert supersedes nothing (the index keeps the older version's chunks beside the new ones). Each is caught by
 * `outbox_lineage_broken` on a seed where the unpatched copy violates nothing, and shrinks to at most 30 lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'delete-entry-names-nothing',
    description: "a confirmed deletion's outbox delete entry lists no derived entries",
    patches: [{ file: 'authorization.ts', find: "    digest: previous?.digest ?? '',\n    derivedEntries: previous === undefined ? [] : previous.entries,", replace: "    digest: previous?.digest ?? '',\n    derivedEntries: []," }],
    scenarios: ['multi-page-lost-notifications'],
    invariants: ['outbox_lineage_broken'],
  },
  {
    name: 'upsert-supersedes-nothing',
    description: "an upsert does not supersede the previous version's derived entries",
    patches: [{ file: 'authorization.ts', find: '    supersedes: previous === undefined ? [] : previous.entries,', replace: '    supersedes: [],' }],
    scenarios: ['swarm'],
    invariants: ['outbox_lineage_broken'],
  },
];


describePlantedBugs('planted bugs of an outbox the downstream index cannot follow', 'outbox', 0x5eed_0f15, bugs);
