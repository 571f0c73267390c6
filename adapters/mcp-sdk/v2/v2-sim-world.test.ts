/**
 * MCP 2026-07-28 over the real SDK v2 (`--transport sdk --protocol 2026-07-28`): the fenced cache's v2
 * binding against a v2 server per connection, with the server model's faults restored at the wire.
 */
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../../../core/reducer.js';
import type { ClientUnderTest } from '../../../core/types.js';
import { findScenario } from '../../../scenarios/catalog.js';
import { naive2026WaitForever } from '../../../scenarios/era2026-naive.js';
import type { Scenario } from '../../../scenarios/scenario.js';
import { era2026Faults, faultIndex } from '../../../sim/faults.js';
import { GateAccumulator, verdictOf } from '../../../sim/gate.js';
import { deriveSeed } from '../../../sim/prng.js';
import { wireDuring } from '../transport/testing.js';
import { runAsyncRange } from '../sim/sdk-gate.js';
import { runSdkEraInterleaving, sdkPairs, type SdkPair } from './v2-sim-world.js';

const swarm = findScenario('era2026-swarm')!;

function gate(scenario: Scenario, client: ClientUnderTest<any>, interleavings: number, pair?: SdkPair, seed = 5): Promise<GateAccumulator> {
  const spec = { seed, interleavings, scenario: scenario.name, client: client.name, maxFailures: 5, transport: 'sdk' as const };
  return runAsyncRange(spec, (each, options) => runSdkEraInterleaving(each, scenario, client, pair === undefined ? options : { ...options, pair }), 0, interleavings);
}

describe('2026-07-28 over SDK v2', () => {
  it('the reference passes era2026-swarm with the listen faults firing, speaking listen/ack over the wire', async () => {
    let result: GateAccumulator | undefined;
    const wire = await wireDuring(async () => {
      result = await gate(swarm, referenceClient, 8);
    });
    const verdict = verdictOf(result!, swarm);
    expect(verdict.reasons).toEqual([]);
    expect(result!.failures).toEqual([]);
    const fired = era2026Faults.filter((fault) => (verdict.sometimes[fault]?.fired ?? 0) > 0);
    expect(fired.length).toBeGreaterThan(3);
    // The v2 Client negotiated 2026-07-28 (server/discover), listened with string ids, got tagged acks.
    expect(wire.some((line) => line.includes('"method":"server/discover"'))).toBe(true);
    expect(wire.some((line) => /"id":"listen:\d+","method":"subscriptions\/listen"/.test(line))).toBe(true);
    expect(wire.some((line) => line.includes('notifications/subscriptions/acknowledged') && /"io.modelcontextprotocol\/subscriptionId":"listen:\d+"/.test(line))).toBe(true);
    expect(wire.some((line) => line.includes('"ttlMs"') && line.includes('"cacheScope"'))).toBe(true);
  });

  it('response-replay: a second response of the model to one request is written again by the v2 link, not an internal error (era-both seed 3253286061)', async () => {
    // Before, the SDK world threw "two responses to one request" inside the Server's handler: the read got -32603, and the
    // reference's serve of older content after it was judged read_your_notification.
    const result = await runSdkEraInterleaving(3253286061, findScenario('era-both')!, referenceClient, { trace: true, record: false });
    expect(result.faultCounts[faultIndex['response-replay']]).toBeGreaterThan(0);
    expect(result.timeline!.some((line) => line.includes('two responses to one request'))).toBe(false);
    expect(result.oracle.violations.map((violation) => violation.invariant)).toEqual([]);
  }, 120_000);

  it('a hostile ttlMs the v2 server would drop reaches the client as the model sent it (the wire rewrite)', async () => {
    const wire = await wireDuring(() => gate(swarm, referenceClient, 8));
    // Read results of 2026-07-28 sessions (the v2 server stamps resultType on them; a v1 server never does).
    const ttls = new Set(wire.filter((line) => line.includes('"contents"') && line.includes('"resultType":"complete"')).map((line) => /"ttlMs":(-?\d+)/.exec(line)?.[1] ?? 'absent'));
    // ttl-hostile draws 0, absent, -1000 or 10^12; the v2 server alone never writes a negative or an absent one.
    expect(ttls.has('-1000') || ttls.has('absent')).toBe(true);
  });

  it('is deterministic: the same seeds give the same trace hashes, timelines and decisions', async () => {
    for (const index of [0, 1, 2]) {
      const seed = deriveSeed(17, index);
      const first = await runSdkEraInterleaving(seed, swarm, referenceClient, { trace: true, record: true });
      const second = await runSdkEraInterleaving(seed, swarm, referenceClient, { trace: true, record: true });
      expect(second.traceHash).toBe(first.traceHash);
      expect(second.timeline).toEqual(first.timeline);
      expect(second.decisions).toEqual(first.decisions);
      expect([...second.oracle.counts]).toEqual([...first.oracle.counts]);
    }
  });

  it('catches naive-2026-wait-forever over SDK v2 on broken read streams (convergence)', async () => {
    const broken = findScenario('era2026-broken-stream')!;
    const naive = await gate(broken, naive2026WaitForever, 6);
    expect(naive.failures.map((failure) => failure.invariant)).toContain('convergence_60s');
    expect(naive.failures[0]!.replay).toMatch(/--client naive-2026-wait-forever --transport sdk$/);
    const reference = await gate(broken, referenceClient, 6);
    expect(verdictOf(reference, broken).reasons).toEqual([]);
  });

  it('interop: a v2 client against a v1 server and a v1 client against a v2 server speak 2025-11-25, and the reference passes', async () => {
    for (const pair of [sdkPairs['v2-v1']!, sdkPairs['v1-v2']!]) {
      let result: GateAccumulator | undefined;
      const wire = await wireDuring(async () => {
        result = await gate(swarm, referenceClient, 4, pair);
      });
      expect(result!.failures).toEqual([]);
      // No listen fault can fire: the only era is 2025-11-25 (MCP-2026-NOTES.md §2.3).
      const verdict = verdictOf(result!, swarm);
      expect(era2026Faults.every((fault) => (verdict.sometimes[fault]?.fired ?? 0) === 0)).toBe(true);
      expect(wire.some((line) => line.includes('"method":"initialize"'))).toBe(true);
      expect(wire.some((line) => line.includes('"method":"subscriptions/listen"'))).toBe(false);
      expect(wire.some((line) => line.includes('"method":"resources/subscribe"'))).toBe(true);
      // The v2 client probes first (server/discover, answered -32601 by the v1 server); the v1 client never does.
      expect(wire.some((line) => line.includes('"method":"server/discover"'))).toBe(pair.client === 'v2');
    }
  });
});
