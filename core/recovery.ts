/**
 * Crash and recovery (SPEC §3.9). What survives a crash is the durable ledger only. Recovery keeps every
 * watermark, request id and close receipt (so no pre-crash read can pass the fence) and treats the crash
 * as a lost session: every subscription whose server state is unknowable moves along its `session_lost`
 * edge of the table, through `move` like any other change, emitting `Transitioned` (closing ones end
 * CLOSED, live ones and a VERSION_ACCEPTED become RECONCILIATION_REQUIRED).
 */
import { isLive, move } from './fence.js';
import { Draft, emptyVolatile, type CoreState, type Ledger } from './state.js';
import type { ClientConfig, StepResult } from './types.js';

/** What survives a crash: the ledger only. */
export function durableLedger(state: CoreState): Ledger {
  return state.ledger;
}

/**
 * Restart from the durable ledger as a client with no session, with the effects of the restart (the
 * moves of every subscription). A running discovery pass dies with the process: its cursors were volatile.
 * The restart knows no time: it stamps nothing (a closed record keeps the endMs it had).
 */
export function recoverStep(config: ClientConfig, ledger: Ledger): StepResult<CoreState> {
  const discovery = { ...ledger.discovery, running: null, previous: null, rounds: 0 };
  const restarted: CoreState = { config, ledger: { ...ledger, discovery }, volatile: emptyVolatile() };
  const d = new Draft(restarted, 0, 0);
  for (const uri in d.l.subscriptions) {
    const state = d.l.subscriptions[uri]!.state;
    if (!isLive(state) && state !== 'VERSION_ACCEPTED' && state !== 'UNSUBSCRIBING' && state !== 'UNSUBSCRIBE_UNKNOWN') continue;
    const sub = move(d, uri, 'session_lost');
    if (sub.state === 'CLOSED') {
      d.emit({ type: 'SubscriptionClosed', uri, closeEpoch: sub.closeEpoch ?? 0, closeOrdinal: sub.closeOrdinal ?? sub.lastIssuedOrdinal, outcome: 'SESSION_ENDED' });
    }
  }
  return { state: d.commit(), effects: d.effects };
}

/** `recoverStep` for hosts that keep only the state (`ClientUnderTest.recover`). */
export function recoverFromLedger(config: ClientConfig, ledger: Ledger): CoreState {
  return recoverStep(config, ledger).state;
}
