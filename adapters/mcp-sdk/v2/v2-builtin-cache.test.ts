/**
 * examples/v2-builtin-cache: the SDK v2 Client's built-in response cache, used as documented, gated as a
 * module client like any other (the harness is not tuned to it), on 2025-11-25 and on 2026-07-28 (the module
 * world's v2 server link and listen-following observer, module-era2026.ts). README.md records what it
 * passes and fails. The fenced cache over a v2 Client (examples/fenced-cache/client-v2.mjs) passes the same.
 */
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { findScenario } from '../../../scenarios/catalog.js';
import { invariantIndex } from '../../../sim/invariants.js';
import { verdictOf } from '../../../sim/gate.js';
import { deriveSeed } from '../../../sim/prng.js';
import type { ModuleClient } from '../module/contract.js';
import { moduleApplicability, runModuleRange } from '../module/module-gate.js';
import { runModuleInterleaving } from '../module/module-world.js';
import { wireDuring } from '../transport/testing.js';

async function example(path: string): Promise<ModuleClient> {
  const [folder, file] = path.split('/');
  return ((await import(`../../../examples/${folder}/${file}.mjs`)) as { default: ModuleClient }).default;
}

async function gate(client: ModuleClient, scenarioName: string, interleavings: number, seed = 11) {
  const scenario = findScenario(scenarioName)!;
  const spec = { seed, interleavings, scenario: scenarioName, client: client.name, maxFailures: 3 };
  const accumulator = await runModuleRange(spec, scenario, client, 0, interleavings);
  return { accumulator, verdict: verdictOf(accumulator, moduleApplicability(scenario, client).scenario) };
}

const checks = (accumulator: { checks: Float64Array }, invariant: keyof typeof invariantIndex): number => accumulator.checks[invariantIndex[invariant]]!;

describe('examples/v2-builtin-cache on 2025-11-25', () => {
  it('read-race: a slow early read the SDK returns overwrites a newer one (version_regression)', async () => {
    const { accumulator, verdict } = await gate(await example('v2-builtin-cache/client'), 'read-race', 4);
    expect(verdict.passed).toBe(false);
    expect(accumulator.failures.map((failure) => failure.invariant)).toContain('version_regression');
  }, 120_000);

  it('reconnect: passes', async () => {
    const { verdict } = await gate(await example('v2-builtin-cache/client'), 'reconnect', 3);
    expect(verdict.reasons).toEqual([]);
  }, 120_000);
});

describe('examples/v2-builtin-cache on 2026-07-28 (SDK v2 on both ends, listens followed)', () => {
  it('negotiates 2026-07-28 in place, listens for all its URIs in one filter, and the server acknowledges them all', async () => {
    const client = await example('v2-builtin-cache/client');
    const wire = await wireDuring(() => gate(client, 'era2026-tags', 2));
    expect(wire.some((line) => line.includes('"method":"server/discover"'))).toBe(true);
    const listens = wire.filter((line) => /"id":"listen:\d+","method":"subscriptions\/listen"|"method":"subscriptions\/listen".*"id":"listen:\d+"/.test(line));
    expect(listens.length).toBeGreaterThan(0);
    const acks = wire.filter((line) => line.includes('notifications/subscriptions/acknowledged')).map((line) => JSON.parse(line) as { params: { notifications: { resourceSubscriptions: string[] } } });
    expect(acks.some((ack) => ack.params.notifications.resourceSubscriptions.length > 1)).toBe(true);
    expect(wire.some((line) => line.includes('"ttlMs"') && line.includes('"contents"'))).toBe(true);
  }, 120_000);

  it('era2026-partitions: serves one subject the private content read as another (scope_isolation)', async () => {
    const { accumulator, verdict } = await gate(await example('v2-builtin-cache/client'), 'era2026-partitions', 2);
    expect(verdict.passed).toBe(false);
    expect(verdict.counters.scope_isolation).toBeGreaterThan(0);
    expect(accumulator.failures[0]!.replay).toMatch(/^npx fencesim replay --seed \d+ --scenario era2026-partitions --client /);
  }, 120_000);

  it('is deterministic on 2026-07-28: the same seed gives the same trace hash, timeline and verdict', async () => {
    const client = await example('v2-builtin-cache/client');
    const scenario = moduleApplicability(findScenario('era2026-swarm')!, client).scenario;
    const seed = deriveSeed(11, 1);
    const first = await runModuleInterleaving(seed, scenario, client, { trace: true, record: true });
    const second = await runModuleInterleaving(seed, scenario, client, { trace: true, record: true });
    expect(second.traceHash).toBe(first.traceHash);
    expect(second.timeline).toEqual(first.timeline);
    expect(second.decisions).toEqual(first.decisions);
    expect([...second.oracle.counts]).toEqual([...first.oracle.counts]);
  }, 120_000);
});

