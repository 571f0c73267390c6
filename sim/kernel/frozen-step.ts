/**
 * The pure step under watch, for the determinism self-check's second run (sim/determinism.ts): the client is
 * stepped through its pure `step` (never an owned twin, core/step-owned.ts) and every state it is handed is
 * deep-frozen first. A step that writes into the state it was given (a copy-on-write slip: the caller's state
 * changes under it) throws there, and an owned twin that disagrees with its pure step gives another trace.
 */
import type { ClientUnderTest } from '../../core/types.js';
import type { StepFunction } from '../../core/step-owned.js';

/** A step that threw on the frozen state it was handed, with the run's timeline up to that step (traced runs). */
export class FrozenStepError extends Error {
  constructor(
    message: string,
    /** The timeline so far; its last line is the input of the step that threw. Null when the run was not traced. */
    readonly timeline: readonly string[] | null,
  ) {
    super(message);
    this.name = 'FrozenStepError';
  }
}

/**
 * Freezes `value` and everything reachable from it. An object already frozen is not walked again: the states a
 * step returns share all they did not change with the state it was given, which this function froze whole
 * before (and the reference core's own frozen idle values are frozen to the bottom).
 */
export function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) deepFreeze(value[index]);
    return;
  }
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
}

/** `client.step` with the state deep-frozen before each call; a throw becomes a FrozenStepError. */
export function frozenStep(client: ClientUnderTest, timelineSoFar: () => readonly string[] | null): StepFunction<unknown> {
  return (state, input) => {
    deepFreeze(state);
    // A hostile input (malformed-input) may be no object at all: described without reading its fields then.
    const what: unknown = input;
    const described = typeof what === 'object' && what !== null ? `${String(input.type)} at ${String(input.nowMs)} ms` : `an input that is ${what === null ? 'null' : typeof what}`;
    return frozenCall(() => client.step(state, input), `its pure step threw on the deep-frozen state it was handed (${described})`, timelineSoFar);
  };
}

/**
 * A crash and restart on frozen values: `durable` is handed the deep-frozen state, `recover` the deep-frozen
 * ledger (a recovery that writes into the ledger it is given changes its caller's copy); a throw becomes a FrozenStepError.
 */
export function frozenRestart(client: Required<Pick<ClientUnderTest, 'durable' | 'recover'>>, state: unknown, recover: (durable: unknown) => unknown, timelineSoFar: () => readonly string[] | null): unknown {
  deepFreeze(state);
  const durable = frozenCall(() => client.durable(state), 'its durable threw on the deep-frozen state it was handed', timelineSoFar);
  return frozenCall(() => recover(durable), 'its recover threw on the deep-frozen ledger it was handed', timelineSoFar);
}

function frozenCall<T>(call: () => T, what: string, timelineSoFar: () => readonly string[] | null): T {
  try {
    return call();
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new FrozenStepError(`${what}: ${message}`, timelineSoFar()?.slice() ?? null);
  }
}
