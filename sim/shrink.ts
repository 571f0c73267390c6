/**
 * Shrinking a failing interleaving by its choice sequence (in the manner of Hypothesis' internal
 * reduction): every nondeterministic choice is a labelled integer whose 0 is the simplest option, so a
 * shorter sequence, or one with smaller values, is a simpler run. The shrinker truncates, zeroes every
 * decision of one label at once, deletes chunks, zeroes chunks and lowers single choices, replaying leniently (a missing or out-of-range choice reads as
 * 0) and stopping each replay at the first violation of the invariant; it keeps a candidate only when the
 * SAME invariant still fails. Kept candidates are normalized to the decisions the run actually consumed,
 * minus trailing zeros (the canonical form), so every kept sequence replays strictly.
 *
 * Speed: most candidates do NOT fail, and a run that does not fail would go on to the end of the heal phase
 * (often 50x longer than the failing prefix). So the main rounds abandon a candidate once it has consumed
 * `2 x (decisions the best run consumed) + 64` decisions without failing. That is a heuristic, so when a
 * main round finds nothing, a confirmation round replays every single deletion and every single zeroing
 * of the best sequence in full; only when none of them fails is the shrink `complete`.
 *
 * The result is then 1-minimal with respect to these moves: deleting any single decision of the canonical
 * form, or setting any non-zero one to 0, makes the violation disappear or gives back a run no simpler
 * (a deleted decision the code still asks for is answered 0 by the label-aligned lenient replay, so the
 * deletion is then the zeroing, or the very same run). (Either move yields a sequence
 * that is shorter or lexicographically smaller, so had it still failed, the confirmation round would have
 * kept it.) The budget is counted in replays (the attempt bound), so the result, its counters included, is
 * a function of the seed, the scenario and the client's code; only `shouldStop` (the CLI's generous
 * wall-clock safety net) could cut it short, and then `stoppedBy` is 'wall-clock' and the result is marked
 * as depending on machine load (`shrinkStopText`).
 */
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from './scenario.js';
import type { Decision } from './chooser.js';
import { invariantIndex, type InvariantName } from './oracle.js';
import { runInterleaving, type InterleavingOptions, type InterleavingResult } from './world.js';

export interface ShrinkOptions {
  /** Upper bound on replays (every loop has a bound); the primary limit. */
  attemptsMax: number;
  /** Asked between attempts; the CLI uses it for a wall-clock safety net (sim/ never reads the clock). */
  shouldStop?: () => boolean;
}

/** Why a shrink ended: only 'wall-clock' depends on anything but the seed, the scenario and the code. */
export type ShrinkStop = 'complete' | 'attempts' | 'wall-clock' | 'rounds';

/**
 * How a shrink's end is printed and rendered in reports (a wall-clock stop is named as nondeterministic;
 * 'budget' is how reports before the replay budget named it).
 */
export function shrinkStopText(stop: string): string {
  if (stop === 'wall-clock' || stop === 'budget') return 'the wall-clock safety net: NOT reproducible, it depends on machine load';
  if (stop === 'attempts') return 'the replay budget';
  if (stop === 'rounds') return 'the round bound';
  return stop;
}

export interface ShrinkResult {
  /** False when the starting decisions do not violate the invariant (nothing was shrunk). */
  reproduced: boolean;
  /** Every decision a replay of the minimal run consumes, zeros included: replays strictly. */
  decisions: Decision[];
  /** `decisions` minus trailing zeros: the form the shrinker minimizes and 1-minimality is about. */
  canonical: Decision[];
  /** Decisions consumed by the starting run up to the violation (the shrinker's starting point). */
  decisionsBefore: number;
  /** Replays run (cached candidates are not replayed again and not counted). */
  attempts: number;
  improvements: number;
  rounds: number;
  /** True when a full round found nothing to remove: the result is 1-minimal. */
  complete: boolean;
  stoppedBy: ShrinkStop;
}

/**
 * The replay budget the CLI and the gate use: the limit that decides. Shrinks of the shipped naive clients
 * and the planted bugs in the test suite take 80-700 replays (up to ~10 ms each), far inside it.
 */
export const defaultShrinkAttemptsMax = 3_000;

/** Bound on rounds (targeted, full or confirming); every round but the last improves the sequence. */
const roundsMax = 256;
const deleteChunkSizes = [32, 16, 8, 4, 2, 1] as const;
const zeroChunkSizes = [32, 16, 8, 4, 2] as const;

/** A candidate run that consumed its decision allowance without failing (main rounds only). */
class CandidateAbandoned extends Error {}
const abandoned = new CandidateAbandoned('candidate abandoned: it consumed its decision allowance without failing');

/** What replaying a candidate showed: it failed (and was kept or not), it did not fail, or it was cut short. */
type Outcome = 'failed' | 'passed' | 'abandoned';

class Shrinker {
  attempts = 0;
  improvements = 0;
  stoppedBy: ShrinkStop | null = null;
  /** Outcome per candidate (keyed by values): a full replay is never repeated, a cut one may be redone in full. */
  private readonly tried = new Map<string, Outcome>();
  /** Decisions the best run consumed up to its violation: the yardstick for abandoning candidates. */
  private bestConsumed: number;

