/**
 * The slow loop. When a URI's debounce window closes, at most one semantic task runs for it: for each
 * model in use whose judged hash lags the row, embed the chunks missing from the embedding cache (one
 * batched call; unchanged and duplicate content costs nothing), then compare every changed chunk with the
 * chunk at the same position of the last CONFIRMED (published) version; the lowest similarity decides:
 * below the model's threshold the resource is refreshed (rows written through the vector outbox), else
 * only the metadata moves. A result whose base version is no longer the row's is never committed: the
 * task re-runs on the latest content. Failures back off exponentially (rate limits wait retry-after)
 * behind a circuit breaker; none of this ever holds up the metadata loop.
 */
import { commitEffect, enqueueWrite, publishedSlot, purgeBeforeEmbedding, settleStatus } from './bookkeeping.js';
import { covered, maybeSwitch, modelsInUse } from './models.js';
import { decideRefresh } from './semantic-rule.js';
import { chunkDigest, chunkedText } from './chunking.js';
import type { Draft } from './draft.js';
import type { EmbedFailure, IndexerInput, UriMeta } from './types.js';

/** The debounce window closed (or a retry or a repair asks): start the URI's next task if none runs. */
export function startNextTask(d: Draft, uri: string): void {
  if (d.v.tasks[uri] !== undefined) return;
  const row = d.d.meta[uri];
  if (row === undefined || row.deleted || row.text === null) return;
  const model = modelsInUse(d).find((candidate) => !covered(row, candidate));
  if (model === undefined) return settle(d, uri);
  if (d.config.naive.deleteThenInsert && row.indexed[model] !== undefined) purgeBeforeEmbedding(d, uri, row.sequence);
  const { chunks, hashes } = chunkedText(row.text);
  const texts: string[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < chunks.length; index++) {
    const hash = hashes[index]!;
    if (d.embedding(model, hash) === undefined && !seen.has(hash)) {
      seen.add(hash);
      texts.push(chunks[index]!);
    }
  }
  if (texts.length === 0) return decide(d, uri, model, row.sequence);
  if (d.nowMs < d.v.breakerOpenUntilMs) {
    d.armTimer('embed-retry', uri, d.v.breakerOpenUntilMs);
    return;
  }
  requestEmbedding(d, uri, model, row.sequence, texts, 0);
}

function requestEmbedding(d: Draft, uri: string, model: string, baseSequence: number, texts: string[], attempts: number): void {
  const requestId = d.allocateRequestId();
  d.putTask(uri, { uri, model, baseSequence, requestId, attempts, texts });
  d.emit({ type: 'EmbedRequested', requestId, uri, model, texts });
}

export function onEmbedResponded(d: Draft, input: Extract<IndexerInput, { type: 'EmbedResponded' }>): void {
  const uri = d.v.requests[String(input.requestId)];
  const task = uri === undefined ? undefined : d.v.tasks[uri];
  if (task === undefined || task.requestId !== input.requestId) return;
  d.setBreaker(0, d.v.breakerOpenUntilMs);
  const missing: string[] = [];
  task.texts.forEach((text, index) => {
    const vector = input.vectors[index];
    if (vector === undefined || vector === null) missing.push(text);
    else d.putEmbedding(input.model, chunkDigest(text), vector);
  });
  if (missing.length > 0) return requestEmbedding(d, task.uri, task.model, task.baseSequence, missing, task.attempts + 1);
  d.putTask(task.uri, undefined);
  decide(d, task.uri, task.model, task.baseSequence);
}

export function onEmbedFailed(d: Draft, input: Extract<IndexerInput, { type: 'EmbedFailed' }>): void {
  const uri = d.v.requests[String(input.requestId)];
  const task = uri === undefined ? undefined : d.v.tasks[uri];
  if (task === undefined || task.requestId !== input.requestId) return;
  const failures = d.v.breakerFailures + 1;
  const open = failures >= d.config.breakerFailuresMax;
  d.setBreaker(open ? 0 : failures, open ? d.nowMs + d.config.breakerOpenMs : d.v.breakerOpenUntilMs);
  d.putTask(task.uri, undefined);
  d.armTimer('embed-retry', task.uri, d.nowMs + retryDelayMs(d, input.reason, input.retryAfterMs, task.attempts));
}

function retryDelayMs(d: Draft, reason: EmbedFailure, retryAfterMs: number, attempts: number): number {
  const backoff = Math.min(d.config.embedRetryMsMax, d.config.embedRetryMsBase * 2 ** Math.min(attempts, 16));
  return reason === 'rate-limited' && retryAfterMs > backoff ? retryAfterMs : backoff;
}


/** Every vector is at hand: decide, on the version the task started from only. */
function decide(d: Draft, uri: string, model: string, baseSequence: number): void {
  const row = d.d.meta[uri];
  if (row === undefined || row.deleted || row.text === null) return;
  if (row.sequence !== baseSequence) return startNextTask(d, uri);
  const { chunks, hashes } = chunkedText(row.text);
  const vectors = hashes.map((hash) => d.embedding(model, hash)!);
  const confirmed = row.indexed[model];
  const verdict = decideRefresh(d, row, model, hashes, vectors);
  d.emit({
    type: 'SemanticDecided', uri, model, sequence: row.sequence, baseSequence: confirmed === undefined ? null : confirmed.sequence,
    similarity: verdict.similarity, comparedModel: confirmed === undefined ? null : confirmed.model, refresh: verdict.refresh,
  });
  const writable = d.metaForWrite(uri)!;
  if (!verdict.refresh) {
    writable.indexed[model] = { ...confirmed!, checkedHash: row.hash, manifest: verdict.followManifest ? hashes.slice() : confirmed!.manifest };
    return afterDecision(d, uri, writable);
  }
  const slot = confirmed === undefined ? 0 : 1 - publishedSlot(confirmed);
  const rows = chunks.map((text, position) => ({ uri, model, slot, position, sequence: row.sequence, chunkHash: hashes[position]!, text, vector: vectors[position]! }));
  writable.repair = false;
  enqueueWrite(d, { writeId: d.allocateWriteId(), uri, model, slot, sequence: row.sequence, rows, deleteFromPosition: rows.length, purge: false });
  if (d.config.naive.storeFirstNoVerify) {
    writable.indexed[model] = { sequence: row.sequence, slot, model, manifest: hashes.slice(), checkedHash: row.hash };
    d.emit({ type: 'IndexPublished', uri, model, sequence: row.sequence });
    return afterDecision(d, uri, writable);
  }
  if (d.config.naive.embedBlocksMetadata) commitEffect(d, uri, writable);
}

function afterDecision(d: Draft, uri: string, row: UriMeta): void {
  settleStatus(d, uri, row);
  maybeSwitch(d);
  startNextTask(d, uri);
}

/** Nothing left to judge for this URI: status synced when every model in use is covered. */
function settle(d: Draft, uri: string): void {
  const row = d.d.meta[uri];
  if (row === undefined || row.status === 'synced') return;
  settleStatus(d, uri, d.metaForWrite(uri)!);
}

