import { describe, expect, test } from 'vitest';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { runRange, type RunSpec } from '../sim/gate.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { faultNames } from '../sim/faults.js';
import { allInvariants } from '../sim/oracle.js';
import { observeSectionOf } from '../reports/observe-section.js';
import { GateObservation, observeDue, observeRowNames, observeRowOf } from './gate-figures.js';

const spec = (client: string): RunSpec => ({ seed: 77, interleavings: 400, scenario: 'swarm', client, maxFailures: 20 });

describe('simulated operations in the gate: the fold over every step of the sampled interleavings', () => {
  const scenario = findScenario('swarm')!;
  const reference = runRange(spec('reference'), scenario, findClient('reference')!, 0, 400);

  test('where the oracle counts the same thing, the simulated metrics agree exactly (reads, accepted, stale, rejections)', () => {
    let reads = 0;
    let accepts = 0;
    let stale = 0;
    let rejections = 0;
    let sampled = 0;
    for (let index = 0; index < 400; index++) {
      if (!observeDue(index)) continue;
      sampled++;
      const oracle = runInterleaving(deriveSeed(77, index), scenario, findClient('reference')!, { trace: false, record: false }).oracle;
      reads += oracle.totalReads;
      accepts += oracle.accepts;
      stale += oracle.staleReceipts;
      rejections += oracle.rejections;
    }
    const all = observeRowOf(reference.observeFigures, 0);
    expect(all.interleavings).toBe(sampled);
    expect(all.reads).toBe(reads);
    expect(all.fenceAccepted).toBe(accepts);
    expect(all.fenceStale).toBe(stale);
    expect(all.protocolRejections).toBe(rejections);
    expect(reads).toBeGreaterThan(0);
  }, 120_000);

  test('resubscription completeness vs old_session_effect and convergence: the reference completes every round; naive-no-resubscribe leaves rounds incomplete where the oracle sees it diverge', () => {
    const all = observeRowOf(reference.observeFigures, 0);
    expect(all.reconnects).toBeGreaterThan(0);
    expect(all.resubscriptionComplete).toBeGreaterThan(0);
    expect(all.resubscriptionIncomplete).toBe(0);
    // The oracle agrees: no effect of an old session, and every change converged.
    for (const name of ['old_session_effect', 'convergence_60s']) expect(reference.failingInterleavings[allInvariants.indexOf(name as never)], name).toBe(0);
    const naive = runRange(spec('naive-no-resubscribe'), scenario, findClient('naive-no-resubscribe')!, 0, 400);
    const naiveAll = observeRowOf(naive.observeFigures, 0);
    expect(naive.failingInterleavings[allInvariants.indexOf('convergence_60s' as never)]).toBeGreaterThan(0);
    // Swarm reconnects faster than the 30 s deadline, so most rounds end "interrupted"; completeness is the signal.
    const completeness = (row: typeof all) => row.resubscriptionResubscribed / row.resubscriptionWanted;
    expect(completeness(naiveAll)).toBeLessThan(completeness(all) / 2);
    expect(naiveAll.resubscriptionComplete / naiveAll.reconnects).toBeLessThan(all.resubscriptionComplete / all.reconnects / 2);
  }, 120_000);

  test('per fault: drop-notification serves older content than runs where no fault fired; rows add up', () => {
    const section = observeSectionOf(reference.observeFigures)!;
    const row = (name: string) => section.rows.find((candidate) => candidate.row === name);
    const none = row('no fault fired');
    const dropped = row('drop-notification');
    expect(dropped?.serveAgeMsMean ?? 0).toBeGreaterThan(0);
    if (none !== undefined && none.serveAgeMsMean !== null) expect(dropped!.serveAgeMsMean!).toBeGreaterThan(none.serveAgeMsMean);
    const total = observeRowOf(reference.observeFigures, 0).interleavings;
    expect((none?.figures.interleavings ?? 0) + 0).toBeLessThanOrEqual(total);
    expect(observeRowNames).toHaveLength(2 + faultNames.length);
  }, 120_000);

  test('ranges merge exactly into the unsplit run', () => {
    const early = runRange(spec('reference'), scenario, findClient('reference')!, 0, 200);
    early.merge(runRange(spec('reference'), scenario, findClient('reference')!, 200, 400));
    expect(Array.from(early.observeFigures)).toEqual(Array.from(reference.observeFigures));
  }, 120_000);
});

describe('GateObservation: the sampled interleavings are folded through runInterleaving\'s onStep', () => {
  test('each step of a run is folded, in place; the run itself is the same as unobserved (same trace hash, same counts)', () => {
    const scenario = findScenario('swarm')!;
    const client = findClient('reference')!;
    const observation = new GateObservation();
    const initial = observation.state;
    expect(initial.connected).toBe(false);
    const seed = deriveSeed(77, 3);
    const observed = runInterleaving(seed, scenario, client, { trace: false, record: false, onStep: observation.onStep });
    const plain = runInterleaving(seed, scenario, client, { trace: false, record: false });
    expect(observation.state).toBe(initial); // the fold owns its state (observe/fold.ts foldStepOwned)
    expect(observation.state.everConnected).toBe(true);
    expect(observed.traceHash).toBe(plain.traceHash);
    expect(Array.from(observed.oracle.counts)).toEqual(Array.from(plain.oracle.counts));
    observation.reset();
    expect(observation.state).not.toBe(initial);
    expect(observation.state.everConnected).toBe(false);
  });
});
