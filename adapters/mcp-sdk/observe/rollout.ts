/**
 * The rollout fraction: which watched URIs the fenced path serves, chosen stably by a hash of the canonical
 * URI, so the same URI stays on the same path across processes and restarts, and raising the share only
 * moves URIs from the existing path to the fenced one (never back).
 */
import { mix32, stringHash } from '../../../sim/prng.js';

/** A share as an integer ratio (5 % = {numerator: 5, denominator: 100}). */
export interface RolloutShare {
  numerator: number;
  denominator: number;
}

export type RolloutPath = 'fenced' | 'existing';

/** Keeps hash * denominator exact in a double (2^32 * 2^20 < 2^53). */
const denominatorMax = 0x10_0000;

export const shadowOnly: RolloutShare = { numerator: 0, denominator: 1 };

export function checkShare(share: RolloutShare): RolloutShare {
  const { numerator, denominator } = share ?? ({} as RolloutShare);
  if (!Number.isInteger(denominator) || denominator < 1 || denominator > denominatorMax) {
    throw new RangeError(`rollout share: denominator must be an integer in [1, 2^20], got ${String(denominator)}`);
  }
  if (!Number.isInteger(numerator) || numerator < 0 || numerator > denominator) {
    throw new RangeError(`rollout share: numerator must be an integer in [0, denominator=${denominator}], got ${String(numerator)}`);
  }
  return { numerator, denominator };
}

/**
 * FNV-1a (32 bit) over the URI's UTF-16 code units, then murmur3's finalizer so URIs that differ only at
 * the end spread over the high bits too (the share compares the hash scaled onto [0, 1)). Stable across
 * processes and versions: changing it would move URIs between paths.
 */
export function uriHash(uri: string): number {
  return mix32(stringHash(uri));
}

/** The fenced path takes the URIs whose hash, scaled onto [0, 1), is below the share. */
export function rolloutPathOf(uri: string, share: RolloutShare): RolloutPath {
  if (share.numerator === 0) return 'existing';
  if (share.numerator === share.denominator) return 'fenced';
  // hash / 2^32 < numerator / denominator, exactly: a share of 5/100 and one of 1/20 choose the same URIs.
  return uriHash(uri) * share.denominator < share.numerator * 0x1_0000_0000 ? 'fenced' : 'existing';
}
