/**
 * One connection of the simulator's SDK transport whose server end is the real SDK v2 server: a low-level
 * v2 `Server` per connection behind `serveStdio({ transport })` (which picks the era from the opening
 * message: `server/discover` → 2026-07-28, `initialize` → 2025-11-25), answering resources/* from the
 * simulator's server model through the world (`SimLinkHost.serve`), over a virtual link.
 *
 * The fault injector sits at the wire, between the v2 server and the link:
 * - Responses: the v2 server normalises what a handler returns (it drops a negative or absent `ttlMs`, an
 *   unknown `cacheScope`, and answers not-found as -32602), so the server model's own outcome is restored
 *   on the wire: on a result the model gave cache hints, `ttlMs` / `cacheScope` exactly as the model gave
 *   them (absent stays absent); an error's code, message and data as the model gave them. Everything else
 *   the v2 server writes (the result's `_meta` serverInfo, `resultType`, list pages' default hints) stays.
 * - Listens: `subscriptions/listen` and the client's `notifications/cancelled` of a listen are served by
 *   the server model (sim/actors/era2026.ts), which decides the ack, its honored filter, the tags and the
 *   listen faults; they never reach the v2 router. The model's listen messages are written on the wire with
 *   the listen's JSON-RPC id (`'listen:N'`, as the v2 Client sends it) as the subscription id; a tag the
 *   model made wrong names a listen that does not exist on this connection.
 * - Notifications (updated, list_changed) go on the wire as the model sends them; their delivery time and
 *   ground truth ride with the link's router, as on the SDK 1.x link (sdk-sim-link.ts).
 */
