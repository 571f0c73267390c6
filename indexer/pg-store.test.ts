/**
 * Conformance (bounded): simulator schedules replayed against the real PGlite + pgvector store. Every
 * store application of an interleaving (conditional-upsert profile, the guarantee the SQL gives) is
 * applied to PGlite in the same order; after each one the rows SQL returns for that URI equal the
 * simulated store's, and at the end the read path and the end-of-run invariants, judged on what SQL
 * returns, hold.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkerFactories } from './checkers/registry.js';
import type { TruthView } from './checkers/checker.js';
import { dimensions, fakeModel } from './embedding.js';
import { indexerConfig } from './indexers.js';
import { Chooser, deriveSeed } from './kernel-imports.js';
import { openPgliteStore, type PgStore } from './pg-store.js';
import { readIndex } from './read-path.js';
import { IndexerWorld } from './sim-world.js';
import type { ChunkRow } from './types.js';
import { IndexerRuntime } from './runtime.js';
import { contentDigest } from './kernel-imports.js';

const key = (row: ChunkRow): string => `${row.model}/${row.slot}/${row.position}@${row.sequence}:${row.chunkHash}`;
const keys = (rows: readonly ChunkRow[]): string[] => rows.map(key).sort();

let pg: { store: PgStore; close: () => Promise<void> };
beforeAll(async () => {
  pg = await openPgliteStore(dimensions);
}, 60_000);
afterAll(async () => pg?.close());

describe('PGlite store conformance', () => {
  test('the version guard in SQL keeps the newer row and a purge tombstone rejects older rows', async () => {
    const row = (sequence: number, text: string): ChunkRow => ({ uri: 'mcp://t/x', model: 'fake-a', slot: 0, position: 0, sequence, chunkHash: text, text, vector: fakeModel('fake-a').embed(text) });
    const write = (sequence: number, text: string) => ({ writeId: sequence, uri: 'mcp://t/x', model: 'fake-a', slot: 0, sequence, rows: [row(sequence, text)], deleteFromPosition: 1, purge: false });
    await pg.store.apply(write(5, 'kalox newer'));
    await pg.store.apply(write(3, 'kalox older'));
    expect((await pg.store.rowsOf('mcp://t/x')).map((found) => found.sequence)).toEqual([5]);
    await pg.store.apply({ ...write(6, ''), rows: [], deleteFromPosition: 0, purge: true });
    await pg.store.apply(write(5, 'kalox newer'));
    expect(await pg.store.rowsOf('mcp://t/x')).toEqual([]);
  });

  test('replayed simulator schedules: SQL rows equal the simulated store after every write; invariants hold on what SQL returns', async () => {
    let writes = 0;
    for (let index = 0; index < 6; index++) {
      const seed = deriveSeed(77, index);
      const world = new IndexerWorld(Chooser.seeded(seed, false), indexerConfig('reference')!, { trace: false, record: false, stopAt: null, storeProfile: 'conditional-upsert', recordStore: true });
      world.run();
      expect(world.violations).toEqual([]);
      for (const application of world.storeLog) {
        if (application.write === null) await pg.store.lose(`${application.uri}#${index}`);
        else await pg.store.apply(namespaced(application.write, index), application.rowsMax);
        const sqlRows = await pg.store.rowsOf(`${application.uri}#${index}`);
        expect(keys(sqlRows), `seed ${seed}, write ${application.write?.writeId ?? 'data loss'}`).toEqual(keys(application.rowsAfter));
        writes++;
      }
      const sqlRowsByUri = new Map<string, ChunkRow[]>();
      for (const uri of world.uris) sqlRowsByUri.set(uri, (await pg.store.rowsOf(`${uri}#${index}`)).map((row) => ({ ...row, uri })));
      const view: TruthView = Object.assign(Object.create(world) as TruthView, { store: { rowsOf: (uri: string) => sqlRowsByUri.get(uri) ?? [] } });
      for (const uri of world.uris) {
        const read = readIndex(world.state, uri, sqlRowsByUri.get(uri)!);
        for (const checker of checkerFactories.map((factory) => factory())) {
          if (checker.onRead !== undefined) expect(checker.onRead(view, uri, read)).toBeNull();
        }
      }
      for (const checker of checkerFactories.map((factory) => factory())) if (checker.atEnd !== undefined) expect(checker.atEnd(view), checker.invariant).toBeNull();
    }
    expect(writes).toBeGreaterThan(20);
    const summaries = await pg.store.summaries();
    expect(summaries.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('indexer runtime over PGlite', () => {
  test('indexes change entries into SQL, serves them through the read path, answers a nearest-chunk query, purges a delete', async () => {
    const runtime = new IndexerRuntime({ store: pg.store, config: { debounceMsDefault: 20, debounceMsByType: {}, storeRetryMs: 200 } });
    const body = (words: string): string => `${words} the of and.\n\nlomix pamix vix is here.\n`;
    const entry = (uri: string, sequence: number, text: string) => ({ uri, sequence, operation: 'upsert' as const, digest: contentDigest(text), contentType: 'document', text, subject: 'alice' });
    runtime.enqueue(entry('mcp://rt/a', 1, body('kalox nekx dorx')));
    runtime.enqueue(entry('mcp://rt/b', 2, body('zufax golx hesx')));
    await runtime.idle();
    const read = await runtime.read('mcp://rt/a');
    expect(read.served && read.rows.map((row) => row.sequence)).toEqual([1, 1]);
    const nearest = await runtime.query('zufax golx hesx the of and.', 1);
    expect(nearest[0]!.uri).toBe('mcp://rt/b');
    runtime.enqueue({ ...entry('mcp://rt/b', 3, ''), operation: 'delete', text: null });
    await runtime.idle();
    expect((await runtime.read('mcp://rt/b')).served).toBe(false);
    expect(await pg.store.rowsOf('mcp://rt/b')).toEqual([]);
    expect((await runtime.query('zufax golx hesx the of and.', 5)).every((hit) => hit.uri !== 'mcp://rt/b')).toBe(true);
    runtime.close();
  }, 60_000);
});

/** Each interleaving gets its own URIs in the shared database. */
function namespaced<T extends { uri: string; rows: ChunkRow[] }>(write: T, index: number): T {
  return { ...write, uri: `${write.uri}#${index}`, rows: write.rows.map((row) => ({ ...row, uri: `${row.uri}#${index}` })) };
}
