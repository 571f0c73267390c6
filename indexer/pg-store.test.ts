/**
 * Conformance (bounded, in `npm test`): the store conformance suite (pg-conformance.ts) against the real
 * PGlite + pgvector store in process — simulator schedules replayed with the invariants judged on what
 * SQL returns, then the indexer runtime over the same store.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { dimensions } from './embedding.js';
import { runtimeConformance, storeConformance } from './pg-conformance.js';
import { openPgliteStore, type PgStore } from './pg-store.js';

let pg: { store: PgStore; close: () => Promise<void> };
beforeAll(async () => {
  pg = await openPgliteStore(dimensions);
}, 60_000);
afterAll(async () => pg?.close());

describe('PGlite store conformance', () => {
  storeConformance(() => pg.store, 'pglite');
});

describe('indexer runtime over PGlite', () => {
  runtimeConformance(() => pg.store, 'pglite');
});
