/**
 * A deterministic, fault-injecting pair of SDK `Transport`s on virtual time.
 *
 * Rules:
 * - A message is serialized with JSON.stringify when sent and parsed (JSON.parse, then the SDK's
 *   JSONRPCMessageSchema, exactly as the stdio transport does) when delivered: no object is shared
 *   between the two ends. A line that does not parse reaches the receiver as `onerror`, as on stdio.
 * - Every delivery is an event on the scheduler (a `VirtualClock`), at now + latency (+ fault delays).
 *   Ties are delivered in send order. The scheduler lets the SDK's promise microtasks settle between
 *   two deliveries, so a run is a pure function of (seed, faults, what the two ends do).
 * - Faults are drawn from one seeded PRNG (`sim/prng.ts`), in send order: drop, duplicate, reorder
 *   (a random extra delay), delay (a fixed extra delay), disconnect (closes both ends). They apply to the
 *   directions named in `directions` (default: server to client only).
 * - A `router` (optional) replaces the PRNG faults: it decides each message's delay, or drops it. A
 *   simulator that owns the network model (delays drawn from its own chooser, faults planned per
 *   message) uses it; the link then only serializes, schedules and parses.
 * - Nothing here reads a clock or calls setTimeout.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createPrng, type Prng } from '../../../sim/prng.js';
import { cloneJson } from './json-clone.js';
import { resolveLinkFaults, type FaultScope, type VirtualLinkFaults } from './link-faults.js';

export { noLinkFaults, resolveLinkFaults, type FaultScope, type VirtualLinkFaults } from './link-faults.js';

/** What the link needs from a scheduler (a `VirtualClock` is one). */
export interface LinkScheduler {
  nowMs(): number;
  schedule(delayMs: number, fire: () => void): unknown;
}

export type LinkSide = 'client' | 'server';
export type LinkDirection = 'to-server' | 'to-client';
export type LinkEvent = 'sent' | 'delivered' | 'dropped' | 'duplicated' | 'delayed' | 'reordered' | 'rejected' | 'lost' | 'closed';
export type MessageKind = 'request' | 'response' | 'notification' | 'raw';

export interface LinkLogEntry {
  atMs: number;
  link: number;
  direction: LinkDirection | null;
  event: LinkEvent;
  kind: MessageKind | null;
  /** The wire text (JSON), shortened beyond WIRE_LOG_CHARS_MAX with its length noted. */
  wire: string;
}

export interface LinkStats {
  sent: number;
  delivered: number;
  dropped: number;
  duplicated: number;
  delayed: number;
  reordered: number;
  rejected: number;
  lost: number;
}

export const WIRE_LOG_CHARS_MAX = 400;

/**
 * Decides the fate of every message on a link instead of the PRNG faults (which are then ignored, except
 * `disconnectAtMs`). `message` is the object the sender passed (read it, do not keep or change it).
 */
export interface LinkRouter {
  /**
   * The delivery delay, or null to drop the message. `wire` is the message's text as it goes on the wire;
   * '' for a trusted server's messages on a link without a log (they are copied, not serialized: see
   * `trustedServer`).
   */
  route(direction: LinkDirection, message: JSONRPCMessage, kind: MessageKind, wire: string): LinkRoute | null;
  /** Called right before a parsed message is handed to the receiving end (also for stranded deliveries). */
  delivered?(direction: LinkDirection, message: JSONRPCMessage, kind: MessageKind, tag: unknown): void;
}

export interface LinkRoute {
  /** Virtual ms from now until delivery (>= 0). */
  delayMs: number;
  /** Travels with this delivery, off the wire, to `delivered` (e.g. a simulator's ground truth). */
  tag?: unknown;
}

export interface VirtualLinkOptions {
  scheduler: LinkScheduler;
  faults?: Partial<VirtualLinkFaults>;
  /** A log shared by several links (e.g. one per reconnect); the link appends to it. null: keep no log (fast path). */
  log?: LinkLogEntry[] | null;
  router?: LinkRouter;
  /** Names this link in the log (default 0). */
  linkId?: number;
  /**
   * The server end is the simulator's own SDK `Server`: what it sends is valid JSON-RPC by construction, so
   * to-client messages it passed to `send` are only JSON.parse'd on delivery (fresh objects, same content; the
   * receiving SDK Client still validates every result and notification). Client-sent messages are always
   * checked with JSONRPCMessageSchema, as stdio does. With a router and no log, such a message is not even
   * serialized: the receiver gets a copy equal to the parsed wire line, made when it is sent (json-clone.ts).
   * Default false.
   */
  trustedServer?: boolean;
}

