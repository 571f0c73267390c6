/**
 * Wire-level shapes: what MCP carries (capabilities, eras, request methods, response outcomes, content
 * encodings). The core validates them; it never trusts them.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ServerCapabilities {
  /**
   * The server declared the `resources` capability at all. When false the core sends no resources/*
   * request (no list, read, subscribe) and refuses workload commands that would need one.
   */
  resources: boolean;
  /** `resources.subscribe` was negotiated. */
  subscribe: boolean;
  /** `resources.listChanged` was negotiated. */
  listChanged: boolean;
  /** The optional snapshot-ID list extension was negotiated (SPEC §3.6). */
  snapshotId: boolean;
  /** The protocol era of the connection (absent: 2025-11-25). Set by the core from `Connected.era`. */
  era?: ProtocolEra;
}

/** The two MCP revisions the core speaks (SPEC §13): sessions + subscribe, or listen + TTL/scope. */
export type ProtocolEra = '2025-11-25' | '2026-07-28';
export const protocolEras: readonly ProtocolEra[] = ['2025-11-25', '2026-07-28'];

export type RequestMethod =
  | 'resources/read'
  | 'resources/subscribe'
  | 'resources/unsubscribe'
  | 'resources/list'
  /** 2026-07-28: one listen per watched URI (filter `{resourceSubscriptions: [uri]}`); its id is the subscription id. */
  | 'subscriptions/listen';

export type ResponseOutcome =
  | { type: 'result'; result: unknown }
  | { type: 'error'; code: unknown; message: unknown; data?: unknown };

/** How a content body is carried: MCP `text`, or `blob` (base64). */
export type ContentEncoding = 'text' | 'blob';
