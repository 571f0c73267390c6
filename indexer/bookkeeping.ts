/**
 * The indexer's bookkeeping leaves, shared by the loops: recording a metadata commit, sending a vector
 * write through the outbox, settling a row's status, cancelling a URI's task.
 */
import type { Draft } from './draft.js';
import { covered, modelsInUse } from './models.js';
import type { IndexedVersion, UriMeta, VectorWrite } from './types.js';

export function commitEffect(d: Draft, uri: string, row: UriMeta): void {
  d.emit({ type: 'MetadataCommitted', uri, sequence: row.sequence, hash: row.hash, status: row.status, deleted: row.deleted });
}

export function enqueueWrite(d: Draft, write: VectorWrite): void {
  const naive = d.config.naive;
  if (!naive.noOutbox && !naive.storeFirstNoVerify) {
    d.putWrite(write);
    d.armTimer('store-retry', String(write.writeId), d.nowMs + d.config.storeRetryMs);
  } else if (!write.purge) {
    d.putWrite(write);
  }
  d.emit({ type: 'VectorWriteRequested', write });
}

export function settleStatus(d: Draft, uri: string, row: UriMeta): void {
  const synced = modelsInUse(d).every((model) => covered(row, model));
  const status = synced ? 'synced' : 'pending';
  if (row.status === status && !d.config.naive.embedBlocksMetadata) return;
  row.status = status;
  commitEffect(d, uri, row);
}

export function cancelTask(d: Draft, uri: string): void {
  if (d.v.tasks[uri] !== undefined) d.putTask(uri, undefined);
}

export function publishedSlot(indexed: IndexedVersion): number {
  return indexed.slot;
}

/** Naive delete-then-insert: the rows go before the new ones are even embedded. */
export function purgeBeforeEmbedding(d: Draft, uri: string, sequence: number): void {
  enqueueWrite(d, { writeId: d.allocateWriteId(), uri, model: '*', slot: 0, sequence, rows: [], deleteFromPosition: 0, purge: true });
}