  constructor(
    private readonly seed: number,
    private readonly scenario: Scenario,
    private readonly client: ClientUnderTest,
    private readonly invariant: InvariantName,
    private readonly options: ShrinkOptions,
    public best: Decision[],
    consumed: number,
  ) {
    this.tried.set(key(best), 'failed');
    this.bestConsumed = consumed;
  }

  exhausted(): boolean {
    if (this.stoppedBy === null && this.attempts >= this.options.attemptsMax) this.stoppedBy = 'attempts';
    return this.stoppedBy !== null;
  }

  /** Asks `shouldStop` once per replay about to run (so a clock is read once per attempt, not per loop turn). */
  private mayReplay(): boolean {
    if (this.exhausted()) return false;
    if (this.options.shouldStop?.() === true) this.stoppedBy = 'wall-clock';
    return this.stoppedBy === null;
  }

  /**
   * Replays a candidate; keeps it when it still fails the same invariant and is simpler. `full` replays
   * run to the end; others are abandoned after their decision allowance.
   */
  try(candidate: Decision[], full = false): boolean {
    const candidateKey = key(candidate);
    const previous = this.tried.get(candidateKey);
    if (previous === 'failed' || previous === 'passed' || (previous === 'abandoned' && !full) || !this.mayReplay()) return false;
    this.attempts++;
    let run: InterleavingResult;
    try {
      const allowance = full ? candidate : withDecisionAllowance(candidate, 2 * this.bestConsumed + 64);
      run = replayLenient(this.seed, this.scenario, this.client, allowance, this.invariant);
    } catch (error) {
      if (error !== abandoned) throw error;
      this.tried.set(candidateKey, 'abandoned');
      return false;
    }
    const failed = violates(run, this.invariant);
    this.tried.set(candidateKey, failed ? 'failed' : 'passed');
    if (!failed) return false;
    const normalized = canonicalDecisions(run.decisions!);
    if (!simpler(normalized, this.best)) return false;
    this.tried.set(key(normalized), 'failed');
    this.best = normalized;
    this.bestConsumed = run.decisions!.length;
    this.improvements++;
    return true;
  }

  /** Every single deletion and every single zeroing, replayed in full: the 1-minimality check. */
  confirm(): void {
    for (let index = this.best.length - 1; index >= 0 && !this.exhausted(); index--) {
      if (index >= this.best.length) continue;
      if (this.try([...this.best.slice(0, index), ...this.best.slice(index + 1)], true)) continue;
      if (index < this.best.length && this.best[index]!.value !== 0) this.try(withValue(this.best, index, 0), true);
    }
  }

