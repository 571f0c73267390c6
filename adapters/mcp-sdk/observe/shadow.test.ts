/**
 * Must show (issue 16): the shadow mode with a deliberately naive existing client (naive-overwrite: reads on
 * every notification and keeps whatever answer arrives last) beside the fenced cache, over the simulator's
 * SDK transport (real SDK Client and Server on virtual links and a virtual clock), under reordered reads;
 * a 5 % rollout serving exactly the hashed share; rollback then roll-forward keeping every watermark.
 */
import { describe, expect, it } from 'vitest';
import { contentDigest } from '../../../core/digest.js';
import type { Ledger } from '../../../core/state.js';
import { MemoryContentStore } from '../cache/fenced-cache.js';
import { testMeter, valueOf } from './otel-testing.js';
import { rolloutPathOf } from './rollout.js';
import { ShadowRollout } from './shadow.js';
import { cacheBeside, naiveOverwrite, quietWorld, type SdkWorld } from './sim-support.js';

const A = 'mem://docs/a';
const B = 'mem://docs/b';

/** The rollout hash written again with BigInt, independently of rollout.ts, to pin the hashed share. */
function rolloutHash(text: string): bigint {
  const word = 2n ** 32n;
  let hash = 0x811c9dc5n;
  for (let index = 0; index < text.length; index++) hash = ((hash ^ BigInt(text.charCodeAt(index))) * 0x01000193n) % word;
  hash ^= hash >> 16n;
  hash = (hash * 0x85ebca6bn) % word;
  hash ^= hash >> 13n;
  hash = (hash * 0xc2b2ae35n) % word;
  return hash ^ (hash >> 16n);
}
const onFencedPath = (uri: string, numerator: number, denominator: number): boolean => rolloutHash(uri) * BigInt(denominator) < BigInt(numerator) * 2n ** 32n;

async function started(world: SdkWorld, ...caches: Array<{ start(): Promise<void> }>): Promise<void> {
  for (const cache of caches) await world.clock.runUntil(cache.start());
}

