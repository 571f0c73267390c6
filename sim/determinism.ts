/**
 * The determinism self-check: a deterministic sample of a gate's interleavings is run twice more in this
 * process, both traced, and the two trace hashes and timelines are compared. A client (or simulator) that keeps
 * state between runs, reads the clock or Math.random, or iterates a hash map whose order depends on history,
 * gives a different trace for the same seed; such a gate result cannot be replayed, so it fails. The second run
 * also steps a reducer client through its pure `step` on deep-frozen states (checkOne): a step that writes into
 * the state it is handed, or an owned twin that disagrees with its pure step, fails the check the same way.
 *
 * The sample is evenly spread over the run (always including interleaving 0) and depends only on the
 * interleaving count and the ratio, so two runs of the same gate check the same interleavings.
 */
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from './scenario.js';
import { deriveSeed } from './prng.js';
import { FrozenStepError } from './kernel/frozen-step.js';
import { runInterleaving, type InterleavingResult } from './world.js';

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
 * Two traced runs of one seed; null when their trace hashes and timelines agree. The second steps a reducer
 * client through its pure `step` on deep-frozen states (InterleavingOptions.pureStep, sim/kernel/frozen-step.ts),
 * the first as the gate does (through an owned twin where the client has one): so the check also fails a step
 * that writes into the state it is handed, and an owned twin that disagrees with its pure step, even where the
 * two give as many effects (the trace hash counts effects; the timeline names them).
 * When only the hashes differ, further traced runs (at most `tracedRetriesOnMismatch`) are made until one's
 * timeline differs from the first's: a client that keeps state between runs need not differ in every later run
 * (a counter can settle into a cycle), but one that differs again gives its line. Should none differ, the
 * mismatch stands with line 0: the hashes already differed. A step that threw on its frozen state names the
 * line of that step's input.
 */
export function checkOne(index: number, seed: number, scenario: Scenario, client: ClientUnderTest<any>): DeterminismMismatch | null {
  const first = runInterleaving(seed, scenario, client, { trace: true, record: false });
  const firstTimeline = first.timeline ?? [];
  let second = pureRun(seed, scenario, client);
  const secondTraceHash = second instanceof FrozenStepError ? 0 : second.traceHash;
  let divergence = divergenceOf(firstTimeline, second);
  if (secondTraceHash === first.traceHash && divergence.line === 0) return null;
  for (let retry = 0; retry < tracedRetriesOnMismatch && divergence.line === 0; retry++) {
    second = pureRun(seed, scenario, client);
    divergence = divergenceOf(firstTimeline, second);
  }
  return { index, seed, firstTraceHash: first.traceHash, secondTraceHash, ...divergence };
}

/** A traced run stepped through the pure step on frozen states, or how its step threw. */
function pureRun(seed: number, scenario: Scenario, client: ClientUnderTest<any>): InterleavingResult | FrozenStepError {
  try {
    return runInterleaving(seed, scenario, client, { trace: true, record: false, pureStep: true });
  } catch (error) {
    if (error instanceof FrozenStepError) return error;
    throw error;
  }
}

/** Where the second run parts from the first: the first differing line, or for a step that threw on its frozen state, that step's input line. */
function divergenceOf(first: readonly string[], second: InterleavingResult | FrozenStepError): { line: number; first: string; second: string } {
  if (!(second instanceof FrozenStepError)) return firstDivergence(first, second.timeline ?? []);
  const lines = second.timeline ?? [];
  const line = Math.max(lines.length, 1);
  return { line, first: first[line - 1] ?? '(end of timeline)', second: `${lines[line - 1]?.trim() ?? ''} -> ${second.message}` };
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