import { ProtocolError, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { subscriptionIdMetaKey } from '../../../core/era.js';
import type { NotificationMessage } from '../../../sim/kernel/events.js';
import { listenParams } from '../../../sim/actors/era2026.js';
import { requestIdMetaKey } from '../sim/sdk-sim-driver.js';
import { createSessionLinkPair, type ResponsePlan, type ServedAnswer, type SimLinkHost, type SimLinkOptions, type SimRequestMethod } from '../sim/sdk-sim-link.js';
import { type LinkDirection, type LinkRoute, type LinkScheduler, type MessageKind, type VirtualLink, type VirtualTransport } from '../transport/virtual-transport.js';

type WireId = string | number;
type Outcome = ServedAnswer['outcome'];

/** A raw wire message as the link carries it. */
type Wire = Record<string, unknown>;

/**
 * What a module world (a black-box client, adapters/mcp-sdk/module/module-world.ts) gives a v2 link:
 * - `nextListenId`: the world's own number for each `subscriptions/listen` the client sends (when it goes on
 *   the wire), used as the model's listen id; whatever the client puts in `_meta` is not read;
 * - `listenClosed`: the client sent `notifications/cancelled` for a listen (local close: end of watch), or
 *   the connection closed under its listens (stream loss);
 * - `eraOf`: asked once, with the connection's opening message: does the client ask for 2026-07-28
 *   (`server/discover`, or a request with the modern `_meta` envelope), and may this connection speak it?
 *   When it asks and may not (era-downgrade), the discover is answered -32601 at the wire, as a 2025-11-25-only
 *   server answers it, and the client falls back to `initialize`.
 */
export interface BlackBoxListens {
  nextListenId(): number;
  listenClosed(listenId: number, why: 'the client cancelled it' | 'its connection closed'): void;
  eraOf(asksModern: boolean): boolean;
}

/** The `_meta` key of the modern envelope (every 2026-07-28 request carries it). */
const protocolVersionMetaKey = 'io.modelcontextprotocol/protocolVersion';

export class V2SimLink {
  readonly generation: number;
  readonly link: VirtualLink;
  readonly clientSide: VirtualTransport;
  private readonly serverSide: VirtualTransport;
  private readonly host: SimLinkHost;
  private readonly scheduler: LinkScheduler;
  private readonly capabilities: SimLinkOptions['capabilities'];
  /** By JSON-RPC id: the delivery plan of a response and the model's outcome to restore on the wire. */
  private readonly responses = new Map<WireId, { plan: ResponsePlan; outcome: Outcome }>();
  private pendingNotification: { deliverAtMs: number; truth: NotificationMessage } | null = null;
  /** Listen ids: the core's request id (the model's listen id) ↔ the listen's JSON-RPC id on the wire. */
  private readonly wireOfListen = new Map<number, string>();
  private readonly listenOfWire = new Map<string, number>();
  /** What serveStdio reads from and writes to (the wire-level rewriter between it and the link). */
  private readonly entry: { start(): Promise<void>; send(message: JSONRPCMessage): Promise<void>; close(): Promise<void>; onmessage?: (message: JSONRPCMessage, extra?: unknown) => void; onclose?: () => void; onerror?: (error: Error) => void };
  private handle: { close(): Promise<void> } | null = null;
  /** The first message from the client has been seen (blackBox.eraOf asked). */
  private opened = false;
  /** A response written a second time by an intermediary (response-replay): JSON-RPC id -> its delivery time. */
  private readonly replays = new Map<WireId, number>();
  private replayingAtMs = -1;
  /** (Black box) listens the client has not cancelled: the connection's close ends them. */
  private readonly listensOpen = new Set<number>();

  constructor(
    options: SimLinkOptions,
    private readonly blackBox?: BlackBoxListens,
  ) {
    this.generation = options.generation;
    this.host = options.host;
    this.scheduler = options.scheduler;
    this.capabilities = options.capabilities;
    const [clientSide, serverSide] = createSessionLinkPair(options, this, (direction, message, kind, wire) => this.route(direction, message, kind, wire), false);
    this.clientSide = clientSide;
    this.serverSide = serverSide;
    this.link = clientSide.link;
    this.entry = {
      start: () => serverSide.start(),
      send: (message) => this.sendFromServer(message),
      close: () => serverSide.close(),
    };
    serverSide.onmessage = (message) => this.inbound(message);
    serverSide.onclose = () => this.entry.onclose?.();
    serverSide.onerror = (error) => this.entry.onerror?.(error);
  }

  /** Starts the v2 server end (its era is decided by the client's opening message). */
  async connectServer(): Promise<void> {
    this.handle = serveStdio(() => this.createServer(), { transport: this.entry as never, legacy: 'serve', onerror: () => undefined });
  }

  get closed(): boolean {
    return this.link.closed;
  }

  close(reason: string): void {
    if (this.blackBox !== undefined && !this.link.closed) for (const listenId of this.listensOpen) this.blackBox.listenClosed(listenId, 'its connection closed');
    this.link.close(reason);
    this.handle?.close().catch(() => undefined);
  }

  /** response-replay (module worlds): the response to `wireId` is written again, to reach the client at `deliverAtMs`. */
  replayResponse(wireId: WireId, deliverAtMs: number): void {
    this.replays.set(wireId, deliverAtMs);
  }

  /** The core's request id of the listen whose JSON-RPC id is `wireId` on this link (undefined: none). */
  listenOf(wireId: unknown): number | undefined {
    return typeof wireId === 'string' ? this.listenOfWire.get(wireId) : undefined;
  }

  /** Sends a notification of the model to reach the client at `deliverAtMs`; false when the link is closed. */
  notify(truth: NotificationMessage, deliverAtMs: number): boolean {
    if (this.link.closed) return false;
    this.pendingNotification = { deliverAtMs, truth };
    this.serverSide.send(this.notificationOf(truth) as unknown as JSONRPCMessage).catch(() => undefined);
    if (this.pendingNotification !== null) throw new Error(`v2 sim link ${this.generation}: the notification for ${truth.uri} was not sent synchronously`);
    return true;
  }

  /** A dead session's stream surfaces after the reconnect (old-session-notification). */
  strand(truth: NotificationMessage): void {
    this.link.deliverStranded({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: truth.uri } }, truth);
  }

  private createServer(): Server {
    const { subscribe, listChanged } = this.capabilities;
    const server = new Server({ name: 'fencesim-sim-server-v2', version: '0.1.0' }, { capabilities: { resources: { subscribe, listChanged } } });
    const answer = (method: SimRequestMethod, params: unknown, id: WireId): unknown => {
      const served = this.host.serve(this, method, (params ?? {}) as Record<string, unknown>, id);
      this.responses.set(id, { plan: served.plan, outcome: served.outcome });
      const outcome = served.outcome;
      if (outcome.type === 'result') return outcome.result;
      throw new ProtocolError(outcome.code, outcome.message, outcome.data);
    };
    for (const method of ['resources/read', 'resources/list', 'resources/subscribe', 'resources/unsubscribe'] as const) {
      server.setRequestHandler(method, ((request: { params?: unknown }, context: { mcpReq: { id: WireId } }) => answer(method, request.params, context.mcpReq.id)) as never);
    }
    return server;
  }

  // -- the wire ----------------------------------------------------------------------------------

  /** A message from the client: listens go to the server model, everything else to the v2 server. */
  private inbound(message: JSONRPCMessage): void {
    const wire = message as unknown as Wire;
    const params = (wire.params ?? {}) as Wire;
    if (!this.opened && this.blackBox !== undefined && this.refusesModern(wire, params)) return;
    if (wire.method === 'subscriptions/listen' && wire.id !== undefined) {
      this.serveListen(String(wire.id), params);
      return;
    }
    if (wire.method === 'notifications/cancelled' && this.listenOf(params.requestId) !== undefined) {
      const coreId = this.listenOf(params.requestId)!;
      this.host.serve(this, 'notifications/cancelled', { _meta: { [requestIdMetaKey]: coreId } }, String(params.requestId));
      return;
    }
    this.entry.onmessage?.(message);
  }

  /**
   * The opening message of a black-box client (asked once): true when it asks for 2026-07-28 and this
   * connection may not speak it; then its `server/discover` is answered -32601 here (a 2025-only server).
   */
  private refusesModern(wire: Wire, params: Wire): boolean {
    this.opened = true;
    const meta = (params._meta ?? {}) as Wire;
    const asksModern = wire.method === 'server/discover' || typeof meta[protocolVersionMetaKey] === 'string';
    if (this.blackBox!.eraOf(asksModern) || !asksModern) return false;
    if (wire.id === undefined) return true;
    this.serverSide.send({ jsonrpc: '2.0', id: wire.id, error: { code: -32601, message: 'Method not found' } } as unknown as JSONRPCMessage).catch(() => undefined);
    this.opened = false; // the fallback `initialize` is the opening message the v2 server sees
    return true;
  }

  /** The model's id of the listen the client sent as `wireId` (a black box's: numbered by the world when it was sent). */
  private coreListenId(wireId: string, meta: Wire): number {
    const known = this.listenOfWire.get(wireId);
    if (known !== undefined) return known;
    const coreId = this.blackBox !== undefined ? this.blackBox.nextListenId() : typeof meta[requestIdMetaKey] === 'number' ? (meta[requestIdMetaKey] as number) : -1;
    this.wireOfListen.set(coreId, wireId);
    this.listenOfWire.set(wireId, coreId);
    if (this.blackBox !== undefined) this.listensOpen.add(coreId);
    return coreId;
  }

  private serveListen(wireId: string, params: Wire): void {
    const coreId = this.coreListenId(wireId, (params._meta ?? {}) as Wire);
    const meta = { ...((params._meta ?? {}) as Wire), [requestIdMetaKey]: coreId };
    const filter = (params.notifications ?? {}) as { resourceSubscriptions?: unknown };
    const uris = Array.isArray(filter.resourceSubscriptions) ? filter.resourceSubscriptions : [];
    // `filter`: every URI asked for (the module world serves a multi-URI listen; the SDK world's cache listens per URI).
    const served = this.host.serve(this, 'subscriptions/listen', { uri: typeof uris[0] === 'string' ? uris[0] : '', filter: uris, _meta: meta }, wireId);
    if (served.plan === null) return; // a listen is answered only when it ends (graceful result) or is rejected
    this.responses.set(wireId, { plan: served.plan, outcome: served.outcome });
    const outcome = served.outcome;
    const body = outcome.type === 'result' ? { result: this.tagged(outcome.result) } : { error: errorOf(outcome) };
    this.serverSide.send({ jsonrpc: '2.0', id: wireId, ...body } as unknown as JSONRPCMessage).catch(() => undefined);
  }

  /** The wire form of one of the model's notifications (listen tags carry the listen's JSON-RPC id). */
  private notificationOf(truth: NotificationMessage): Wire {
    if (truth.listChanged) return { jsonrpc: '2.0', method: 'notifications/resources/list_changed' };
    const listen = truth.listen;
    if (listen === undefined) return { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: truth.uri } };
    const params = this.tagged(listenParams(truth.uri, listen)) as Wire;
    if (listen.method === 'notifications/cancelled') params.requestId = this.wireIdOf(listen.subscriptionId ?? -1);
    return { jsonrpc: '2.0', method: listen.method, params };
  }

  /** `value` with its `_meta` subscription id (the model's listen id) replaced by the listen's wire id. */
  private tagged(value: unknown): unknown {
    const body = value as Wire;
    const meta = body?._meta as Wire | undefined;
    if (meta === undefined || typeof meta[subscriptionIdMetaKey] !== 'number') return value;
    return { ...body, _meta: { ...meta, [subscriptionIdMetaKey]: this.wireIdOf(meta[subscriptionIdMetaKey] as number) } };
  }

  /** The wire id of the model's listen `id`; one no listen of this connection has when there is none. */
  private wireIdOf(id: number): string {
    return this.wireOfListen.get(id) ?? `listen:none-${id}`;
  }

  /** What the v2 server writes goes on the link (rewritten), and a second time when an intermediary replays it. */
  private async sendFromServer(message: JSONRPCMessage): Promise<void> {
    const out = this.rewrite(message);
    const id = (out as unknown as Wire).id as WireId | undefined;
    const replayAtMs = id === undefined ? undefined : this.replays.get(id);
    const sending = this.serverSide.send(out);
    if (replayAtMs === undefined) return sending;
    this.replays.delete(id!);
    this.replayingAtMs = replayAtMs;
    this.serverSide.send(out).catch(() => undefined);
    this.replayingAtMs = -1;
    return sending;
  }

  /** What the v2 server writes, with the model's outcome restored on responses it answered. */
  private rewrite(message: JSONRPCMessage): JSONRPCMessage {
    const wire = message as unknown as Wire;
    const id = wire.id as WireId | undefined;
    const answered = id === undefined || wire.method !== undefined ? undefined : this.responses.get(id);
    if (answered === undefined) return message;
    const outcome = answered.outcome;
    if (outcome.type === 'error') return { jsonrpc: '2.0', id, error: errorOf(outcome) } as unknown as JSONRPCMessage;
    const result = { ...(wire.result as Wire) };
    const model = (outcome.result ?? {}) as Wire;
    // Only a result the model gave cache hints (2026-07-28 reads) is restored; its list pages carry none,
    // so they keep the v2 server's defaults (`ttlMs: 0`, `private`), as a v2 server always sends them.
    if (!('ttlMs' in model) && !('cacheScope' in model)) return message;
    for (const key of ['ttlMs', 'cacheScope']) {
      if (key in model) result[key] = model[key];
      else delete result[key];
    }
    return { ...wire, result } as unknown as JSONRPCMessage;
  }

  /** (Black box) what the client puts on the wire, when it sends it: a listen gets the world's number, a listen's cancel ends its watch. */
  private clientSent(wire: Wire): void {
    if (wire.method === 'subscriptions/listen' && typeof wire.id === 'string') this.coreListenId(wire.id, {});
    if (wire.method !== 'notifications/cancelled') return;
    const listenId = this.listenOf(((wire.params ?? {}) as Wire).requestId);
    if (listenId === undefined || !this.listensOpen.delete(listenId)) return;
    this.blackBox!.listenClosed(listenId, 'the client cancelled it');
  }

  private route(direction: LinkDirection, message: JSONRPCMessage, kind: MessageKind, wire: string): LinkRoute | null {
    const nowMs = this.scheduler.nowMs();
    if (direction === 'to-client' && kind === 'response' && this.replayingAtMs >= 0) return { delayMs: Math.max(0, this.replayingAtMs - nowMs) };
    if (direction === 'to-server' && this.blackBox !== undefined) this.clientSent(message as unknown as Wire);
    if (direction === 'to-client' && kind === 'response') {
      const id = (message as { id: WireId }).id;
      const listenId = this.listenOf(id);
      if (listenId !== undefined) this.listensOpen.delete(listenId); // its result or error: it ended on the server
      const answered = this.responses.get(id);
      if (answered !== undefined) {
        this.responses.delete(id);
        return answered.plan === null ? null : { delayMs: Math.max(0, answered.plan.deliverAtMs - nowMs) };
      }
    }
    if (direction === 'to-client' && kind === 'notification' && this.pendingNotification !== null) {
      const pending = this.pendingNotification;
      this.pendingNotification = null;
      return { delayMs: Math.max(0, pending.deliverAtMs - nowMs), tag: pending.truth };
    }
    return { delayMs: this.host.route(this, direction, message, kind, wire) };
  }
}

function errorOf(outcome: Extract<Outcome, { type: 'error' }>): Wire {
  return outcome.data === undefined ? { code: outcome.code, message: outcome.message } : { code: outcome.code, message: outcome.message, data: outcome.data };
}
