/**
 * The protocol era of a connection (SPEC §13): 2025-11-25 (sessions, `resources/subscribe`) or
 * 2026-07-28 (no sessions, `subscriptions/listen`, `ttlMs` / `cacheScope` on results).
 *
 * The era is what the harness negotiated (`Connected.era`); the core keeps it beside the capabilities
 * of the connection. Absent means 2025-11-25, so every caller written before 2026-07-28 behaves (and
 * traces) exactly as before.
 */
import { isObject, typeName } from './protocol.js';
import type { Draft, InflightRequest } from './state.js';
import type { ClientConfig, ProtocolEra, Rejection, ServerCapabilities } from './types.js';
import { protocolEras } from './types.js';

export const era2025: ProtocolEra = '2025-11-25';
export const era2026: ProtocolEra = '2026-07-28';

/** `_meta` key of the subscription id on every listen notification (2026-07-28 S6). */
export const subscriptionIdMetaKey = 'io.modelcontextprotocol/subscriptionId';

/** Defaults of the 2026-07-28 deadlines when the config leaves them out. */
export const listenAckTimeoutMsDefault = 5_000;
export const readReissueMsDefault = 4_000;

export function listenAckTimeoutMs(config: ClientConfig): number {
  return config.listenAckTimeoutMs ?? listenAckTimeoutMsDefault;
}

export function readReissueMs(config: ClientConfig): number {
  return config.readReissueMs ?? readReissueMsDefault;
}

/** Is the current connection a 2026-07-28 one? */
export function isEra2026(d: Draft): boolean {
  return d.v.capabilities !== null && d.v.capabilities.era === era2026;
}

/** A caller-filled `Connected.era`: absent or one of the two revisions; anything else is a rejection. */
export function checkEra(value: unknown): Rejection | null {
  if (value === undefined || (typeof value === 'string' && (protocolEras as readonly string[]).includes(value))) return null;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeName(value);
  return { kind: 'MalformedInput', detail: `Connected.era must be one of ${protocolEras.join(', ')}, got ${shown}` };
}

/** The capabilities the core keeps, marked with the era only when it is 2026-07-28 (2025 records stay as they were). */
export function withEra(capabilities: ServerCapabilities, era: ProtocolEra | undefined): ServerCapabilities {
  return era === era2026 ? { ...capabilities, era: era2026 } : capabilities;
}

/** The subscription id a listen notification is tagged with, or null when it is missing or not an id. */
export function subscriptionIdOf(params: unknown): number | null {
  if (!isObject(params) || !isObject(params._meta)) return null;
  const id = params._meta[subscriptionIdMetaKey];
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The live listen of a URI: the in-flight `subscribe` request of its current subscription generation. */
export function listenOf(d: Draft, uri: string): InflightRequest | undefined {
  const sub = d.subscription(uri);
  if (sub === undefined) return undefined;
  const requests = d.uriState(uri).requests;
  for (let index = 0; index < requests.length; index++) {
    const request = requests[index]!;
    if (request.kind === 'subscribe' && request.subscriptionGeneration === sub.subscriptionGeneration) return request;
  }
  return undefined;
}

/** Polling: no server-side watch (2025: no `subscribe` capability; 2026: no acknowledged listen for the URI). */
export function isPolling(d: Draft, uri: string): boolean {
  if (d.v.capabilities === null) return false;
  if (isEra2026(d)) return !d.v.capabilities.subscribe || listenOf(d, uri) === undefined;
  return !d.v.capabilities.subscribe;
}
