/**
 * `fencesim/mcp-sdk/v2`: the SDK v2 binding of `FencedResourceCache` (MCP 2026-07-28 and 2025-11-25 over
 * `@modelcontextprotocol/client` 2.x). Kept apart from `fencesim/mcp-sdk`, so SDK 1.x users never load SDK v2.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
 * import { FencedResourceCache } from 'fencesim/mcp-sdk';
 * import { v2Connection } from 'fencesim/mcp-sdk/v2';
 *
 * const cache = new FencedResourceCache({
 *   connection: v2Connection(),                       // a v2 Client per connection, versionNegotiation 'auto'
 *   connect: async () => new StdioClientTransport({ command: 'node', args: ['server.mjs'] }),
 * });
 * await cache.start();                                // Connected.era is 2026-07-28 against a v2 server
 * cache.subscribe('note://a', 'alice');               // subscriptions/listen, watched from the ack on
 * const hit = cache.get('note://a', 'alice');         // served only within ttlMs, per authorization context
 * ```
 */
export { defaultV2Client, v2Connection, type V2ConnectionOptions } from './v2-connection.js';
