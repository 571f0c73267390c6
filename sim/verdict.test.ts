import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { swarm } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { GateAccumulator, runRange, verdictOf, type RunSpec } from './gate.js';
import { allInvariants, invariantIndex, livenessInvariants, safetyInvariants } from './invariants.js';
import { exitCodeOf, gateExitCodes, outcomeOf, runOutcomeIndex } from './verdict.js';

const spec: RunSpec = { seed: 5, interleavings: 60, scenario: swarm.name, client: 'reference', maxFailures: 10 };

function countsWith(names: readonly string[]): Int32Array {
  const counts = new Int32Array(allInvariants.length);
  for (const name of names) counts[invariantIndex[name as keyof typeof invariantIndex]] += 1;
  return counts;
}

describe('verdict: tagged run results', () => {
  it('a run is tagged liveness exactly when every violated invariant is in livenessInvariants, safety when any other is', () => {
    fc.assert(
      fc.property(fc.subarray([...allInvariants]), (violated) => {
        const expected = violated.length === 0 ? 'passed' : violated.every((name) => (livenessInvariants as readonly string[]).includes(name)) ? 'liveness' : 'safety';
        expect(outcomeOf(countsWith(violated))).toBe(expected);
      }),
    );
  });

  it('every safety invariant alone gives safety, every liveness invariant alone gives liveness', () => {
    for (const name of safetyInvariants) expect(outcomeOf(countsWith([name]))).toBe('safety');
    for (const name of livenessInvariants) expect(outcomeOf(countsWith([name]))).toBe('liveness');
  });

  it('the accumulator tallies its runs by tag, and the tally merges', () => {
    const naive = findClient('naive-overwrite')!;
    const whole = runRange({ ...spec, client: naive.name }, swarm, naive, 0, 60);
    const left = runRange({ ...spec, client: naive.name }, swarm, naive, 0, 25);
    left.merge(runRange({ ...spec, client: naive.name }, swarm, naive, 25, 60));
    expect(Array.from(left.outcomes)).toEqual(Array.from(whole.outcomes));
    expect(whole.outcomes.reduce((sum, count) => sum + count, 0)).toBe(60);
    expect(whole.outcomes[runOutcomeIndex.safety]).toBeGreaterThan(0);
  });
});

describe('verdict: one function decides the outcome and the exit code', () => {
  const reference = findClient('reference')!;
  const passing = runRange(spec, swarm, reference, 0, 60);

  it('a clean accumulator passes with exit 0', () => {
    const verdict = verdictOf(passing, swarm);
    expect([verdict.outcome, verdict.passed, verdict.exitCode]).toEqual(['passed', true, 0]);
  });

  it('a safety violation fails with exit 1', () => {
    const accumulator = new GateAccumulator(spec);
    accumulator.merge(passing);
    accumulator.violationCounts[invariantIndex.version_regression]! += 1;
    accumulator.failingInterleavings[invariantIndex.version_regression]! += 1;
    const verdict = verdictOf(accumulator, swarm);
    expect([verdict.outcome, verdict.passed, verdict.exitCode]).toEqual(['failed', false, 1]);
  });

  it('a nondeterministic self-check wins over pass and fail, with exit 4 and its reason last', () => {
    const verdict = verdictOf(passing, swarm, { determinism: { checked: 3, nondeterministic_interleavings: 1 } });
    expect([verdict.outcome, verdict.passed, verdict.exitCode]).toEqual(['nondeterministic', false, 4]);
    expect(verdict.reasons.at(-1)).toMatch(/^nondeterministic_interleavings: 1 of 3/);
  });

  it('a partial merge fails with its own reason', () => {
    const verdict = verdictOf(passing, swarm, { partialReason: 'partial merge: slice 2/2 is missing' });
    expect([verdict.outcome, verdict.exitCode]).toEqual(['failed', 1]);
    expect(verdict.reasons).toEqual(['partial merge: slice 2/2 is missing']);
  });

  it('the exit codes are distinct, and 2 (usage) is none of them', () => {
    const codes = Object.values(gateExitCodes);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain(2);
    expect(exitCodeOf('crashed')).toBe(3);
  });
});