  /** Binary search for the shortest prefix that still fails (the rest reads as zeros). */
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
    for (const size of deleteChunkSizes) {
      for (let start = this.best.length - size; start >= 0 && !this.exhausted(); start -= Math.max(1, size >> 2)) {
        if (start + size > this.best.length) continue;
        this.try([...this.best.slice(0, start), ...this.best.slice(start + size)]);
      }
    }
  }

  /**
   * Zeroes every decision of one label at once (every "slow read?", every "drop notification?"): a whole
   * kind of activity or fault gone in one attempt, which chunk moves over a long run reach only slowly.
   */
  zeroLabels(): void {
    const labels = [...new Set(this.best.filter((decision) => decision.value !== 0).map((decision) => decision.label))];
    for (const label of labels) {
      if (this.exhausted()) return;
      this.try(this.best.map((decision) => (decision.label === label ? withValueOf(decision, 0) : decision)));
    }
  }

  zeroChunks(): void {
    for (const size of zeroChunkSizes) {
      for (let start = this.best.length - size; start >= 0 && !this.exhausted(); start -= size >> 1) {
        if (start + size > this.best.length || this.best.slice(start, start + size).every((decision) => decision.value === 0)) continue;
        const candidate = this.best.slice();
        for (let index = start; index < start + size; index++) candidate[index] = withValueOf(candidate[index]!, 0);
        this.try(candidate);
      }
    }
  }

  /** Each non-zero value: 0, else one less, else (when one less worked) the smallest that still fails. */
  lowerValues(): void {
    for (let index = this.best.length - 1; index >= 0 && !this.exhausted(); index--) {
      const decision = this.best[index];
      if (decision === undefined || decision.value === 0) continue;
      if (this.try(withValue(this.best, index, 0))) continue;
      if (decision.value === 1 || !this.try(withValue(this.best, index, decision.value - 1))) continue;
      const lowered = this.best[index];
      if (lowered === undefined || lowered.label !== decision.label) continue;
      let low = 1;
      let high = lowered.value;
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
  const start = replayLenient(seed, scenario, client, decisions, invariant);
  const startDecisions = start.decisions!;
  if (!violates(start, invariant)) {
    const canonical = canonicalDecisions(decisions);
    return { reproduced: false, decisions: [...decisions], canonical, decisionsBefore: startDecisions.length, attempts: 1, improvements: 0, rounds: 0, complete: false, stoppedBy: 'complete' };
  }
  const shrinker = new Shrinker(seed, scenario, client, invariant, options, canonicalDecisions(startDecisions), startDecisions.length);
  shrinker.attempts = 1;
  const passes = [
    { run: () => shrinker.truncate(), idle: false },
    { run: () => shrinker.zeroLabels(), idle: false },
    { run: () => shrinker.deleteChunks(), idle: false },
    { run: () => shrinker.zeroChunks(), idle: false },
    { run: () => shrinker.lowerValues(), idle: false },
  ];
  // A targeted round runs only the passes that improved last time; when it finds nothing, a full round
  // runs every pass; when that finds nothing, the confirmation round decides whether the shrink is complete.
  let rounds = 0;
  let complete = false;
  let fullRound = true;
  while (rounds < roundsMax && !shrinker.exhausted()) {
    rounds++;
    const before = shrinker.improvements;
    for (const pass of passes) {
      if (!fullRound && pass.idle) continue;
      const passBefore = shrinker.improvements;
      pass.run();
      pass.idle = shrinker.improvements === passBefore;
    }
    if (shrinker.improvements > before) {
      fullRound = false;
      continue;
    }
    if (!fullRound) {
      fullRound = true;
      continue;
    }
    shrinker.confirm();
    if (shrinker.improvements === before && !shrinker.exhausted()) {
      complete = true;
      break;
    }
    fullRound = false;
  }
  const final = replayLenient(seed, scenario, client, shrinker.best, invariant).decisions!;
  return {
    reproduced: true,
    decisions: final,
    canonical: shrinker.best,
    decisionsBefore: startDecisions.length,
    attempts: shrinker.attempts,
    improvements: shrinker.improvements,
    rounds,
    complete,
    stoppedBy: complete ? 'complete' : (shrinker.stoppedBy ?? 'rounds'),
  };
}

/** Runs a decision list leniently (missing or out-of-range choices read as 0), stopping at the first violation of `invariant`. */
export function replayLenient(
  seed: number,
  scenario: Scenario,
  client: ClientUnderTest,
  decisions: readonly Decision[],
  invariant: InvariantName | null,
  trace = false,
): InterleavingResult {
  return runInterleaving(seed, scenario, client, replayOptions(decisions, false, invariant, trace));
}

/** Runs a decision list strictly: throws ReplayDivergence at the first label that differs or when the list runs out. */
export function replayStrict(
  seed: number,
  scenario: Scenario,
  client: ClientUnderTest,
  decisions: readonly Decision[],
  invariant: InvariantName | null,
  trace = false,
): InterleavingResult {
  return runInterleaving(seed, scenario, client, replayOptions(decisions, true, invariant, trace));
}

function replayOptions(decisions: readonly Decision[], strict: boolean, invariant: InvariantName | null, trace: boolean): InterleavingOptions {
  return { trace, record: true, replay: { decisions, strict }, stopAtInvariant: invariant };
}

/** Counts, not the (capped) violation list: a run with many other violations still reports this one. */
export function violates(result: InterleavingResult, invariant: InvariantName): boolean {
  return result.oracle.counts[invariantIndex[invariant]]! > 0;
}

/** Trailing zeros are implied by lenient replay: the canonical form drops them. */
export function canonicalDecisions(decisions: readonly Decision[]): Decision[] {
  let end = decisions.length;
  while (end > 0 && decisions[end - 1]!.value === 0) end--;
  return decisions.slice(0, end);
}

export function simpler(candidate: readonly Decision[], best: readonly Decision[]): boolean {
  if (candidate.length !== best.length) return candidate.length < best.length;
  for (let index = 0; index < candidate.length; index++) {
    const difference = candidate[index]!.value - best[index]!.value;
    if (difference !== 0) return difference < 0;
  }
  return false;
}

/** Lenient replay aligns decisions by label, so labels and values together identify a candidate's run. */
function key(decisions: readonly Decision[]): string {
  let end = decisions.length;
  while (end > 0 && decisions[end - 1]!.value === 0) end--; // trailing zeros are implied
  let text = '';
  for (let index = 0; index < end; index++) text += `${decisions[index]!.label}=${decisions[index]!.value},`;
  return text;
}

/**
 * The candidate as lenient replay reads it (index by index, missing ones as 0), except that reading index
 * `allowance` or beyond throws: the run has consumed its allowance without failing and is abandoned.
 */
function withDecisionAllowance(decisions: Decision[], allowance: number): readonly Decision[] {
  return new Proxy(decisions, {
    get(target, property, receiver) {
      if (typeof property === 'string' && isDigit(property.charCodeAt(0)) && Number(property) >= allowance) throw abandoned;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

function withValueOf(decision: Decision, value: number): Decision {
  return { label: decision.label, value, range: decision.range };
}

function withValue(decisions: readonly Decision[], index: number, value: number): Decision[] {
  const copy = decisions.slice();
  copy[index] = withValueOf(decisions[index]!, value);
  return copy;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