describe('examples/fenced-cache/client-v2.mjs (FencedResourceCache over a v2 Client) on 2026-07-28', () => {
  it('passes era2026-swarm and era2026-partitions, judged by the 2026 checkers', async () => {
    const client = await example('fenced-cache/client-v2');
    for (const scenario of ['era2026-swarm', 'era2026-partitions']) {
      const { accumulator, verdict } = await gate(client, scenario, 2);
      expect(verdict.reasons, scenario).toEqual([]);
      expect(checks(accumulator, 'monotonic_reads') + checks(accumulator, 'scope_isolation'), scenario).toBeGreaterThan(0);
    }
  }, 180_000);
});

/**
 * A client that listens for what it watches, reads once, and closes the listen as soon as it is acknowledged,
 * then serves that first read for ever. Its local close ends the watch (the observer sees its
 * `notifications/cancelled` on the wire), so from then on its serves are judged by ttl_staleness; the same client
 * keeping its listen open is watched, and not judged by it.
 */
function listenOnce(closeAfterAck: boolean): ModuleClient {
  return {
    name: closeAfterAck ? 'listen-then-close' : 'listen-and-keep',
    features: { subscriptions: true },
    start(env) {
      const texts = new Map<string, string | undefined>();
      const ready = (async () => {
        const client = new Client({ name: 'listen-once', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
        await client.connect((await env.connect()) as never);
        return client;
      })();
      ready.catch(() => undefined);
      return {
        watch(uri) {
          if (texts.has(uri)) return;
          texts.set(uri, undefined);
          ready
            .then(async (client) => {
              const read = await client.readResource({ uri }, { cacheMode: 'bypass' } as never);
              texts.set(uri, (read.contents[0] as { text?: string } | undefined)?.text);
              const listen = await client.listen({ resourceSubscriptions: [uri] });
              if (closeAfterAck) await listen.close();
            })
            .catch(() => undefined);
        },
        unwatch() {},
        get: (uri) => texts.get(uri),
        async close() {
          await (await ready.catch(() => null))?.close();
        },
      };
    },
  };
}

describe('the module observer on 2026-07-28', () => {
  it('what get serves another subject (serve-other-subject) is no change of what it serves the own subject (was a false accept_when_not_active)', async () => {
    // era2026-swarm seed 402993974: the cache refused bob the private content read as alice, and the observer took that
    // refusal for alice's content disappearing, then alice's unchanged content for an accept after close.
    const client = await example('fenced-cache/client-v2');
    const scenario = moduleApplicability(findScenario('era2026-swarm')!, client).scenario;
    const result = await runModuleInterleaving(402993974, scenario, client, { trace: false, record: false });
    expect(result.oracle.violations).toEqual([]);
  }, 60_000);

  it('a permission error to a read of a deleted resource is no not-found: what get stops serving then is a purge (was a false late_tombstone)', async () => {
    // era2026-swarm seed 223864334: alice lost access at 9 s (the feed lost the event), the resource was deleted at
    // 11.3 s, and the read answered -32003 at 13.3 s; the cache rightly stopped serving, and the observer took it
    // for a tombstone from a not-found (late_tombstone, accept_when_not_active).
    // Since the swarms draw malformed-list-page, seed 4224148975 (root 1, index 1) reaches the same: a -32003 after
    // which get serves nothing.
    const client = await example('fenced-cache/client-v2');
    const scenario = moduleApplicability(findScenario('era2026-swarm')!, client).scenario;
    const result = await runModuleInterleaving(4224148975, scenario, client, { trace: true, record: false });
    expect(result.timeline!.join('\n')).toMatch(/resources\/read response on session \d+: error -32003\n.*get\(\S+\) serves nothing now\n/);
    expect(result.oracle.violations).toEqual([]);
  }, 60_000);
});

describe('the module observer follows listens', () => {
  it("a client's local close of its listen ends the watch: its later serves are judged by ttl_staleness", async () => {
    const closing = await gate(listenOnce(true), 'era2026-tags', 3);
    const keeping = await gate(listenOnce(false), 'era2026-tags', 3);
    // Without the end of watch at the client's cancel, both would be judged alike (watched after the ack).
    expect(checks(closing.accumulator, 'ttl_staleness')).toBeGreaterThan(checks(keeping.accumulator, 'ttl_staleness'));
    expect(closing.verdict.counters.ttl_staleness).toBeGreaterThan(0);
  }, 120_000);
});
