/**
 * The vector store in Postgres with pgvector, in the document's schema shape: `resource_meta` (one row per
 * URI: version, SHA-256, status, last sync, the published version per model), the `vector_outbox`, and
 * `chunks` (one row per (uri, model, slot, position) with its version and embedding). The version guard is
 * in SQL: `INSERT ... ON CONFLICT ... DO UPDATE ... WHERE chunks.seq < EXCLUDED.seq` keeps the newer row,
 * and a purge leaves a tombstone that rejects older rows. Each write is one transaction.
 *
 * The embedding column is pgvector's `VECTOR(n)` by default. A server without the extension (Debian 12's
 * apt has PostgreSQL 15 but no pgvector package) can run the same schema with `DOUBLE PRECISION[]` and a
 * SQL cosine-distance function (`vectorColumn: 'array'`, or `'auto'`: pgvector when it can be created).
 * Everything else — the version guard, tombstones, transactions — is the same SQL either way.
 *
 * `SqlClient` is the part of a driver this needs: PGlite (in-process, the default; `openPgliteStore`) and
 * node-postgres's Pool (`new PgStore(pool)`) both fit it.
 */
import type { ChunkRow, StoreSummary, UriMeta, VectorWrite } from './types.js';

export interface SqlClient {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec?(sql: string): Promise<unknown>;
}

/** How embeddings are stored: pgvector's type, or a plain float array (no extension needed). */
export type VectorColumn = 'pgvector' | 'array';

const arrayCosineSql = `CREATE OR REPLACE FUNCTION fencesim_cosine_distance(a DOUBLE PRECISION[], b DOUBLE PRECISION[]) RETURNS DOUBLE PRECISION
  LANGUAGE sql IMMUTABLE AS $$ SELECT 1 - sum(x * y) / NULLIF(sqrt(sum(x * x)) * sqrt(sum(y * y)), 0) FROM unnest(a, b) AS t(x, y) $$`;

export const schemaSql = (dimensions: number, column: VectorColumn = 'pgvector'): string[] => [
  column === 'pgvector' ? 'CREATE EXTENSION IF NOT EXISTS vector' : arrayCosineSql,
  `CREATE TABLE IF NOT EXISTS resource_meta (
     uri TEXT PRIMARY KEY, seq BIGINT NOT NULL, content_hash TEXT NOT NULL, status TEXT NOT NULL,
     content_type TEXT NOT NULL, last_sync_ms BIGINT NOT NULL, deleted BOOLEAN NOT NULL, tombstone_seq BIGINT NOT NULL,
     subject TEXT NOT NULL, indexed JSONB NOT NULL)`,
  'CREATE TABLE IF NOT EXISTS vector_outbox (write_id BIGINT PRIMARY KEY, uri TEXT NOT NULL, body JSONB NOT NULL)',
  `CREATE TABLE IF NOT EXISTS chunks (
     uri TEXT NOT NULL, model TEXT NOT NULL, slot INT NOT NULL, position INT NOT NULL, seq BIGINT NOT NULL,
     chunk_hash TEXT NOT NULL, body TEXT NOT NULL, embedding ${column === 'pgvector' ? `VECTOR(${dimensions})` : 'DOUBLE PRECISION[]'} NOT NULL,
     PRIMARY KEY (uri, model, slot, position))`,
  'CREATE TABLE IF NOT EXISTS chunk_tombstones (uri TEXT PRIMARY KEY, seq BIGINT NOT NULL)',
];

const upsertSql = (cast: string): string => `INSERT INTO chunks (uri, model, slot, position, seq, chunk_hash, body, embedding)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::${cast})
  ON CONFLICT (uri, model, slot, position) DO UPDATE
  SET seq = EXCLUDED.seq, chunk_hash = EXCLUDED.chunk_hash, body = EXCLUDED.body, embedding = EXCLUDED.embedding
  WHERE chunks.seq < EXCLUDED.seq`;

interface ChunkRecord {
  uri: string;
  model: string;
  slot: number;
  position: number;
  seq: string | number;
  chunk_hash: string;
  body: string;
  embedding: string;
}

