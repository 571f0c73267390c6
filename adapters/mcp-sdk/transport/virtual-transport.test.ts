import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { VirtualClock } from './clock.js';
import { createVirtualLink, type VirtualLinkFaults } from './virtual-transport.js';

const notification = (index: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: `mem://n/${index}` } });
const request = (index: number): JSONRPCMessage => ({ jsonrpc: '2.0', id: index, method: 'resources/read', params: { uri: `mem://r/${index}` } });

async function pair(faults: Partial<VirtualLinkFaults>) {
  const clock = new VirtualClock();
  const [client, server] = createVirtualLink({ scheduler: clock, faults });
  const atClient: JSONRPCMessage[] = [];
  const atServer: JSONRPCMessage[] = [];
  client.onmessage = (message) => atClient.push(message);
  server.onmessage = (message) => atServer.push(message);
  await client.start();
  await server.start();
  return { clock, client, server, atClient, atServer };
}

describe('virtual link', () => {
  it('carries JSON, not objects: a message mutated after send arrives as sent, as a new object', async () => {
    const { clock, server, atClient } = await pair({ seed: 1 });
    const sent = notification(1) as unknown as { params: { uri: string } };
    await server.send(sent as unknown as JSONRPCMessage);
    sent.params.uri = 'mem://mutated';
    await clock.advanceBy(5);
    expect(atClient).toEqual([notification(1)]);
    expect(atClient[0]).not.toBe(sent);
  });

  it('delivers at now + latency, in send order for equal latency, and queues until start', async () => {
    const clock = new VirtualClock();
    const [client, server] = createVirtualLink({ scheduler: clock, faults: { seed: 1, latencyMs: 10 } });
    const seen: string[] = [];
    client.onmessage = (message) => seen.push(`${clock.nowMs()} ${(message as unknown as { params: { uri: string } }).params.uri}`);
    await server.start();
    for (let index = 0; index < 3; index++) await server.send(notification(index));
    await clock.advanceBy(50);
    expect(seen).toEqual([]); // the client has not started: held, as the SDK's own transports do
    await client.start();
    expect(seen).toEqual(['50 mem://n/0', '50 mem://n/1', '50 mem://n/2']);
    await server.send(notification(3));
    await clock.advanceBy(9);
    expect(seen).toHaveLength(3);
    await clock.advanceBy(1);
    expect(seen.at(-1)).toBe('60 mem://n/3');
  });

  it('drops only notifications unless dropScope is "any"; faults apply to the configured direction only', async () => {
    const notificationsOnly = await pair({ seed: 3, drop: { numerator: 1, denominator: 1 } });
    await notificationsOnly.server.send(notification(1));
    await notificationsOnly.server.send({ jsonrpc: '2.0', id: 1, result: {} });
    await notificationsOnly.client.send(notification(2)); // to the server: not faulted by default
    await notificationsOnly.clock.advanceBy(5);
    expect(notificationsOnly.atClient).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(notificationsOnly.atServer).toEqual([notification(2)]);

    const any = await pair({ seed: 3, drop: { numerator: 1, denominator: 1 }, dropScope: 'any', directions: 'both' });
    await any.server.send({ jsonrpc: '2.0', id: 1, result: {} });
    await any.client.send(request(1));
    await any.clock.advanceBy(5);
    expect(any.atClient).toEqual([]);
    expect(any.atServer).toEqual([]);
    expect(any.client.link.stats.dropped).toBe(2);
  });

  it('a disconnect fault closes both ends once; later sends fail and scheduled deliveries are lost', async () => {
    const { clock, client, server, atClient } = await pair({ seed: 5, disconnectAtMs: 20 });
    const closes: string[] = [];
    client.onclose = () => closes.push('client');
    server.onclose = () => closes.push('server');
    await server.send(notification(1));
    await clock.advanceBy(10);
    await server.send({ ...notification(2) });
    clock.schedule(0, () => undefined);
    await clock.advanceBy(9); // delivery at 11 happened; nothing yet at 20
    expect(atClient).toHaveLength(2);
    await server.send(notification(3)); // would arrive at 20, after the link closed at 20 (scheduled first)
    await clock.advanceBy(10);
    expect(closes).toEqual(['client', 'server']);
    expect(atClient).toHaveLength(2);
    await expect(server.send(notification(4))).rejects.toThrow('Not connected');
    expect(client.link.stats.lost).toBe(1);
    await client.close(); // idempotent: no second onclose
    expect(closes).toEqual(['client', 'server']);
  });

  it('hands unparsable wire text to onerror, as the stdio transport does', async () => {
    const { clock, server, client, atClient } = await pair({ seed: 1 });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    server.sendRaw('{"jsonrpc":"2.0"');
    server.sendRaw('{"jsonrpc":"1.0","method":"x"}');
    await clock.advanceBy(5);
    expect(atClient).toEqual([]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^virtual link: invalid JSON-RPC message \(16 chars\)/);
    expect(client.link.log!.filter((entry) => entry.event === 'rejected')).toHaveLength(2);
  });
});
