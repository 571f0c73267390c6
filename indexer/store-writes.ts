/**
 * The vector outbox: every write (rows of one version into the unpublished slot, or a purge) is recorded
 * durably before it is sent, retried until the store acknowledges it, and idempotent (rows keyed by
 * (uri, model, slot, position) carrying their version). An acknowledged row write publishes its version
 * for reads, unless a newer one is already published or the resource was deleted or invalidated since.
 * Naive: without an outbox a write is sent once and forgotten.
 */
import type { Draft } from './draft.js';
import { maybeSwitch } from './models.js';
import { settleStatus } from './bookkeeping.js';
import { startNextTask } from './semantic-loop.js';

export function onStoreRetry(d: Draft, writeId: string): void {
  const write = d.d.outbox[writeId];
  if (write === undefined || d.config.naive.noOutbox || d.config.naive.storeFirstNoVerify) return;
  d.armTimer('store-retry', writeId, d.nowMs + d.config.storeRetryMs);
  d.emit({ type: 'VectorWriteRequested', write });
}

export function onStoreAcked(d: Draft, writeId: number): void {
  const write = d.d.outbox[String(writeId)];
  if (write === undefined) return;
  d.dropWrite(writeId);
  d.disarmTimer('store-retry', String(writeId));
  if (write.purge || d.config.naive.storeFirstNoVerify) return;
  const row = d.d.meta[write.uri];
  if (row === undefined || row.deleted) return;
  const published = row.indexed[write.model];
  // A newer version is published, or a delete or invalidation newer than this write arrived after a newer upsert
  // (withdrawOlder: the row lives on at the newer version, but what the write holds was withdrawn).
  const superseded = (published !== undefined && published.sequence > write.sequence) || write.sequence < row.tombstoneSequence;
  if (superseded && !d.config.naive.noVersionGuard) return;
  const writable = d.metaForWrite(write.uri)!;
  const manifest = write.rows.map((chunk) => chunk.chunkHash);
  const checkedHash = write.sequence === row.sequence ? row.hash : (published?.checkedHash ?? '');
  writable.indexed[write.model] = { sequence: write.sequence, slot: write.slot, model: write.model, manifest, checkedHash };
  d.emit({ type: 'IndexPublished', uri: write.uri, model: write.model, sequence: write.sequence });
  settleStatus(d, write.uri, writable);
  maybeSwitch(d);
  startNextTask(d, write.uri);
}

