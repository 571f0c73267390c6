/**
 * The fenced cache over the real SDK Client and Server, joined by the deterministic virtual link on one
 * VirtualClock. Assertions are on the core's effects and on the wire log.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ClientEffect, ClientInput } from '../../../core/types.js';
import { VirtualClock, systemClock } from '../transport/clock.js';
import { FencedResourceCache, MemoryContentStore, stripMcpPrefix } from './fenced-cache.js';
import { createSdkWorld, type SdkWorld } from '../sim/sdk-world.js';
import { ResourceStore, SimServer } from '../sim/sim-server.js';
import { createVirtualLink, resolveLinkFaults } from '../transport/virtual-transport.js';

const A = 'mem://docs/a';
const B = 'mem://docs/b';
const C = 'mem://docs/c';

function effectsOf<T extends ClientEffect['type']>(world: SdkWorld, type: T): Array<Extract<ClientEffect, { type: T }>> {
  return world.effects.map((entry) => entry.effect).filter((effect): effect is Extract<ClientEffect, { type: T }> => effect.type === type);
}

function notificationsFor(world: SdkWorld, uri: string): Array<Extract<ClientInput, { type: 'NotificationArrived' }>> {
  return world.inputs.filter(
    (input): input is Extract<ClientInput, { type: 'NotificationArrived' }> =>
      input.type === 'NotificationArrived' && (input.params as { uri?: unknown } | undefined)?.uri === uri,
  );
}

async function started(world: SdkWorld): Promise<void> {
  await world.clock.runUntil(world.cache.start());
}

function servedText(world: SdkWorld, uri: string): string | null {
  const result = world.cache.get(uri);
  return result.served ? result.text : null;
}

describe('FencedResourceCache over the virtual link and the SDK Server', () => {
  it('subscribes, reads through the fence, and follows updates', async () => {
    const world = createSdkWorld({ seed: 7 });
    world.store.set(A, 'a v1');
    world.store.set(B, 'b v1');
    await started(world);
    expect(world.cache.sessionGeneration).toBe(1);
    expect(world.cache.serverCapabilities?.resources).toEqual({ subscribe: true, listChanged: true });

    world.cache.subscribe(A);
    await world.clock.advanceBy(100);
    const first = world.cache.get(A);
    expect(first).toMatchObject({ served: true, text: 'a v1', encoding: 'text', mimeType: 'text/plain' });
    expect(world.cache.get(A, 'default', { textOnly: true })).toMatchObject({ served: true, encoding: 'text' });
    expect(world.server.connections[0]!.subscriptions.has(A)).toBe(true);

    world.store.set(A, 'a v2');
    world.store.set(B, 'b v2'); // not subscribed: the server sends nothing for it
    await world.clock.advanceBy(1_000);
    expect(servedText(world, A)).toBe('a v2');
    expect(notificationsFor(world, A)).toHaveLength(1);
    expect(notificationsFor(world, B)).toHaveLength(0);
    const accepted = effectsOf(world, 'VersionAccepted');
    expect(accepted.map((effect) => [effect.uri, effect.text, effect.readOrdinal])).toEqual([
      [A, 'a v1', 1],
      [A, 'a v2', 2],
    ]);
    expect(effectsOf(world, 'OutboxEntryWritten').map((effect) => effect.operation)).toEqual(['upsert', 'upsert']);
  });

  it('read race: the slow read answers late and only leaves a stale receipt; the newer read is served', async () => {
    const world = createSdkWorld({ seed: 11, server: { readDelayMs: (uri, readCount) => (uri === A && readCount === 2 ? 5_000 : 0) } });
    world.store.set(A, 'a v1');
    await started(world);
    world.cache.subscribe(A);
    await world.clock.advanceBy(100); // read 1 (initial) accepted

    world.store.set(A, 'a v2'); // read 2 is issued after the debounce and answers 5 s later with v2
    await world.clock.advanceBy(400);
    world.store.set(A, 'a v3'); // arrives while read 2 is in flight: hedged read 3 after readHedgeMs
    await world.clock.advanceBy(2_000);
    expect(servedText(world, A)).toBe('a v3');
    await world.clock.advanceBy(5_000); // read 2's late answer arrives

    const stale = effectsOf(world, 'StaleReceiptWritten');
    expect(stale).toEqual([{ type: 'StaleReceiptWritten', uri: A, requestId: expect.any(Number), readOrdinal: 2, watermark: 3, reason: 'ORDINAL' }]);
    expect(effectsOf(world, 'VersionAccepted').map((effect) => [effect.text, effect.readOrdinal])).toEqual([
      ['a v1', 1],
      ['a v3', 3],
    ]);
    expect(servedText(world, A)).toBe('a v3');
    // On the wire, the v2 answer really was delivered after the v3 answer.
    const answers = world.log.filter((entry) => entry.event === 'delivered' && entry.kind === 'response' && entry.wire.includes('"contents"'));
    expect(answers.map((entry) => /a v\d/.exec(entry.wire)![0])).toEqual(['a v1', 'a v3', 'a v2']);
  });

  it('unsubscribe: the close fence holds for a read in flight, and updates stop after the ACK', async () => {
    const world = createSdkWorld({ seed: 12, server: { readDelayMs: (uri, readCount) => (uri === A && readCount === 2 ? 3_000 : 0) } });
    world.store.set(A, 'a v1');
    await started(world);
    world.cache.subscribe(A);
    await world.clock.advanceBy(100);
    world.store.set(A, 'a v2');
    await world.clock.advanceBy(500); // read 2 in flight (slow)
    world.cache.unsubscribe(A);
    await world.clock.advanceBy(100);
    const closed = effectsOf(world, 'SubscriptionClosed');
    expect(closed).toEqual([{ type: 'SubscriptionClosed', uri: A, closeEpoch: 1, closeOrdinal: 2, outcome: 'ACKED' }]);
    expect(world.server.connections[0]!.subscriptions.has(A)).toBe(false);
    const ackAtMs = world.clock.nowMs();

    world.store.set(A, 'a v3');
    await world.clock.advanceBy(5_000);
    const audits = effectsOf(world, 'AuditWritten');
    expect(audits.map((audit) => audit.kind)).toEqual(['STALE_AFTER_CLOSE']);
    expect(effectsOf(world, 'VersionAccepted')).toHaveLength(1);
    const sentUpdates = world.log.filter((entry) => entry.event === 'sent' && entry.wire.includes('notifications/resources/updated'));
    expect(sentUpdates.every((entry) => entry.atMs < ackAtMs)).toBe(true);
    expect(notificationsFor(world, A)).toHaveLength(1);
  });

  it('a dropped connection: Disconnected, a new session generation, every wanted URI resubscribed', async () => {
    const world = createSdkWorld({ seed: 13 });
    world.store.set(A, 'a v1');
    world.store.set(B, 'b v1');
    await started(world);
    world.cache.subscribe(A);
    world.cache.subscribe(B);
    await world.clock.advanceBy(100);
    world.disconnect();
    await world.clock.advanceBy(1);
    expect(world.cache.connected).toBe(false);
    expect(world.inputs.filter((input) => input.type === 'Disconnected')).toEqual([expect.objectContaining({ sessionGeneration: 1 })]);
    world.store.set(B, 'b v2'); // while disconnected: nobody is told
    await world.clock.advanceBy(2_000); // reconnect (500 ms + jitter), resubscribe, initial reads

    expect(world.cache.sessionGeneration).toBe(2);
    expect(world.server.connections).toHaveLength(1);
    expect([...world.server.connections[0]!.subscriptions].sort()).toEqual([A, B]);
    expect(servedText(world, B)).toBe('b v2'); // the post-resubscribe initial read caught up
    world.store.set(A, 'a v2');
    await world.clock.advanceBy(1_000);
    expect(servedText(world, A)).toBe('a v2');
    const lastAccept = effectsOf(world, 'VersionAccepted').at(-1)!;
    expect(lastAccept).toMatchObject({ uri: A, text: 'a v2', sessionGeneration: 2 });
    expect(effectsOf(world, 'Transitioned').filter((effect) => effect.event === 'resubscribe').map((effect) => effect.uri).sort()).toEqual([A, B]);
  });

  it('faults (drop, duplicate, reorder of notifications): the cache converges and accepted ordinals only grow', async () => {
    const world = createSdkWorld({
      seed: 21,
      faults: { drop: { numerator: 1, denominator: 3 }, duplicate: { numerator: 1, denominator: 3 }, reorder: { numerator: 1, denominator: 2 }, reorderDelayMsMax: 400 },
    });
    for (const uri of [A, B, C]) world.store.set(uri, `${uri} v0`);
    await started(world);
    for (const uri of [A, B, C]) world.cache.subscribe(uri);
    await world.clock.advanceBy(200);
    for (let round = 1; round <= 30; round++) {
      world.store.set([A, B, C][round % 3]!, `${[A, B, C][round % 3]} v${round}`);
      await world.clock.advanceBy(150 + (round % 4) * 100);
    }
    await world.clock.advanceBy(60_000); // reconciliation reads converge without notifications
    for (const uri of [A, B, C]) expect(servedText(world, uri)).toBe(world.store.get(uri)!.text);
    const stats = world.links[0]!.stats;
    expect(stats.dropped).toBeGreaterThan(0);
    expect(stats.duplicated).toBeGreaterThan(0);
    const lastOrdinal = new Map<string, number>();
    for (const accepted of effectsOf(world, 'VersionAccepted')) {
      expect(accepted.readOrdinal).toBeGreaterThan(lastOrdinal.get(accepted.uri) ?? 0);
      lastOrdinal.set(accepted.uri, accepted.readOrdinal);
    }
  });

  it('revoke: content is refused to the subject at once and the derived entries are invalidated', async () => {
    const world = createSdkWorld({ seed: 14 });
    world.store.set(A, 'secret');
    await started(world);
    world.cache.subscribe(A, 'alice');
    await world.clock.advanceBy(100);
    expect(world.cache.get(A, 'alice')).toMatchObject({ served: true, text: 'secret' });
    expect(world.cache.get(A, 'bob')).toMatchObject({ served: false });
    world.cache.revoke('alice', A);
    expect(world.cache.get(A, 'alice')).toEqual({ served: false, reason: 'alice lost access to this resource' });
    expect(effectsOf(world, 'PurgeDone')).toEqual([{ type: 'PurgeDone', uri: A, subject: 'alice', invalidatedEntries: 2 }]);
    expect(effectsOf(world, 'OutboxEntryWritten').at(-1)).toMatchObject({ operation: 'invalidate', uri: A });
    expect(world.cache.ledger().versions[A]).toBeUndefined();
  });

  it('discover: pages through resources/list with opaque cursors and publishes an unproven catalog after two equal scans', async () => {
    const world = createSdkWorld({ seed: 15, server: { pageSize: 2 } });
    for (const name of ['a', 'b', 'c', 'd', 'e']) world.store.set(`mem://docs/${name}`, name);
    await started(world);
    world.cache.discover();
    await world.clock.advanceBy(200);
    const published = effectsOf(world, 'CatalogPublished');
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ status: 'SNAPSHOT_UNPROVEN', uris: ['a', 'b', 'c', 'd', 'e'].map((name) => `mem://docs/${name}`) });
    expect(world.server.served['resources/list']).toBe(6); // two passes of three pages
    const client = world.cache.client!;
    const invalid = await world.clock.runUntil(client.listResources({ cursor: 'not-a-cursor' }).catch((error: unknown) => error));
    expect(invalid).toBeInstanceOf(McpError);
    expect((invalid as McpError).code).toBe(-32602);
  });

  it('restarts from a persisted ledger: a new session generation, watermarks kept, resubscribed', async () => {
    const world = createSdkWorld({ seed: 16 });
    world.store.set(A, 'a v1');
    await started(world);
    world.cache.subscribe(A);
    await world.clock.advanceBy(100);
    world.store.set(A, 'a v2');
    await world.clock.advanceBy(1_000);
    const persisted = JSON.parse(JSON.stringify(world.cache.ledger()));
    const watermark = persisted.subscriptions[A].lastAcceptedOrdinal as number;
    await world.clock.runUntil(world.cache.close());

    const store = new MemoryContentStore();
    const server = world.server;
    const clock = world.clock;
    const restarted = new FencedResourceCache({
      clock,
      jitter: () => 0,
      ledger: persisted,
      contentStore: store,
      requestTimeoutMs: 2_147_483_647,
      connect: async () => {
        const [clientSide, serverSide] = createVirtualLink({ scheduler: clock, faults: { seed: 3 } });
        await server.connect(serverSide);
        return clientSide;
      },
    });
    expect(restarted.get(A)).toMatchObject({ served: false });
    await clock.runUntil(restarted.start());
    expect(restarted.sessionGeneration).toBe(2);
    await clock.advanceBy(100);
    const record = restarted.ledger().subscriptions[A]!;
    expect(record.lastAcceptedOrdinal).toBeGreaterThan(watermark);
    expect(restarted.get(A)).toMatchObject({ served: true, text: 'a v2' });
    await clock.runUntil(restarted.close());
  });

  it('get has no side effect on the jitter source: serving schedules no read, so it draws no jitter', async () => {
    const clock = new VirtualClock();
    const store = new ResourceStore();
    const server = new SimServer(store);
    store.set(A, 'a v1');
    let draws = 0;
    const cache = new FencedResourceCache({
      clock,
      jitter: () => ++draws,
      requestTimeoutMs: 2_147_483_647,
      connect: async () => {
        const [clientSide, serverSide] = createVirtualLink({ scheduler: clock, faults: { seed: 5 } });
        await server.connect(serverSide);
        return clientSide;
      },
    });
    await clock.runUntil(cache.start());
    cache.subscribe(A);
    await clock.advanceBy(100);
    const before = draws;
    expect(before).toBeGreaterThan(0);
    for (let index = 0; index < 5; index++) expect(cache.get(A)).toMatchObject({ served: true, text: 'a v1' });
    expect(cache.get(B)).toMatchObject({ served: false });
    expect(draws).toBe(before);
    await clock.runUntil(cache.close());
  });

  it('peek answers what get serves and records nothing: no listener sees it, the metrics count no serve', async () => {
    const world = createSdkWorld({ seed: 21 });
    world.store.set(A, 'a v1');
    await started(world);
    world.cache.subscribe(A);
    await world.clock.advanceBy(100);
    const inputs = world.inputs.length;
    const effects = world.effects.length;
    const health = JSON.stringify(world.cache.health());
    for (const [uri, subject] of [[A, 'default'], [A, 'default'], [B, 'default']] as const) {
      expect(world.cache.peek(uri, subject)).toEqual(world.cache.get(uri, subject));
    }
    expect(world.cache.peek(A)).toMatchObject({ served: true, text: 'a v1' });
    expect(world.cache.peek(B)).toMatchObject({ served: false });
    const afterGets = { inputs: world.inputs.length, effects: world.effects.length };
    expect(afterGets.inputs).toBe(inputs + 3); // the three gets were seen ...
    for (let index = 0; index < 5; index++) world.cache.peek(A);
    expect(world.inputs.length).toBe(afterGets.inputs); // ... the peeks were not
    expect(world.effects.length).toBe(afterGets.effects);
    expect(afterGets.effects).toBeGreaterThan(effects);
    expect(JSON.stringify(world.cache.health())).not.toBe(health); // gets are counted as serves
    const counted = JSON.stringify(world.cache.health());
    world.cache.peek(A);
    expect(JSON.stringify(world.cache.health())).toBe(counted); // a peek is not
    await world.clock.runUntil(world.cache.close());
  });

  it('every effect and the ledger are plain JSON', async () => {
    const world = createSdkWorld({ seed: 17 });
    world.store.set(A, 'a v1');
    await started(world);
    world.cache.subscribe(A);
    await world.clock.advanceBy(500);
    for (const { effect } of world.effects) expect(JSON.parse(JSON.stringify(effect))).toEqual(effect);
    const ledger = world.cache.ledger();
    expect(JSON.parse(JSON.stringify(ledger))).toEqual(ledger);
  });
});

describe('determinism of the virtual link', () => {
  async function scenario(seed: number): Promise<string> {
    const world = createSdkWorld({
      seed,
      faults: {
        drop: { numerator: 1, denominator: 4 },
        duplicate: { numerator: 1, denominator: 4 },
        reorder: { numerator: 1, denominator: 3 },
        delay: { numerator: 1, denominator: 5 },
        delayMs: 700,
        latencyJitterMsMax: 20,
        directions: 'both',
        dropScope: 'notifications',
      },
      server: { pageSize: 2 },
    });
    for (const uri of [A, B, C]) world.store.set(uri, `${uri} v0`);
    await started(world);
    world.cache.discover();
    for (const uri of [A, B, C]) world.cache.subscribe(uri);
    await world.clock.advanceBy(300);
    for (let round = 1; round <= 20; round++) {
      world.store.set([A, B, C][round % 3]!, `v${round}`);
      if (round === 10) world.disconnect();
      await world.clock.advanceBy(250);
    }
    world.cache.unsubscribe(B);
    await world.clock.advanceBy(30_000);
    await world.clock.runUntil(world.cache.close());
    return JSON.stringify({ log: world.log, effects: world.effects, ledger: world.cache.ledger() });
  }

  it('the same seed gives an identical message log, effects and ledger twice; another seed does not', async () => {
    const first = await scenario(99);
    const second = await scenario(99);
    expect(second).toBe(first);
    const other = await scenario(100);
    expect(other).not.toBe(first);
    expect(JSON.parse(first).log.length).toBeGreaterThan(100);
  });

  it('measures messages per second of wall time over the virtual link (SDK Client + Server, JSON on the wire)', async () => {
    const clock = new VirtualClock();
    const store = new ResourceStore();
    store.set(A, 'x'.repeat(200));
    const server = new SimServer(store);
    const [clientSide, serverSide] = createVirtualLink({ scheduler: clock, faults: { seed: 1, latencyMs: 1 } });
    await server.connect(serverSide);
    const client = new Client({ name: 'bench', version: '0' }, { capabilities: {} });
    await clock.runUntil(client.connect(clientSide));
    await clock.advanceBy(10); // notifications/initialized
    const reads = 2_000;
    const startMs = systemClock.nowMs();
    const sentBefore = clientSide.link.stats.delivered;
    for (let batch = 0; batch < reads / 100; batch++) {
      const pending: Array<Promise<unknown>> = [];
      for (let index = 0; index < 100; index++) pending.push(client.readResource({ uri: A }, { timeout: 2_147_483_647 }));
      await clock.runUntil(Promise.all(pending));
    }
    const elapsedMs = Math.max(1, systemClock.nowMs() - startMs);
    const messages = clientSide.link.stats.delivered - sentBefore;
    const perSecond = Math.round((messages * 1000) / elapsedMs);
    console.log(`virtual link: ${messages} messages (${reads} read round trips, 100 concurrent) in ${elapsedMs} ms wall = ${perSecond} messages/s`);
    expect(messages).toBe(2 * reads);
    expect(perSecond).toBeGreaterThan(500);
    await clock.runUntil(client.close());
  });
});

describe('VirtualClock and link inputs', () => {
  it('fires ties in scheduling order, skips cleared timers, and bounds runUntil', async () => {
    const clock = new VirtualClock();
    const fired: string[] = [];
    clock.setTimer(10, () => fired.push('a'));
    const cleared = clock.setTimer(10, () => fired.push('cleared'));
    clock.setTimer(5, () => fired.push('b'));
    clock.setTimer(10, () => fired.push('c'));
    clock.clearTimer(cleared);
    expect(clock.pending).toBe(3);
    await clock.advanceTo(9);
    expect(fired).toEqual(['b']);
    expect(clock.nowMs()).toBe(9);
    await clock.advanceTo(10);
    expect(fired).toEqual(['b', 'a', 'c']);
    await expect(clock.runUntil(new Promise(() => undefined), 50)).rejects.toThrow(/still pending at 50 ms/);
  });

  it('advanceTo with a stop predicate ends after the instant it first holds, leaving later events pending', async () => {
    const clock = new VirtualClock();
    const fired: number[] = [];
    for (const timeMs of [5, 10, 10, 20, 30]) clock.setTimer(timeMs, () => fired.push(timeMs));
    await clock.advanceTo(100, () => fired.includes(10));
    expect(fired).toEqual([5, 10, 10]); // the whole instant 10 ran
    expect(clock.nowMs()).toBe(10);
    expect(clock.pending).toBe(2);
    await clock.advanceTo(100);
    expect(fired).toEqual([5, 10, 10, 20, 30]);
    expect(clock.nowMs()).toBe(100);
  });

  it('rejects a malformed fault spec with an error that names the field', () => {
    expect(() => resolveLinkFaults({ drop: { numerator: 3, denominator: 2 } })).toThrow(/drop must be null or/);
    expect(() => resolveLinkFaults({ latencyMs: -1 })).toThrow(/latencyMs must be an integer >= 0/);
    expect(() => resolveLinkFaults({ dropScope: 'all' as never })).toThrow(/dropScope/);
  });

  it('strips the SDK double "MCP error" prefix', () => {
    expect(stripMcpPrefix('MCP error -32602: MCP error -32602: Invalid cursor')).toBe('Invalid cursor');
  });
});
