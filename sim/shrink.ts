/**
 * Shrinking a failing interleaving by its choice sequence (in the manner of Hypothesis' internal
 * reduction): every nondeterministic choice is a labelled integer whose 0 is the simplest option, so a
 * shorter sequence, or one with smaller values, is a simpler run. The shrinker deletes chunks, truncates,
 * zeroes and lowers choices, replaying leniently (a missing choice reads as 0), and keeps a candidate only
 * when the SAME invariant still fails. Candidates are normalized to the decisions the run actually
 * consumed, minus trailing zeros, so every kept sequence replays strictly.
 *
 * The result is 1-minimal with respect to these moves: deleting any single remaining decision, or
 * setting any remaining non-zero decision to 0, makes the violation disappear (or the shrinker ran out of
 * attempts, which `complete` reports).
 */
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import type { Decision } from './chooser.js';
import type { InvariantName } from './oracle.js';
import { runInterleaving, type InterleavingResult } from './world.js';

export interface ShrinkOptions {
  /** Upper bound on replays (every loop has a bound). */
  attemptsMax: number;
  /** Asked between attempts; the CLI uses it for a wall-clock budget (sim/ never reads the clock). */
  shouldStop?: () => boolean;
}

export interface ShrinkResult {
  decisions: Decision[];
  attempts: number;
  improvements: number;
  /** False when the budget ran out before a full round found nothing to remove. */
  complete: boolean;
}

class Shrinker {
  attempts = 0;
  improvements = 0;
  best: Decision[];

  constructor(
    private readonly seed: number,
    private readonly scenario: Scenario,
    private readonly client: ClientUnderTest,
    private readonly invariant: InvariantName,
    private readonly options: ShrinkOptions,
    initial: Decision[],
  ) {
    this.best = initial;
  }

  exhausted(): boolean {
    return this.attempts >= this.options.attemptsMax || (this.options.shouldStop?.() ?? false);
  }

  /** Replays a candidate; keeps it when it still fails the same invariant and is simpler. */
  try(candidate: Decision[]): boolean {
    if (this.exhausted()) return false;
    this.attempts++;
    const run = replayLenient(this.seed, this.scenario, this.client, candidate, this.invariant);
    if (!violates(run, this.invariant)) return false;
    const normalized = normalize(run.decisions!);
    if (!simpler(normalized, this.best)) return false;
    this.best = normalized;
    this.improvements++;
    return true;
  }

  truncate(): void {
    let low = 0;
    let high = this.best.length;
    while (low < high && !this.exhausted()) {
      const middle = (low + high) >> 1;
      if (this.try(this.best.slice(0, middle))) high = Math.min(middle, this.best.length);
      else low = middle + 1;
    }
  }

  deleteChunks(): void {
    for (const size of [16, 8, 4, 2, 1]) {
      for (let start = this.best.length - size; start >= 0 && !this.exhausted(); start--) {
        if (start + size > this.best.length) continue;
        this.try([...this.best.slice(0, start), ...this.best.slice(start + size)]);
      }
    }
  }

  lowerValues(): void {
    for (let index = this.best.length - 1; index >= 0 && !this.exhausted(); index--) {
      const decision = this.best[index];
      if (decision === undefined || decision.value === 0) continue;
      if (this.try(withValue(this.best, index, 0))) continue;
      let low = 1;
      let high = decision.value;
      while (low < high && !this.exhausted()) {
        const middle = (low + high) >> 1;
        const current = this.best[index];
        if (current === undefined || current.label !== decision.label) break;
        if (this.try(withValue(this.best, index, middle))) high = middle;
        else low = middle + 1;
      }
    }
  }
}

export function shrink(
  seed: number,
  scenario: Scenario,
  client: ClientUnderTest,
  decisions: readonly Decision[],
  invariant: InvariantName,
  options: ShrinkOptions,
): ShrinkResult {
  const shrinker = new Shrinker(seed, scenario, client, invariant, options, normalize(decisions));
  const roundsMax = 64;
  let complete = false;
  for (let round = 0; round < roundsMax && !shrinker.exhausted(); round++) {
    const before = shrinker.improvements;
    shrinker.truncate();
    shrinker.deleteChunks();
    shrinker.lowerValues();
    if (shrinker.improvements === before && !shrinker.exhausted()) {
      complete = true;
      break;
    }
  }
  return { decisions: strictDecisions(seed, scenario, client, shrinker.best, invariant), attempts: shrinker.attempts, improvements: shrinker.improvements, complete };
}

/** Runs a decision list leniently, stopping at the first violation of `invariant`. */
export function replayLenient(
  seed: number,
  scenario: Scenario,
  client: ClientUnderTest,
  decisions: readonly Decision[],
  invariant: InvariantName | null,
  trace = false,
): InterleavingResult {
  return runInterleaving(seed, scenario, client, { trace, record: true, replay: { decisions, strict: false }, stopAtInvariant: invariant });
}

export function violates(result: InterleavingResult, invariant: InvariantName): boolean {
  return result.oracle.violations.some((violation) => violation.invariant === invariant);
}

/** The exact decisions a lenient replay consumes (zeros included), so the file replays strictly. */
function strictDecisions(seed: number, scenario: Scenario, client: ClientUnderTest, decisions: Decision[], invariant: InvariantName): Decision[] {
  return replayLenient(seed, scenario, client, decisions, invariant).decisions!;
}

/** Trailing zeros are implied by lenient replay. */
function normalize(decisions: readonly Decision[]): Decision[] {
  let end = decisions.length;
  while (end > 0 && decisions[end - 1]!.value === 0) end--;
  return decisions.slice(0, end);
}

function simpler(candidate: readonly Decision[], best: readonly Decision[]): boolean {
  if (candidate.length !== best.length) return candidate.length < best.length;
  for (let index = 0; index < candidate.length; index++) {
    const difference = candidate[index]!.value - best[index]!.value;
    if (difference !== 0) return difference < 0;
  }
  return false;
}

function withValue(decisions: readonly Decision[], index: number, value: number): Decision[] {
  const copy = decisions.slice();
  copy[index] = { label: decisions[index]!.label, value, range: decisions[index]!.range };
  return copy;
}
