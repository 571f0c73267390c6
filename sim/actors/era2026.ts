/**
 * The server model's 2026-07-28 side (SPEC §13): `subscriptions/listen` with its ack, notifications tagged
 * with the listen's subscription id, `ttlMs` / `cacheScope` on read results, listen state that a restart
 * (a new connection) loses, and the faults of that era. Written against the world port like every actor.
 *
 * Listen state lives per server session (one connection) in a side table: a session of a plan without
 * `era2026`, or one that `era-downgrade` made speak 2025-11-25, has no table and never sees a listen.
 * Like the v2 router, the server sends one stamped copy of an update per listen whose honored filter holds
 * the URI, and forgets every listen with the connection.
 */
import type { ResponseOutcome } from '../../core/types.js';
import { readReissueMsDefault } from '../../core/era.js';
import type { CacheHintTruth, ListenMessage, NotificationMessage, RequestMessage, ResponseMessage } from '../kernel/events.js';
import type { WorldHost } from '../kernel/host.js';
import { subjects, type ServerSession } from './server.js';

interface Listen {
  id: number;
  /** The resource its honored filter holds (-1: the ack left it out). */
  resource: number;
  /** The other resources of a multi-URI filter (RequestMessage.filterRest), all honored. */
  also: readonly number[];
  /** listen-lost: still open for the server's bookkeeping, but nothing is sent on it any more. */
  deaf: boolean;
}

interface ListenTable {
  listens: Listen[];
  /** Ids the client cancelled (for listen-notify-after-close and listen-wrong-id). */
  ended: number[];
}

const tables = new WeakMap<ServerSession, ListenTable>();
const noUris: readonly string[] = [];
const noResources: readonly number[] = [];
/** Sessions decided to speak 2025-11-25 (no plan era, or era-downgrade after a restart). */
const legacy = new WeakSet<ServerSession>();

/** Decides (once, when the client connects) whether this session speaks 2026-07-28. */
export function openEra(world: WorldHost, session: ServerSession): '2026-07-28' | undefined {
  if (world.plan.era2026 === undefined) return undefined;
  if (tables.has(session)) return '2026-07-28';
  if (legacy.has(session)) return undefined;
  if (world.server.restarts > 0 && world.fires('era-downgrade', 'server comes back on 2025-11-25 only?')) {
    legacy.add(session);
    world.timeline?.note(world.nowMs, `era downgrade: session ${session.generation} speaks 2025-11-25 only`);
    return undefined;
  }
  tables.set(session, { listens: [], ended: [] });
  world.observe({ kind: 'era2026', generation: session.generation });
  return '2026-07-28';
}

export function isEra2026Session(session: ServerSession): boolean {
  return tables.has(session);
}

function tag(method: ListenMessage['method'], subscriptionId: number | null, honored: string[] = []): ListenMessage {
  return { method, subscriptionId, honored };
}

function sendListenMessage(world: WorldHost, session: ServerSession, cause: number, resource: number, listen: ListenMessage, delayMs = 0): void {
  const uri = resource >= 0 ? world.server.uris[resource]! : '';
  const version = resource >= 0 ? world.server.version[resource]! : 0;
  const message: NotificationMessage = { kind: 'notification', uri, resource, version, survivesSessionEnd: false, listChanged: false, malformed: false, listen };
  world.toClient(world.serverToClientTime(session, delayMs), cause, session.generation, message);
}

/** A `subscriptions/listen` reached the server (one URI, or more: `filterRest`; ack-narrower leaves out the first). */
export function serveListen(world: WorldHost, session: ServerSession, cause: number, request: RequestMessage, respond: (outcome: ResponseOutcome, extraDelayMs: number) => void): void {
  const table = tables.get(session);
  const resource = world.server.lookup(request.uri);
  if (table === undefined || !world.capabilities.subscribe) {
    respond({ type: 'error', code: -32601, message: 'Method not found' }, 0);
    return;
  }
  if (world.fires('listen-rejected', 'reject the listen?')) {
    respond({ type: 'error', code: -32603, message: 'Subscription limit reached' }, 0);
    return;
  }
  const narrower = world.fires('listen-ack-narrower', 'ack narrower than requested?');
  const rest = request.filterRest ?? noUris;
  const listen: Listen = { id: request.requestId, resource: narrower ? -1 : resource, also: rest.length === 0 ? noResources : rest.map((uri) => world.server.lookup(uri)).filter((other) => other >= 0), deaf: false };
  table.listens.push(listen);
  if (resource >= 0 && world.fires('listen-notify-before-ack', 'notify before the ack?')) {
    sendListenMessage(world, session, cause, resource, tag('notifications/resources/updated', listen.id));
  }
  const honored = narrower ? [...rest] : [request.uri, ...rest];
  if (world.fires('listen-ack-wider', 'ack wider than requested?')) honored.push(world.server.uris[(Math.max(resource, 0) + 1) % world.server.uris.length]!);
  if (!world.fires('listen-ack-lost', 'lose the ack?')) {
    const ack: ListenMessage = { ...tag('notifications/subscriptions/acknowledged', listen.id, honored), requested: rest.length === 0 ? [request.uri] : [request.uri, ...rest] };
    sendListenMessage(world, session, cause, resource, ack);
    if (world.fires('listen-ack-repeated', 'repeat the ack later?')) sendListenMessage(world, session, cause, resource, ack, world.chooser.between('network', 'ack repeated after', 1, 3_000));
  }
  if (world.fires('listen-graceful-completion', 'complete the listen gracefully?')) {
    removeListen(table, listen.id);
    const delayMs = world.chooser.between('network', 'graceful completion delay', 100, 5_000);
    respond({ type: 'result', result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id } } }, delayMs);
    if (resource >= 0 && world.fires('listen-notify-after-close', 'notify after the graceful completion?')) {
      sendListenMessage(world, session, cause, resource, tag('notifications/resources/updated', listen.id), delayMs + world.chooser.between('network', 'after completion by', 1, 1_000));
    }
  } else if (world.fires('listen-lost', 'forget the listen silently?')) {
    listen.deaf = true;
  } else if (world.fires('listen-stream-closed', 'close the listen stream without its result?')) {
    // The stream ends without a result: the client learns it as a remote end (stdio: notifications/cancelled).
    removeListen(table, listen.id);
    const delayMs = world.chooser.between('network', 'stream close delay', 100, 5_000);
    sendListenMessage(world, session, cause, Math.max(resource, -1), tag('notifications/cancelled', listen.id), delayMs);
  }
}

