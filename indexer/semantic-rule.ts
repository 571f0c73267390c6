/**
 * The semantic gate. Reference rule: refresh when nothing is confirmed yet, when the chunk count changed,
 * or when the lowest cosine between a changed chunk and the confirmed chunk at its position is below the
 * model's threshold (a chunk-level judgement: a change that moves one paragraph a lot moves the resource
 * vector little, which is how resource-level fingerprints miss subtle edits). The confirmed manifest stays
 * the published one, so small changes that add up (creeping drift) are caught once their sum crosses the
 * threshold. The naive rules (refresh on any change, compare with the previous version, the document's
 * literal resource-level 0.7-0.85 fingerprint-only band) are flags.
 */
import { cosine, fingerprintOf } from './embedding.js';
import type { Draft } from './draft.js';
import type { UriMeta } from './types.js';
import { behindAnotherModel } from './models.js';

export interface Verdict {
  refresh: boolean;
  similarity: number | null;
  /** Metadata only, but the confirmed manifest follows the new content (naive rules). */
  followManifest: boolean;
}

const literalRefreshBelow = 0.7;
const literalFingerprintBelow = 0.85;

export function decideRefresh(d: Draft, row: UriMeta, model: string, hashes: readonly string[], vectors: number[][]): Verdict {
  const confirmed = row.indexed[model];
  const naive = d.config.naive;
  if (confirmed === undefined || row.repair || behindAnotherModel(row, model)) return { refresh: true, similarity: null, followManifest: false };
  const confirmedVectors = confirmed.manifest.map((hash) => d.embedding(confirmed.model, hash));
  if (confirmedVectors.some((vector) => vector === undefined)) return { refresh: true, similarity: null, followManifest: false };
  const known = confirmedVectors as number[][];
  if (naive.literalBand) {
    const similarity = cosine(fingerprintOf(known), fingerprintOf(vectors));
    const refresh = similarity < literalRefreshBelow || confirmed.manifest.length !== hashes.length;
    return { refresh, similarity, followManifest: !refresh && similarity < literalFingerprintBelow };
  }
  const similarity = lowestChunkSimilarity(confirmed.manifest, known, hashes, vectors);
  if (naive.refreshOnAnyChange) return { refresh: true, similarity, followManifest: false };
  const threshold = d.config.thresholdByModel[model] ?? 0.85;
  const refresh = confirmed.manifest.length !== hashes.length || similarity < threshold;
  return { refresh, similarity, followManifest: naive.compareWithPrevious };
}

/** The lowest cosine over positions whose chunk changed (1 when none did; 0 for a count change). */
export function lowestChunkSimilarity(oldHashes: readonly string[], oldVectors: number[][], newHashes: readonly string[], newVectors: number[][]): number {
  if (oldHashes.length !== newHashes.length) return 0;
  let lowest = 1;
  for (let position = 0; position < newHashes.length; position++) {
    if (oldHashes[position] === newHashes[position]) continue;
    const similarity = cosine(oldVectors[position]!, newVectors[position]!);
    if (similarity < lowest) lowest = similarity;
  }
  return lowest;
}
