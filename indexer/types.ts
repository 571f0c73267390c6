/**
 * The indexer's inputs, effects and state: plain JSON data (SPEC §14). Inputs are past-tense facts with
 * `nowMs`; effects are commands for the runtime (or the simulator) and recorded facts for the checkers.
 * Durable state survives a crash (it is the resource_meta table, the vector outbox, the embedding cache and
 * the model registry); volatile state (debounce windows, semantic tasks, the circuit breaker, timers) does not.
 */

/** One outbox entry of the fenced client (core OutboxEntryWritten) plus what the runtime attaches to it. */
export interface ChangeEntry {
  uri: string;
  /** The client's outbox sequence: monotone, so it orders every change of one URI. */
  sequence: number;
  operation: 'upsert' | 'delete' | 'invalidate';
  digest: string;
  contentType: string;
  /** The content of an upsert (null for delete and invalidate). */
  text: string | null;
  /** Lineage: the subject the content was read for and the derived entries the client wrote. */
  subject: string;
}

export interface SourceObservation {
  uri: string;
  sequence: number;
  deleted: boolean;
  digest: string;
  contentType: string;
  text: string | null;
}

/** What the store holds for one (uri, model): the sequence of each chunk position. */
export interface StoreSummary {
  uri: string;
  model: string;
  slot: number;
  sequences: number[];
}

export type EmbedFailure = 'timeout' | 'rate-limited' | 'outage';

export type TimerKind = 'debounce' | 'embed-retry' | 'store-retry' | 'reconcile';

export type IndexerInput =
  | { type: 'ChangeArrived'; nowMs: number; entry: ChangeEntry }
  | { type: 'TimerFired'; nowMs: number; kind: TimerKind; key: string }
  | { type: 'EmbedResponded'; nowMs: number; requestId: number; vectors: (number[] | null)[]; model: string }
  | { type: 'EmbedFailed'; nowMs: number; requestId: number; reason: EmbedFailure; retryAfterMs: number }
  | { type: 'StoreAcked'; nowMs: number; writeId: number }
  | { type: 'HashPassObserved'; nowMs: number; passId: number; sources: SourceObservation[]; store: StoreSummary[] }
  | { type: 'ModelUpgradeRequested'; nowMs: number; model: string }
  | { type: 'ModelRollbackRequested'; nowMs: number }
  | { type: 'Started'; nowMs: number };

/** A row of the vector store, keyed by (uri, model, slot, position). */
export interface ChunkRow {
  uri: string;
  model: string;
  /** Double buffering: a new version is written into the slot reads do not use, then published. */
  slot: number;
  position: number;
  sequence: number;
  chunkHash: string;
  text: string;
  vector: number[];
}

export interface VectorWrite {
  writeId: number;
  uri: string;
  model: string;
  slot: number;
  /** The version these rows belong to (the version guard compares it). */
  sequence: number;
  rows: ChunkRow[];
  /** Delete this (uri, model, slot)'s rows at positions >= this. */
  deleteFromPosition: number;
  /** A purge of a deleted or revoked resource: every row of the URI, every model and slot. */
  purge: boolean;
}

export type IndexerEffect =
  | { type: 'MetadataCommitted'; uri: string; sequence: number; hash: string; status: MetaStatus; deleted: boolean }
  | { type: 'EventIgnored'; uri: string; sequence: number; reason: string }
  | { type: 'EmbedRequested'; requestId: number; uri: string; model: string; texts: string[] }
  | {
      type: 'SemanticDecided';
      uri: string;
      model: string;
      sequence: number;
      /** The published version the new content was compared with (null: nothing confirmed yet). */
      baseSequence: number | null;
      similarity: number | null;
      /** The model that produced the confirmed vectors compared against. */
      comparedModel: string | null;
      refresh: boolean;
    }
  | { type: 'VectorWriteRequested'; write: VectorWrite }
  | { type: 'IndexPublished'; uri: string; model: string; sequence: number }
  | { type: 'HashPassRequested'; passId: number; full: boolean; uris: string[] | null }
  | { type: 'DriftFound'; uri: string; sequence: number; kind: 'source' | 'store' | 'semantic' }
  | { type: 'TimerArmed'; kind: TimerKind; key: string; atMs: number }
  | { type: 'ReadsSwitched'; model: string; previous: string }
  | { type: 'MigrationStarted'; model: string }
  | { type: 'MigrationAbandoned'; model: string; reason: string };

