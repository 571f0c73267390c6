/**
 * A small MCP resource server built with the SDK's low-level `Server`, over an in-memory store you can
 * mutate. One `Server` instance per connection (subscriptions are per-connection state, forgotten when the
 * connection closes, as on a real server); one store shared by all connections.
 *
 * - resources/list: pages of `pageSize`, opaque cursors (base64url of {offset, epoch}); an unparsable
 *   cursor, or one from before the last create/delete (epoch changed), is -32602 with data {cursor}.
 * - resources/read: -32002 with data {uri} when absent. The content is captured when the request arrives;
 *   an optional `readDelayMs` then holds the response back (virtual time), so a slow read answers with
 *   content older than a faster read issued after it.
 * - resources/subscribe / unsubscribe: a per-connection Set; `notifications/resources/updated` goes only
 *   to connections subscribed to the URI; create/delete send `list_changed` to every connection.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

export interface StoredResource {
  uri: string;
  name: string;
  mimeType: string;
  text: string;
  /** Truth version: increases on every write, across delete and re-create. */
  version: number;
}

export type StoreChange = { type: 'created' | 'updated' | 'deleted'; uri: string; version: number };

/** The resource truth. URIs are kept as given (the server does not canonicalize). */
export class ResourceStore {
  private readonly entries = new Map<string, StoredResource>();
  private readonly versions = new Map<string, number>();
  private readonly listeners: Array<(change: StoreChange) => void> = [];
  /** Bumped by every create and delete: list cursors from an older epoch are invalid. */
  epoch = 0;

  set(uri: string, text: string, mimeType = 'text/plain'): StoredResource {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    const created = !this.entries.has(uri);
    const entry: StoredResource = { uri, name: uri.slice(uri.lastIndexOf('/') + 1) || uri, mimeType, text, version };
    this.entries.set(uri, entry);
    if (created) this.epoch++;
    this.emit({ type: created ? 'created' : 'updated', uri, version });
    return entry;
  }

  delete(uri: string): boolean {
    const entry = this.entries.get(uri);
    if (entry === undefined) return false;
    const version = entry.version + 1;
    this.versions.set(uri, version);
    this.entries.delete(uri);
    this.epoch++;
    this.emit({ type: 'deleted', uri, version });
    return true;
  }

  get(uri: string): StoredResource | undefined {
    return this.entries.get(uri);
  }

  /** URIs in listing order (sorted, so pages are stable between mutations). */
  uris(): string[] {
    return [...this.entries.keys()].sort();
  }

  onChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  private emit(change: StoreChange): void {
    for (const listener of this.listeners.slice()) listener(change);
  }
}

export interface SimServerOptions {
  pageSize?: number;
  name?: string;
  /** Extra response delay of a read (virtual ms), by URI and 1-based read count of that URI. */
  readDelayMs?: (uri: string, readCount: number) => number;
  /** Waits `ms` (virtual time); required when readDelayMs is given. */
  sleep?: (ms: number) => Promise<void>;
  /** Capabilities to declare (default subscribe + listChanged). */
  capabilities?: { subscribe?: boolean; listChanged?: boolean };
}

export interface SimConnection {
  readonly id: number;
  readonly server: Server;
  readonly subscriptions: ReadonlySet<string>;
  readonly closed: boolean;
}

class Connection implements SimConnection {
  readonly subscriptionSet = new Set<string>();
  closed = false;
  constructor(
    readonly id: number,
    readonly server: Server,
  ) {}
  get subscriptions(): ReadonlySet<string> {
    return this.subscriptionSet;
  }
}

export class SimServer {
  readonly store: ResourceStore;
  private readonly options: Required<Pick<SimServerOptions, 'pageSize' | 'name'>> & SimServerOptions;
  private readonly live: Connection[] = [];
  private readonly readCounts = new Map<string, number>();
  private nextConnectionId = 1;
  /** Requests served, by method (for tests). */
  readonly served: Record<string, number> = {};
  /** Errors from sending notifications on closing connections (swallowed, counted). */
  notificationSendErrors = 0;

