/**
 * The SDK v2 binding of a `FencedResourceCache` connection (cache/sdk-connection.ts): a
 * `@modelcontextprotocol/client` 2.x `Client` per connection, negotiating the era (`versionNegotiation:
 * 'auto'` by default), so one cache speaks 2026-07-28 to a v2 server and 2025-11-25 to any other.
 *
 * The core stays the judge of freshness: every read is `cacheMode: 'bypass'` (the Client's built-in
 * response cache never serves or stores for the fenced cache), and a list is fetched page by page
 * (`client.request`), never aggregated by the SDK. Reads carry `ttlMs` / `cacheScope` to the core as the
 * server sent them.
 *
 * Listens (2026-07-28): a `RequestSent` for `subscriptions/listen` is `client.listen({ resourceSubscriptions:
 * [uri] })`, the way its documentation describes. The Client names the listen `'listen:N'`; the binding
 * learns that id as the listen goes on the wire (a delegating transport) and translates between it and the
 * core's request id, both ways, so the core demultiplexes by its own ids:
 * - `listen()` resolving (the ack the Client consumed) → `notifications/subscriptions/acknowledged` with the
 *   honored filter; rejecting with a server error → the error as the listen's response; a graceful
 *   completion (before or after the ack) → the `resultType: 'complete'` result; a remote cancel while the
 *   connection is up → `notifications/cancelled`. A local close or the connection closing is not fed.
 * - Notifications the Client passes on carry the listen id of the wire; it becomes the core's id when it is
 *   one of this connection's listens and is left out otherwise (the core then treats it as untagged).
 * - `ListenCancelled` closes the handle (or aborts a listen still waiting for its ack); the Client sends
 *   `notifications/cancelled`. The ack deadline is the core's (`listenAckTimeoutMs`), not the Client's.
 */
import { Client, ProtocolError, SdkError, SdkErrorCode, type McpSubscription } from '@modelcontextprotocol/client';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { era2026, subscriptionIdMetaKey } from '../../../core/era.js';
import type { ClientEffect, ResponseOutcome } from '../../../core/types.js';
import type { ConnectionEvents, SdkConnection, SdkConnectionFactory } from '../cache/sdk-connection.js';
import { snapshotIdCapability } from '../cache/sdk-connection.js';
import { SET_TIMEOUT_MS_MAX } from '../transport/clock.js';
import { describeError, stripMcpPrefix } from '../sim/sdk-outcomes.js';

type RequestEffect = Extract<ClientEffect, { type: 'RequestSent' }>;
type Wire = Record<string, unknown>;

export interface V2ConnectionOptions {
  /** A fresh v2 Client per connection (default: `versionNegotiation: { mode: 'auto' }`, no capabilities). */
  createClient?: () => Client;
}

