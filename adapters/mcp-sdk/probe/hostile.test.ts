/**
 * Hostile server input through the real SDK Client: a scripted raw JSON-RPC peer on the server end of a
 * virtual link sends schema-invalid notifications, wrong result types, unknown methods, invalid JSON and
 * 5 MB payloads. The cache must record typed rejections (core ProtocolRejected, adapter ProtocolRejected
 * for results the SDK refused, or a recorded transport error), stay up, and keep its ledger intact.
 */
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../../core/state.js';
import type { ClientEffect, RejectionKind } from '../../../core/types.js';
import { scriptedCache } from '../../../test/scripted-cache.js';
import type { EffectMeta } from '../cache/fenced-cache.js';

const A = 'mem://hostile/a';
const FIVE_MB = 5 * 1024 * 1024;

type Reply = Record<string, unknown> | { raw: string } | 'silence';

/** A scripted peer: answers initialize/subscribe itself; read and list replies come from queues. */
function hostileWorld() {
  const readReplies: Reply[] = [];
  const listReplies: Reply[] = [];
  const subscribeReplies: Reply[] = [];
  let reads = 0;
  const effects: Array<{ effect: ClientEffect; meta: EffectMeta }> = [];

  const reply = (id: unknown, body: Reply): void => {
    if (body === 'silence') return;
    if ('raw' in body && typeof body.raw === 'string') scripted.server().sendRaw(body.raw);
    else scripted.send({ id, ...body });
  };
  const onRequest = (message: Record<string, unknown>): void => {
    const id = message.id;
    const params = (message.params ?? {}) as { uri?: string };
    switch (message.method) {
      case 'initialize':
        reply(id, {
          result: { protocolVersion: '2025-11-25', capabilities: { resources: { subscribe: true, listChanged: true } }, serverInfo: { name: 'hostile', version: '6.6.6' } },
        });
        break;
      case 'resources/subscribe':
        reply(id, subscribeReplies.shift() ?? { result: {} });
        break;
      case 'resources/unsubscribe':
        reply(id, { result: {} });
        break;
      case 'resources/read':
        reads++;
        reply(id, readReplies.shift() ?? { result: { contents: [{ uri: params.uri, mimeType: 'text/plain', text: `fine read ${reads}` }] } });
        break;
      case 'resources/list':
        reply(id, listReplies.shift() ?? { result: { resources: [{ uri: A, name: 'a' }] } });
        break;
      default:
        if (typeof message.method === 'string' && id !== undefined) reply(id, { error: { code: -32601, message: 'Method not found' } });
    }
  };

  const scripted = scriptedCache(onRequest);
  const { clock, cache } = scripted;
  cache.onEffect((effect, meta) => effects.push({ effect, meta }));

  return {
    clock,
    cache,
    effects,
    readReplies,
    listReplies,
    subscribeReplies,
    notify: (message: Record<string, unknown>) => scripted.send(message),
    raw: (wire: string) => scripted.server().sendRaw(wire),
    since: (mark: number) => effects.slice(mark).map((entry) => entry.effect),
  };
}

type World = ReturnType<typeof hostileWorld>;

async function subscribed(world: World): Promise<void> {
  await world.clock.runUntil(world.cache.start());
  world.cache.subscribe(A);
  await world.clock.advanceBy(100);
  expect(world.cache.get(A)).toMatchObject({ served: true, text: 'fine read 1' });
}

function rejectionKinds(effects: ClientEffect[]): RejectionKind[] {
  return effects.flatMap((effect) => (effect.type === 'ProtocolRejected' ? [effect.rejection.kind] : []));
}

/** What a response may never change: accepted content, watermarks, lineage, outbox, revocations. */
function acceptedContent(ledger: Ledger): unknown {
  const sub = ledger.subscriptions[A];
  return {
    versions: ledger.versions,
    derived: ledger.derived,
    revoked: ledger.revoked,
    outboxSequence: ledger.outboxSequence,
    watermark: sub === undefined ? null : [sub.lastAcceptedOrdinal, sub.lastAcceptedDigest],
  };
}

