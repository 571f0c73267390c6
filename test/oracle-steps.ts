/** Test support for the oracle's tests: the ground truth of one step, and what fired. */
import { allInvariants, causeWorkload, invariantIndex, type InvariantName, type Oracle, type StepTruth } from '../sim/oracle.js';

/** A workload step on session 1 at 1 s unless overridden. */
export function truth(overrides: Partial<StepTruth> = {}): StepTruth {
  return {
    timeMs: 1_000,
    cause: causeWorkload,
    currentSession: 1,
    requestSession: -1,
    requestSentAtMs: -1,
    servedResource: -1,
    servedVersion: 0,
    servedExists: true,
    malformedRead: null,
    ...overrides,
  };
}

/** The violation counts as a record of the invariants that fired (zeros left out). */
export function fired(oracle: Oracle): Partial<Record<InvariantName, number>> {
  const result: Partial<Record<InvariantName, number>> = {};
  for (const name of allInvariants) {
    const count = oracle.counts[invariantIndex[name]]!;
    if (count > 0) result[name] = count;
  }
  return result;
}
