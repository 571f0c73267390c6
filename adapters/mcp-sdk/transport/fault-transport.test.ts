import { describe, expect, it } from 'vitest';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { VirtualClock } from './clock.js';
import { FaultInjectingTransport } from './fault-transport.js';

/** A transport whose incoming messages the test pushes by hand. */
function fakeInner(): Transport & { push(message: JSONRPCMessage): void; closed: boolean } {
  const inner = {
    closed: false,
    onmessage: undefined as Transport['onmessage'],
    onclose: undefined as Transport['onclose'],
    async start() {},
    async send() {},
    async close() {
      inner.closed = true;
      inner.onclose?.();
    },
    push(message: JSONRPCMessage) {
      inner.onmessage?.(message);
    },
  };
  return inner as unknown as Transport & { push(message: JSONRPCMessage): void; closed: boolean };
}

async function run(seed: number): Promise<{ received: string[]; stats: unknown }> {
  const clock = new VirtualClock();
  const inner = fakeInner();
  const faulty = new FaultInjectingTransport(inner, {
    seed,
    clock,
    faults: { drop: { numerator: 1, denominator: 4 }, duplicate: { numerator: 1, denominator: 4 }, delay: { numerator: 1, denominator: 3 }, delayMsMax: 100 },
  });
  const received: string[] = [];
  faulty.onmessage = (message) => received.push(`${clock.nowMs()} ${JSON.stringify(message)}`);
  await faulty.start();
  for (let index = 0; index < 40; index++) {
    inner.push({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: `mem://x/${index}` } });
    inner.push({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: index } });
    await clock.advanceBy(10);
  }
  await clock.advanceBy(1_000);
  return { received, stats: faulty.stats };
}

describe('FaultInjectingTransport', () => {
  it('drops, duplicates and delays resource notifications only, reproducibly by seed', async () => {
    const first = await run(5);
    expect(await run(5)).toEqual(first);
    expect(await run(6)).not.toEqual(first);
    const stats = first.stats as { seen: number; dropped: number; duplicated: number; delayed: number };
    expect(stats.seen).toBe(40);
    expect(stats.dropped).toBeGreaterThan(0);
    expect(stats.duplicated).toBeGreaterThan(0);
    expect(stats.delayed).toBeGreaterThan(0);
    expect(first.received.filter((line) => line.includes('notifications/message'))).toHaveLength(40); // untouched
    expect(first.received.filter((line) => line.includes('resources/updated'))).toHaveLength(40 - stats.dropped + stats.duplicated);
  });

  it('keeps nothing per notification: arrivals go to a listener, fault records stop at recordsMax', async () => {
    const clock = new VirtualClock();
    const inner = fakeInner();
    const faulty = new FaultInjectingTransport(inner, { seed: 1, clock, recordsMax: 50, faults: { drop: { numerator: 1, denominator: 1 }, duplicate: null, delay: null, delayMsMax: 1 } });
    const arrivals: Array<string | null> = [];
    faulty.onArrival = (arrival) => arrivals.push(arrival.uri);
    await faulty.start();
    for (let index = 0; index < 10_000; index++) inner.push({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: `mem://x/${index % 3}` } });
    expect(faulty.stats).toEqual({ seen: 10_000, dropped: 10_000, duplicated: 0, delayed: 0 });
    expect(faulty.records).toHaveLength(50);
    expect(arrivals).toHaveLength(10_000);
    expect(arrivals[4]).toBe('mem://x/1');
  });
});
