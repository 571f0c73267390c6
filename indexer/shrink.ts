/**
 * Shrinking a failing indexer interleaving by its decisions (as sim/shrink.ts does for the client): every
 * choice is a labelled integer whose 0 is simplest, so the shrinker truncates, deletes chunks, zeroes
 * chunks and lowers single values, replaying leniently and keeping a candidate only when the same failure
 * still happens. Bounded by `attemptsMax` replays. The result replays strictly.
 */
import type { Decision } from './kernel-imports.js';
import { runIndexerInterleaving } from './runner.js';
import type { IndexerRunResult } from './sim-world.js';
import type { IndexerConfig } from './types.js';

export type Failing = (result: IndexerRunResult) => boolean;

export interface IndexerShrinkResult {
  decisions: Decision[];
  attempts: number;
  result: IndexerRunResult;
}

export function violates(invariant: string): Failing {
  return (result) => result.violations.some((found) => found.invariant === invariant);
}

export function shrinkIndexerRun(config: IndexerConfig, start: readonly Decision[], failing: Failing, stopAt: string | null, attemptsMax = 400): IndexerShrinkResult {
  let attempts = 0;
  let best: Decision[] | null = null;
  // A candidate counts only when the run it gives back is simpler (shortlex) than the best so far: lenient
  // replay lines decisions up by label and answers new activity with 0, so a run can record more than it got.
  const attempt = (decisions: readonly Decision[]): IndexerRunResult | null => {
    attempts++;
    const result = runIndexerInterleaving(0, config, { replay: decisions, strict: false, record: true, stopAt });
    return failing(result) && (best === null || simpler(trimmed(result.decisions!), best)) ? result : null;
  };
  let bestResult = attempt(start);
  if (bestResult === null) throw new Error('the starting decisions do not reproduce the failure');
  best = trimmed(bestResult.decisions!);
  let improved = true;
  while (improved && attempts < attemptsMax) {
    improved = false;
    for (let size = Math.max(1, best.length >> 1); size >= 1 && attempts < attemptsMax; size >>= 1) {
      for (let from = 0; from + size <= best.length && attempts < attemptsMax; ) {
        const deleted = [...best.slice(0, from), ...best.slice(from + size)];
        const zeroed = best.map((decision, index) => (index >= from && index < from + size ? { ...decision, value: 0 } : decision));
        const changedZero = best.slice(from, from + size).some((decision) => decision.value !== 0);
        const kept = attempt(deleted) ?? (changedZero ? attempt(zeroed) : null);
        if (kept !== null) {
          best = trimmed(kept.decisions!);
          bestResult = kept;
          improved = true;
        } else from += size;
      }
    }
    for (let index = 0; index < best.length && attempts < attemptsMax; index++) {
      const value = best[index]!.value;
      if (value <= 1) continue;
      const lowered = best.map((decision, at) => (at === index ? { ...decision, value: value >> 1 } : decision));
      const kept = attempt(lowered);
      if (kept !== null) {
        best = trimmed(kept.decisions!);
        bestResult = kept;
        improved = true;
      }
    }
  }
  return { decisions: best, attempts, result: bestResult };
}

/** Shortlex: fewer decisions, or as many with the first differing value lower. */
function simpler(candidate: readonly Decision[], best: readonly Decision[]): boolean {
  if (candidate.length !== best.length) return candidate.length < best.length;
  for (let index = 0; index < candidate.length; index++) {
    if (candidate[index]!.value !== best[index]!.value) return candidate[index]!.value < best[index]!.value;
  }
  return false;
}

function trimmed(decisions: readonly Decision[]): Decision[] {
  let end = decisions.length;
  while (end > 0 && decisions[end - 1]!.value === 0) end--;
  return decisions.slice(0, end);
}

/**
 * The lines of a timeline that concern one URI, plus the world's own events (crashes, restarts, faults).
 * A delivery that follows its change with nothing in between is folded into the change's line.
 */
export function focusedTimeline(timeline: readonly string[], uri: string): string[] {
  const lines = timeline.filter((line) => line.includes(uri + ' ') || !line.includes('mcp://'));
  const folded: string[] = [];
  for (const line of lines) {
    const delivery = / ms {2}indexer <- (\S+) (\S+) v(\d+)$/.exec(line);
    const previous = folded[folded.length - 1];
    if (delivery !== null && previous !== undefined && previous.includes(`source ${delivery[2]} v${delivery[3]} `) && !previous.includes(' -> indexer')) {
      folded[folded.length - 1] = `${previous} -> indexer at ${line.trim().split(' ')[0]} ms`;
      continue;
    }
    folded.push(line);
  }
  return folded;
}