describe('shadow mode beside a naive existing client', () => {
  it('reordered reads: the naive client serves an older version; the disagreement names URI, versions and reason', async () => {
    let slow = false; // reads arriving while the store holds v2 answer 5 s late, for both clients
    const world = quietWorld(21, () => (slow ? 5_000 : 0));
    world.store.set(A, 'a v1');
    world.store.set(B, 'b v1');
    const existing = cacheBeside(world, { seed: 21, client: naiveOverwrite });
    const { meterProvider, exported } = testMeter();
    const shadow = new ShadowRollout({ cache: world.cache, clock: world.clock, meterProvider });
    await started(world, world.cache, existing);
    for (const uri of [A, B]) {
      world.cache.subscribe(uri);
      existing.subscribe(uri);
    }
    await world.clock.advanceBy(100);
    const report = (uri: string, subject = 'default') => {
      const hit = existing.get(uri);
      if (!hit.served) throw new Error(`the existing client has nothing for ${uri}: ${hit.reason}`);
      return shadow.reportServed({ kind: 'content', uri, subject, text: hit.text });
    };
    expect(report(A)).toBeNull();

    slow = true;
    world.store.set(A, 'a v2'); // both clients read v2 (slow)
    await world.clock.advanceBy(400);
    slow = false;
    world.store.set(A, 'a v3'); // both read v3 (fast; the fenced cache through its hedge)
    await world.clock.advanceBy(2_000);
    expect(report(A)).toBeNull(); // both serve v3
    await world.clock.advanceBy(5_000); // the v2 answers arrive: refused by the fence, kept by the naive client
    expect(world.cache.get(A)).toMatchObject({ served: true, text: 'a v3' });
    expect(report(A)).toEqual({
      reason: 'OLDER_THAN_ACCEPTED',
      atMs: world.clock.nowMs(),
      uri: A,
      subject: 'default',
      servedDigest: contentDigest('a v2'),
      servedOrdinal: 2,
      acceptedDigest: contentDigest('a v3'),
      acceptedOrdinal: 3,
      detail: `served content the fences refused as stale (ORDINAL, ordinal 2 vs watermark 3); accepted ordinal 3 (digest ${contentDigest('a v3').slice(0, 12)})`,
    });

    world.cache.unsubscribe(B); // the fenced watch closes; the naive client keeps serving B
    await world.clock.advanceBy(100);
    expect(report(B)).toMatchObject({ reason: 'AFTER_CLOSE', uri: B, acceptedOrdinal: 1 });
    world.cache.revoke('default', A);
    expect(report(A)).toMatchObject({ reason: 'REVOKED_SUBJECT', uri: A, subject: 'default' });
    expect(shadow.reportServed({ kind: 'catalog', uris: [A, B] })).toMatchObject({ reason: 'CATALOG_FROM_ONE_SCAN', uri: '' });
    world.cache.discover(); // two agreeing scans: the fences publish [A, B]
    await world.clock.advanceBy(2_000);
    expect(shadow.reportServed({ kind: 'catalog', uris: [B, A] })).toBeNull();

    const health = shadow.health();
    expect(health.comparisons).toEqual({ agree: 3, disagree: 4, unverified: 0 });
    expect(health.disagreementsByReason).toEqual({ OLDER_THAN_ACCEPTED: 1, NOT_ACCEPTED: 0, AFTER_CLOSE: 1, REVOKED_SUBJECT: 1, CATALOG_FROM_ONE_SCAN: 1 });
    expect(health.disagreements.map((found) => [found.reason, found.uri])).toEqual([
      ['OLDER_THAN_ACCEPTED', A],
      ['AFTER_CLOSE', B],
      ['REVOKED_SUBJECT', A],
      ['CATALOG_FROM_ONE_SCAN', ''],
    ]);
    expect(health.cache.reasons.find((reason) => reason.code === 'SHADOW_DISAGREEMENTS')?.message).toBe(
      'the existing client served 4 times what the fences would not have: 1 OLDER_THAN_ACCEPTED, 1 AFTER_CLOSE, 1 REVOKED_SUBJECT, 1 CATALOG_FROM_ONE_SCAN',
    );
    const byName = await exported();
    expect(valueOf(byName, 'fencesim.shadow.disagreements', { 'fencesim.shadow.reason': 'OLDER_THAN_ACCEPTED' })).toBe(1);
    expect(valueOf(byName, 'fencesim.shadow.disagreements')).toBe(4);
    expect(valueOf(byName, 'fencesim.shadow.comparisons', { 'fencesim.shadow.result': 'agree' })).toBe(3);
    await world.cache.close();
    await existing.close();
  });

  it('a 5 % rollout serves exactly the hashed share; rollback then roll-forward after a restart keeps every watermark', async () => {
    const world = quietWorld(22, () => 0);
    const uris = Array.from({ length: 100 }, (_, index) => `mem://docs/r${index}`);
    for (const uri of uris) world.store.set(uri, `${uri} v1`);
    const { meterProvider, exported } = testMeter();
    const shadow = new ShadowRollout({ cache: world.cache, clock: world.clock, meterProvider, share: { numerator: 5, denominator: 100 } });
    await started(world, world.cache);
    for (const uri of uris) world.cache.subscribe(uri);
    await world.clock.advanceBy(500);
    for (const uri of uris.slice(0, 10)) world.store.set(uri, `${uri} v2`);
    await world.clock.advanceBy(2_000);
    const existingText = (uri: string) => () => world.store.get(uri)!.text;

    const expected = uris.filter((uri) => onFencedPath(uri, 5, 100));
    expect(expected.length).toBeGreaterThan(0);
    const results = uris.map((uri) => shadow.serve(uri, 'default', existingText(uri)));
    expect(uris.filter((_, index) => results[index]!.path === 'fenced')).toEqual(expected);
    expect(results.every((result) => result.served)).toBe(true);
    expect(uris.filter((uri) => rolloutPathOf(uri, { numerator: 1, denominator: 20 }) === 'fenced')).toEqual(expected); // 1/20 = 5/100
    const wider = uris.filter((uri) => rolloutPathOf(uri, { numerator: 10, denominator: 100 }) === 'fenced');
    expect(expected.every((uri) => wider.includes(uri))).toBe(true); // raising the share only adds URIs
    let byName = await exported();
    expect(valueOf(byName, 'fencesim.rollout.serves', { 'fencesim.rollout.path': 'fenced', 'fencesim.serve.outcome': 'served' })).toBe(expected.length);
    expect(valueOf(byName, 'fencesim.rollout.serves', { 'fencesim.rollout.path': 'existing', 'fencesim.serve.outcome': 'served' })).toBe(100 - expected.length);
    expect(shadow.health().servesByPath).toEqual({ fenced: { served: expected.length, refused: 0 }, existing: { served: 100 - expected.length, refused: 0 } });

    world.cache.unsubscribe(uris[99]!); // a close receipt the roll-forward must keep
    await world.clock.advanceBy(100);
    const ledger: Ledger = JSON.parse(JSON.stringify(shadow.rollback())); // persisted
    const bodies = (world.cache as unknown as { contentStore: MemoryContentStore }).contentStore.toJSON();
    expect(uris.every((uri) => shadow.pathOf(uri) === 'existing')).toBe(true);
    await world.cache.close();

    // Roll forward in a new process: the fenced cache resumes from the persisted ledger.
    const resumed = cacheBeside(world, { seed: 23, ledger, contentStore: MemoryContentStore.from(bodies) });
    const accepted: Array<{ uri: string; readOrdinal: number; watermarkBefore: number }> = [];
    resumed.onEffect((effect) => effect.type === 'VersionAccepted' && accepted.push({ uri: effect.uri, readOrdinal: effect.readOrdinal, watermarkBefore: effect.watermarkBefore }));
    const forward = new ShadowRollout({ cache: resumed, clock: world.clock, meterProvider, share: { numerator: 5, denominator: 100 } });
    await started(world, resumed);
    for (const uri of uris.slice(0, 10)) world.store.set(uri, `${uri} v3`);
    await world.clock.advanceBy(3_000);
    const after = resumed.ledger();
    for (const uri of uris) {
      const before = ledger.subscriptions[uri]!;
      const now = after.subscriptions[uri]!;
      expect(now.lastAcceptedOrdinal, uri).toBeGreaterThanOrEqual(before.lastAcceptedOrdinal);
      expect(now.lastIssuedOrdinal, uri).toBeGreaterThanOrEqual(before.lastIssuedOrdinal);
    }
    expect(after.subscriptions[uris[99]!]).toMatchObject({ state: 'CLOSED', closeOrdinal: ledger.subscriptions[uris[99]!]!.closeOrdinal, closeEpoch: ledger.subscriptions[uris[99]!]!.closeEpoch });
    expect(after.nextRequestId).toBeGreaterThan(ledger.nextRequestId);
    expect(accepted.length).toBeGreaterThanOrEqual(10);
    for (const entry of accepted) expect(entry.readOrdinal, entry.uri).toBeGreaterThan(ledger.subscriptions[entry.uri]!.lastAcceptedOrdinal);
    for (const uri of expected) expect(forward.serve(uri, 'default', existingText(uri))).toMatchObject({ path: 'fenced', served: true, text: world.store.get(uri)!.text });
    byName = await exported();
    expect(valueOf(byName, 'fencesim.rollout.serves', { 'fencesim.rollout.path': 'fenced' })).toBe(2 * expected.length);
    await resumed.close();
  });
});