export class PgStore {
  private column: VectorColumn = 'pgvector';

  constructor(private readonly client: SqlClient, private readonly transact: <T>(work: (client: SqlClient) => Promise<T>) => Promise<T> = (work) => work(client)) {}

  /** The embedding column in use (known after `init`). */
  get vectorColumn(): VectorColumn {
    return this.column;
  }

  /** Creates the schema; `auto` falls back to the array column when `CREATE EXTENSION vector` fails. */
  async init(dimensions: number, column: VectorColumn | 'auto' = 'pgvector'): Promise<void> {
    this.column = column === 'array' ? 'array' : 'pgvector';
    if (column === 'auto') this.column = (await this.client.query('CREATE EXTENSION IF NOT EXISTS vector').then(() => true, () => false)) ? 'pgvector' : 'array';
    for (const sql of schemaSql(dimensions, this.column)) {
      await this.client.query(sql).catch((error: unknown) => {
        if (this.column === 'pgvector' && sql.includes('EXTENSION')) {
          throw new Error(`CREATE EXTENSION vector failed (is pgvector installed on the server?); init(dimensions, 'array') stores embeddings as DOUBLE PRECISION[] instead: ${String(error)}`);
        }
        throw error;
      });
    }
  }

  private literal(vector: readonly number[]): string {
    return this.column === 'pgvector' ? vectorLiteral(vector) : '{' + vector.join(',') + '}';
  }

  /** Applies a write (the first `rowsMax` rows only, to mirror a store that committed part of a batch). */
  async apply(write: VectorWrite, rowsMax = write.rows.length): Promise<void> {
    await this.transact(async (tx) => {
      if (write.purge) {
        await tx.query('DELETE FROM chunks WHERE uri = $1 AND seq <= $2', [write.uri, write.sequence]);
        await tx.query(`INSERT INTO chunk_tombstones (uri, seq) VALUES ($1, $2)
          ON CONFLICT (uri) DO UPDATE SET seq = EXCLUDED.seq WHERE chunk_tombstones.seq < EXCLUDED.seq`, [write.uri, write.sequence]);
        return;
      }
      const tombstone = await tx.query<{ seq: string | number }>('SELECT seq FROM chunk_tombstones WHERE uri = $1', [write.uri]);
      if (tombstone.rows.length > 0 && Number(tombstone.rows[0]!.seq) >= write.sequence) return;
      const count = Math.min(rowsMax, write.rows.length);
      for (const row of write.rows.slice(0, count)) {
        await tx.query(upsertSql(this.column === 'pgvector' ? 'vector' : 'float8[]'), [row.uri, row.model, row.slot, row.position, row.sequence, row.chunkHash, row.text, this.literal(row.vector)]);
      }
      if (count < write.rows.length) return;
      await tx.query('DELETE FROM chunks WHERE uri = $1 AND model = $2 AND slot = $3 AND position >= $4 AND seq <= $5', [
        write.uri, write.model, write.slot, write.deleteFromPosition, write.sequence,
      ]);
    });
  }

  /** Data loss (the simulator's fault, for conformance): every row and tombstone of a URI gone. */
  async lose(uri: string): Promise<void> {
    await this.client.query('DELETE FROM chunks WHERE uri = $1', [uri]);
    await this.client.query('DELETE FROM chunk_tombstones WHERE uri = $1', [uri]);
  }

  async rowsOf(uri: string): Promise<ChunkRow[]> {
    const result = await this.client.query<ChunkRecord>(
      'SELECT uri, model, slot, position, seq, chunk_hash, body, embedding::text AS embedding FROM chunks WHERE uri = $1 ORDER BY model, slot, position', [uri]);
    return result.rows.map((record) => toChunkRow(record, this.column));
  }

  async summaries(): Promise<StoreSummary[]> {
    const result = await this.client.query<{ uri: string; model: string; slot: number; sequences: (string | number)[] }>(
      `SELECT uri, model, slot, array_agg(seq ORDER BY position) AS sequences FROM chunks GROUP BY uri, model, slot ORDER BY uri, model, slot`);
    return result.rows.map((row) => ({ uri: row.uri, model: row.model, slot: row.slot, sequences: row.sequences.map(Number) }));
  }

