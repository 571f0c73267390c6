/**
 * Shards of a gate run (`gate --shard i/n`, `fencesim merge`): shard i of n (1-based) runs interleavings
 * [floor((i - 1) N / n), floor(i N / n)) of N. The shards of one n tile [0, N) exactly, and interleaving k
 * always uses deriveSeed(rootSeed, k), so merged shard accumulators equal the unsharded one.
 */

/** Products i x N stay below 2^53 (exact) for N up to 2^32 and n up to this. */
export const shardCountMax = 1 << 20;

export interface ShardRange {
  start: number;
  end: number;
}

export function shardRange(interleavings: number, index: number, count: number): ShardRange {
  return { start: Math.floor(((index - 1) * interleavings) / count), end: Math.floor((index * interleavings) / count) };
}

export type ParsedShard = { ok: true; index: number; count: number } | { ok: false; reason: string };

/** "i/n" with 1 <= i <= n, both plain decimal integers. */
export function parseShard(text: string): ParsedShard {
  const match = /^([0-9]+)\/([0-9]+)$/.exec(text);
  if (match === null) return { ok: false, reason: `${JSON.stringify(text)} is not INDEX/COUNT with whole numbers, e.g. 2/10` };
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1) return { ok: false, reason: `${JSON.stringify(text)} has shard count ${count}; the count must be at least 1` };
  if (count > shardCountMax) return { ok: false, reason: `${JSON.stringify(text)} has shard count ${count}, above the maximum ${shardCountMax}` };
  if (index < 1) return { ok: false, reason: `${JSON.stringify(text)} has shard index ${index}; shards are numbered from 1 to ${count}` };
  if (index > count) return { ok: false, reason: `${JSON.stringify(text)} has shard index ${index}, above the shard count ${count}; shards are numbered from 1 to ${count}` };
  return { ok: true, index, count };
}
