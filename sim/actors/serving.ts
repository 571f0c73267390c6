/**
 * The server side of an interleaving: answering requests (read, list, subscribe, unsubscribe), sending
 * notifications (updated, list_changed), and the mutation process that changes the truth.
 */
import type { ResponseOutcome } from '../../core/types.js';
import type { ListPageTruth } from './listing.js';
import { causeNotification, causeWorkload } from '../oracle.js';
import { methodNotFoundCode, type ServerSession } from './server.js';
import { ackNotObjectKind, Kind, responseIdKind, type NotificationMessage, type RequestMessage, type ResponseMessage } from '../kernel/events.js';
import type { WorldHost } from '../kernel/host.js';
import { scheduleNext } from './recurring.js';
import { cancelListen, isEra2026Session, listenTagsFor, readStreamFate, replayLater, serveListen, withCacheHint } from './era2026.js';
import type { ListenMessage } from '../kernel/events.js';
import { malformRead, malformedReadKinds, readAnswerExpectations, respellNotFound, transientErrorKind, type MalformedRead } from './malformed-reads.js';
import { resourceNotFoundCode } from '../../core/protocol.js';

/** A request reached the server on session `generation`, sent by a client step of `cause`. */
export function serveRequest(world: WorldHost, generation: number, cause: number, request: RequestMessage): void {
  const server = world.server;
  const session = server.sessions[generation];
  if (session === undefined || !session.alive) return;
  if (request.method === 'resources/read') {
    serveRead(world, session, cause, request);
    return;
  }
  if (request.method === 'notifications/cancelled') {
    cancelListen(world, session, cause, request); // 2026-07-28: a notification, never answered
    return;
  }
  if (world.nowMs < server.warmingUntilMs) {
    // A restarted server answers its first requests with an internal error while it warms up.
    respond(world, session, cause, request, -1, { type: 'error', code: -32603, message: 'Server not ready' }, 0, true, 0, -1, null);
    return;
  }
  if (request.method === 'resources/list') {
    serveList(world, session, cause, request);
    return;
  }
  if (request.method === 'subscriptions/listen') {
    const resource = server.lookup(request.uri);
    serveListen(world, session, cause, request, (outcome, extraDelayMs) => respond(world, session, cause, request, resource, outcome, 0, true, extraDelayMs, -1, null));
    return;
  }
  const subscription = request.method === 'resources/subscribe' || request.method === 'resources/unsubscribe';
  if (subscription && world.capabilities.subscribe) {
    const resource = server.lookup(request.uri);
    const unsubscribe = request.method === 'resources/unsubscribe';
    if (world.fires('subscription-error', 'subscription error?')) {
      // The server failed before acting: no subscription is made, or the one it holds is kept.
      respond(world, session, cause, request, resource, transientError(world), 0, true, 0, -1, null);
      return;
    }
    const lost = unsubscribe && world.fires('drop-unsubscribe-ack', 'drop unsubscribe ack?');
    // Half of the lost ACKs are a lost request (the client cannot tell): the server keeps the subscription.
    if (lost && world.chooser.draw('network', 'lose the unsubscribe request itself?', 2) === 1) return;
    if (resource >= 0) holdSubscription(world, session, resource, unsubscribe ? 0 : 1);
    if (lost) return;
    // late-unsubscribe-ack: past the reference's ACK timeout (unsubscribeTimeoutMs, 5 s), so the retry overtakes it.
    const lateMs = unsubscribe && world.fires('late-unsubscribe-ack', 'late unsubscribe ack?') ? world.chooser.between('network', 'late unsubscribe ack delay', 5_000, 8_000) : 0;
    const broken = world.fires('malformed-ack', 'malformed ack?');
    const outcome: ResponseOutcome = broken ? { type: 'result', result: brokenAcks[world.chooser.draw('server', 'malformed ack result', brokenAcks.length)] } : { type: 'result', result: {} };
    const message = respond(world, session, cause, request, resource, outcome, 0, true, lateMs, -1, null);
    if (broken) message.malformed = ackNotObjectKind;
    return;
  }
  respond(world, session, cause, request, -1, { type: 'error', code: methodNotFoundCode, message: 'Method not found' }, 0, true, 0, -1, null);
}

