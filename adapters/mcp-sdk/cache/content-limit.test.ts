/**
 * A resource over the content limit, through the real SDK Client on virtual time: `get()` names the limit,
 * the cache does not download the body again on every update (a back-off holds the reads), and raising
 * `config.contentCharsMax` accepts it.
 */
import { describe, expect, it } from 'vitest';
import { scriptedCache } from '../../../test/scripted-cache.js';

const BIG = 'mem://limit/big';
const SMALL = 'mem://limit/small';
const FOUR_MB = 4 * 1024 * 1024;

function limitWorld(contentCharsMax?: number) {
  const reads = new Map<string, number>();
  let bigBody = 'b'.repeat(FOUR_MB);
  const reply = (message: Record<string, unknown>, result: unknown): void => scripted.send({ id: message.id, result });
  const scripted = scriptedCache(
    (message) => {
      const uri = (message.params as { uri?: string } | undefined)?.uri ?? '';
      if (message.method === 'initialize') {
        reply(message, { protocolVersion: '2025-11-25', capabilities: { resources: { subscribe: true } }, serverInfo: { name: 'limit', version: '1' } });
      } else if (message.method === 'resources/read') {
        reads.set(uri, (reads.get(uri) ?? 0) + 1);
        reply(message, { contents: [{ uri, mimeType: 'text/plain', text: uri === BIG ? bigBody : `small ${reads.get(uri)}` }] });
      } else if (message.id !== undefined) {
        reply(message, {});
      }
    },
    contentCharsMax === undefined ? {} : { config: { contentCharsMax } },
  );
  const updated = (uri: string): void => scripted.send({ method: 'notifications/resources/updated', params: { uri } });
  return { clock: scripted.clock, cache: scripted.cache, reads, updated, shrink: () => (bigBody = 'fits now') };
}

describe('content over the limit', () => {
  it('a 4 MB resource: refused with the limit named, not re-read on every update, read again after the back-off', async () => {
    const world = limitWorld();
    await world.clock.runUntil(world.cache.start());
    world.cache.subscribe(BIG);
    world.cache.subscribe(SMALL);
    await world.clock.advanceBy(500);
    const refused = world.cache.get(BIG);
    expect(refused.served).toBe(false);
    expect((refused as { reason: string }).reason).toMatch(/4194304 characters, over the content limit of 1048576 \(contentCharsMax; raise it with the cache option config\.contentCharsMax/);
    expect(world.cache.get(SMALL)).toMatchObject({ served: true });

    // An update every second for two minutes: without the memory each settles into a 4 MB read (about 120).
    for (let second = 0; second < 120; second++) {
      world.updated(BIG);
      world.updated(SMALL);
      await world.clock.advanceBy(1_000);
    }
    const bigReads = world.reads.get(BIG)!;
    expect(bigReads).toBeGreaterThanOrEqual(5); // the back-off (2, 4, 8, 16, 32, 64 s) lets some through
    expect(bigReads).toBeLessThanOrEqual(9);
    expect(world.reads.get(SMALL)!).toBeGreaterThan(60); // the small one is read as usual
    const [refusal] = world.cache.contentLimitRefusals();
    expect(refusal).toMatchObject({ uri: BIG, chars: FOUR_MB, contentCharsMax: 1_048_576, refusals: bigReads });
    expect(refusal!.readsHeld).toBeGreaterThan(20);
    expect(world.cache.diagnostics().failure).toBeNull();

    // Content within the limit again: the first read after the back-off accepts it and clears the memory.
    world.shrink();
    for (let second = 0; second < 300 && !world.cache.get(BIG).served; second++) {
      world.updated(BIG);
      await world.clock.advanceBy(1_000);
    }
    expect(world.cache.get(BIG)).toMatchObject({ served: true, text: 'fits now' });
    expect(world.cache.contentLimitRefusals()).toEqual([]);
  });

  it('config.contentCharsMax raises the limit: the 4 MB body is accepted and served', async () => {
    const world = limitWorld(5_000_000);
    await world.clock.runUntil(world.cache.start());
    world.cache.subscribe(BIG);
    await world.clock.advanceBy(500);
    const served = world.cache.get(BIG);
    expect(served).toMatchObject({ served: true });
    expect((served as { text: string }).text).toHaveLength(FOUR_MB);
    expect(world.cache.contentLimitRefusals()).toEqual([]);
  });
});