function removeListen(table: ListenTable, id: number): void {
  const index = table.listens.findIndex((listen) => listen.id === id);
  if (index >= 0) table.listens.splice(index, 1);
  table.ended.push(id);
}

/** The client cancelled listen `request.requestId` (`notifications/cancelled`): nothing is answered. */
export function cancelListen(world: WorldHost, session: ServerSession, cause: number, request: RequestMessage): void {
  const table = tables.get(session);
  if (table === undefined) return;
  const listen = table.listens.find((candidate) => candidate.id === request.requestId);
  removeListen(table, request.requestId);
  if (listen !== undefined && listen.resource >= 0 && world.fires('listen-notify-after-close', 'notify after the cancel?')) {
    sendListenMessage(world, session, cause, listen.resource, tag('notifications/resources/updated', listen.id));
  }
}

/**
 * How an update of `resource` goes out on a 2026-07-28 session: one tag per listen holding it (with the
 * tag faults applied), or null on a 2025-11-25 session (the caller sends it untagged, as before).
 */
export function listenTagsFor(world: WorldHost, session: ServerSession, resource: number): ListenMessage[] | null {
  const table = tables.get(session);
  if (table === undefined) return null;
  const tags: ListenMessage[] = [];
  for (const listen of table.listens) {
    if (listen.deaf) continue;
    if (listen.resource !== resource && !listen.also.includes(resource)) {
      // listen-out-of-filter: this update tagged with a listen whose acknowledged filter does not hold it.
      if (listen.resource >= 0 && world.fires('listen-out-of-filter', 'tag with a listen of another URI?')) tags.push(tag('notifications/resources/updated', listen.id));
      continue;
    }
    let id: number | null = listen.id;
    if (world.fires('listen-missing-id', 'leave out the subscription id?')) id = null;
    else if (world.fires('listen-wrong-id', 'tag with a wrong subscription id?')) id = wrongId(world, table, listen.id);
    tags.push(tag('notifications/resources/updated', id));
  }
  return tags;
}

/** Another listen's id (live or ended) when there is one, else an id no listen ever had. */
function wrongId(world: WorldHost, table: ListenTable, own: number): number {
  const others = table.listens.filter((listen) => listen.id !== own).map((listen) => listen.id).concat(table.ended);
  if (others.length === 0) return own + 1_000_000;
  return others[world.chooser.draw('network', 'wrong subscription id', others.length)]!;
}

/**
 * A read result on a 2026-07-28 session carries `ttlMs` and `cacheScope` (ttl-hostile rewrites the TTL), written
 * into `outcome`'s result; returns the hint, or null on a 2025-11-25 session. The hint rides along as ground truth (`ResponseMessage.hint`): the TTL as the
 * spec reads it (absent or negative is 0, never clamped: the clamp is a client's choice), the scope, and the
 * subject the read was made as.
 */
export function withCacheHint(world: WorldHost, session: ServerSession, outcome: ResponseOutcome, subject: string | undefined): CacheHintTruth | null {
  const era = world.plan.era2026;
  if (era === undefined || !tables.has(session) || outcome.type !== 'result') return null;
  // The server model's own answer to this one read (sim/actors/server.ts read: a new object per read), hinted in place:
  // a copy with the two fields added (object spread) was about 1 % of the default gate's CPU.
  const result = outcome.result as Record<string, unknown>;
  const cacheScope = world.chooser.chance('server', 'cacheScope public?', 1, 4) ? 'public' : 'private';
  let ttlMs: number | undefined = world.chooser.between('server', 'ttlMs', era.ttlMsMin, era.ttlMsMax);
  if (world.fires('ttl-hostile', 'hostile ttlMs?')) ttlMs = [0, undefined, -1_000, 10 ** 12][world.chooser.draw('server', 'hostile ttl kind', 4)];
  if (ttlMs !== undefined) result.ttlMs = ttlMs;
  result.cacheScope = cacheScope;
  return { ttlMs: ttlMs === undefined || ttlMs < 0 ? 0 : ttlMs, scope: cacheScope, subject };
}