/** The v2 Client the binding makes by default: it negotiates the era, and its probe never times out on its own. */
export function defaultV2Client(name = 'fencesim-cache'): Client {
  return new Client({ name, version: '0.1.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: SET_TIMEOUT_MS_MAX } } });
}

interface ListenEntry {
  effect: RequestEffect;
  abort: AbortController;
  handle: McpSubscription | null;
  /** The core ended it (ListenCancelled): nothing more is fed. */
  cancelled: boolean;
}

export function v2Connection(options: V2ConnectionOptions = {}): SdkConnectionFactory {
  return (events) => new V2Connection(options.createClient?.() ?? defaultV2Client(), events);
}

class V2Connection implements SdkConnection {
  private readonly listens = new Map<number, ListenEntry>();
  private readonly coreOfWire = new Map<string, number>();
  /** The listen being sent right now (`client.listen` writes it synchronously). */
  private sending: { effect: RequestEffect; meta: Record<string, unknown> | undefined } | null = null;
  private isOpen: () => boolean = () => false;

  constructor(
    readonly client: Client,
    private readonly events: ConnectionEvents,
  ) {
    client.onerror = (error) => events.error(error);
    client.onclose = () => events.closed();
    client.fallbackNotificationHandler = async (notification) => events.notification(notification.method, this.toCore(notification.method, notification.params));
  }

  async open(transport: SdkTransport, options: { timeout?: number }) {
    await this.client.connect(this.wrap(transport) as never, { timeout: options.timeout });
    const capabilities = this.client.getServerCapabilities();
    const modern = this.client.getNegotiatedProtocolVersion() === era2026;
    return {
      raw: capabilities,
      ...(modern ? { era: era2026 } : {}),
      capabilities: {
        resources: capabilities?.resources !== undefined,
        subscribe: capabilities?.resources?.subscribe === true,
        listChanged: capabilities?.resources?.listChanged === true,
        snapshotId: (capabilities?.experimental as Wire | undefined)?.[snapshotIdCapability] !== undefined,
      },
    };
  }

  send(effect: RequestEffect, meta: Record<string, unknown> | undefined, options: { timeout?: number; signal?: AbortSignal }, isOpen: () => boolean): void {
    this.isOpen = isOpen;
    const withMeta = (params: Wire): Wire => (meta === undefined ? params : { ...params, _meta: meta });
    const client = this.client;
    let pending: Promise<unknown>;
    switch (effect.method) {
      case 'resources/read':
        pending = client.readResource(withMeta({ uri: effect.uri }) as never, { ...options, cacheMode: 'bypass' });
        break;
      case 'resources/subscribe':
        pending = client.subscribeResource(withMeta({ uri: effect.uri }) as never, options);
        break;
      case 'resources/unsubscribe':
        pending = client.unsubscribeResource(withMeta({ uri: effect.uri }) as never, options);
        break;
      case 'resources/list':
        pending = client.request({ method: 'resources/list', params: withMeta(effect.cursor === undefined ? {} : { cursor: effect.cursor }) } as never, options as never);
        break;
      case 'subscriptions/listen':
        this.listen(effect, meta);
        return;
    }
    pending.then(
      (result) => this.events.respond(effect, { type: 'result', result }),
      (error: unknown) => this.failed(effect, error),
    );
  }

  cancelListen(requestId: number): void {
    const entry = this.listens.get(requestId);
    if (entry === undefined || entry.cancelled) return;
    entry.cancelled = true;
    if (entry.handle !== null) entry.handle.close().catch(() => undefined);
    else entry.abort.abort(new Error('the core ended the listen'));
  }

  close(): Promise<void> {
    return this.client.close();
  }

  // -- listens -----------------------------------------------------------------------------------

  private listen(effect: RequestEffect, meta: Record<string, unknown> | undefined): void {
    const entry: ListenEntry = { effect, abort: new AbortController(), handle: null, cancelled: false };
    this.listens.set(effect.requestId, entry);
    this.sending = { effect, meta };
    let opening: Promise<McpSubscription>;
    try {
      opening = this.client.listen({ resourceSubscriptions: [effect.uri] }, { timeout: SET_TIMEOUT_MS_MAX, signal: entry.abort.signal });
    } finally {
      this.sending = null;
    }
    const coreId = effect.requestId;
    opening.then(
      (handle) => {
        entry.handle = handle;
        if (!entry.cancelled) this.events.notification('notifications/subscriptions/acknowledged', { notifications: handle.honoredFilter, _meta: { [subscriptionIdMetaKey]: coreId } });
        handle.closed.then((cause) => this.listenEnded(entry, cause)).catch(() => undefined);
      },
      (error: unknown) => {
        if (entry.cancelled) return;
        if (error instanceof ProtocolError) this.events.respond(effect, errorOutcome(error.code, error.message, error.data));
        // ConnectionClosed while the connection is up: the server completed the listen before its ack.
        else if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed && this.isOpen()) this.listenEnded(entry, 'graceful');
        else if (!this.isOpen()) this.events.closedInFlight();
        else this.events.respond(effect, errorOutcome(-32603, describeError(error)));
      },
    );
  }

  private listenEnded(entry: ListenEntry, cause: 'local' | 'graceful' | 'remote'): void {
    if (entry.cancelled || cause === 'local' || !this.isOpen()) return;
    const coreId = entry.effect.requestId;
    if (cause === 'graceful') this.events.respond(entry.effect, { type: 'result', result: { resultType: 'complete', _meta: { [subscriptionIdMetaKey]: coreId } } });
    else this.events.notification('notifications/cancelled', { requestId: coreId });
  }

  /** Notification params with the wire's listen ids turned into the core's (left out when unknown). */
  private toCore(method: string, params: unknown): unknown {
    if (params === null || typeof params !== 'object') return params;
    const body = { ...(params as Wire) };
    if (method === 'notifications/cancelled' && typeof body.requestId === 'string') {
      const coreId = this.coreOfWire.get(body.requestId);
      if (coreId !== undefined) body.requestId = coreId;
    }
    const meta = body._meta as Wire | undefined;
    if (meta !== undefined && typeof meta === 'object' && subscriptionIdMetaKey in meta) {
      const coreId = typeof meta[subscriptionIdMetaKey] === 'string' ? this.coreOfWire.get(meta[subscriptionIdMetaKey] as string) : undefined;
      const next = { ...meta };
      if (coreId === undefined) delete next[subscriptionIdMetaKey];
      else next[subscriptionIdMetaKey] = coreId;
      body._meta = next;
    }
    return body;
  }

  private failed(effect: RequestEffect, error: unknown): void {
    if (error instanceof ProtocolError) {
      this.events.respond(effect, errorOutcome(error.code, error.message, error.data));
      return;
    }
    if (!this.isOpen() || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)) {
      this.events.closedInFlight();
      return;
    }
    this.events.respond(effect, errorOutcome(-32603, describeError(error)));
  }

  /** The transport, with the core's `_meta` on each listen and its wire id learned as it is sent. */
  private wrap(inner: SdkTransport): SdkTransport {
    const send = (message: JSONRPCMessage, sendOptions?: unknown): Promise<void> => {
      const wire = message as unknown as Wire;
      const sending = this.sending;
      if (sending !== null && wire.method === 'subscriptions/listen' && typeof wire.id === 'string') {
        this.coreOfWire.set(wire.id, sending.effect.requestId);
        const params = (wire.params ?? {}) as Wire;
        if (sending.meta !== undefined) message = { ...wire, params: { ...params, _meta: { ...(params._meta as Wire), ...sending.meta } } } as unknown as JSONRPCMessage;
      }
      return inner.send(message, sendOptions as never);
    };
    return {
      start: () => inner.start(),
      close: () => inner.close(),
      send,
      get onmessage() {
        return inner.onmessage;
      },
      set onmessage(handler) {
        inner.onmessage = handler;
      },
      get onclose() {
        return inner.onclose;
      },
      set onclose(handler) {
        inner.onclose = handler;
      },
      get onerror() {
        return inner.onerror;
      },
      set onerror(handler) {
        inner.onerror = handler;
      },
    };
  }
}

function errorOutcome(code: number, message: string, data?: unknown): ResponseOutcome {
  const outcome: ResponseOutcome = { type: 'error', code, message: stripMcpPrefix(message) };
  if (data !== undefined) outcome.data = data;
  return outcome;
}
