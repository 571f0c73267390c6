/**
 * Recovery is a step (ClientUnderTest.recover returns a StepResult): the simulator judges and carries out
 * its effects, so the edges recovery moves along are covered like any other, including
 * VERSION_ACCEPTED --session_lost--> RECONCILIATION_REQUIRED, which only a ledger written mid-accept holds.
 */
import { describe, expect, it } from 'vitest';

import { referenceClient } from '../core/reducer.js';
import { durableLedger, recoverStep } from '../core/recovery.js';
import type { CoreState, Ledger } from '../core/state.js';
import { edgeIndexOf } from '../core/transitions.js';
import type { ClientUnderTest } from '../core/types.js';
import { clientCrash } from '../scenarios/catalog.js';
import { runRange, type RunSpec } from './gate.js';

interface HostState {
  core: CoreState;
  /** URIs whose read was accepted by the latest step. */
  accepted: string[];
}

/**
 * The reference core in a host that persists its ledger as each effect is carried out, and crashes between
 * `VersionAccepted` and the settle that follows it in the same step: the ledger it keeps holds the
 * subscription in VERSION_ACCEPTED.
 */
const midAcceptHost: ClientUnderTest<HostState> = {
  name: 'reference-mid-accept-ledger',
  description: 'the reference core whose durable ledger is written mid-accept',
  init: (config) => ({ core: referenceClient.init(config), accepted: [] }),
  step: (state, input) => {
    const result = referenceClient.step(state.core, input);
    const accepted = result.effects.flatMap((effect) => (effect.type === 'Transitioned' && effect.to === 'VERSION_ACCEPTED' ? [effect.uri] : []));
    return { state: { core: result.state, accepted }, effects: result.effects };
  },
  durable: (state) => {
    const ledger = durableLedger(state.core);
    const subscriptions = { ...ledger.subscriptions };
    for (const uri of state.accepted) {
      const record = subscriptions[uri];
      if (record !== undefined && (record.state === 'ACTIVE' || record.state === 'READ_PENDING')) subscriptions[uri] = { ...record, state: 'VERSION_ACCEPTED' };
    }
    return { ...ledger, subscriptions };
  },
  recover: (config, durable) => {
    const result = recoverStep(config, durable as Ledger);
    return { state: { core: result.state, accepted: [] }, effects: result.effects };
  },
};

function spec(client: ClientUnderTest<any>): RunSpec {
  return { seed: 11, interleavings: 300, scenario: clientCrash.name, client: client.name, maxFailures: 5 };
}

describe('recovery is a step the simulator judges', () => {
  const edge = edgeIndexOf('VERSION_ACCEPTED', 'session_lost');

  it('a ledger written mid-accept reaches VERSION_ACCEPTED --session_lost--> RECONCILIATION_REQUIRED, and the gate still passes', () => {
    const accumulator = runRange(spec(midAcceptHost), clientCrash, midAcceptHost, 0, 300);
    expect(accumulator.crashes).toBeGreaterThan(0);
    expect(accumulator.edgeHits[edge]).toBeGreaterThan(0);
    expect(accumulator.violationCounts.reduce((sum, count) => sum + count, 0)).toBe(0);
  });

  it('the reference recovery moves are counted as edges (UNSUBSCRIBING and live states along session_lost)', () => {
    const withRecovery = runRange(spec(referenceClient), clientCrash, referenceClient, 0, 300);
    // Without its effects (a recover that hides them) the same runs count fewer session_lost moves.
    const hidden: ClientUnderTest<CoreState> = {
      ...referenceClient,
      name: 'reference-recovery-hidden',
      recover: (config, durable) => ({ state: recoverStep(config, durable as Ledger).state, effects: [] }),
    };
    const withoutRecovery = runRange(spec(hidden), clientCrash, hidden, 0, 300);
    const sessionLost = (hits: Float64Array): number => ['ACTIVE', 'READ_PENDING', 'UPDATE_SEEN', 'SUBSCRIBING'].reduce((sum, from) => sum + hits[edgeIndexOf(from as 'ACTIVE', 'session_lost')]!, 0);
    expect(sessionLost(withRecovery.edgeHits)).toBeGreaterThan(sessionLost(withoutRecovery.edgeHits));
    expect(withRecovery.edgeHits[edge]).toBe(0); // step() always settles an accept: the reference's own ledger never holds it
  });

  it('a recover that returns a bare state is refused with a message naming the client', () => {
    const bare = { ...referenceClient, name: 'bare-recover', recover: (config: CoreState['config'], durable: unknown) => recoverStep(config, durable as Ledger).state } as unknown as ClientUnderTest<CoreState>;
    expect(() => runRange(spec(bare), clientCrash, bare, 0, 300)).toThrow(/client bare-recover: recover\(config, durable\) must return a step result/);
  });
});
