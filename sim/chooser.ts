/**
 * The single place where nondeterminism enters a simulated interleaving. Every choice is a labelled draw
 * of an integer in [0, n) from one of the component streams; 0 is always the simplest choice (no fault,
 * shortest latency, fewest operations), which is what shrinking replaces choices with.
 *
 * Modes:
 * - seeded (the gate): draws come from per-component PRNGs derived from the interleaving seed; nothing is
 *   recorded unless `record` is on.
 * - replay: draws come from a recorded decision list. Strict replay fails loudly at the first decision
 *   whose label differs; lenient replay (used by the shrinker) stays aligned by label: when the next
 *   recorded decision has another label, it skips ahead to the next one with the asked label (within
 *   `lenientLookahead` decisions: the activity that drew the skipped ones is gone), and when there is
 *   none it answers 0 without consuming anything (new activity takes its simplest choice). It answers 0
 *   when the list runs out or a value is out of range.
 */
import { createPrng, deriveSeed, type Prng } from './prng.js';

export const streams = ['workload', 'server', 'network', 'faults'] as const;
export type Stream = (typeof streams)[number];
const streamIds: Record<Stream, number> = { workload: 1, server: 2, network: 3, faults: 4 };

export interface Decision {
  label: string;
  value: number;
  /** The range the value was drawn from: [0, range). */
  range: number;
}

/** How far a lenient replay looks ahead for the asked label. */
export const lenientLookahead = 64;

export class ReplayDivergence extends Error {
  constructor(
    readonly index: number,
    readonly expectedLabel: string,
    readonly actualLabel: string,
  ) {
    super(`replay diverged at decision ${index}: the file has "${expectedLabel}", the code asked for "${actualLabel}"`);
  }
}

export class Chooser {
  private readonly prngs: Prng[] | null;
  private readonly replay: readonly Decision[] | null;
  private readonly strict: boolean;
  private cursor = 0;
  /** Recorded decisions (only when recording or replaying). */
  readonly log: Decision[] | null;

  private constructor(prngs: Prng[] | null, replay: readonly Decision[] | null, strict: boolean, record: boolean) {
    this.prngs = prngs;
    this.replay = replay;
    this.strict = strict;
    this.log = record ? [] : null;
  }

  static seeded(seed: number, record: boolean): Chooser {
    const prngs = streams.map((stream) => createPrng(deriveSeed(seed, streamIds[stream])));
    return new Chooser(prngs, null, false, record);
  }

  static replaying(decisions: readonly Decision[], strict: boolean): Chooser {
    return new Chooser(null, decisions, strict, true);
  }

  /** How many decisions were consumed so far. */
  get consumed(): number {
    return this.cursor;
  }

  /** A uniform choice in [0, n). `n` must be an integer >= 1. */
  draw(stream: Stream, label: string, n: number): number {
    let value: number;
    if (this.replay === null) {
      value = n <= 1 ? 0 : this.prngs![streamIds[stream] - 1]!.nextBelow(n);
    } else {
      const recorded = this.replay[this.cursor];
      if (recorded === undefined) {
        if (this.strict) throw new ReplayDivergence(this.cursor, '(end of decisions)', label);
        value = 0;
      } else if (recorded.label === label) {
        value = recorded.value < n ? recorded.value : 0;
      } else {
        if (this.strict) throw new ReplayDivergence(this.cursor, recorded.label, label);
        return this.drawAligned(label, n);
      }
    }
    this.cursor++;
    if (this.log !== null) this.log.push({ label, value, range: n });
    return value;
  }

  /** Lenient replay, label mismatch: skip ahead to the asked label, or answer 0 consuming nothing. */
  private drawAligned(label: string, n: number): number {
    const replay = this.replay!;
    const end = Math.min(replay.length, this.cursor + 1 + lenientLookahead);
    let value = 0;
    for (let index = this.cursor + 1; index < end; index++) {
      const recorded = replay[index]!;
      if (recorded.label !== label) continue;
      value = recorded.value < n ? recorded.value : 0;
      this.cursor = index + 1;
      break;
    }
    if (this.log !== null) this.log.push({ label, value, range: n });
    return value;
  }

  /**
   * True with probability numerator/denominator; the draw 0 (simplest) is always false. Impossible and
   * certain outcomes are not choices: nothing is drawn or recorded for them.
   */
  chance(stream: Stream, label: string, numerator: number, denominator: number): boolean {
    if (numerator <= 0) return false;
    if (numerator >= denominator) return true;
    return this.draw(stream, label, denominator) >= denominator - numerator;
  }

  /** An integer in [low, high]; the simplest choice is `low`. */
  between(stream: Stream, label: string, low: number, high: number): number {
    return low + this.draw(stream, label, high - low + 1);
  }

  /**
   * The delay until the next event of a recurring process (mutations of a resource, serving, discovery),
   * in [lowMs, highMs], or -1: the process ends. The draw 0 ends it (the simplest choice: no more events),
   * 1 is the longest delay and the highest draw the shortest, so the shrinker can remove unrelated activity
   * by zeroing its draws. A seeded run ends a process with probability 1 / (highMs - lowMs + 2) per event.
   */
  interval(stream: Stream, label: string, lowMs: number, highMs: number): number {
    const value = this.draw(stream, label, highMs - lowMs + 2);
    return value === 0 ? -1 : highMs + 1 - value;
  }

  /** An integer in [low, high] where the simplest choice is `high` (a page size: the largest gives the fewest pages). */
  betweenFromHigh(stream: Stream, label: string, low: number, high: number): number {
    return high - this.draw(stream, label, high - low + 1);
  }
}
