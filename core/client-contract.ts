/** The client-under-test contract (SPEC §4): what the harness drives and judges. */
import type { ClientConfig } from './config.js';
import type { StepResult } from './effects.js';
import type { ClientInput } from './inputs.js';

/**
 * Any client the harness can drive: the reference core, a naive strategy, or a user's own.
 * `durable` and `recover` model a crash: the harness keeps only `durable(state)` and restarts
 * the client with `recover(config, durable)`, a step like any other: the restarted state and the effects of
 * the restart (the reference emits a `Transitioned` for every subscription it moves), judged by the oracle.
 */
export interface ClientUnderTest<S = unknown> {
  readonly name: string;
  readonly description: string;
  init(config: ClientConfig): S;
  step(state: S, input: ClientInput): StepResult<S>;
  durable?(state: S): unknown;
  recover?(config: ClientConfig, durable: unknown): StepResult<S>;
  /**
   * What the client claims beyond subscriptions. `catalogs`: asked to discover, it lists resources and
   * publishes catalogs, so after the heal it must publish one of the healed listing (`healed_catalog`);
   * loaded by path, the list faults apply to it only with this claim. `crashRecovery` (loaded by path):
   * false switches the crash fault off even with `durable` and `recover`.
   */
  readonly features?: { readonly catalogs?: boolean; readonly crashRecovery?: boolean };
}