export type MetaStatus = 'pending' | 'synced' | 'stale';

/** What is published (readable) for one model of one URI. */
export interface IndexedVersion {
  /** The version whose rows the read path serves. */
  sequence: number;
  slot: number;
  /** The model whose vectors the manifest's chunks were embedded with (equals the key unless swapped in place). */
  model: string;
  /** Chunk hashes of that version, by position (the confirmed manifest). */
  manifest: string[];
  /** The content hash last judged for this model (semantically equal to the published version). */
  checkedHash: string;
}

export interface UriMeta {
  sequence: number;
  hash: string;
  status: MetaStatus;
  contentType: string;
  text: string | null;
  lastSyncMs: number;
  deleted: boolean;
  /** The sequence of the delete or invalidation (kept: an older upsert arriving late must not resurrect). */
  tombstoneSequence: number;
  subject: string;
  /** Force a rewrite of the published rows (the store was found out of step). */
  repair: boolean;
  indexed: Record<string, IndexedVersion>;
}

export interface ModelRegistry {
  active: string;
  /** A migration in progress: new vectors are written beside the old, reads stay on `active`. */
  target: string | null;
  /** The model reads used before the last switch, kept up to date for rollback. */
  previous: string | null;
}

export interface DurableState {
  meta: Record<string, UriMeta>;
  outbox: Record<string, VectorWrite>;
  /**
   * Embedding cache: bucket (model + '|' + the chunk hash's first hex digit) -> chunk hash -> vector.
   * Bucketed so a step that adds a vector copies one small bucket, not the whole cache.
   */
  embeddings: Record<string, Record<string, number[]>>;
  models: ModelRegistry;
  nextWriteId: number;
  nextPassId: number;
  passesDone: number;
  lastPassAtMs: number;
}

export interface SemanticTask {
  uri: string;
  model: string;
  baseSequence: number;
  requestId: number;
  attempts: number;
  /** Texts asked for, in request order (chunks missing from the cache). */
  texts: string[];
}

export interface VolatileState {
  tasks: Record<string, SemanticTask>;
  /** Semantic tasks by request id -> uri|model. */
  requests: Record<string, string>;
  timers: Record<string, number>;
  breakerFailures: number;
  breakerOpenUntilMs: number;
  nextRequestId: number;
}

export interface IndexerState {
  config: IndexerConfig;
  durable: DurableState;
  volatile: VolatileState;
}

export interface NaiveFlags {
  /** Apply every event in arrival order (no version guard). */
  noVersionGuard: boolean;
  /** Write the store without an outbox: one attempt, no retry, no verification. */
  noOutbox: boolean;
  /** Write the store first, then the bookkeeping; never verify the store (the LangChain shape). */
  storeFirstNoVerify: boolean;
  /** Delete the old rows, then insert the new ones (two writes). */
  deleteThenInsert: boolean;
  /** Refresh on every hash change. */
  refreshOnAnyChange: boolean;
  /** Compare with the previous version instead of the last confirmed one. */
  compareWithPrevious: boolean;
  /** The document's literal rule: resource-level similarity, 0.7-0.85 updates the fingerprint only. */
  literalBand: boolean;
  /** Commit metadata only after the embedding returns. */
  embedBlocksMetadata: boolean;
  /** A delete drops the metadata row (no tombstone). */
  noTombstone: boolean;
  /** Swap the model in place: reads switch at once. */
  inPlaceModelSwap: boolean;
  /** Reconciliation samples 10 % of the URIs instead of a full hash pass. */
  sampledReconciliation: boolean;
}

export interface IndexerConfig {
  /** Debounce window per content type (default for types not listed: `debounceMsDefault`). */
  debounceMsByType: Record<string, number>;
  debounceMsDefault: number;
  /** Similarity threshold per model (chunk level): below it the chunk changed. */
  thresholdByModel: Record<string, number>;
  reconcilePeriodMs: number;
  embedRetryMsBase: number;
  embedRetryMsMax: number;
  storeRetryMs: number;
  breakerFailuresMax: number;
  breakerOpenMs: number;
  initialModel: string;
  naive: NaiveFlags;
}
