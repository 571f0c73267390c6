/**
 * Planted bugs for malformed list pages (the malformed-list-page fault, scenario malformed-list-page): a copy
 * of the reference core whose page parser (core/scan.ts parsePage, 60 survivors in
 * scripts/mutation-before-scan.txt: no server ever sent a malformed page) is lenient where it must abandon the
 * pass publishes a catalog resting on a pass the client cannot know the listing of. The scenario catches each
 * through the catalog rules (a catalog may rest on no pass with a malformed page: sim/checkers/catalog.ts), on a
 * seed where the unpatched copy does not violate them, and the failure shrinks to at most 30 timeline lines.
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import type { InvariantName } from '../sim/invariants.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_0e47;
const searchInterleavings = 200;
const catalogRules: readonly InvariantName[] = ['unreconciled_catalog', 'catalog_untrue', 'catalog_ab_unsettled'];
const parsed = '{ ok: true, uris, nextCursor: null, snapshotId: null }';

const lenientParsers: readonly PlantedBug[] = [
  {
    name: 'page-resources-not-array-ends-list',
    description: 'a page whose resources is not an array is taken as an empty last page instead of abandoning the pass',
    patches: [
      {
        file: 'scan.ts',
        find: '  if (!Array.isArray(resources)) return malformed(`resources/list result.resources must be an array, got ${typeName(resources)}`);',
        replace: "  if (!Array.isArray(resources)) return { ok: true, uris: [], nextCursor: null, snapshotId: null };",
      },
    ],
    scenarios: ['malformed-list-page'],
    invariants: catalogRules,
  },
  {
    name: 'page-entry-without-uri-skipped',
    description: 'an entry without a string uri is skipped and the rest of the page kept',
    patches: [{ file: 'scan.ts', find: '    if (!uri.ok) return malformed(uri.rejection.detail);', replace: '    if (!uri.ok) continue;' }],
    scenarios: ['malformed-list-page'],
    invariants: catalogRules,
  },
  {
    name: 'page-cursor-not-string-ends-list',
    description: 'a nextCursor that is not a string is taken as the end of the listing',
    patches: [
      {
        file: 'scan.ts',
        find: "  if (cursor !== undefined && typeof cursor !== 'string') return malformed(`nextCursor must be a string, got ${typeName(cursor)}`);",
        replace: `  if (cursor !== undefined && typeof cursor !== 'string') return ${parsed};`,
      },
    ],
    scenarios: ['malformed-list-page'],
    invariants: catalogRules,
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...lenientParsers]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bugs of a lenient list page parser', () => {
  it.each(lenientParsers.map((bug) => [bug.name, bug] as const))('%s: the malformed-list-page scenario catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
    expectCaughtAndShrunk('list-pages', rootSeed, searchInterleavings, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, bug.scenarios[0]);
  });
}, 600_000);
