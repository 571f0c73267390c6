/**
 * One connection of the simulator's SDK transport: a virtual link whose server end is an SDK low-level
 * `Server` answering from the simulator's server model.
 *
 * - Every resources/* request is answered by the world (`SimLinkHost.serve`), which runs the pure
 *   simulator's serving code (sim/actors/serving.ts) and says when the response reaches the client, or that it
 *   is lost (drop-unsubscribe-ack). The handler returns the result or throws the McpError; the SDK sends it.
 * - The link's router asks the world for every message's delay: client-to-server latency (FIFO per
 *   session), the planned delivery time of a response (by JSON-RPC id) and of a notification (set just
 *   before the SDK Server sends it, consumed synchronously by the send).
 * - The ground truth of a notification (resource, truth version) rides along as the delivery's tag and is
 *   handed back to the world right before the client end parses it; it never appears on the wire.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { NotificationMessage } from '../../../sim/kernel/events.js';
import { snapshotIdCapability } from '../cache/fenced-cache.js';
import { createVirtualLink, type LinkDirection, type LinkRoute, type LinkScheduler, type MessageKind, type VirtualLink, type VirtualTransport } from '../transport/virtual-transport.js';

/** When a response reaches the client (virtual ms), or null: it is lost. */
export type ResponsePlan = { deliverAtMs: number } | null;

/** What the world answered to one request: the result or error, and its delivery plan. */
export type ServedAnswer = { outcome: { type: 'result'; result: unknown } | { type: 'error'; code: number; message: string; data?: unknown }; plan: ResponsePlan };

export type SimRequestMethod = 'resources/read' | 'resources/subscribe' | 'resources/unsubscribe' | 'resources/list' | 'subscriptions/listen' | 'notifications/cancelled';

/** What a host needs of a link: its session (an SDK 1.x `SimLink`, or the SDK v2 link of adapters/mcp-sdk/v2). */
export interface SessionLink {
  readonly generation: number;
  /** Writes the response to JSON-RPC request `wireId` again at `deliverAtMs` (response-replay; 2026-07-28 links only). */
  replayResponse?(wireId: string | number, deliverAtMs: number): void;
}

/** The replay of the response to `jsonRpcId` on `link` for ResponseCapture.serve (null: the link cannot replay). */
export function replayOn(link: SessionLink, jsonRpcId: string | number): ((deliverAtMs: number) => void) | null {
  return link.replayResponse === undefined ? null : (deliverAtMs) => link.replayResponse!(jsonRpcId, deliverAtMs);
}

/** What a world does with a link of either SDK (SimLink here, V2SimLink in adapters/mcp-sdk/v2). */
export interface WorldLink extends SessionLink {
  readonly clientSide: VirtualTransport;
  connectServer(): Promise<void>;
  notify(truth: NotificationMessage, deliverAtMs: number): boolean;
  strand(truth: NotificationMessage): void;
  close(reason: string): void;
}

export interface SimLinkHost {
  /** Answers one request that reached the server of `link` (at the current virtual time). */
  serve(link: SessionLink, method: SimRequestMethod, params: Record<string, unknown>, jsonRpcId: string | number): ServedAnswer;
  /** Delay of a message without a plan: client-to-server latency, or the default server-to-client path (`wire`: its text). */
  route(link: SessionLink, direction: LinkDirection, message: JSONRPCMessage, kind: MessageKind, wire: string): number;
  /** A message is handed to a receiving end (for notifications: with their ground truth). */
  delivered(link: SessionLink, direction: LinkDirection, kind: MessageKind, truth: NotificationMessage | null, message: JSONRPCMessage): void;
}

/** A JSON Schema validator that is never used (no tools in the simulated world); saves building Ajv per connection. */
export const unusedJsonSchemaValidator: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'no JSON Schema validation in the simulated world' }),
};

export interface SimLinkOptions {
  scheduler: LinkScheduler;
  generation: number;
  capabilities: { subscribe: boolean; listChanged: boolean; snapshotId: boolean };
  host: SimLinkHost;
  /** Sees every message the link carries, as the sender passed it (benchmarks record the wire with it). */
  tap?: WireTap;
}

/**
 * The virtual link of one session for a link of either SDK: routed by `route`, every delivery told to the host
 * (`trustedServer`: the simulator's own server end, whose messages are only parsed, not re-validated).
 */
