/**
 * The fenced cache's options checked and resolved (a TypeError or RangeError naming the option): the client
 * logic, its first state (fresh, or recovered from a durable ledger) and the SDK request options.
 *
 * The SDK request timeout is `requestTimeoutMs` (default 60 000), clamped to 2^31-1 ms because Node turns a
 * longer setTimeout into 1 ms. A simulated run passes the maximum (the core has its own timeouts) or an
 * AbortSignal it controls (`requestSignal`).
 */
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { referenceClient } from '../../../core/reducer.js';
import type { ClientConfig, ClientUnderTest } from '../../../core/types.js';
import { defaultRequestTimeoutMs, type FencedResourceCacheOptions } from './cache-types.js';
import { SET_TIMEOUT_MS_MAX } from '../transport/clock.js';

export function clientLogicOf(options: FencedResourceCacheOptions): ClientUnderTest<any> {
  const client = options.client ?? referenceClient;
  if (client === null || typeof client !== 'object' || typeof client.init !== 'function' || typeof client.step !== 'function') {
    throw new TypeError('FencedResourceCache: options.client must be a client under test ({name, init, step})');
  }
  return client;
}

/** The client's first state and the last session generation it knew (0 without a ledger). */
export function firstStateOf(client: ClientUnderTest<any>, config: ClientConfig, options: FencedResourceCacheOptions): { state: unknown; lastGeneration: number } {
  if (options.ledger === undefined) return { state: client.init(config), lastGeneration: 0 };
  if (options.ledger === null || typeof options.ledger !== 'object' || options.ledger.schema !== 'fencesim.ledger.v1') {
    throw new TypeError(`FencedResourceCache: options.ledger must be a fencesim.ledger.v1 ledger, got schema ${JSON.stringify((options.ledger as { schema?: unknown } | null)?.schema)}`);
  }
  if (client.recover === undefined) throw new TypeError(`FencedResourceCache: client ${client.name} cannot recover from a ledger (no recover)`);
  // The restart's effects are session_lost moves: nothing to carry out.
  return { state: client.recover(config, options.ledger).state, lastGeneration: options.ledger.sessionGeneration };
}

export function requestOptionsOf(options: FencedResourceCacheOptions): RequestOptions {
  const timeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  if (!(typeof timeout === 'number' && timeout > 0)) throw new RangeError(`FencedResourceCache: requestTimeoutMs must be a positive number, got ${String(timeout)}`);
  const requestOptions: RequestOptions = { timeout: Math.min(timeout, SET_TIMEOUT_MS_MAX) };
  if (options.requestSignal !== undefined) requestOptions.signal = options.requestSignal;
  return requestOptions;
}
