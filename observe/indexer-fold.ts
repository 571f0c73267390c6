/**
 * The indexer's observation fold: from the indexer's effects to the measurements of the document's four
 * curves — index freshness (the lag from a version's metadata commit to the index being current for it:
 * published, or judged unchanged), semantic decisions by outcome with the similarity they were taken at
 * (the false-update curve: in production the hidden truth is unknown, so the board shows the refresh share
 * and the similarity histogram; the gate reports the true false-update rate), embedding calls and texts,
 * and reconciliation drift found and repaired by kind. Pure, plain JSON state, time from the caller:
 * production (IndexerRuntime's onEffect) and the simulator fold the same effects with the same code.
 */
import type { IndexerEffect } from '../indexer/types.js';

export const indexerInstruments = {
  indexLag: { name: 'fencesim.indexer.index.lag', kind: 'histogram', unit: 's', description: 'Time from a version\'s metadata commit until the index is current for it (published, or judged unchanged)' },
  decisions: { name: 'fencesim.indexer.semantic.decisions', kind: 'counter', unit: '{decision}', description: 'Semantic decisions, by outcome (refresh, metadata_only) and model' },
  similarity: { name: 'fencesim.indexer.semantic.similarity', kind: 'histogram', unit: '1', description: 'Lowest changed-chunk cosine against the confirmed version, per decision that compared two versions' },
  embedCalls: { name: 'fencesim.indexer.embedding.calls', kind: 'counter', unit: '{request}', description: 'Batched embedding requests, by model' },
  embedTexts: { name: 'fencesim.indexer.embedding.texts', kind: 'counter', unit: '{chunk}', description: 'Chunks sent to the embedding model (the cache and unchanged hashes cost 0)' },
  drift: { name: 'fencesim.indexer.reconciliation.drift', kind: 'counter', unit: '{resource}', description: 'Drift the reconciliation pass found, by kind (source: a lost change event; store: rows out of step; semantic: a skipped change)' },
  repairs: { name: 'fencesim.indexer.reconciliation.repairs', kind: 'counter', unit: '{resource}', description: 'Drift repaired: the resource was current again (published, judged, or purged), by kind' },
} as const;
export type IndexerInstrumentId = keyof typeof indexerInstruments;

export interface IndexerMeasurement {
  instrument: IndexerInstrumentId;
  /** Counters: the increment; histograms: the value (ms for indexLag, a cosine for similarity). */
  value: number;
  attributes: Record<string, string>;
}

export interface IndexerObserveState {
  /** `uri#sequence` -> when its metadata was committed, until the index is current for it. */
  committedAtMs: Record<string, number>;
  /** uri -> drift kind found and not yet repaired. */
  drifting: Record<string, string>;
  totals: Record<string, number>;
}

export function initialIndexerObserveState(): IndexerObserveState {
  return { committedAtMs: {}, drifting: {}, totals: {} };
}

export function foldIndexerEffect(state: IndexerObserveState, nowMs: number, effect: IndexerEffect): { state: IndexerObserveState; measurements: IndexerMeasurement[] } {
  const measurements: IndexerMeasurement[] = [];
  const next: IndexerObserveState = { committedAtMs: state.committedAtMs, drifting: state.drifting, totals: { ...state.totals } };
  const emit = (instrument: IndexerInstrumentId, value: number, attributes: Record<string, string> = {}): void => {
    measurements.push({ instrument, value, attributes });
    const key = instrument + Object.entries(attributes).map(([name, text]) => `|${name}=${text}`).join('');
    if (indexerInstruments[instrument].kind === 'counter') next.totals[key] = (next.totals[key] ?? 0) + value;
  };
  const current = (uri: string, sequence: number): void => {
    const key = uri + '#' + sequence;
    const at = next.committedAtMs[key];
    if (at !== undefined) {
      emit('indexLag', nowMs - at);
      next.committedAtMs = { ...next.committedAtMs };
      delete next.committedAtMs[key];
    }
    const kind = next.drifting[uri];
    if (kind !== undefined) {
      emit('repairs', 1, { 'fencesim.drift.kind': kind });
      next.drifting = { ...next.drifting };
      delete next.drifting[uri];
    }
  };
  switch (effect.type) {
    case 'MetadataCommitted':
      if (!effect.deleted) next.committedAtMs = { ...next.committedAtMs, [effect.uri + '#' + effect.sequence]: nowMs };
      break;
    case 'SemanticDecided':
      emit('decisions', 1, { 'fencesim.decision': effect.refresh ? 'refresh' : 'metadata_only', 'fencesim.model': effect.model });
      if (effect.similarity !== null) emit('similarity', effect.similarity, { 'fencesim.model': effect.model });
      if (!effect.refresh) current(effect.uri, effect.sequence);
      break;
    case 'IndexPublished':
      current(effect.uri, effect.sequence);
      break;
    case 'VectorWriteRequested':
      if (effect.write.purge && next.drifting[effect.write.uri] !== undefined) current(effect.write.uri, -1);
      break;
    case 'EmbedRequested':
      emit('embedCalls', 1, { 'fencesim.model': effect.model });
      emit('embedTexts', effect.texts.length, { 'fencesim.model': effect.model });
      break;
    case 'DriftFound':
      emit('drift', 1, { 'fencesim.drift.kind': effect.kind });
      next.drifting = { ...next.drifting, [effect.uri]: effect.kind };
      break;
    default:
      break;
  }
  return { state: next, measurements };
}
