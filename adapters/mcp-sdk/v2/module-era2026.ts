/**
 * The module world on MCP 2026-07-28 (`fencesim gate --client ./x.mjs --protocol 2026-07-28|both`): what a
 * module world (adapters/mcp-sdk/module/module-world.ts) does differently on an interleaving whose plan speaks
 * 2026-07-28. The client is a black box, so nothing here reads what it keeps; all of it is wire and truth:
 *
 * - **The server end** of each connection is the SDK v2 server of v2-sim-link.ts (`serveStdio`, legacy
 *   served too), with the model's faults at the wire. The era is the client's to ask for, as against any
 *   dual-era server: its opening message (`server/discover` → 2026-07-28, `initialize` → 2025-11-25) decides
 *   whether the server model opens the session on 2026-07-28 (`openEra`, where era-downgrade may refuse it:
 *   then the discover gets -32601 and the client falls back). A 2025-11-25 plan keeps the SDK 1.x server.
 * - **Listens** are numbered by the world when they go on the wire (the model's listen ids); a client's
 *   `notifications/cancelled` of one ends its watch when it is sent (local close), the connection closing
 *   ends every listen on it (stream loss), and the ground truth of what reaches the client on its current
 *   connection — the ack's honored filter, tagged updates, a server cancel (remote close), the listen's
 *   result (graceful completion) — is observed as the pure world observes it (sim/actors/era2026.ts), so the
 *   pure 2026 checkers judge the module client's serves (read_your_notification, ttl_staleness,
 *   monotonic_reads, scope_isolation).
 * - **response-replay**: the copy the server model sends of a read response is written on the wire again,
 *   with the same JSON-RPC id, at the replay's time.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { NotificationMessage, RequestMessage, ResponseMessage } from '../../../sim/kernel/events.js';
import type { WorldHost } from '../../../sim/kernel/host.js';
import { observeEra2026Response, observeListenDelivery, openEra } from '../../../sim/actors/era2026.js';
import { requestIdMetaKey } from '../sim/sdk-sim-driver.js';
import { SimLink, type SessionLink, type SimLinkOptions, type SimRequestMethod, type WorldLink } from '../sim/sdk-sim-link.js';
import type { MessageKind } from '../transport/virtual-transport.js';
import { V2SimLink, type BlackBoxListens } from './v2-sim-link.js';

export class ModuleEra2026 {
  private listenIdLast = 0;

  constructor(
    private readonly world: WorldHost,
    private readonly ended: () => boolean,
  ) {}

  /** The link of a new connection: SDK 1.x on a 2025-11-25 plan, else SDK v2 with the era the client asks for. */
  link(options: SimLinkOptions): WorldLink {
    if (this.world.plan.era2026 === undefined) return new SimLink(options);
    const world = this.world;
    const listens: BlackBoxListens = {
      nextListenId: () => ++this.listenIdLast,
      listenClosed: (listenId, why) => {
        if (this.ended()) return;
        world.observe({ kind: 'listen-ended', listenId });
        world.timeline?.note(world.nowMs, `listen ${listenId} of session ${options.generation} ends: ${why}`);
      },
      eraOf: (asksModern) => asksModern && openEra(world, world.server.sessions[options.generation]!) === '2026-07-28',
    };
    return new V2SimLink(options, listens);
  }

  /** A served listen (or its cancel): the listen's number as the request id, and the filter's other URIs. */
  fillListen(request: RequestMessage, method: SimRequestMethod, params: Record<string, unknown>): void {
    if (method !== 'subscriptions/listen' && method !== 'notifications/cancelled') return;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    if (typeof meta[requestIdMetaKey] === 'number') request.requestId = meta[requestIdMetaKey] as number;
    const filter = params.filter;
    if (Array.isArray(filter) && filter.length > 1) request.filterRest = filter.slice(1).filter((uri): uri is string => typeof uri === 'string');
  }

  /**
   * Ground truth of a delivery to the client end of its current connection, before the client sees it: listen
   * messages (ack, tagged updated, server cancel) and responses (a read's cache hint, a listen's result).
   */
  delivered(link: SessionLink, kind: MessageKind, truth: NotificationMessage | null, response: ResponseMessage | null): void {
    if (this.world.plan.era2026 === undefined || !(link instanceof V2SimLink)) return;
    if (truth?.listen !== undefined) observeListenDelivery(this.world, link.generation, truth);
    if (kind === 'response' && response !== null) observeEra2026Response(this.world, response);
  }
}

/** The listen's JSON-RPC id a listen control message names (ack: `_meta` subscription id; cancel: `requestId`). */
export function wireListenIdOf(message: JSONRPCMessage): unknown {
  const params = ((message as { params?: unknown }).params ?? {}) as Record<string, unknown>;
  if (params.requestId !== undefined) return params.requestId;
  return ((params._meta ?? {}) as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId'];
}