/** response-replay: an intermediary delivers a copy of this read response again, later (same id, same content). */
export function replayLater(world: WorldHost, session: ServerSession, cause: number, message: ResponseMessage): void {
  if (!tables.has(session) || !world.fires('response-replay', 'replay the response later?')) return;
  const delayMs = world.chooser.between('network', 'replay delay', 500, 10_000);
  world.toClient(world.serverToClientTime(session, delayMs), cause, session.generation, { ...message });
}

/**
 * serve-other-subject: the application offers a resource's cached content to the subject it was not read
 * as (another authorization context); otherwise to its own subject. Returns a subject index.
 */
export function servedSubjectOf(world: WorldHost, resource: number): number {
  const own = world.subjectOf[resource]!;
  if (world.plan.era2026 === undefined || world.session === null || !tables.has(world.session)) return own;
  return world.fires('serve-other-subject', 'serve to another subject?') ? (own + 1) % subjects.length : own;
}

/**
 * What happens to a read's response stream on a 2026-07-28 session: 'lost' (broken-read-stream), a delay
 * past the client's read deadline (late-original-response), or 0.
 */
export function readStreamFate(world: WorldHost, session: ServerSession): 'lost' | number {
  if (!tables.has(session)) return 0;
  if (world.fires('broken-read-stream', 'break the read stream?')) return 'lost';
  if (world.fires('late-original-response', 'hold the read past its retry?')) {
    return world.chooser.between('network', 'late original delay', readReissueMsDefault + 1, readReissueMsDefault + 4_000);
  }
  return 0;
}

/** The JSON-RPC params of a 2026-07-28 notification, as they reach the client. */
export function listenParams(uri: string, listen: ListenMessage): Record<string, unknown> {
  const meta = listen.subscriptionId === null ? undefined : { _meta: { 'io.modelcontextprotocol/subscriptionId': listen.subscriptionId } };
  // The v2 router (honoredSubset) keeps resourceSubscriptions only when it is not empty: an ack that honors none omits it.
  if (listen.method === 'notifications/subscriptions/acknowledged') return { notifications: listen.honored.length === 0 ? {} : { resourceSubscriptions: listen.honored }, ...meta };
  if (listen.method === 'notifications/cancelled') return { requestId: listen.subscriptionId };
  return { uri, ...meta };
}

/** Ground truth of a listen message reaching the client on its current connection (phantom_watch, read_your_notification). */
export function observeListenDelivery(world: WorldHost, generation: number, message: NotificationMessage): void {
  const listen = message.listen;
  if (listen === undefined || listen.subscriptionId === null) return;
  if (listen.method === 'notifications/resources/updated') {
    if (message.resource >= 0) world.observe({ kind: 'listen-updated', generation, listenId: listen.subscriptionId, resource: message.resource, version: message.version });
    return;
  }
  if (listen.method === 'notifications/cancelled') {
    world.observe({ kind: 'listen-ended', listenId: listen.subscriptionId });
    return;
  }
  if (listen.method !== 'notifications/subscriptions/acknowledged') return;
  for (const uri of listen.honored) {
    const resource = world.server.lookup(uri);
    if (resource >= 0) world.observe({ kind: 'listen-acked', generation, listenId: listen.subscriptionId, resource, requested: listen.requested?.includes(uri) === true });
  }
}

/**
 * A response reaching the client on its current connection: a listen's result (graceful completion) ends
 * that listen (phantom_watch); a read result's cache hint is told to the 2026 checkers.
 */
export function observeEra2026Response(world: WorldHost, message: ResponseMessage): void {
  if (world.plan.era2026 === undefined) return;
  const outcome = message.outcome;
  if (message.hint !== undefined) {
    const hint = message.hint;
    world.observe({ kind: 'cache-hint', requestSentAtMs: message.requestSentAtMs, ttlMs: hint.ttlMs, scope: hint.scope, subject: hint.subject ?? '' });
  }
  observeListenResult(world, message.requestId, outcome);
}

/** A listen's result (graceful completion) reaching the client ends that listen (phantom_watch). */
export function observeListenResult(world: WorldHost, requestId: number, outcome: ResponseOutcome): void {
  if (world.plan.era2026 === undefined || outcome.type !== 'result') return;
  const result = outcome.result as { resultType?: unknown } | null;
  if (result !== null && typeof result === 'object' && result.resultType === 'complete') world.observe({ kind: 'listen-ended', listenId: requestId });
}
