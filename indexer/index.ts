/** The indexer's public API (package subpath `fencesim/indexer`). */
export { defaultConfig, initialState, recover, referenceFlags, step } from './reducer.js';
export { readIndex, type ReadResult } from './read-path.js';
export { IndexerRuntime, EmbeddingError, type EmbedFunction, type IndexerRuntimeOptions, type OutboxSource } from './runtime.js';
export { PgStore, openPgliteStore, schemaSql, type SqlClient, type VectorColumn } from './pg-store.js';
export { fakeModel, fakeModelNames, cosine, dimensions } from './embedding.js';
export { runIndexerGate, runIndexerInterleaving } from './runner.js';
export { indexerConfig, indexerNames, naiveIndexers } from './indexers.js';
export type * from './types.js';
