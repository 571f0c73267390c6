/**
 * Tagged run results and the gate's outcomes with their exit codes: the vocabulary `verdictOf`
 * (sim/gate-verdict.ts) decides in, the only place pass or fail is decided. One interleaving ends `passed`, with a
 * `safety` or a `liveness` violation (which kind comes from the invariant lists in invariants.ts, never from
 * names), `crashed` (the simulator or client threw) or `nondeterministic` (the self-check ran it twice and
 * got two traces). A gate ends `passed`, `failed`, `crashed` or `nondeterministic`.
 */
import { allInvariants, invariantIndex, livenessInvariants } from './invariants.js';

export const runOutcomes = ['passed', 'safety', 'liveness', 'crashed', 'nondeterministic'] as const;
export type RunOutcome = (typeof runOutcomes)[number];

export const runOutcomeIndex: Record<RunOutcome, number> = Object.fromEntries(runOutcomes.map((name, index) => [name, index])) as Record<RunOutcome, number>;

/** Per invariant index: 1 for the invariants of `livenessInvariants`, 0 for every other (safety) one. */
const livenessAt = new Uint8Array(allInvariants.length);
for (const name of livenessInvariants) livenessAt[invariantIndex[name]] = 1;

/**
 * The tag of one finished interleaving from its oracle's per-invariant counts (indexed as `invariantIndex`).
 * A safety violation wins over a liveness one.
 */
export function outcomeOf(counts: ArrayLike<number>): 'passed' | 'safety' | 'liveness' {
  let liveness = false;
  for (let index = 0; index < counts.length; index++) {
    if (counts[index]! === 0) continue;
    if (livenessAt[index] === 0) return 'safety';
    liveness = true;
  }
  return liveness ? 'liveness' : 'passed';
}

/** The gate's outcomes and their exit codes (2 is the CLI's usage/input error, never a gate outcome). */
export const gateExitCodes = { passed: 0, failed: 1, crashed: 3, nondeterministic: 4 } as const;
export type GateOutcome = keyof typeof gateExitCodes;

export function exitCodeOf(outcome: GateOutcome): number {
  return gateExitCodes[outcome];
}

/** What the determinism self-check found (reports/json.ts ReportDeterminism carries these fields). */
export interface DeterminismEvidence {
  checked: number;
  nondeterministic_interleavings: number;
}

/** Evidence beyond the accumulator that the verdict weighs. */
export interface VerdictEvidence {
  determinism?: DeterminismEvidence;
  /** A merge that lacks some slices: the reason it gives (it fails the gate). */
  partialReason?: string;
}

/** The gate's outcome from its reasons and evidence: nondeterminism wins over any other failure. */
export function gateOutcomeOf(reasons: readonly string[], evidence: VerdictEvidence): GateOutcome {
  if ((evidence.determinism?.nondeterministic_interleavings ?? 0) > 0) return 'nondeterministic';
  return reasons.length === 0 ? 'passed' : 'failed';
}

/** The reasons the evidence adds, after the accumulator's own (in this order). */
export function evidenceReasons(evidence: VerdictEvidence): string[] {
  const reasons: string[] = [];
  const determinism = evidence.determinism;
  if (determinism !== undefined && determinism.nondeterministic_interleavings > 0) {
    reasons.push(
      `nondeterministic_interleavings: ${determinism.nondeterministic_interleavings} of ${determinism.checked} sampled interleavings gave different trace hashes on two runs of the same seed`,
    );
  }
  if (evidence.partialReason !== undefined) reasons.push(evidence.partialReason);
  return reasons;
}
