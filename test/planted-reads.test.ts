/**
 * Planted bugs for read answers that break the schema (the malformed-read-response fault, scenario of the same
 * name; sim/actors/malformed-reads.ts): a copy of the reference core whose read parser (core/protocol.ts
 * interpretRead: no server sent it a malformed answer before this fault) is lenient where SPEC §11 wants a typed
 * rejection. Each is caught by `malformed_read_accepted` (or, for the parser that takes the first item whatever its
 * URI, by `uri_confusion`), on a seed where the unpatched copy violates nothing, and shrinks to at most 30 lines.
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_0f11;
const searchInterleavings = 200;
const scenario = 'malformed-read-response';

const lenientReadParsers: readonly PlantedBug[] = [
  {
    name: 'read-first-item-whatever-uri',
    description: "the first content item is taken whatever its URI (another resource's item is accepted for the URI read)",
    patches: [{ file: 'protocol.ts', find: '    if (uri.uri !== requestedUri) {\n      mismatch = uri.uri;\n      continue;\n    }', replace: '    void mismatch;' }],
    scenarios: [scenario],
    invariants: ['uri_confusion'],
  },
  {
    name: 'read-mime-type-not-checked',
    description: 'a mimeType that is not a string is taken as application/octet-stream',
    patches: [
      {
        file: 'protocol.ts',
        find: "    const mimeType = item.mimeType === undefined ? 'application/octet-stream' : item.mimeType;",
        replace: "    const mimeType = typeof item.mimeType === 'string' ? item.mimeType : 'application/octet-stream';",
      },
    ],
    scenarios: [scenario],
    invariants: ['malformed_read_accepted'],
  },
  {
    name: 'read-blob-not-decoded',
    description: 'a blob is kept without checking that it is base64',
    patches: [{ file: 'protocol.ts', find: "    if (encoding === 'blob' && !isBase64(body)) return", replace: "    if (encoding === 'blob' && !isBase64(body) && body.length < 0) return" }],
    scenarios: [scenario],
    invariants: ['malformed_read_accepted'],
  },
  {
    name: 'read-empty-contents-is-not-found',
    description: 'an answer with no content item is taken as resource-not-found',
    patches: [{ file: 'protocol.ts', find: "  if (contents.length === 0) return rejected('MalformedResponse', 'resources/read result.contents is empty');", replace: "  if (contents.length === 0) return { type: 'not-found' };" }],
    scenarios: [scenario],
    invariants: ['malformed_read_accepted'],
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...lenientReadParsers]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bugs of a lenient read parser', () => {
  it.each(lenientReadParsers.map((bug) => [bug.name, bug] as const))('%s: the malformed-read-response scenario catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
    expectCaughtAndShrunk('reads', rootSeed, searchInterleavings, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, scenario);
  });
}, 600_000);
