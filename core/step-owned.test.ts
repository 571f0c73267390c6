/**
 * `stepOwned` (the in-place step a host that gives its state up may use) = `step` (the pure one): the same
 * inputs through both chains give identical effects and deep-equal states at every step, crash recoveries
 * included; no owned step changes an effect emitted earlier (nothing emitted aliases the state it changes);
 * and only a client whose `step` is the registered pure step gets the owned fast path.
 */
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { actionsArbitrary } from './arbitraries.js';
import { durableLedger, referenceClient, step, stepOwned } from './reducer.js';
import { recoverStep } from './recovery.js';
import { initialState, type CoreState } from './state.js';
import { ownedStepOf } from './step-owned.js';
import { deepFreeze, drive, jsonCopy, testConfig } from './testing.js';
import type { ClientEffect, ClientInput, ClientUnderTest } from './types.js';

/** The trace's inputs in order; `null` marks a crash (the host restarts the client from its durable ledger). */
function inputsOf(actions: Parameters<typeof drive>[0]): (ClientInput | null)[] {
  return drive(actions).steps.flatMap((traced) => (traced.crashed ? [null] : traced.input === null ? [] : [traced.input]));
}

/** 2026-07-28: the same inputs with every connection on the 2026 era (listen, TTL and read-deadline paths). */
function onEra2026(input: ClientInput | null): ClientInput | null {
  return input !== null && input.type === 'Connected' ? { ...input, era: '2026-07-28' } : input;
}

function restart(state: CoreState): CoreState {
  return recoverStep(state.config, jsonCopy(durableLedger(state))).state;
}

/** Both chains side by side; fails at the first step where effects or states differ. */
function expectSameChains(inputs: readonly (ClientInput | null)[]): void {
  const config = testConfig();
  let pure = initialState(deepFreeze({ ...config }));
  let owned = initialState({ ...config });
  const emitted: { effect: ClientEffect; json: string }[] = [];
  for (const input of inputs) {
    if (input === null) {
      pure = restart(pure);
      owned = restart(owned);
      continue;
    }
    // The pure step on a frozen state (a write to it would throw); the owned one on its own unfrozen state.
    const expected = step(deepFreeze(pure), jsonCopy(input));
    const actual = stepOwned(owned, jsonCopy(input));
    expect(actual.effects).toEqual(expected.effects);
    expect(jsonCopy(actual.state)).toEqual(jsonCopy(expected.state));
    for (const effect of actual.effects) emitted.push({ effect, json: JSON.stringify(effect) });
    pure = expected.state;
    owned = actual.state;
  }
  // Effects are kept by the oracle and the timeline after the step: no later in-place step may change one.
  for (const { effect, json } of emitted) expect(JSON.stringify(effect)).toBe(json);
}

describe('stepOwned = step', () => {
  test.prop([actionsArbitrary], { numRuns: 150 })('2025-11-25: identical effects and deep-equal states at every step, crashes included', (actions) => {
    expectSameChains(inputsOf(actions));
  });

  test.prop([actionsArbitrary], { numRuns: 150 })('2026-07-28: identical effects and deep-equal states at every step, crashes included', (actions) => {
    expectSameChains(inputsOf(actions).map(onEra2026));
  });

  it('a rejected input returns the state handed in, unchanged', () => {
    const state = initialState(testConfig());
    const before = JSON.stringify(state);
    const result = stepOwned(state, { type: 'SubscribeCommanded', nowMs: 0, jitter: 0, uri: 'not a uri' });
    expect(result.state).toBe(state);
    expect(JSON.stringify(result.state)).toBe(before);
    expect(result.effects.map((effect) => effect.type)).toEqual(['ProtocolRejected']);
  });
});

describe('ownedStepOf', () => {
  it('gives the reference its owned step, also through a copy that keeps its step', () => {
    expect(ownedStepOf(referenceClient)).toBe(stepOwned);
    expect(ownedStepOf({ ...referenceClient, name: 'renamed' })).toBe(stepOwned);
  });

  it('gives a wrapper that replaces step none (it is stepped through its own step)', () => {
    const wrapped: ClientUnderTest<CoreState> = { ...referenceClient, step: (state, input) => referenceClient.step(state, input) };
    expect(ownedStepOf(wrapped)).toBeUndefined();
  });
});
