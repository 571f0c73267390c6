/**
 * The fenced read path: what a retriever gets for one URI. It serves rows only when the resource is live
 * in resource_meta (a tombstone refuses from the step the delete or invalidation arrived), and only the
 * published version of the active model: every position of the manifest, at that version, from the
 * published slot. Anything else (a write in progress, a partial write, rows overwritten) is refused, so a
 * read is never torn, never mixes models and never goes back to an older version.
 */
import type { ChunkRow, IndexerState } from './types.js';

export type ReadResult = { served: true; model: string; rows: ChunkRow[] } | { served: false; reason: string };

export function readIndex(state: IndexerState, uri: string, storeRows: readonly ChunkRow[]): ReadResult {
  const row = state.durable.meta[uri];
  if (row === undefined) return { served: false, reason: 'not indexed' };
  if (row.deleted) return { served: false, reason: 'deleted or revoked' };
  const model = state.durable.models.active;
  const published = row.indexed[model];
  if (published === undefined) return { served: false, reason: `nothing published for ${model}` };
  const rows = storeRows.filter((chunk) => chunk.model === published.model && chunk.slot === published.slot).sort((a, b) => a.position - b.position);
  const whole =
    rows.length === published.manifest.length &&
    rows.every((chunk, position) => chunk.position === position && chunk.sequence === published.sequence && chunk.chunkHash === published.manifest[position]);
  if (!whole) return { served: false, reason: 'store out of step with the published version' };
  return { served: true, model, rows };
}
