/**
 * The `pg` driver path: the store conformance suite (pg-conformance.ts, the same one PGlite passes in
 * `npm test`) and the runtime over a real Postgres server through node-postgres. `npm run test:pg`
 * (scripts/pg-test.mjs) starts a throwaway server and runs this file; by hand, FENCESIM_PG_URL names a
 * server. Without one it is skipped and the reason is printed. The embedding column is pgvector's when
 * the server can `CREATE EXTENSION vector`, a float array otherwise (FENCESIM_PG_VECTOR=pgvector|array|auto,
 * default auto); the version guard, tombstones and transactions are the same SQL either way.
 */
import { afterAll, describe } from 'vitest';
import { dimensions } from './embedding.js';
import { runtimeConformance, storeConformance } from './pg-conformance.js';
import { PgStore, type VectorColumn } from './pg-store.js';

const url = process.env.FENCESIM_PG_URL;
const column = (process.env.FENCESIM_PG_VECTOR ?? 'auto') as VectorColumn | 'auto';
const skipHint = 'run `npm run test:pg`, which starts a throwaway Postgres server for this test';

interface Pool {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<{ query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>; release(): void }>;
  end(): Promise<void>;
}

async function connect(): Promise<{ store: PgStore; end: () => Promise<void> } | string> {
  if (url === undefined || url === '') return `FENCESIM_PG_URL is not set (${skipHint})`;
  let pg: { default?: { Pool: new (options: { connectionString: string }) => Pool }; Pool?: new (options: { connectionString: string }) => Pool };
  try {
    pg = (await import('pg' as string)) as typeof pg;
  } catch {
    return 'the pg package is not installed (npm install pg)';
  }
  const PoolClass = (pg.Pool ?? pg.default?.Pool)!;
  const pool = new PoolClass({ connectionString: url });
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    return `no server answers at FENCESIM_PG_URL: ${error instanceof Error ? error.message : String(error)} (${skipHint})`;
  }
  const transact = async <T>(work: (client: { query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }> }) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({ query: (sql, params) => client.query(sql, params) as never });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
  const store = new PgStore({ query: (sql, params) => pool.query(sql, params) as never }, transact);
  await store.init(dimensions, column);
  console.log(`indexer/pg-driver.test.ts: Postgres at ${url.replace(/\/\/[^@]*@/, '//')}, embedding column: ${store.vectorColumn}`);
  return { store, end: () => pool.end() };
}

const connection = await connect();
if (typeof connection === 'string') console.log(`indexer/pg-driver.test.ts skipped: ${connection}`);
const namespace = `pg${Date.now()}`;
const storeOf = (): PgStore => (connection as Exclude<typeof connection, string>).store;

afterAll(async () => {
  if (typeof connection !== 'string') await connection.end();
});

describe.skipIf(typeof connection === 'string')('PgStore through the pg driver on a real server', () => {
  storeConformance(storeOf, namespace);
  runtimeConformance(storeOf, namespace);
});
