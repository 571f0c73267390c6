/**
 * The reducer driver steps the reference through its owned step (core/step-owned.ts: the state is changed
 * in place, the driver holding the only reference). Whole interleavings through it and through the pure
 * `step` (a wrapper that replaces `step` gets no owned step) give the same run: trace hash, counts,
 * violations, decisions and the timeline, so nothing the oracle, the timeline or a crash recovery kept
 * after a step was changed by a later one. And a wrapper is stepped through its own `step`.
 */
import { describe, expect, it } from 'vitest';

import { referenceClient, step } from '../../core/reducer.js';
import type { CoreState } from '../../core/state.js';
import type { ClientUnderTest } from '../../core/types.js';
import { findScenario } from '../../scenarios/catalog.js';
import { runInterleaving, type InterleavingResult } from '../world.js';

const traced = { trace: true, record: true } as const;

/** The whole result (timeline, decisions, counts, ...), with the oracle's findings as plain data. */
function fingerprint(result: InterleavingResult): unknown {
  const { oracle, ...rest } = result;
  return { ...rest, violations: oracle.violations, counts: Array.from(oracle.counts), edgeHits: Array.from(oracle.edgeHits) };
}

describe('the reducer driver on the owned step', () => {
  // The 2025 and 2026 swarms, both eras, and crash recovery (durable ledger snapshots between steps).
  for (const name of ['swarm', 'era2026-swarm', 'era-both', 'client-crash']) {
    it(`${name}: the same run as through the pure step`, () => {
      const scenario = findScenario(name)!;
      let pureSteps = 0;
      const pure: ClientUnderTest<CoreState> = {
        ...referenceClient,
        step: (state, input) => {
          pureSteps += 1;
          return step(state, input);
        },
      };
      for (const seed of [3, 11]) {
        const before = pureSteps;
        const owned = runInterleaving(seed, scenario, referenceClient, traced);
        const reference = runInterleaving(seed, scenario, pure, traced);
        expect(fingerprint(owned)).toEqual(fingerprint(reference));
        // The wrapper really was stepped through its own step, every time.
        expect(pureSteps - before).toBe(reference.steps);
      }
    });
  }
});
