/**
 * The store conformance suite, shared by the PGlite test (pg-store.test.ts, in `npm test`) and the real
 * server test (pg-driver.test.ts, `npm run test:pg`): simulator schedules replayed against a PgStore. Every
 * store application of an interleaving (conditional-upsert profile, the guarantee the SQL gives) is applied
 * in the same order; after each one the rows SQL returns for that URI equal the simulated store's, and at
 * the end the read path and the end-of-run invariants, judged on what SQL returns, hold. Then the runtime
 * over the same store. URIs carry a namespace, so a server that keeps data between runs never mixes two.
 * Test support: not in the build.
 */
import { expect, test } from 'vitest';
import { checkerFactories } from './checkers/registry.js';
import type { TruthView } from './checkers/checker.js';
import { fakeModel } from './embedding.js';
import { indexerConfig } from './indexers.js';
import { Chooser, contentDigest, deriveSeed } from './kernel-imports.js';
import type { PgStore } from './pg-store.js';
import { readIndex } from './read-path.js';
import { IndexerRuntime } from './runtime.js';
import { IndexerWorld } from './sim-world.js';
import type { ChunkRow, VectorWrite } from './types.js';

const key = (row: ChunkRow): string => `${row.model}/${row.slot}/${row.position}@${row.sequence}:${row.chunkHash}`;
const keys = (rows: readonly ChunkRow[]): string[] => rows.map(key).sort();

export function storeConformance(storeOf: () => PgStore, namespace: string, schedules = 6): void {
  test('the version guard in SQL keeps the newer row and a purge tombstone rejects older rows', async () => {
    const store = storeOf();
    const uri = `mcp://t/x#${namespace}`;
    const row = (sequence: number, text: string): ChunkRow => ({ uri, model: 'fake-a', slot: 0, position: 0, sequence, chunkHash: text, text, vector: fakeModel('fake-a').embed(text) });
    const write = (sequence: number, text: string): VectorWrite => ({ writeId: sequence, uri, model: 'fake-a', slot: 0, sequence, rows: [row(sequence, text)], deleteFromPosition: 1, purge: false });
    await store.apply(write(5, 'kalox newer'));
    await store.apply(write(3, 'kalox older'));
    expect((await store.rowsOf(uri)).map((found) => found.sequence)).toEqual([5]);
    await store.apply({ ...write(6, ''), rows: [], deleteFromPosition: 0, purge: true });
    await store.apply(write(5, 'kalox newer'));
    expect(await store.rowsOf(uri)).toEqual([]);
  });

  test('replayed simulator schedules: SQL rows equal the simulated store after every write; invariants hold on what SQL returns', async () => {
    const store = storeOf();
    let writes = 0;
    for (let index = 0; index < schedules; index++) {
      const seed = deriveSeed(77, index);
      const tag = `#${namespace}${index}`;
      const world = new IndexerWorld(Chooser.seeded(seed, false), indexerConfig('reference')!, { trace: false, record: false, stopAt: null, storeProfile: 'conditional-upsert', recordStore: true });
      world.run();
      expect(world.violations).toEqual([]);
      for (const application of world.storeLog) {
        if (application.write === null) await store.lose(`${application.uri}${tag}`);
        else await store.apply(namespaced(application.write, tag), application.rowsMax);
        const sqlRows = await store.rowsOf(`${application.uri}${tag}`);
        expect(keys(sqlRows), `seed ${seed}, write ${application.write?.writeId ?? 'data loss'}`).toEqual(keys(application.rowsAfter));
        writes++;
      }
      const sqlRowsByUri = new Map<string, ChunkRow[]>();
      for (const uri of world.uris) sqlRowsByUri.set(uri, (await store.rowsOf(`${uri}${tag}`)).map((row) => ({ ...row, uri })));
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
    expect((await store.summaries()).length).toBeGreaterThan(0);
  }, 120_000);
}

export function runtimeConformance(storeOf: () => PgStore, namespace: string): void {
  test('the runtime indexes change entries into SQL, serves them through the read path, answers a nearest-chunk query, purges a delete', async () => {
    const store = storeOf();
    const runtime = new IndexerRuntime({ store, config: { debounceMsDefault: 20, debounceMsByType: {}, storeRetryMs: 200 } });
    const a = `mcp://rt/a#${namespace}`;
    const b = `mcp://rt/b#${namespace}`;
    const body = (words: string): string => `${words} the of and.\n\nlomix pamix vix is here.\n`;
    const entry = (uri: string, sequence: number, text: string) => ({ uri, sequence, operation: 'upsert' as const, digest: contentDigest(text), contentType: 'document', text, subject: 'alice' });
    runtime.enqueue(entry(a, 1, body('kalox nekx dorx')));
    runtime.enqueue(entry(b, 2, body('zufax golx hesx')));
    await runtime.idle();
    const read = await runtime.read(a);
    expect(read.served && read.rows.map((row) => row.sequence)).toEqual([1, 1]);
    const nearest = await runtime.query('zufax golx hesx the of and.', 1);
    expect(nearest[0]!.uri).toBe(b);
    runtime.enqueue({ ...entry(b, 3, ''), operation: 'delete', text: null });
    await runtime.idle();
    expect((await runtime.read(b)).served).toBe(false);
    expect(await store.rowsOf(b)).toEqual([]);
    expect((await runtime.query('zufax golx hesx the of and.', 5)).every((hit) => hit.uri !== b)).toBe(true);
    runtime.close();
  }, 60_000);
}

/** Each interleaving gets its own URIs in the shared database. */
function namespaced<T extends { uri: string; rows: ChunkRow[] }>(write: T, tag: string): T {
  return { ...write, uri: `${write.uri}${tag}`, rows: write.rows.map((row) => ({ ...row, uri: `${row.uri}${tag}` })) };
}
