/** What one interleaving is asked to do and what it gives back, whatever the transport. */
import type { ClientEffect, ClientInput } from '../../core/types.js';
import type { Decision } from '../chooser.js';
import type { FaultCounts } from '../faults.js';
import type { InvariantName, Oracle } from '../oracle.js';
import type { InterleavingPlan } from '../plan.js';
import type { TimelineEntry } from '../timeline-entry.js';
import type { RunOutcome } from '../verdict.js';

export interface InterleavingOptions {
  /** Keep a readable timeline. */
  trace: boolean;
  /** Record every decision (for replay files and shrinking). */
  record: boolean;
  /** Replay these decisions instead of drawing from the seed. */
  replay?: { decisions: readonly Decision[]; strict: boolean };
  /** Stop the run right after the first step that violates this invariant (the shrinker's early exit). */
  stopAtInvariant?: InvariantName | null;
  /**
   * Told every client step (its input and the effects it produced) right after the step, before they are
   * judged: the gate's sampled observation fold (observe/gate-figures.ts). It sees, never changes.
   */
  onStep?: StepListener;
  /**
   * Step a reducer client through its pure `step`, never its owned twin, with each state deep-frozen before it is
   * handed over (the determinism self-check's second run, sim/kernel/frozen-step.ts); a step that writes into
   * its input throws a FrozenStepError. Ignored by module clients and the SDK transport.
   */
  pureStep?: boolean;
}

/** A listener of client steps (InterleavingOptions.onStep). */
export type StepListener = (input: ClientInput, effects: readonly ClientEffect[]) => void;

export interface InterleavingResult {
  seed: number;
  /** The run's tag (verdict.ts outcomeOf): a finished run is passed, safety or liveness. */
  outcome: Extract<RunOutcome, 'passed' | 'safety' | 'liveness'>;
  plan: InterleavingPlan;
  oracle: Oracle;
  faultCounts: FaultCounts;
  events: number;
  steps: number;
  endMs: number;
  traceHash: number;
  /** The timeline rendered as text (trace runs only). */
  timeline: string[] | null;
  /** The same timeline as records (sim/timeline-entry.ts), for focusing. */
  timelineEntries: TimelineEntry[] | null;
  decisions: Decision[] | null;
}

/**
 * The simulator, an adapter or the client threw inside one interleaving (a programmer error), whatever the
 * transport: reported with its index and seed. Crosses worker threads as structured data, never as text.
 */
export class InterleavingCrash extends Error {
  /** The run's tag (verdict.ts): a crash ends the gate with exitCodeOf('crashed'). */
  readonly outcome: RunOutcome = 'crashed';

  constructor(
    readonly index: number,
    readonly seed: number,
    readonly error: unknown,
  ) {
    super(`interleaving ${index} (seed ${seed}) threw: ${error instanceof Error ? error.message : String(error)}`);
    this.name = 'InterleavingCrash';
  }
}
