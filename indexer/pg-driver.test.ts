/**
 * The `pg` driver path: the same PgStore over a real Postgres server with pgvector, through node-postgres.
 * Runs only when FENCESIM_PG_URL names a reachable server and `pg` is installed (see the README: a
 * `pgvector/pgvector` container); otherwise it is skipped and the reason is printed.
 */
import { describe, expect, test } from 'vitest';
import { dimensions } from './embedding.js';
import { contentDigest } from './kernel-imports.js';
import { PgStore } from './pg-store.js';
import { IndexerRuntime } from './runtime.js';

const url = process.env.FENCESIM_PG_URL;

async function connect(): Promise<{ store: PgStore; end: () => Promise<void> } | string> {
  if (url === undefined || url === '') return 'FENCESIM_PG_URL is not set (no Postgres server to test against)';
  let pg: { Pool: new (options: { connectionString: string }) => { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>; end(): Promise<void> } };
  try {
    pg = (await import('pg' as string)) as typeof pg;
  } catch {
    return 'the pg package is not installed (npm install pg)';
  }
  const pool = new pg.Pool({ connectionString: url });
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    return `no server answers at FENCESIM_PG_URL: ${error instanceof Error ? error.message : String(error)}`;
  }
  const store = new PgStore({ query: (sql, params) => pool.query(sql, params) as never });
  await store.init(dimensions);
  return { store, end: () => pool.end() };
}

const connection = await connect();
if (typeof connection === 'string') console.log(`indexer/pg-driver.test.ts skipped: ${connection}`);

describe('PgStore through the pg driver', () => {
  test.skipIf(typeof connection === 'string')('indexes, serves through the read path and purges a delete, with the version guard in SQL', async () => {
    const { store, end } = connection as Exclude<typeof connection, string>;
    const runtime = new IndexerRuntime({ store, config: { debounceMsDefault: 20, debounceMsByType: {}, storeRetryMs: 200 } });
    const uri = `mcp://pg-driver/${Date.now()}`;
    const text = 'kalox nekx dorx the of and.\n\nlomix pamix vix is here.\n';
    runtime.enqueue({ uri, sequence: 1, operation: 'upsert', digest: contentDigest(text), contentType: 'document', text, subject: 'alice' });
    await runtime.idle();
    const read = await runtime.read(uri);
    expect(read.served && read.rows.map((row) => row.sequence)).toEqual([1, 1]);
    runtime.enqueue({ uri, sequence: 2, operation: 'delete', digest: '', contentType: '', text: null, subject: 'alice' });
    await runtime.idle();
    expect((await runtime.read(uri)).served).toBe(false);
    expect(await store.rowsOf(uri)).toEqual([]);
    runtime.close();
    await end();
  }, 60_000);
});