/** The server's per-session subscription set changes; the oracle is told what the server really holds. */
export function holdSubscription(world: WorldHost, session: ServerSession, resource: number, held: 0 | 1): void {
  if (session.subscribed[resource] === held) return;
  session.subscribed[resource] = held;
  world.observe({ kind: 'server-held', resource, held: held === 1, timeMs: world.nowMs });
}

/** A session ended: the server forgets every subscription it held. */
export function releaseSession(world: WorldHost, session: ServerSession): void {
  for (let resource = 0; resource < session.subscribed.length; resource++) {
    if (session.subscribed[resource] === 1) world.observe({ kind: 'server-held', resource, held: false, timeMs: world.nowMs });
  }
}

function serveRead(world: WorldHost, session: ServerSession, cause: number, request: RequestMessage): void {
  const server = world.server;
  const resource = server.lookup(request.uri);
  const spelled = resource >= 0 ? world.spell(server.uris[resource]!) : null;
  const answer = server.read(request.uri, spelled, request.subject);
  let extraDelayMs = 0;
  let hint: ReturnType<typeof withCacheHint> = null;
  if (world.plan.era2026 !== undefined) {
    // 2026-07-28: cache hints on the result; a broken stream loses the response, or it outlives its retry.
    const fate = readStreamFate(world, session);
    if (fate === 'lost') return;
    extraDelayMs = fate;
    hint = withCacheHint(world, session, answer.outcome, request.subject); // written into answer.outcome's result
  }
  const failed = hint === null && answer.outcome.type === 'result' && world.fires('read-error', 'read error?');
  if (failed) answer.outcome = transientError(world);
  const malformed = hint === null && !failed ? malformedAnswer(world, resource, answer.outcome) : null;
  if (malformed !== null) answer.outcome = malformed.outcome;
  const network = world.plan.network;
  if (world.fires('slow-read', 'slow read?')) {
    extraDelayMs = world.chooser.between('network', 'slow read delay', 1, network.slowReadDelayMsMax);
  }
  if (resource >= 0 && world.wanted[resource] === 1 && world.fires('late-response-after-close', 'late response?')) {
    extraDelayMs = world.chooser.between('network', 'late response delay', 200, network.lateResponseDelayMsMax);
    forceCloseRace(world, resource, extraDelayMs);
  }
  const message = respond(world, session, cause, request, resource, answer.outcome, answer.version, answer.exists, extraDelayMs, answer.deniedSubject, null);
  if (malformed !== null) message.malformed = malformed.kind;
  else if (failed) message.malformed = transientErrorKind;
  if (world.fires('malformed-response-id', 'malformed response id?')) sendMalformedId(world, session, cause, message);
  if (hint !== null) {
    message.hint = hint;
    replayLater(world, session, cause, message);
  }
}

/** malformed-ack: results of a subscribe or unsubscribe answer that are not the empty object MCP calls for (nor any object). */
const brokenAcks: readonly unknown[] = [null, 'ok', [], 1, true];

/** read-error, subscription-error: what a server that fails for a moment answers (the resource exists and the subject may read it). */
const transientErrors: readonly ResponseOutcome[] = [
  { type: 'error', code: -32603, message: 'Internal error' },
  { type: 'error', code: -32000, message: 'Server busy, try again' },
];

function transientError(world: WorldHost): ResponseOutcome {
  return transientErrors[world.chooser.draw('server', 'read error kind', transientErrors.length)]!;
}

/** Ids a JSON-RPC response to one of the client's requests never carries (they are positive integers). */
const malformedIds = [0, -1, 1.5];

/**
 * malformed-response-id: a copy of a read's answer with an id no request has, sent just before the real one (SPEC §11:
 * a typed rejection). It tells the oracle nothing (no denial learned, no cache hint): the client cannot match it.
 */
function sendMalformedId(world: WorldHost, session: ServerSession, cause: number, real: ResponseMessage): void {
  const requestId = malformedIds[world.chooser.draw('server', 'malformed response id', malformedIds.length)]!;
  const copy: ResponseMessage = { ...real, requestId, deniedSubject: -1, malformed: responseIdKind };
  delete copy.hint;
  world.toClient(world.serverToClientTime(session, 0), cause, session.generation, copy);
}