describe('hostile server input through the real SDK client', () => {
  it('schema-invalid notifications, unknown methods, invalid JSON and 5 MB junk: typed rejections, the ledger untouched, still up', async () => {
    const world = hostileWorld();
    await subscribed(world);
    const ledgerBefore = world.cache.ledger();
    const mark = world.effects.length;

    world.notify({ method: 'notifications/resources/updated', params: {} });
    world.notify({ method: 'notifications/resources/updated', params: { uri: 42 } });
    world.notify({ method: 'notifications/resources/updated' });
    world.notify({ method: 'notifications/resources/updated', params: { uri: 'not a uri' } });
    world.notify({ method: 'notifications/resources/updated', params: { uri: 'mem://hostile/' + 'a'.repeat(FIVE_MB) } });
    world.notify({ method: 'notifications/resources/bogus', params: { uri: A } });
    world.notify({ method: 'notifications/totally/unknown', params: { blob: 'z'.repeat(FIVE_MB) } });
    world.raw('{"jsonrpc":"2.0","method":"notifications/resources/updated","params":42}');
    world.raw('{"jsonrpc":"2.0","method":"notifications/resources/upd');
    world.raw('this is not JSON');
    world.raw('[1,2,3]');
    world.raw('{"x":"' + 'y'.repeat(FIVE_MB) + '"');
    world.notify({ id: 999, result: {} }); // a response nobody asked for
    world.notify({ id: 7, method: 'sampling/unheard-of', params: {} }); // a request the client does not serve
    await world.clock.advanceBy(2_000);

    const hostileEffects = world.since(mark);
    expect(rejectionKinds(hostileEffects)).toEqual(['InvalidUri', 'InvalidUri', 'MalformedNotification', 'InvalidUri', 'InvalidUri', 'UnknownNotification']);
    expect(hostileEffects.filter((effect) => effect.type === 'RequestSent')).toEqual([]); // no read was caused
    expect(world.cache.ledger()).toEqual(ledgerBefore);

    const diagnostics = world.cache.diagnostics();
    expect(diagnostics.transportErrors.map((error) => error.kind)).toEqual([
      'InvalidMessage',
      'InvalidMessage',
      'InvalidMessage',
      'InvalidMessage',
      'InvalidMessage',
      'UnknownResponse',
    ]);
    expect(diagnostics.ignoredNotifications).toEqual({ 'notifications/totally/unknown': 1 });
    expect(diagnostics.failure).toBeNull();
    expect(world.cache.connected).toBe(true);

    // Still up: a valid update is processed as usual.
    world.notify({ method: 'notifications/resources/updated', params: { uri: A } });
    await world.clock.advanceBy(1_000);
    expect(world.cache.get(A)).toMatchObject({ served: true, text: 'fine read 2' });
  });

  it('wrong result types from resources/read: rejected, the accepted content and watermark unchanged, the next valid read accepted', async () => {
    const world = hostileWorld();
    await subscribed(world);
    const cases: Array<{ name: string; reply: Reply; kind: RejectionKind; source: 'core' | 'adapter' }> = [
      { name: 'contents not an array', reply: { result: { contents: 'nope' } }, kind: 'MalformedResponse', source: 'adapter' },
      { name: 'contents missing', reply: { result: {} }, kind: 'MalformedResponse', source: 'adapter' },
      { name: 'text of the wrong type', reply: { result: { contents: [{ uri: A, text: 42 }] } }, kind: 'MalformedResponse', source: 'adapter' },
      { name: 'content for another URI', reply: { result: { contents: [{ uri: 'mem://hostile/other', text: 'x' }] } }, kind: 'ContentUriMismatch', source: 'core' },
      { name: 'empty contents', reply: { result: { contents: [] } }, kind: 'MalformedResponse', source: 'core' },
      { name: '5 MB of text', reply: { result: { contents: [{ uri: A, mimeType: 'text/plain', text: 'q'.repeat(FIVE_MB) }] } }, kind: 'ContentTooLarge', source: 'core' },
    ];
    for (const hostile of cases) {
      const before = acceptedContent(world.cache.ledger());
      const mark = world.effects.length;
      world.readReplies.push(hostile.reply);
      world.notify({ method: 'notifications/resources/updated', params: { uri: A } });
      await world.clock.advanceBy(1_000);
      const rejected = world.effects.slice(mark).filter((entry) => entry.effect.type === 'ProtocolRejected');
      expect(rejected.map((entry) => [entry.meta.source, (entry.effect as { rejection: { kind: string } }).rejection.kind]), hostile.name).toEqual([[hostile.source, hostile.kind]]);
      expect(world.since(mark).filter((effect) => effect.type === 'VersionAccepted'), hostile.name).toEqual([]);
      expect(acceptedContent(world.cache.ledger()), hostile.name).toEqual(before);
      expect(world.cache.get(A), hostile.name).toMatchObject({ served: true, text: 'fine read 1' });
    }
    const adapterRejection = world.cache.diagnostics().adapterRejections[0]!;
    expect(adapterRejection.detail).toMatch(/^resources\/read result failed the SDK's schema validation: contents/);

    await world.clock.advanceBy(2_000); // past the back-off after the 5 MB body (content-limit.ts holds reads until then)

    // An error response with a non-numeric code never reaches the SDK (the wire parser refuses it); the
    // read stays in flight and a hedged read takes over when the next update arrives.
    world.readReplies.push({ raw: '{"jsonrpc":"2.0","id":1,"error":{"code":"abc","message":1}}' });
    world.notify({ method: 'notifications/resources/updated', params: { uri: A } });
    await world.clock.advanceBy(1_000);
    world.notify({ method: 'notifications/resources/updated', params: { uri: A } });
    await world.clock.advanceBy(3_000);
    const served = world.cache.get(A);
    expect(served).toMatchObject({ served: true });
    expect((served as { text: string }).text).toMatch(/^fine read \d+$/);
    expect((served as { text: string }).text).not.toBe('fine read 1');
    expect(world.cache.diagnostics().transportErrors.map((error) => error.kind)).toEqual(['InvalidMessage']);
    expect(world.cache.connected).toBe(true);
  });

  it('invalid list pages (lastModified "yesterday", a resource without a name) abandon the scan pass; valid passes then publish', async () => {
    const world = hostileWorld();
    await subscribed(world);
    const before = acceptedContent(world.cache.ledger());
    world.listReplies.push({ result: { resources: [{ uri: A, name: 'a', annotations: { lastModified: 'yesterday' } }] } });
    world.listReplies.push({ result: { resources: [{ uri: A }] } });
    world.listReplies.push({ result: { resources: 'all of them' } });
    world.cache.discover();
    await world.clock.advanceBy(2_000);
    const effects = world.effects.map((entry) => entry.effect);
    expect(effects.filter((effect) => effect.type === 'ScanAbandoned').map((effect) => (effect as { reason: string }).reason)).toEqual([
      'LIST_ERROR',
      'LIST_ERROR',
      'LIST_ERROR',
    ]);
    const details = world.cache.diagnostics().adapterRejections.map((rejection) => rejection.detail);
    expect(details[0]).toMatch(/resources\.0\.annotations\.lastModified/);
    expect(details[1]).toMatch(/resources\.0\.name/);
    expect(acceptedContent(world.cache.ledger())).toEqual(before);
    // After reconcileRoundsMax rounds the core backs off until its review timer; then two valid passes.
    await world.clock.advanceBy(40_000);
    const published = world.effects.map((entry) => entry.effect).filter((effect) => effect.type === 'CatalogPublished');
    expect(published).toEqual([expect.objectContaining({ status: 'SNAPSHOT_UNPROVEN', uris: [A] })]);
  });

  it('a subscribe result with unexpected keys is refused by the SDK; the core retries and the subscription comes up', async () => {
    const world = hostileWorld();
    world.subscribeReplies.push({ result: { unexpected: true } });
    await world.clock.runUntil(world.cache.start());
    world.cache.subscribe(A);
    await world.clock.advanceBy(100);
    expect(world.cache.get(A)).toMatchObject({ served: false });
    expect(rejectionKinds(world.effects.map((entry) => entry.effect))).toEqual(['MalformedResponse']);
    await world.clock.advanceBy(3_000); // subscribeRetryMs
    expect(world.cache.get(A)).toMatchObject({ served: true, text: 'fine read 1' });
  });
});