export function createSessionLinkPair(options: SimLinkOptions, link: SessionLink, route: (direction: LinkDirection, message: JSONRPCMessage, kind: MessageKind, wire: string) => LinkRoute | null, trustedServer: boolean): [VirtualTransport, VirtualTransport] {
  return createVirtualLink({
    scheduler: options.scheduler,
    log: null,
    linkId: options.generation,
    trustedServer,
    router: {
      route,
      delivered: (direction, message, kind, tag) => options.host.delivered(link, direction, kind, (tag as NotificationMessage | undefined) ?? null, message),
    },
  });
}

/** A recorder of what a link carries: direction and the message object (read it, do not keep or change it). */
export type WireTap = (generation: number, direction: LinkDirection, message: JSONRPCMessage) => void;

export class SimLink {
  readonly generation: number;
  readonly link: VirtualLink;
  readonly server: Server;
  readonly clientSide: VirtualTransport;
  private readonly serverSide: VirtualTransport;
  private readonly host: SimLinkHost;
  private readonly scheduler: LinkScheduler;
  private readonly responsePlans = new Map<string | number, ResponsePlan>();
  private pendingNotification: { deliverAtMs: number; truth: NotificationMessage } | null = null;
  private readonly tap: WireTap | null;

  constructor(options: SimLinkOptions) {
    this.generation = options.generation;
    this.host = options.host;
    this.scheduler = options.scheduler;
    this.tap = options.tap ?? null;
    const [clientSide, serverSide] = createSessionLinkPair(options, this, (direction, message, kind, wire) => this.route(direction, message, kind, wire), true);
    this.clientSide = clientSide;
    this.serverSide = serverSide;
    this.link = clientSide.link;
    const { subscribe, listChanged, snapshotId } = options.capabilities;
    const capabilities = { resources: { subscribe, listChanged }, ...(snapshotId ? { experimental: { [snapshotIdCapability]: {} } } : {}) };
    this.server = new Server({ name: 'fencesim-sim-server', version: '0.1.0' }, { capabilities, jsonSchemaValidator: unusedJsonSchemaValidator });
    this.install();
  }

  /** Starts the server end; the client end is connected by the SDK Client. */
  connectServer(): Promise<void> {
    return this.server.connect(this.serverSide);
  }

  get closed(): boolean {
    return this.link.closed;
  }

  close(reason: string): void {
    this.link.close(reason);
  }

  /**
   * Sends `notifications/resources/updated` (or list_changed) from the SDK Server, to reach the client at
   * `deliverAtMs`. Returns false when the connection is already closed (nothing was sent).
   */
  notify(truth: NotificationMessage, deliverAtMs: number): boolean {
    if (this.link.closed) return false;
    this.pendingNotification = { deliverAtMs, truth };
    const sending = truth.listChanged ? this.server.sendResourceListChanged() : this.server.sendResourceUpdated({ uri: truth.uri });
    sending.catch(() => undefined);
    const sent = this.pendingNotification === null;
    if (!sent) throw new Error(`sim link ${this.generation}: the SDK Server did not send ${truth.listChanged ? 'list_changed' : truth.uri} synchronously`);
    return true;
  }

  /** A dead session's stream surfaces after the reconnect (old-session-notification). */
  strand(truth: NotificationMessage): void {
    this.link.deliverStranded({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: truth.uri } }, truth);
  }

  private install(): void {
    const server = this.server;
    const answer = (method: SimRequestMethod, params: unknown, requestId: string | number): unknown => {
      const served = this.host.serve(this, method, (params ?? {}) as Record<string, unknown>, requestId);
      this.responsePlans.set(requestId, served.plan);
      const outcome = served.outcome;
      if (outcome.type === 'result') return outcome.result;
      throw new McpError(outcome.code, outcome.message, outcome.data);
    };
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => answer('resources/read', request.params, extra.requestId) as never);
    server.setRequestHandler(SubscribeRequestSchema, (request, extra) => answer('resources/subscribe', request.params, extra.requestId) as never);
    server.setRequestHandler(UnsubscribeRequestSchema, (request, extra) => answer('resources/unsubscribe', request.params, extra.requestId) as never);
    server.setRequestHandler(ListResourcesRequestSchema, (request, extra) => answer('resources/list', request.params, extra.requestId) as never);
  }

  private route(direction: LinkDirection, message: JSONRPCMessage, kind: MessageKind, wire: string): LinkRoute | null {
    const nowMs = this.scheduler.nowMs();
    if (this.tap !== null) this.tap(this.generation, direction, message);
    if (direction === 'to-client' && kind === 'response') {
      const id = (message as { id: string | number }).id;
      const plan = this.responsePlans.get(id);
      if (plan !== undefined) {
        this.responsePlans.delete(id);
        return plan === null ? null : { delayMs: Math.max(0, plan.deliverAtMs - nowMs) };
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
