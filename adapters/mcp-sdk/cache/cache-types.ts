/**
 * Types of the fenced cache's public API, and the content store (the ledger keeps digests only; accepted
 * bodies live here, keyed by canonical URI).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SdkConnectionFactory } from './sdk-connection.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Ledger } from '../../../core/state.js';
import type { ContentEncoding, ClientConfig, ClientEffect, ClientInput, ClientInputType, ClientUnderTest, Rejection } from '../../../core/types.js';
import type { Clock } from '../transport/clock.js';
import type { TransportErrorKind } from '../sim/sdk-outcomes.js';
import type { CacheObserveOptions } from '../observe/metrics.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An input without the `nowMs` and `jitter` the cache fills in. */
export type CacheInput = DistributiveOmit<ClientInput, 'nowMs' | 'jitter'>;

export const defaultRequestTimeoutMs = 60_000;
export const defaultReconnectPolicy: ReconnectPolicy = { delayMs: 1_000, delayMsMax: 30_000 };

export interface CachedContent {
  digest: string;
  /** The text, or the base64 characters of a blob (`encoding`). */
  text: string;
  /** Absent in stores written before it existed: text. */
  encoding?: ContentEncoding;
  mimeType: string;
}

/** Where accepted bodies live (the ledger keeps digests only). Keys are canonical URIs. */
export interface ContentStore {
  get(uri: string): CachedContent | undefined;
  set(uri: string, content: CachedContent): void;
  delete(uri: string): void;
}

export class MemoryContentStore implements ContentStore {
  private readonly entries = new Map<string, CachedContent>();
  get(uri: string): CachedContent | undefined {
    return this.entries.get(uri);
  }
  set(uri: string, content: CachedContent): void {
    this.entries.set(uri, content);
  }
  delete(uri: string): void {
    this.entries.delete(uri);
  }
  /** Plain data, for persistence next to the ledger. */
  toJSON(): Record<string, CachedContent> {
    return Object.fromEntries(this.entries);
  }
  static from(entries: Record<string, CachedContent>): MemoryContentStore {
    const store = new MemoryContentStore();
    for (const uri of Object.keys(entries)) store.set(uri, entries[uri]!);
    return store;
  }
}

export interface ReconnectPolicy {
  /** First delay after an unexpected close; doubles per failed attempt up to delayMsMax, plus jitter. */
  delayMs: number;
  delayMsMax: number;
}

export type RequestEffect = Extract<ClientEffect, { type: 'RequestSent' }>;

export interface FencedResourceCacheOptions {
  /** Opens a new transport (a new process, socket, link) for each connection. */
  connect: () => Promise<Transport>;
  /** The client logic (default: the reference core, `referenceClient`). */
  client?: ClientUnderTest<any>;
  /**
   * `_meta` to attach to a request's params (default none). A simulator tags requests with the client's
   * request id so its server model can pair a response with its ground truth.
   */
  requestMeta?: (request: RequestEffect) => Record<string, unknown> | undefined;
  /** A fresh SDK Client per connection (default: `new Client({name: 'fencesim-cache', ...})`). */
  createClient?: () => Client;
  /**
   * The SDK binding of each connection (default: SDK 1.x with `createClient`, 2025-11-25). For MCP
   * 2026-07-28 over SDK v2 pass `v2Connection()` (adapters/mcp-sdk/v2/v2-connection.ts).
   */
  connection?: SdkConnectionFactory;
  clock?: Clock;
  /** uint32 jitter per core input that may arm a timer, never per `get` (default: crypto random). Inject a seeded source for simulation. */
  jitter?: () => number;
  config?: Partial<ClientConfig>;
  /** SDK request timeout (default 60 000 ms; clamped to 2^31-1). */
  requestTimeoutMs?: number;
  /** Passed to every SDK request; aborting it cancels them (a simulator's alternative to timeouts). */
  requestSignal?: AbortSignal;
  /** Start from a persisted durable ledger (the client's `recover`): watermarks and close receipts hold. */
  ledger?: Ledger;
  contentStore?: ContentStore;
  /** Reconnect after an unexpected close (default {delayMs: 1000, delayMsMax: 30000}); false: never. */
  reconnect?: ReconnectPolicy | false;
  /** Metrics through OpenTelemetry (a no-op without a meter provider) and the window of `health()`. */
  observe?: CacheObserveOptions;
}

export type GetResult =
  /** `encoding` 'blob': `text` holds base64 characters of binary content of type `mimeType`. */
  | { served: true; uri: string; text: string; encoding: ContentEncoding; mimeType: string; digest: string }
  | { served: false; reason: string };

export interface EffectMeta {
  atMs: number;
  /** 'core': returned by `step`; 'adapter': observed by the adapter (an SDK-rejected result). */
  source: 'core' | 'adapter';
  /** The input whose step produced the effect (null for adapter effects). */
  input: ClientInputType | null;
}

export type EffectListener = (effect: ClientEffect, meta: EffectMeta) => void;
export type InputListener = (input: ClientInput) => void;
/** One step: the input and every effect the client returned for it (before the cache carries them out). */
export type StepListener = (input: ClientInput, effects: readonly ClientEffect[]) => void;

export interface TransportErrorRecord {
  atMs: number;
  sessionGeneration: number;
  /** From the client's onerror: a malformed message, a handler error, an unknown response id, ... */
  kind: TransportErrorKind;
  message: string;
}

export interface CacheDiagnostics {
  transportErrors: TransportErrorRecord[];
  transportErrorCount: number;
  adapterRejections: Rejection[];
  /** Notification methods outside notifications/resources/*, counted and ignored. */
  ignoredNotifications: Record<string, number>;
  /** SDK ConnectionClosed rejections of requests whose session had ended (not fed to the core). */
  closedInFlight: number;
  /** RequestSent effects for a session with no open connection (the core forgets them on Disconnected). */
  requestsWithoutConnection: number;
  connectFailures: Array<{ atMs: number; message: string }>;
  listenerErrors: number;
  /** Set when the core threw (a core bug): the cache stops and serves nothing. */
  failure: string | null;
}
