/**
 * Reconciliation: every `reconcilePeriodMs` a full hash pass lists the source (sequence and SHA-256 of
 * every resource, deletions included) and summarizes the store. It costs no embedding: a source newer
 * than the row is a lost change event, handled as if it had arrived; a published version whose rows are
 * not all in the store at that version (a lost, partial or overwritten write, a store restart or data
 * loss) is rewritten; rows left for a deleted resource are purged again. So every lost event is found
 * within one period, not after the ~5 h a 10 % random sample needs on average (naive: sampled).
 */
import type { Draft } from './draft.js';
import { stringHash } from './kernel-imports.js';
import { acceptDeletion, onChange } from './metadata-loop.js';
import { startNextTask } from './semantic-loop.js';
import { enqueueWrite } from './bookkeeping.js';
import { lowestChunkSimilarity } from './semantic-rule.js';
import { chunkedText } from './chunking.js';
import type { IndexerInput, SourceObservation, StoreSummary, UriMeta } from './types.js';

/** How much stricter than the decision threshold the full pass re-judges drifted resources. */
export const recheckMargin = 0.08;

export function onReconcileTimer(d: Draft): void {
  d.armTimer('reconcile', 'pass', d.nowMs + d.config.reconcilePeriodMs);
  const passId = d.allocatePassId();
  d.emit({ type: 'HashPassRequested', passId, full: !d.config.naive.sampledReconciliation, uris: null });
}

/** The naive sampler: about 1 URI in 10 per pass, a different tenth each pass. */
function sampled(d: Draft, uri: string, passId: number): boolean {
  return !d.config.naive.sampledReconciliation || (stringHash(uri) + passId * 7) % 10 === 0;
}

export function onHashPass(d: Draft, input: Extract<IndexerInput, { type: 'HashPassObserved' }>): void {
  for (const source of input.sources) if (sampled(d, source.uri, input.passId)) reconcileSource(d, source);
  if (!d.config.naive.storeFirstNoVerify && !d.config.naive.noOutbox) verifyStore(d, input.store, input.passId);
  if (!d.config.naive.sampledReconciliation) recheckSemantics(d);
  d.countPass();
  d.markPassCompleted();
}

function reconcileSource(d: Draft, source: SourceObservation): void {
  const row = d.d.meta[source.uri];
  const newest = row === undefined ? -1 : Math.max(row.sequence, row.tombstoneSequence);
  if (source.sequence > newest) {
    d.emit({ type: 'DriftFound', uri: source.uri, sequence: source.sequence, kind: 'source' });
    const entry = { uri: source.uri, sequence: source.sequence, subject: row?.subject ?? '' };
    if (source.deleted) return acceptDeletion(d, entry, row);
    return onChange(d, { ...entry, operation: 'upsert', digest: source.digest, contentType: source.contentType, text: source.text });
  }
  if (row !== undefined && !row.deleted && row.status !== 'synced' && d.timerAt('debounce', source.uri) === undefined) startNextTask(d, source.uri);
}

function verifyStore(d: Draft, store: StoreSummary[], passId: number): void {
  const byKey = new Map<string, number[]>();
  const urisWithRows = new Set<string>();
  for (const summary of store) {
    byKey.set(summary.uri + '|' + summary.model + '|' + summary.slot, summary.sequences);
    if (summary.sequences.length > 0) urisWithRows.add(summary.uri);
  }
  for (const uri in d.d.meta) {
    if (!sampled(d, uri, passId)) continue;
    const row = d.d.meta[uri]!;
    if (row.deleted) {
      if (urisWithRows.has(uri)) repurge(d, uri, row);
      continue;
    }
    for (const model in row.indexed) {
      const published = row.indexed[model]!;
      const sequences = byKey.get(uri + '|' + published.model + '|' + published.slot) ?? [];
      const whole = sequences.length === published.manifest.length && sequences.every((sequence) => sequence === published.sequence);
      if (whole || row.repair) continue;
      d.emit({ type: 'DriftFound', uri, sequence: published.sequence, kind: 'store' });
      const writable = d.metaForWrite(uri)!;
      writable.repair = true;
      writable.status = 'stale';
      startNextTask(d, uri);
    }
  }
}

/**
 * Re-checking with the same threshold can never catch a change the threshold skipped, so a full pass
 * re-judges every resource whose content moved past its published version by metadata-only decisions
 * with a stricter bar (threshold + margin), from cached vectors only (no embedding call): what it finds is
 * refreshed, so a missed change is stale for at most one period.
 */
function recheckSemantics(d: Draft): void {
  for (const uri in d.d.meta) {
    const row = d.d.meta[uri]!;
    if (row.deleted || row.text === null || row.repair || row.status !== 'synced') continue;
    const { hashes } = chunkedText(row.text);
    for (const model in row.indexed) {
      const published = row.indexed[model]!;
      if (published.manifest.join() === hashes.join()) continue;
      const oldVectors = published.manifest.map((hash) => d.embedding(published.model, hash));
      const newVectors = hashes.map((hash) => d.embedding(model, hash));
      if (oldVectors.some((vector) => vector === undefined) || newVectors.some((vector) => vector === undefined)) continue;
      const similarity = lowestChunkSimilarity(published.manifest, oldVectors as number[][], hashes, newVectors as number[][]);
      if (similarity >= (d.config.thresholdByModel[model] ?? 0.85) + recheckMargin) continue;
      d.emit({ type: 'DriftFound', uri, sequence: row.sequence, kind: 'semantic' });
      const writable = d.metaForWrite(uri)!;
      writable.repair = true;
      writable.status = 'stale';
      startNextTask(d, uri);
      break;
    }
  }
}

function repurge(d: Draft, uri: string, row: UriMeta): void {
  for (const writeId in d.d.outbox) if (d.d.outbox[writeId]!.uri === uri) return;
  d.emit({ type: 'DriftFound', uri, sequence: row.tombstoneSequence, kind: 'store' });
  enqueueWrite(d, { writeId: d.allocateWriteId(), uri, model: '*', slot: 0, sequence: row.tombstoneSequence, rows: [], deleteFromPosition: 0, purge: true });
}