  /** Nearest chunks to a query vector among the published versions (cosine distance, pgvector's `<=>`). */
  async nearest(vector: readonly number[], model: string, limit: number): Promise<{ uri: string; position: number; seq: number; body: string; distance: number }[]> {
    const result = await this.client.query<{ uri: string; position: number; seq: string | number; body: string; distance: number }>(
      `SELECT c.uri, c.position, c.seq, c.body, ${this.column === 'pgvector' ? 'c.embedding <=> $1::vector' : 'fencesim_cosine_distance(c.embedding, $1::float8[])'} AS distance
         FROM chunks c JOIN resource_meta m ON m.uri = c.uri
        WHERE NOT m.deleted AND c.model = $2
          AND c.slot = (m.indexed -> $2 ->> 'slot')::int AND c.seq = (m.indexed -> $2 ->> 'sequence')::bigint
        ORDER BY distance LIMIT $3`, [this.literal(vector), model, limit]);
    return result.rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }

  async saveMeta(uri: string, row: UriMeta | undefined): Promise<void> {
    if (row === undefined) {
      await this.client.query('DELETE FROM resource_meta WHERE uri = $1', [uri]);
      return;
    }
    await this.client.query(`INSERT INTO resource_meta (uri, seq, content_hash, status, content_type, last_sync_ms, deleted, tombstone_seq, subject, indexed)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
      ON CONFLICT (uri) DO UPDATE SET seq = EXCLUDED.seq, content_hash = EXCLUDED.content_hash, status = EXCLUDED.status,
        content_type = EXCLUDED.content_type, last_sync_ms = EXCLUDED.last_sync_ms, deleted = EXCLUDED.deleted,
        tombstone_seq = EXCLUDED.tombstone_seq, subject = EXCLUDED.subject, indexed = EXCLUDED.indexed`,
      [uri, row.sequence, row.hash, row.status, row.contentType, row.lastSyncMs, row.deleted, row.tombstoneSequence, row.subject, JSON.stringify(row.indexed)]);
  }

  async saveOutbox(writes: readonly VectorWrite[]): Promise<void> {
    await this.transact(async (tx) => {
      await tx.query('DELETE FROM vector_outbox');
      for (const write of writes) await tx.query('INSERT INTO vector_outbox (write_id, uri, body) VALUES ($1, $2, $3)', [write.writeId, write.uri, JSON.stringify(write)]);
    });
  }
}

export function vectorLiteral(vector: readonly number[]): string {
  return '[' + vector.join(',') + ']';
}

function toChunkRow(record: ChunkRecord, column: VectorColumn): ChunkRow {
  // pgvector prints `[1,2]`, a float array `{1,2}`.
  const text = column === 'pgvector' ? record.embedding : '[' + record.embedding.slice(1, -1) + ']';
  return {
    uri: record.uri, model: record.model, slot: record.slot, position: record.position, sequence: Number(record.seq),
    chunkHash: record.chunk_hash, text: record.body, vector: JSON.parse(text) as number[],
  };
}

/** PGlite in-process with pgvector (optional peer dependencies: loaded only when called). */
export async function openPgliteStore(dimensions: number, dataDir?: string): Promise<{ store: PgStore; close: () => Promise<void> }> {
  const [{ PGlite }, { vector }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-pgvector')]).catch((error: unknown) => {
    throw new Error(`the PGlite store needs the optional packages @electric-sql/pglite@0.5.14 and @electric-sql/pglite-pgvector@0.0.15 (npm install them): ${String(error)}`);
  });
  const database = new PGlite(dataDir === undefined ? { extensions: { vector } } : { dataDir, extensions: { vector } });
  const client: SqlClient = { query: (sql, params) => database.query(sql, params) as never };
  const store = new PgStore(client, (work) => database.transaction((tx) => work({ query: (sql, params) => tx.query(sql, params) as never })));
  await store.init(dimensions);
  return { store, close: () => database.close() };
}
