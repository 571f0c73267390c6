/**
 * The determinism self-check: a deterministic sample of a gate's interleavings is run twice more in this
 * process, and the two trace hashes are compared. The hash is the same traced or not (it mixes every event
 * and every step's effect count; the timeline text rides beside it), so only the first run is traced; the
 * second is traced only when the hashes differ, to name the first divergent timeline line (checkOne). A client (or simulator) that keeps
 * state between runs, reads the clock or Math.random, or iterates a hash map whose order depends on
 * history, gives a different trace for the same seed; such a gate result cannot be replayed, so it fails.
 *
 * The sample is evenly spread over the run (always including interleaving 0) and depends only on the
 * interleaving count and the ratio, so two runs of the same gate check the same interleavings.
 */
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from './scenario.js';
import { deriveSeed } from './prng.js';
import { runInterleaving } from './world.js';

export interface DeterminismMismatch {
  /** The interleaving's index in the gate run, and its own seed. */
  index: number;
  seed: number;
  firstTraceHash: number;
  secondTraceHash: number;
  /** First timeline line (1-based) where the runs differ and both versions; 0 and '' when the timelines agree. */
  line: number;
  first: string;
  second: string;
}

export interface DeterminismCheck {
  selfCheckRatioPercent: number;
  checked: number;
  nondeterministic_interleavings: number;
  /** Mismatches in index order (all of them; the count above is their number). */
  mismatches: DeterminismMismatch[];
}

/** Upper bound on sampled interleavings (a 1 % sample of a very large gate stays affordable). */
export const selfCheckSampleMax = 2_000;

/** Indexes to re-check: ceil(ratio% of the run), at most selfCheckSampleMax, evenly spread, starting at 0. */
export function selfCheckIndices(interleavings: number, ratioPercent: number): number[] {
  if (ratioPercent <= 0 || interleavings <= 0) return [];
  const count = Math.min(interleavings, selfCheckSampleMax, Math.ceil((interleavings * ratioPercent) / 100));
  const indices: number[] = [];
  for (let k = 0; k < count; k++) indices.push(Math.floor((k * interleavings) / count));
  return indices;
}

/** Runs each sampled interleaving of the gate (root seed `rootSeed`) twice and compares (the first run traced: see checkOne). */
export function selfCheck(
  rootSeed: number,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  indices: readonly number[],
  ratioPercent: number,
): DeterminismCheck {
  const mismatches: DeterminismMismatch[] = [];
  for (const index of indices) {
    const mismatch = checkOne(index, deriveSeed(rootSeed, index), scenario, client);
    if (mismatch !== null) mismatches.push(mismatch);
  }
  return { selfCheckRatioPercent: ratioPercent, checked: indices.length, nondeterministic_interleavings: mismatches.length, mismatches };
}

/**
 * The self-check of a gate run in parts (cli/pool.ts: each worker checks the sampled indices of the ranges
 * it runs, in parallel with the rest of the gate): the parts' mismatches merged in index order. The same
 * value as one `selfCheck` over all the indices.
 */
export function mergeSelfChecks(parts: readonly DeterminismCheck[], ratioPercent: number): DeterminismCheck {
  let checked = 0;
  const mismatches: DeterminismMismatch[] = [];
  for (const part of parts) {
    checked += part.checked;
    mismatches.push(...part.mismatches);
  }
  mismatches.sort((a, b) => a.index - b.index);
  return { selfCheckRatioPercent: ratioPercent, checked, nondeterministic_interleavings: mismatches.length, mismatches };
}

/** Traced runs tried, after a mismatch, for one whose trace differs from the first run's (to name the line). */
export const tracedRetriesOnMismatch = 4;

/**
 * Two runs of one seed, the first traced and the second not (tracing costs about 1.8x; the trace hash is the
 * same either way); null when their trace hashes agree. When they differ, the second run's timeline is
 * needed to name the first divergent line, so further traced runs (at most `tracedRetriesOnMismatch`) are
 * made until one's hash differs from the first's: a client that keeps state between runs need not differ
 * in every later run (a counter can settle into a cycle), but one that differs again gives its timeline.
 * Should none differ, the mismatch stands with line 0: the hashes already differed.
 */
export function checkOne(index: number, seed: number, scenario: Scenario, client: ClientUnderTest<any>): DeterminismMismatch | null {
  const first = runInterleaving(seed, scenario, client, { trace: true, record: false });
  const second = runInterleaving(seed, scenario, client, { trace: false, record: false });
  if (first.traceHash === second.traceHash) return null;
  let divergence = firstDivergence([], []);
  for (let retry = 0; retry < tracedRetriesOnMismatch && divergence.line === 0; retry++) {
    const again = runInterleaving(seed, scenario, client, { trace: true, record: false });
    if (again.traceHash !== first.traceHash) divergence = firstDivergence(first.timeline ?? [], again.timeline ?? []);
  }
  return { index, seed, firstTraceHash: first.traceHash, secondTraceHash: second.traceHash, ...divergence };
}

/** The first line (1-based) where two timelines differ, with both versions ('(end of timeline)' past an end). */
export function firstDivergence(first: readonly string[], second: readonly string[]): { line: number; first: string; second: string } {
  const length = Math.max(first.length, second.length);
  for (let index = 0; index < length; index++) {
    if (first[index] !== second[index]) {
      return { line: index + 1, first: first[index] ?? '(end of timeline)', second: second[index] ?? '(end of timeline)' };
    }
  }
  return { line: 0, first: '', second: '' };
}
