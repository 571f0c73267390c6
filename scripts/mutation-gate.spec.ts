// The small, fixed gate that `npm run mutation` runs against each mutant of core/ (Stryker's vitest runner,
// config: stryker.config.json + vitest.mutation.config.ts). Not part of `npm test` or CI.
//
// Each test is one part of the gate: a scenario over fixed seeds, judged by the same oracle, checkers and metric
// gates as `fencesim gate` (sim/gate.ts), never by a unit test of core internals. A part fails at its FIRST failing
// interleaving. Stryker switches mutants in this one process (__stryker__.activeMutant) and, with per-test coverage,
// runs only the parts that reach a mutant, so a mutant costs only the parts that cover it.
// Run it alone on the reference (every part must pass): npx vitest run --config vitest.mutation.config.ts
import { describe, expect, test } from 'vitest';
import { mutationGateFailure, mutationGateParts, mutationSelfCheckFailure, mutationSelfCheckParts, sameResourceFailure } from './mutation-gate.js';

describe('mutation gate', () => {
  for (const [name, start, count] of mutationGateParts) {
    test(`${name} [${start}, ${start + count})`, () => {
      expect(mutationGateFailure(name, start, count)).toBeNull();
    });
  }
  // The library export no client of the gate calls, against the uri-shapes table (a few ms).
  test('sameResource against the uri-shapes table', () => {
    expect(sameResourceFailure()).toBeNull();
  });
  for (const [name, indices] of mutationSelfCheckParts) {
    test(`${name} self-check ${indices.join(',')}`, () => {
      expect(mutationSelfCheckFailure(name, indices)).toBeNull();
    });
  }
});