export class VirtualLink {
  readonly client: VirtualTransport;
  readonly server: VirtualTransport;
  readonly faults: VirtualLinkFaults;
  /** Every link event, or null when the link keeps no log. */
  readonly log: LinkLogEntry[] | null;
  readonly stats: LinkStats = { sent: 0, delivered: 0, dropped: 0, duplicated: 0, delayed: 0, reordered: 0, rejected: 0, lost: 0 };
  readonly linkId: number;
  private readonly scheduler: LinkScheduler;
  private readonly prng: Prng;
  private readonly router: LinkRouter | null;
  private readonly trustedServer: boolean;
  /** Server messages travel as copies (trusted server, router, no log). */
  readonly copiesServerMessages: boolean;
  private isClosed = false;

  constructor(options: VirtualLinkOptions) {
    this.scheduler = options.scheduler;
    this.faults = resolveLinkFaults(options.faults);
    this.log = options.log === null ? null : (options.log ?? []);
    this.router = options.router ?? null;
    this.linkId = options.linkId ?? 0;
    this.trustedServer = options.trustedServer ?? false;
    this.copiesServerMessages = this.trustedServer && this.router !== null && this.log === null;
    this.prng = createPrng(this.faults.seed);
    this.client = new VirtualTransport(this, 'client');
    this.server = new VirtualTransport(this, 'server');
    const at = this.faults.disconnectAtMs;
    if (at !== null) this.scheduler.schedule(at - this.scheduler.nowMs(), () => this.close('fault: disconnect at ' + at + ' ms'));
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Closes both ends (as a dropped connection does): each end's `onclose` fires once, client first. */
  close(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.record(null, 'closed', null, reason);
    this.client.markClosed();
    this.server.markClosed();
  }

  /**
   * Puts `wire` (any text) on the wire from `from`, applying the faults of that direction (or the
   * router's decision, when there is a router and the sender passed the message object).
   */
  transmit(from: LinkSide, wire: string, kind: MessageKind, message: JSONRPCMessage | null = null): void {
    const direction: LinkDirection = from === 'client' ? 'to-server' : 'to-client';
    const to = from === 'client' ? this.server : this.client;
    this.stats.sent++;
    this.record(direction, 'sent', kind, wire);
    if (this.router !== null && message !== null) {
      const route = this.router.route(direction, message, kind, wire);
      if (route === null) {
        this.stats.dropped++;
        this.record(direction, 'dropped', kind, wire);
        return;
      }
      const trusted = this.trustedServer && from === 'server';
      this.scheduler.schedule(route.delayMs, () => this.deliver(to, direction, kind, wire, route.tag, trusted));
      return;
    }
    const f = this.faults;
    if (!this.faulted(direction)) {
      this.deliverLater(f.latencyMs, to, direction, kind, wire);
      return;
    }
    const prng = this.prng;
    if (f.drop !== null && inScope(f.dropScope, kind) && prng.chance(f.drop.numerator, f.drop.denominator)) {
      this.stats.dropped++;
      this.record(direction, 'dropped', kind, wire);
      return;
    }
    if (f.disconnect !== null && prng.chance(f.disconnect.numerator, f.disconnect.denominator)) {
      this.stats.lost++;
      this.record(direction, 'lost', kind, wire);
      this.close('fault: disconnect');
      return;
    }
    let latencyMs = f.latencyMs + (f.latencyJitterMsMax > 0 ? prng.nextBelow(f.latencyJitterMsMax + 1) : 0);
    if (f.delay !== null && prng.chance(f.delay.numerator, f.delay.denominator)) {
      latencyMs += f.delayMs;
      this.stats.delayed++;
      this.record(direction, 'delayed', kind, wire);
    }
    if (f.reorder !== null && prng.chance(f.reorder.numerator, f.reorder.denominator)) {
      latencyMs += 1 + prng.nextBelow(f.reorderDelayMsMax);
      this.stats.reordered++;
      this.record(direction, 'reordered', kind, wire);
    }
    this.deliverLater(latencyMs, to, direction, kind, wire);
    if (f.duplicate !== null && inScope(f.duplicateScope, kind) && prng.chance(f.duplicate.numerator, f.duplicate.denominator)) {
      this.stats.duplicated++;
      this.record(direction, 'duplicated', kind, wire);
      this.deliverLater(latencyMs + 1 + prng.nextBelow(f.reorderDelayMsMax), to, direction, kind, wire);
    }
  }

  /** The trusted server's message on the fast path: routed like `transmit`, delivered as a copy made now. */
  transmitServerCopy(message: JSONRPCMessage): void {
    const kind = classify(message);
    const copy = cloneJson(message);
    this.stats.sent++;
    const route = this.router!.route('to-client', message, kind, '');
    if (route === null) {
      this.stats.dropped++;
      return;
    }
    this.scheduler.schedule(route.delayMs, () => this.deliverCopy(this.client, kind, copy, route.tag));
  }

  private deliverCopy(to: VirtualTransport, kind: MessageKind, message: JSONRPCMessage, tag: unknown): void {
    if (this.isClosed) {
      this.stats.lost++;
      return;
    }
    if (!to.started) {
      to.queueUntilStarted(() => this.deliverCopy(to, kind, message, tag));
      return;
    }
    this.stats.delivered++;
    this.router?.delivered?.('to-client', message, kind, tag);
    to.onmessage?.(message);
  }

  private faulted(direction: LinkDirection): boolean {
    return this.faults.directions === 'both' || this.faults.directions === direction;
  }

  private deliverLater(latencyMs: number, to: VirtualTransport, direction: LinkDirection, kind: MessageKind, wire: string): void {
    this.scheduler.schedule(latencyMs, () => this.deliver(to, direction, kind, wire));
  }

  /** Delivery of one wire line: parse as the stdio transport does, then hand it to the receiver. */
  deliver(to: VirtualTransport, direction: LinkDirection, kind: MessageKind, wire: string, tag?: unknown, trusted = false): void {
    if (this.isClosed) {
      this.stats.lost++;
      this.record(direction, 'lost', kind, wire);
      return;
    }
    if (!to.started) {
      to.queueUntilStarted(() => this.deliver(to, direction, kind, wire, tag, trusted));
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = trusted ? (JSON.parse(wire) as JSONRPCMessage) : (JSONRPCMessageSchema.parse(JSON.parse(wire)) as JSONRPCMessage);
    } catch (error) {
      this.stats.rejected++;
      this.record(direction, 'rejected', kind, wire);
      to.onerror?.(new Error(`virtual link: invalid JSON-RPC message (${wire.length} chars): ${shortError(error)}`));
      return;
    }
    this.stats.delivered++;
    this.record(direction, 'delivered', kind, wire);
    this.router?.delivered?.(direction, message, kind, tag);
    to.onmessage?.(message);
  }

  /**
   * Hands `message` to the client end even though the link is closed: a dead session's stream that
   * surfaces after the reconnect (fault old-session-notification). The client end's `onmessage` is still
   * the SDK Client of that connection, whose handlers remain bound to its (ended) session.
   */
  deliverStranded(message: JSONRPCMessage, tag?: unknown): void {
    const wire = JSON.stringify(message);
    const kind = classify(message);
    const parsed = JSONRPCMessageSchema.parse(JSON.parse(wire)) as JSONRPCMessage;
    this.stats.delivered++;
    this.record('to-client', 'delivered', kind, wire);
    this.router?.delivered?.('to-client', parsed, kind, tag);
    this.client.onmessage?.(parsed);
  }

  private record(direction: LinkDirection | null, event: LinkEvent, kind: MessageKind | null, wire: string): void {
    if (this.log === null) return;
    const shown = wire.length > WIRE_LOG_CHARS_MAX ? wire.slice(0, WIRE_LOG_CHARS_MAX) + `…(${wire.length} chars)` : wire;
    this.log.push({ atMs: this.scheduler.nowMs(), link: this.linkId, direction, event, kind, wire: shown });
  }
}

export class VirtualTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** Left undefined: a preset sessionId would make Client.connect() skip `initialize`. */
  sessionId?: string;
  private isStarted = false;
  private isClosed = false;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly link: VirtualLink,
    readonly side: LinkSide,
  ) {}

  get started(): boolean {
    return this.isStarted;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  async start(): Promise<void> {
    if (this.isStarted) throw new Error(`virtual transport (${this.side}) already started`);
    this.isStarted = true;
    for (const deliver of this.waiting.splice(0)) deliver();
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.isClosed) throw new Error('Not connected');
    const link = this.link;
    if (this.side === 'server' && link.copiesServerMessages) link.transmitServerCopy(message);
    else link.transmit(this.side, JSON.stringify(message), classify(message), message);
  }

  /** Writes raw text on the wire (it need not be JSON): for hostile-peer tests. */
  sendRaw(wire: string): void {
    if (this.isClosed) throw new Error('Not connected');
    this.link.transmit(this.side, wire, 'raw');
  }

  async close(): Promise<void> {
    this.link.close(`closed by the ${this.side}`);
  }

  /** @internal */
  queueUntilStarted(deliver: () => void): void {
    this.waiting.push(deliver);
  }

  /** @internal The link closed: fire onclose once. */
  markClosed(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.onclose?.();
  }
}

/** `[clientTransport, serverTransport]` joined by one virtual link (`clientTransport.link`). */
export function createVirtualLink(options: VirtualLinkOptions): [VirtualTransport, VirtualTransport] {
  const link = new VirtualLink(options);
  return [link.client, link.server];
}

export function classify(message: JSONRPCMessage): MessageKind {
  const record = message as Record<string, unknown>;
  if (typeof record.method === 'string') return 'id' in record ? 'request' : 'notification';
  return 'response';
}

function inScope(scope: FaultScope, kind: MessageKind): boolean {
  return scope === 'any' || kind === 'notification';
}

function shortError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? text.slice(0, 300) + '…' : text;
}
