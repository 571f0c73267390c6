/**
 * The simulator over the real SDK: scenarios run with every message as JSON-RPC between an SDK Client
 * (the fenced cache around a client under test) and an SDK Server answering from the server model.
 */
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../../../core/reducer.js';
import { clientCrash, closeRace, findScenario, readRace, reconnect, scenarios } from '../../../scenarios/catalog.js';
import { naiveNoCloseFence, naiveNoResubscribe, naiveOverwrite } from '../../../scenarios/naive.js';
import type { Scenario } from '../../../scenarios/scenario.js';
import type { ClientUnderTest } from '../../../core/types.js';
import { GateAccumulator, verdictOf } from '../../../sim/gate.js';
import { deriveSeed } from '../../../sim/prng.js';
import { runSdkRange, sdkSelfCheck } from './sdk-gate.js';
import { runSdkInterleaving } from './sdk-sim-world.js';
import { stepInterfaceFaults } from '../../../sim/applicability.js';

async function gate(scenario: Scenario, client: ClientUnderTest<any>, interleavings: number): Promise<GateAccumulator> {
  const spec = { seed: 11, interleavings, scenario: scenario.name, client: client.name, maxFailures: 5, transport: 'sdk' as const };
  return runSdkRange(spec, scenario, client, 0, interleavings);
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('scenarios over the SDK transport', () => {
  it('read-race: the reference passes; naive-overwrite regresses a version, and the replay command names --transport sdk', async () => {
    const reference = await gate(readRace, referenceClient, 12);
    expect(verdictOf(reference, readRace).reasons).toEqual([]);
    expect(reference.totalReads).toBeGreaterThan(100);
    const naive = await gate(readRace, naiveOverwrite, 12);
    expect(naive.failures[0]!.invariant).toBe('version_regression');
    expect(naive.failures[0]!.replay).toMatch(/^npx fencesim replay --seed \d+ --scenario read-race --client naive-overwrite --transport sdk$/);
    const again = await runSdkInterleaving(naive.failures[0]!.seed, readRace, naiveOverwrite, { trace: true, record: false });
    expect(again.oracle.violations[0]!.invariant).toBe('version_regression');
    expect(again.timeline!.some((line) => line.includes('<== version_regression'))).toBe(true);
  });

  it('close-race (late responses, lost unsubscribe ACKs) catches naive-no-close-fence; reconnect (old-session notifications on the closed Client) catches naive-no-resubscribe', async () => {
    const close = await gate(closeRace, naiveNoCloseFence, 10);
    expect(close.failures.map((failure) => failure.invariant)).toContain('accept_when_not_active');
    expect(verdictOf(close, closeRace).sometimes['drop-unsubscribe-ack']!.fired).toBeGreaterThan(0);
    expect(verdictOf(close, closeRace).sometimes['late-response-after-close']!.fired).toBeGreaterThan(0);
    const stale = await gate(reconnect, naiveNoResubscribe, 10);
    expect(stale.failures.map((failure) => failure.invariant)).toContain('old_session_effect');
    const reference = await gate(reconnect, referenceClient, 10);
    expect(verdictOf(reference, reconnect).reasons).toEqual([]);
    expect(reference.audits).toBeGreaterThan(0); // old-session notifications reached the core and were audited, never acted on
    expect(verdictOf(reference, reconnect).sometimes['old-session-notification']!.fired).toBeGreaterThan(0);
  });

  it('the same seed gives the same trace hash, timeline and counts; another seed does not', async () => {
    const seed = deriveSeed(3, 0);
    const first = await runSdkInterleaving(seed, findScenario('sdk-swarm')!, referenceClient, { trace: true, record: true });
    const second = await runSdkInterleaving(seed, findScenario('sdk-swarm')!, referenceClient, { trace: true, record: true });
    expect(second.traceHash).toBe(first.traceHash);
    expect(second.timeline).toEqual(first.timeline);
    expect(second.decisions).toEqual(first.decisions);
    expect([...second.oracle.counts]).toEqual([...first.oracle.counts]);
    const other = await runSdkInterleaving(deriveSeed(3, 1), findScenario('sdk-swarm')!, referenceClient, { trace: false, record: false });
    expect(other.traceHash).not.toBe(first.traceHash);
    const check = await sdkSelfCheck(3, readRace, referenceClient, [0, 1], 100);
    expect(check.nondeterministic_interleavings).toBe(0);
  });

  it('leaves no timer behind: every SDK request timeout is cleared when the interleaving ends', async () => {
    const before = timers();
    await gate(findScenario('lost-unsubscribe-ack')!, referenceClient, 3); // unsubscribe ACKs lost: requests pending at the end
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers()).toBeLessThanOrEqual(before); // each pending request held a real 24.8-day timer until its connection closed
  });

  it('runs every scenario of the catalogue over the SDK: the reference violates no safety invariant', async () => {
    // Not those the CLI refuses over the SDK (cli/protocol.ts): their faults are judged on the step interface only.
    for (const scenario of scenarios.filter((candidate) => !candidate.sometimes.some((fault) => stepInterfaceFaults.includes(fault)))) {
      const accumulator = await gate(scenario, referenceClient, 3);
      expect(accumulator.interleavings, scenario.name).toBe(3);
      expect(Object.values(verdictOf(accumulator, scenario).counters).filter((count) => count > 0), scenario.name).toEqual([]);
    }
  });

  it('runs every scenario, client-crash and swarm included: the reference passes, crashes fire and no safety counter moves', async () => {
    const reference = await gate(clientCrash, referenceClient, 12);
    expect(verdictOf(reference, clientCrash).reasons).toEqual([]);
    expect(verdictOf(reference, clientCrash).sometimes['client-crash']!.fired).toBeGreaterThan(0);
    let crashed = false;
    for (let index = 0; index < 20 && !crashed; index++) {
      const run = await runSdkInterleaving(deriveSeed(11, index), clientCrash, referenceClient, { trace: true, record: false });
      if (run.oracle.crashes === 0) continue;
      // The reference restarts from its ledger; a naive client from scratch (and the application subscribes again).
      expect(run.timeline!.some((line) => line.includes('client crash: restarted from its durable ledger'))).toBe(true);
      const fresh = await runSdkInterleaving(deriveSeed(11, index), clientCrash, naiveOverwrite, { trace: true, record: false });
      if (fresh.oracle.crashes > 0) expect(fresh.timeline!.some((line) => line.includes('client crash: restarted from scratch'))).toBe(true);
      crashed = true;
    }
    expect(crashed).toBe(true);
    const swarm = await gate(findScenario('swarm')!, referenceClient, 12);
    expect(Object.values(verdictOf(swarm, findScenario('swarm')!).counters).every((count) => count === 0)).toBe(true);
  });
});
