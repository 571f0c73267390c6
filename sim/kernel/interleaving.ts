/** What one interleaving is asked to do and what it gives back, whatever the transport. */
import type { Decision } from '../chooser.js';
import type { FaultCounts } from '../faults.js';
import type { InvariantName, Oracle } from '../oracle.js';
import type { InterleavingPlan } from '../plan.js';

export interface InterleavingOptions {
  /** Keep a readable timeline. */
  trace: boolean;
  /** Record every decision (for replay files and shrinking). */
  record: boolean;
  /** Replay these decisions instead of drawing from the seed. */
  replay?: { decisions: readonly Decision[]; strict: boolean };
  /** Stop the run right after the first step that violates this invariant (the shrinker's early exit). */
  stopAtInvariant?: InvariantName | null;
}

export interface InterleavingResult {
  seed: number;
  plan: InterleavingPlan;
  oracle: Oracle;
  faultCounts: FaultCounts;
  events: number;
  steps: number;
  endMs: number;
  traceHash: number;
  timeline: string[] | null;
  decisions: Decision[] | null;
}
