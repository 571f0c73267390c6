/**
 * FencedResourceCache on SDK v2 against a real v2 server process (examples/v2-server, real time): on the
 * 2026-07-28 connection it listens, is watched from the ack, serves through the same `get(uri, subject)`,
 * reads the TTL the server sent, and follows updates; the process is gone at the end.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import type { ClientEffect, ClientInput } from '../../../core/types.js';
import { FencedResourceCache } from '../cache/fenced-cache.js';
import { v2Connection } from './index.js';

const v2Server = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'v2-server', 'server.mjs');

async function until(done: () => boolean, msMax: number): Promise<void> {
  const deadline = Date.now() + msMax;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('FencedResourceCache with the v2 binding', () => {
  it('on a 2026-07-28 connection: listens, is watched from the ack, serves via get(uri, subject), follows updates', async () => {
    let transport: StdioClientTransport | null = null;
    const cache = new FencedResourceCache({
      connection: v2Connection(),
      reconnect: false,
      requestTimeoutMs: 5_000,
      connect: async () => (transport = new StdioClientTransport({ command: process.execPath, args: [v2Server] })) as never,
    });
    const inputs: ClientInput[] = [];
    const effects: ClientEffect[] = [];
    cache.onInput((input) => inputs.push(input));
    cache.onEffect((effect) => effects.push(effect));
    try {
      await cache.start();
      const connected = inputs.find((input) => input.type === 'Connected') as Extract<ClientInput, { type: 'Connected' }>;
      expect(connected.era).toBe('2026-07-28');
      cache.subscribe('note://a', 'alice');
      await until(() => cache.get('note://a', 'alice').served, 5_000);
      const first = cache.get('note://a', 'alice');
      expect(first).toMatchObject({ served: true, text: 'note://a version 1' });
      expect(effects.some((effect) => effect.type === 'RequestSent' && effect.method === 'subscriptions/listen')).toBe(true);
      const ack = inputs.find((input) => input.type === 'NotificationArrived' && input.method === 'notifications/subscriptions/acknowledged');
      expect(ack).toBeDefined();
      const read = inputs.find((input) => input.type === 'ResponseArrived' && input.outcome.type === 'result' && 'contents' in (input.outcome.result as object));
      expect(read).toMatchObject({ outcome: { result: { ttlMs: 2_000, cacheScope: 'private' } } });
      // Another subject: the private entry read for alice is not bob's.
      expect(cache.get('note://a', 'bob').served).toBe(false);
      // The toggle bumps every resource every 300 ms; the tagged updates reach the core and newer versions are served.
      await (cache.client as unknown as { callTool(params: unknown): Promise<unknown> }).callTool({ name: 'toggle-subscriber-updates', arguments: {} });
      // Right after an `updated` the entry is briefly not served (its read is in flight): wait for a newer served text.
      const newerText = (): string | undefined => {
        const text = (cache.get('note://a', 'alice') as { text?: string }).text;
        return text !== undefined && text !== 'note://a version 1' ? text : undefined;
      };
      await until(() => newerText() !== undefined, 5_000);
      expect(newerText()).toMatch(/^note:\/\/a version \d+$/);
      const tagged = inputs.filter((input) => input.type === 'NotificationArrived' && input.method === 'notifications/resources/updated');
      expect(tagged.length).toBeGreaterThan(0);
      expect(effects.filter((effect) => effect.type === 'AuditWritten' && effect.kind === 'LISTEN_MISMATCH')).toEqual([]);
    } finally {
      await cache.close();
      await (transport as StdioClientTransport | null)?.close();
    }
  }, 30_000);
});
