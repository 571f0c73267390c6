/**
 * The reducer driver steps the reference through its owned step (core/step-owned.ts: the state is changed
 * in place, the driver holding the only reference). Whole interleavings through it and through the pure
 * `step` (a wrapper that replaces `step` gets no owned step) give the same run: trace hash, counts,
 * violations, decisions and the timeline, so nothing the oracle, the timeline or a crash recovery kept
 * after a step was changed by a later one. And a wrapper is stepped through its own `step`.
 */
import { describe, expect, it } from 'vitest';

import { isOpen } from '../../core/fence.js';
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

describe('a repeated input (input-repeated) the client throws on', () => {
  // SPEC §11: a step never throws on input. A repeat is judged like malformed-input's hostile inputs: the throw is a
  // malformed_input_accepted violation and the run goes on from the state before it (it does not stop the run).
  it('is a malformed_input_accepted violation, and the run goes on', () => {
    const scenario = findScenario('repeated-inputs')!;
    const held = (state: CoreState, uri: string): boolean => {
      const record = state.ledger.subscriptions[uri];
      return record !== undefined && isOpen(record.state);
    };
    const throwsOnRepeat: ClientUnderTest<CoreState> = {
      ...referenceClient,
      step: (state, input) => {
        // The workload commands a subscribe only for a resource not wanted already: an open record means a repeat.
        if (input.type === 'SubscribeCommanded' && held(state, input.uri)) throw new Error('subscribed twice');
        return step(state, input);
      },
    };
    let thrown = 0;
    for (let seed = 0; seed < 20 && thrown === 0; seed++) {
      const result = runInterleaving(seed, scenario, throwsOnRepeat, { trace: false, record: false });
      thrown += result.oracle.violations.filter((violation) => violation.invariant === 'malformed_input_accepted' && violation.detail.includes('the step threw (Error: subscribed twice)')).length;
    }
    expect(thrown).toBeGreaterThan(0);
  });
});