/**
 * malformed-read-response: the content answer of `resource` broken by construction, or its not-found answer spelled
 * -32602 (actors/malformed-reads.ts), or null. Permission denials are left alone.
 */
function malformedAnswer(world: WorldHost, resource: number, outcome: ResponseOutcome): MalformedRead | null {
  const notFound = outcome.type === 'error' && outcome.code === resourceNotFoundCode;
  if (resource < 0 || (outcome.type !== 'result' && !notFound) || !world.fires('malformed-read-response', 'malformed read response?')) return null;
  if (notFound) {
    world.timeline?.note(world.nowMs, `[truth] not-found answer of ${world.server.uris[resource]} spelled -32602 (well-formed)`);
    return respellNotFound(world.server.uris[resource]!);
  }
  const item = ((outcome as ResponseOutcome & { type: 'result' }).result as { contents: [{ uri: string; mimeType: string; text: string }] }).contents[0];
  const server = world.server;
  const made = malformRead(server, resource, item, world.chooser.draw('server', 'malformed read kind', malformedReadKinds.length));
  world.timeline?.note(world.nowMs, `[truth] read answer of ${server.uris[resource]} served ${made.kind} (${readAnswerExpectations[made.kind]})`);
  return made;
}

function serveList(world: WorldHost, session: ServerSession, cause: number, request: RequestMessage): void {
  const served = world.lister.serve(session.generation, request.cursor, world.nowMs, isEra2026Session(session));
  respond(world, session, cause, request, -1, served.outcome, 0, true, 0, -1, served.truth);
  if (served.truth !== null && !served.truth.last && world.fires('list-mutation-during-scan', 'mutate between list pages?')) {
    // 1 ms after this page (and before the next page can be asked for): strictly after the pass began.
    world.schedule(world.nowMs + 1, Kind.ListMutation, causeWorkload, 0, null);
  }
}

function respond(
  world: WorldHost,
  session: ServerSession,
  cause: number,
  request: RequestMessage,
  resource: number,
  outcome: ResponseOutcome,
  version: number,
  exists: boolean,
  extraDelayMs: number,
  deniedSubject: number,
  list: ListPageTruth | null,
): ResponseMessage {
  const message: ResponseMessage = {
    kind: 'response',
    requestId: request.requestId,
    outcome,
    requestSentAtMs: request.sentAtMs,
    requestSession: session.generation,
    resource,
    version,
    exists,
    survivesSessionEnd: false,
    deniedSubject,
    read: request.method === 'resources/read',
    method: request.method,
    list,
    malformed: null,
  };
  world.toClient(world.serverToClientTime(session, extraDelayMs), cause, session.generation, message);
  return message;
}

/** late-response-after-close: the client is told to unsubscribe while this response is held back. */
function forceCloseRace(world: WorldHost, resource: number, responseDelayMs: number): void {
  const chooser = world.chooser;
  const closeAtMs = world.nowMs + 1 + chooser.draw('workload', 'close before late response', responseDelayMs - 1);
  world.schedule(closeAtMs, Kind.Command, causeWorkload, resource, { type: 'UnsubscribeCommanded', resource });
  const reopenDelayMs = chooser.between('workload', 'resubscribe delay', 500, 3_000);
  world.schedule(world.nowMs + responseDelayMs + reopenDelayMs, Kind.Command, causeWorkload, resource, { type: 'SubscribeCommanded', resource });
}

// -- notifications ----------------------------------------------------------------------------------

function notify(world: WorldHost, resource: number): void {
  const session = world.session;
  if (session === null || !session.alive) return;
  const tags = world.plan.era2026 === undefined ? null : listenTagsFor(world, session, resource);
  if (tags !== null) {
    for (const listen of tags) sendNotification(world, session, resource, world.server.version[resource]!, listen);
    return;
  }
  if (world.fires('stray-notification', 'stray notification?')) sendStrayNotification(world, session, resource);
  if (session.subscribed[resource] === 0) return;
  sendNotification(world, session, resource, world.server.version[resource]!);
}

/**
 * stray-notification: a resources/updated for a URI no client subscribed, outside the catalog (a sibling of the
 * changed resource's URI), as a server that notifies more than it was asked for sends, or for no URI at all: resource
 * -1 for the oracle.
 */
