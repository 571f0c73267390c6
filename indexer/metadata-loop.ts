/**
 * The fast loop: a change event commits the resource_meta row at once (sequence, SHA-256, sync time,
 * status pending), whatever the embedding service is doing, then arms the URI's debounce window (merging
 * into a window already open: the task reads the latest version when it fires). Deletes and revocation
 * invalidations bypass the debounce: the row becomes a tombstone at once (reads refuse from this step on),
 * semantic work on the URI is cancelled and a purge goes to the vector outbox.
 * Version guard: an event not newer than the row's sequence or tombstone is ignored.
 */
import type { Draft } from './draft.js';
import { modelsInUse } from './models.js';
import { cancelTask, commitEffect, enqueueWrite } from './bookkeeping.js';
import type { ChangeEntry, UriMeta } from './types.js';

export function onChange(d: Draft, entry: ChangeEntry): void {
  const row = d.d.meta[entry.uri];
  if (row !== undefined && !d.config.naive.noVersionGuard) {
    const newest = row.sequence > row.tombstoneSequence ? row.sequence : row.tombstoneSequence;
    if (entry.sequence <= newest) {
      if (entry.operation !== 'upsert' && !row.deleted) withdrawOlder(d, entry.uri, entry.sequence);
      d.emit({ type: 'EventIgnored', uri: entry.uri, sequence: entry.sequence, reason: `not newer than ${newest}` });
      return;
    }
  }
  if (entry.operation === 'upsert') acceptUpsert(d, entry, row);
  else acceptDeletion(d, entry, row);
}

function acceptUpsert(d: Draft, entry: ChangeEntry, row: UriMeta | undefined): void {
  const live = row !== undefined && !row.deleted;
  const next: UriMeta = {
    sequence: entry.sequence,
    hash: entry.digest,
    status: 'pending',
    contentType: entry.contentType,
    text: entry.text,
    lastSyncMs: d.nowMs,
    deleted: false,
    tombstoneSequence: row === undefined ? 0 : row.tombstoneSequence,
    subject: entry.subject,
    repair: live ? row.repair : false,
    indexed: live ? { ...row.indexed } : {},
  };
  if (modelsInUse(d).every((model) => next.indexed[model]?.checkedHash === next.hash && !next.repair)) next.status = 'synced';
  d.putMeta(entry.uri, next);
  if (!d.config.naive.embedBlocksMetadata || next.status === 'synced') commitEffect(d, entry.uri, next);
  if (next.status === 'pending' && d.timerAt('debounce', entry.uri) === undefined) {
    d.armTimer('debounce', entry.uri, d.nowMs + debounceMs(d, entry.contentType));
  }
}

/**
 * A delete or revocation older than the row but newer than what is published (it arrived after a newer
 * upsert): the newer content stays pending, but the published versions it deleted must not be served, and
 * neither may a write of an older version still in flight (its ack is fenced by `tombstoneSequence`,
 * store-writes.ts; index-gate seed 3957169151: v13's write acknowledged after v14's invalidation, served).
 */
function withdrawOlder(d: Draft, uri: string, sequence: number): void {
  const row = d.d.meta[uri]!;
  const older = Object.keys(row.indexed).filter((model) => row.indexed[model]!.sequence < sequence);
  if (older.length === 0 && sequence <= row.tombstoneSequence) return;
  const writable = d.metaForWrite(uri)!;
  if (sequence > writable.tombstoneSequence) writable.tombstoneSequence = sequence;
  if (older.length === 0) return commitEffect(d, uri, writable);
  for (const model of older) delete writable.indexed[model];
  writable.status = 'pending';
  commitEffect(d, uri, writable);
  enqueueWrite(d, { writeId: d.allocateWriteId(), uri, model: '*', slot: 0, sequence, rows: [], deleteFromPosition: 0, purge: true });
}


export function debounceMs(d: Draft, contentType: string): number {
  return d.config.debounceMsByType[contentType] ?? d.config.debounceMsDefault;
}

/** A delete or revocation: tombstone (or, naively, drop the row), cancel, purge every row downstream. */
export function acceptDeletion(d: Draft, entry: { uri: string; sequence: number; subject: string }, row: UriMeta | undefined): void {
  cancelTask(d, entry.uri);
  d.disarmTimer('debounce', entry.uri);
  d.disarmTimer('embed-retry', entry.uri);
  for (const writeId in d.d.outbox) {
    const write = d.d.outbox[writeId]!;
    if (write.uri === entry.uri && !write.purge) d.dropWrite(write.writeId);
  }
  const tombstone: UriMeta = {
    sequence: entry.sequence,
    hash: '',
    status: 'synced',
    contentType: row?.contentType ?? '',
    text: null,
    lastSyncMs: d.nowMs,
    deleted: true,
    tombstoneSequence: entry.sequence,
    subject: entry.subject,
    repair: false,
    indexed: {},
  };
  if (d.config.naive.noTombstone) d.putMeta(entry.uri, undefined);
  else d.putMeta(entry.uri, tombstone);
  commitEffect(d, entry.uri, tombstone);
  enqueueWrite(d, { writeId: d.allocateWriteId(), uri: entry.uri, model: '*', slot: 0, sequence: entry.sequence, rows: [], deleteFromPosition: 0, purge: true });
}
