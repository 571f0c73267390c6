/**
 * Test support: a FencedResourceCache on virtual time whose server end is a scripted raw JSON-RPC peer
 * (the test answers each request itself), over the deterministic virtual link.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { VirtualClock } from '../adapters/mcp-sdk/transport/clock.js';
import { FencedResourceCache, type FencedResourceCacheOptions } from '../adapters/mcp-sdk/cache/fenced-cache.js';
import { simulatedRequestTimeoutMs } from '../adapters/mcp-sdk/sim/sdk-world.js';
import { createVirtualLink, type VirtualTransport } from '../adapters/mcp-sdk/transport/virtual-transport.js';

export interface ScriptedCache {
  clock: VirtualClock;
  cache: FencedResourceCache;
  /** The server end of the current connection (set once the cache connected). */
  server(): VirtualTransport;
  /** Sends a message from the server (`jsonrpc` added). */
  send(message: Record<string, unknown>): void;
}

export function scriptedCache(onRequest: (message: Record<string, unknown>) => void, options: Partial<FencedResourceCacheOptions> = {}): ScriptedCache {
  const clock = new VirtualClock();
  let server: VirtualTransport | null = null;
  const cache = new FencedResourceCache({
    clock,
    jitter: () => 0,
    requestTimeoutMs: simulatedRequestTimeoutMs,
    reconnect: false,
    ...options,
    connect: async () => {
      const [clientSide, serverSide] = createVirtualLink({ scheduler: clock, faults: { seed: 1 } });
      server = serverSide;
      serverSide.onmessage = (message) => onRequest(message as unknown as Record<string, unknown>);
      await serverSide.start();
      return clientSide;
    },
  });
  return {
    clock,
    cache,
    server: () => server!,
    send: (message) => void server!.send({ jsonrpc: '2.0', ...message } as unknown as JSONRPCMessage),
  };
}