  constructor(store: ResourceStore, options: SimServerOptions = {}) {
    const pageSize = options.pageSize ?? 10;
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`sim server: pageSize must be an integer >= 1, got ${pageSize}`);
    if (options.readDelayMs !== undefined && options.sleep === undefined) throw new Error('sim server: readDelayMs needs a sleep function');
    this.store = store;
    this.options = { ...options, pageSize, name: options.name ?? 'fencesim-sim-server' };
    store.onChange((change) => this.onStoreChange(change));
  }

  get connections(): readonly SimConnection[] {
    return this.live;
  }

  /** Serves one connection on `transport` (the server end of a link). */
  async connect(transport: Transport): Promise<SimConnection> {
    const capabilities = this.options.capabilities ?? { subscribe: true, listChanged: true };
    const server = new Server({ name: this.options.name, version: '0.1.0' }, { capabilities: { resources: { ...capabilities } } });
    const connection = new Connection(this.nextConnectionId++, server);
    this.install(connection);
    server.onclose = () => {
      connection.closed = true;
      connection.subscriptionSet.clear();
      const index = this.live.indexOf(connection);
      if (index >= 0) this.live.splice(index, 1);
    };
    this.live.push(connection);
    await server.connect(transport);
    return connection;
  }

  private count(method: string): void {
    this.served[method] = (this.served[method] ?? 0) + 1;
  }

  private install(connection: Connection): void {
    const server = connection.server;
    server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
      this.count('resources/list');
      const uris = this.store.uris();
      const cursor = request.params?.cursor;
      const offset = cursor === undefined ? 0 : decodeCursor(cursor, this.store.epoch);
      const page = uris.slice(offset, offset + this.options.pageSize);
      const resources = page.map((uri) => {
        const entry = this.store.get(uri)!;
        return { uri, name: entry.name, mimeType: entry.mimeType };
      });
      const next = offset + this.options.pageSize;
      return next < uris.length ? { resources, nextCursor: encodeCursor(next, this.store.epoch) } : { resources };
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      this.count('resources/read');
      const uri = request.params.uri;
      const entry = this.store.get(uri);
      const readCount = (this.readCounts.get(uri) ?? 0) + 1;
      this.readCounts.set(uri, readCount);
      const delayMs = this.options.readDelayMs?.(uri, readCount) ?? 0;
      if (delayMs > 0) await this.options.sleep!(delayMs);
      if (entry === undefined) throw new McpError(-32002, 'Resource not found', { uri });
      return { contents: [{ uri, mimeType: entry.mimeType, text: entry.text }] };
    });
    server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      this.count('resources/subscribe');
      connection.subscriptionSet.add(request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      this.count('resources/unsubscribe');
      connection.subscriptionSet.delete(request.params.uri);
      return {};
    });
  }

  private onStoreChange(change: StoreChange): void {
    for (const connection of this.live.slice()) {
      if (connection.closed) continue;
      if (change.type !== 'created' && connection.subscriptionSet.has(change.uri)) {
        connection.server.sendResourceUpdated({ uri: change.uri }).catch(() => this.notificationSendErrors++);
      }
      if (change.type !== 'updated' && this.options.capabilities?.listChanged !== false) {
        connection.server.sendResourceListChanged().catch(() => this.notificationSendErrors++);
      }
    }
  }
}

function encodeCursor(offset: number, epoch: number): string {
  return Buffer.from(JSON.stringify({ o: offset, e: epoch })).toString('base64url');
}

function decodeCursor(cursor: string, epoch: number): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor', { cursor });
  }
  const record = parsed as { o?: unknown; e?: unknown } | null;
  if (
    record === null ||
    typeof record !== 'object' ||
    typeof record.o !== 'number' ||
    !Number.isInteger(record.o) ||
    record.o < 0 ||
    record.e !== epoch
  ) {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor', { cursor });
  }
  return record.o;
}