function sendStrayNotification(world: WorldHost, session: ServerSession, resource: number): void {
  // Half of them name no URI at all (a space is not allowed in one): SPEC §11 makes that a typed rejection.
  const malformed = world.chooser.draw('server', 'stray notification malformed?', 2) === 1;
  const uri = malformed ? `${world.server.names[resource]!} stray` : `${world.server.uris[resource]!}.stray`;
  const message: NotificationMessage = { kind: 'notification', uri, resource: -1, version: 0, survivesSessionEnd: false, listChanged: false, malformed };
  world.toClient(world.serverToClientTime(session, 0), causeNotification, session.generation, message);
}

const listChangedMessage: NotificationMessage = { kind: 'notification', uri: '', resource: -1, version: 0, survivesSessionEnd: false, listChanged: true, malformed: false };

/** list_changed on the current session, when the capability was negotiated. */
function notifyListChanged(world: WorldHost): void {
  const session = world.session;
  if (session === null || !session.alive || !world.capabilities.listChanged) return;
  sendNotification(world, session, -1, 0);
}

/**
 * Drop, duplicate and reorder apply to every notification alike; resource -1 is list_changed (one shared,
 * immutable message), an updated notification gets a spelling per copy.
 */
function sendNotification(world: WorldHost, session: ServerSession, resource: number, version: number, listen?: ListenMessage): void {
  if (world.fires('drop-notification', 'drop notification?')) return;
  const network = world.plan.network;
  let copies = 1;
  if (world.fires('duplicate-notification', 'duplicate?')) {
    copies += world.chooser.between('network', 'duplicate copies', 1, network.duplicateCopiesMax);
  }
  for (let copy = 0; copy < copies; copy++) {
    const extra = copy === 0 ? 0 : world.chooser.between('network', 'duplicate delay', 1, network.duplicateDelayMsMax);
    const message: NotificationMessage =
      resource < 0
        ? listChangedMessage
        : { kind: 'notification', uri: world.spell(world.server.uris[resource]!), resource, version, survivesSessionEnd: false, listChanged: false, malformed: false };
    if (listen !== undefined) message.listen = listen;
    world.toClient(world.serverToClientTime(session, extra), causeNotification, session.generation, message);
  }
}

// -- the mutation process ---------------------------------------------------------------------------

/** The payload of the last write of the fault phase (see `finalWrite`). */
export const finalWritePayload = 'final write';

/**
 * The fault phase ends with one last write to every resource, 1 ms before the heal (re-creating deleted
 * ones): its notification is subject to the plan's faults like any other, so the healed phase always has a
 * change to converge to, and a client that relies on the lost notification's reconciliation is judged.
 * With the plan's `finalDeleteRatio` that last mutation deletes the resource instead (one already deleted
 * stays deleted), so the healed phase judges the confirmation of a deletion (sim/checkers/deletion.ts).
 */
export function scheduleFinalWrites(world: WorldHost): void {
  const count = world.server.uris.length;
  for (let resource = 0; resource < count; resource++) world.schedule(world.plan.workload.faultPhaseMs - 1, Kind.Mutation, causeWorkload, resource, finalWritePayload);
}

/** A sustained pulse storm in progress: writes left after this one, and the largest gap between two. */
interface StormPayload {
  stormWritesLeft: number;
  gapMsMax: number;
}

export function mutate(world: WorldHost, resource: number, payload: unknown = null): void {
  if (world.healing) return;
  if (payload === finalWritePayload && finalDelete(world, resource)) return;
  if (payload === finalWritePayload || (payload !== null && typeof payload === 'object')) {
    const recreated = world.server.exists[resource] === 0;
    world.server.write(resource);
    afterChange(world, resource, recreated);
    if (payload !== finalWritePayload) continueStorm(world, resource, payload as StormPayload);
    return;
  }
  const workload = world.plan.workload;
  const server = world.server;
  const chooser = world.chooser;
  let burst = 1;
  let existenceChanged = false;
  if (server.exists[resource] === 0) {
    server.write(resource);
    existenceChanged = true;
  } else if (chooser.chance('workload', 'delete?', workload.deleteRatio.numerator, workload.deleteRatio.denominator)) {
    server.delete(resource);
    existenceChanged = true;
  } else {
    server.write(resource);
    if (chooser.chance('workload', 'burst?', workload.burstRatio.numerator, workload.burstRatio.denominator)) {
      if (chooser.draw('workload', 'burst: a sustained storm?', 4) === 3) startStorm(world, resource);
      else burst = chooser.between('workload', 'burst length', 2, 4);
    }
  }
  afterChange(world, resource, existenceChanged);
  for (let extra = 1; extra < burst; extra++) {
    server.write(resource);
    afterChange(world, resource, false);
  }
  scheduleMutation(world, resource);
}

