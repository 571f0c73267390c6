/**
 * A text's chunks and their content digests, memoized: the semantic loop, the decision and the full pass
 * each need them for the same row text, and SHA-256 per chunk was a fifth of a simulated step. A pure
 * function's cache cannot change a result; it is bounded (cleared when full) so a long-running runtime
 * does not grow. Callers treat the arrays as read-only (they end up in manifests, which are state).
 */
import { contentDigest } from './kernel-imports.js';
import { splitChunks } from './text.js';

export interface ChunkedText {
  readonly chunks: readonly string[];
  readonly hashes: readonly string[];
}

const memoSizeMax = 4_096;
const memo = new Map<string, ChunkedText>();

export function chunkedText(text: string): ChunkedText {
  let found = memo.get(text);
  if (found === undefined) {
    const chunks = splitChunks(text);
    found = { chunks, hashes: chunks.map((chunk) => contentDigest(chunk)) };
    if (memo.size >= memoSizeMax) memo.clear();
    memo.set(text, found);
  }
  return found;
}

const digestMemo = new Map<string, string>();

/** One chunk's digest, memoized the same way (an embedding reply names its texts, not their hashes). */
export function chunkDigest(chunk: string): string {
  let found = digestMemo.get(chunk);
  if (found === undefined) {
    found = contentDigest(chunk);
    if (digestMemo.size >= memoSizeMax) digestMemo.clear();
    digestMemo.set(chunk, found);
  }
  return found;
}
