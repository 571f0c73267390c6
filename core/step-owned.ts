/**
 * Owned steps: a client's optional fast path that may change the state it is handed in place, for a host
 * that gives each state up once it has stepped it (sim/kernel/reducer-driver.ts keeps only the latest).
 * It must give deep-equal states and identical effects to the pure `step` (core/step-owned.test.ts).
 *
 * It is registered against the pure `step` function it stands for, not carried as a field of the client:
 * a wrapper that replaces `step` (an observing fold, a naive variant spread from the reference) has no
 * owned step and is stepped through its own `step`; a copy that keeps `step` keeps the fast path.
 */
import type { ClientInput, ClientUnderTest, StepResult } from './types.js';

export type StepFunction<S> = (state: S, input: ClientInput) => StepResult<S>;

/** Keyed by the pure step function; each entry's states are of one type `S` (see the two functions below). */
const ownedSteps = new WeakMap<object, unknown>();

/** Declares `owned` the in-place twin of the pure `step` (same results; the state handed in is consumed). */
export function registerOwnedStep<S>(step: StepFunction<S>, owned: StepFunction<S>): void {
  ownedSteps.set(step, owned);
}

/** The owned step of a client whose `step` has one registered, else undefined. */
export function ownedStepOf<S>(client: ClientUnderTest<S>): StepFunction<S> | undefined {
  return ownedSteps.get(client.step) as StepFunction<S> | undefined;
}