/** The last mutation of the fault phase deletes `resource` (drawn with the plan's finalDeleteRatio): true when it did or it was deleted already. */
function finalDelete(world: WorldHost, resource: number): boolean {
  const ratio = world.plan.workload.finalDeleteRatio;
  if (ratio === undefined || !world.chooser.chance('workload', 'final mutation: delete?', ratio.numerator, ratio.denominator)) return false;
  if (world.server.exists[resource] === 0) return true;
  world.server.delete(resource);
  afterChange(world, resource, true);
  return true;
}

/**
 * A sustained pulse storm: 5-40 more writes of one resource, each 1 ms to 20-250 ms after the previous (closer
 * together than a debounce window, for up to seconds), every one a real change with its own notification.
 */
function startStorm(world: WorldHost, resource: number): void {
  const chooser = world.chooser;
  const storm: StormPayload = { stormWritesLeft: chooser.between('workload', 'storm writes', 5, 40), gapMsMax: chooser.between('workload', 'storm gap max', 20, 250) };
  world.timeline?.note(world.nowMs, `pulse storm: ${storm.stormWritesLeft} more writes of ${world.server.uris[resource]}, at most ${storm.gapMsMax} ms apart`);
  continueStorm(world, resource, { stormWritesLeft: storm.stormWritesLeft + 1, gapMsMax: storm.gapMsMax });
}

function continueStorm(world: WorldHost, resource: number, storm: StormPayload): void {
  if (storm.stormWritesLeft <= 1) return;
  const gapMs = world.chooser.between('workload', 'storm gap', 1, storm.gapMsMax);
  world.schedule(world.nowMs + gapMs, Kind.Mutation, causeWorkload, resource, { stormWritesLeft: storm.stormWritesLeft - 1, gapMsMax: storm.gapMsMax });
}

/** list-mutation-during-scan: right after a page, one or two resources are deleted or re-created. */
export function mutateBetweenPages(world: WorldHost): void {
  const server = world.server;
  const count = world.chooser.between('workload', 'resources mutated between pages', 1, 2);
  for (let index = 0; index < count; index++) {
    const resource = world.chooser.draw('workload', 'resource mutated between pages', server.uris.length);
    if (server.exists[resource] === 1) server.delete(resource);
    else server.write(resource);
    world.timeline?.note(world.nowMs, `list mutation between pages: ${server.uris[resource]} ${server.exists[resource] === 1 ? 're-created' : 'deleted'}`);
    afterChange(world, resource, true);
  }
}

function afterChange(world: WorldHost, resource: number, existenceChanged: boolean): void {
  const server = world.server;
  const version = server.version[resource]!;
  const exists = server.exists[resource] === 1;
  if (exists) world.observe({ kind: 'content', text: server.content[resource]!, resource, version });
  world.observe({ kind: 'changed', resource, version, timeMs: world.nowMs, exists });
  world.timeline?.truth(world.nowMs, server.uris[resource]!, version, exists);
  notify(world, resource);
  // list-index-lag: the live list index shows a re-created resource only 5-15 s later (reads see it at once).
  if (existenceChanged && exists && world.fires('list-index-lag', 'list index lags the re-create?')) {
    server.listedFromMs[resource] = world.nowMs + world.chooser.between('server', 'list index lag', 5_000, 15_000);
  }
  if (existenceChanged) notifyListChanged(world);
}

export function scheduleMutation(world: WorldHost, resource: number): void {
  const workload = world.plan.workload;
  scheduleNext(world, 'mutation interval', workload.mutationIntervalMsMin, workload.mutationIntervalMsMax, Kind.Mutation, resource);
}
