/**
 * The black-box oracle of module clients: what a user's client does is seen only on the wire (the requests
 * its SDK Client sends) and through `get` (what it would serve), and translated into the effect vocabulary
 * the simulator's `Oracle` judges against ground truth:
 * - a `resources/*` request on the wire is a `RequestSent`, with the cause of the event the client was
 *   reacting to (a current or old session's notification, a response, a timer, a command);
 * - a change in what `get` serves for a resource, seen after any event settles, is a `VersionAccepted` of that
 *   content (the server model encodes the truth version in it), dated by the event: when that event was a
 *   response, by the request it answered; content that disappears is a `PurgeDone`;
 * - a serve command is a `ContentServed` of what `get` returned, or a `ContentRefused`.
 * So version regression, URI confusion, accepts after close or from an ended session, old-session effects,
 * served-after-revocation, convergence, read amplification and staleness at serve time apply as they do to
 * reducer clients. On 2026-07-28 connections the world observes the ground truth of listens (acks, tagged
 * updates, ends: adapters/mcp-sdk/v2/module-era2026.ts) and read results' cache hints, so the pure 2026
 * checkers judge the same serves: read_your_notification, ttl_staleness (and staleness at serve),
 * monotonic_reads and scope_isolation. Listen control messages reaching the client are no update
 * notifications (nothing is notified by them). Invariants about the reducer's own records (outbox, derived entries, catalogs, ledger
 * fences, transition coverage) need the reducer vocabulary and do not apply.
 */
import type { ClientEffect } from '../../../core/types.js';
import type { NotificationMessage, ResponseMessage } from '../../../sim/kernel/events.js';
import { causeConnection, causeNotification, causeOldNotification, type Oracle } from '../../../sim/oracle.js';
import type { Timeline } from '../../../sim/timeline.js';
import { fillStepTruth, learnFromResponse, newStepTruth } from '../../../sim/kernel/step-truth.js';
import { parseContent, subjects } from '../../../sim/actors/server.js';

export interface WireRequest {
  method: string;
  /** Reads: the per-resource order in which reads went on the wire (1, 2, ...), else 0. */
  ordinal: number;
  cause: number;
  sentAtMs: number;
  /** What the server really answered (set when it serves the request). */
  response: ResponseMessage | null;
}

/** What the observer needs of the world at a step. */
export interface ObservedWorld {
  readonly nowMs: number;
  readonly sessionGeneration: number;
  readonly oracle: Oracle;
  readonly timeline: Timeline | null;
  /** Per resource: the workload wants it watched now. */
  readonly wanted: Uint8Array;
  /** Per resource: the subject (index into `subjects`) it is watched and looked at as. */
  readonly subjectOf: Uint8Array;
  currentSession(generation: number): boolean;
}

const resourceMethods = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe', 'resources/list']);

export class BlackBoxObserver {
  steps = 0;
  /** The cause of what the client is reacting to now, and the response it is (null for other events). */
  cause = causeConnection;
  private response: ResponseMessage | null = null;
  private readonly requests = new Map<string, WireRequest>();
  private nextRequestId = 1;
  private readonly truth = newStepTruth();
  /** Per resource: what `get` served at the last look. */
  private readonly served: (string | undefined)[];
  /** Per resource: the highest truth version the client reflected (content served, or a deletion). */
  private readonly reflected: Int32Array;
  /** Per resource: reads sent on the wire so far (their ordinals, which no crash resets). */
  private readonly readsSent: Float64Array;
  /** The read ordinal of the response being delivered now (0 for other events). */
  private responseOrdinal = 0;
  /** Learned revocations (resource, subject) whose content the client has not stopped serving yet. */
  private readonly purgesPending: { resource: number; subject: string }[] = [];

  constructor(
    private readonly world: ObservedWorld,
    private readonly uris: readonly string[],
  ) {
    this.served = uris.map(() => undefined);
    this.reflected = new Int32Array(uris.length);
    this.readsSent = new Float64Array(uris.length);
  }

  /** The client learned that `subject` lost access to `resource` (from the feed, or a denied read). */
  learned(resource: number, subject: string): void {
    this.purgesPending.push({ resource, subject });
  }

  /** A new event reaches the client (a command, a timer, a connection change). */
  event(cause: number): void {
    this.cause = cause;
    this.response = null;
    this.responseOrdinal = 0;
  }

  /** The client sent `message` on session `generation` (judged as a RequestSent when it is a resources/* request). */
  sent(generation: number, id: string | number, method: string, params: Record<string, unknown> | undefined): void {
    const uri = typeof params?.uri === 'string' ? params.uri : '';
    const resource = method === 'resources/read' ? this.uris.indexOf(uri) : -1;
    const ordinal = resource >= 0 ? ++this.readsSent[resource]! : 0;
    this.requests.set(`${generation}:${id}`, { method, ordinal, cause: this.cause, sentAtMs: this.world.oracle.stamp(this.world.nowMs), response: null });
    if (method === 'subscriptions/listen') this.world.timeline?.note(this.world.nowMs, `client → subscriptions/listen ${JSON.stringify((params?.notifications as { resourceSubscriptions?: unknown } | undefined)?.resourceSubscriptions ?? [])} (session ${generation})`);
    if (!resourceMethods.has(method)) return;
    const effect: ClientEffect = { type: 'RequestSent', requestId: this.nextRequestId++, sessionGeneration: generation, method: method as 'resources/read', uri };
    this.judge([effect], () => `client → ${method}${uri === '' ? '' : ` ${uri}`} (session ${generation})${extraParams(params)}`);
  }

  request(generation: number, id: string | number): WireRequest | undefined {
    return this.requests.get(`${generation}:${id}`);
  }

  /** A response reached the client end of session `generation`. */
  responseDelivered(generation: number, id: string | number): void {
    const record = this.requests.get(`${generation}:${id}`);
    this.requests.delete(`${generation}:${id}`);
    this.cause = record?.cause ?? causeConnection;
    this.response = record?.response ?? null;
    this.responseOrdinal = record?.ordinal ?? 0;
    const response = this.response;
    if (response !== null && this.world.currentSession(generation)) {
      learnFromResponse(this.world.oracle, this.world.timeline, response, this.world.nowMs, this.cause);
      if (response.deniedSubject >= 0) this.learned(response.resource, subjects[response.deniedSubject]!);
    }
    const timeline = this.world.timeline;
    if (timeline === null || response === null) return;
    const method = record?.method ?? '?';
    const outcome = response.outcome.type === 'error' ? `error ${String(response.outcome.code)}` : method === 'resources/read' && response.exists ? `[truth ${this.uris[response.resource]} v${response.version}]` : 'ok';
    timeline.note(this.world.nowMs, `→ client: ${method} response on session ${generation}: ${outcome}`);
  }

  /** A notification reached the client end of session `generation` (`wireListenId`: the listen a 2026-07-28 one names on the wire). */
  notificationDelivered(generation: number, truth: NotificationMessage, wireListenId?: unknown): void {
    this.response = null;
    this.responseOrdinal = 0;
    const current = this.world.currentSession(generation);
    this.cause = current ? causeNotification : causeOldNotification;
    // -- 2026-07-28: an ack or a server's cancel answers the listen (the cause of the step that sent it) --
    const listen = truth.listen;
    if (listen !== undefined && listen.method !== 'notifications/resources/updated') {
      if (current) this.cause = this.requests.get(`${generation}:${String(wireListenId)}`)?.cause ?? causeNotification;
      const what = listen.method === 'notifications/cancelled' ? 'listen cancelled by the server' : `listen acknowledged, honoring [${listen.honored.join(', ')}]`;
      this.world.timeline?.note(this.world.nowMs, `→ client: ${what} on session ${generation} [truth listen ${String(listen.subscriptionId)}]`);
      return;
    }
    // -- end of the 2026-07-28 block --
    if (truth.listChanged) {
      if (current) this.world.oracle.observe({ kind: 'list-changed', timeMs: this.world.nowMs });
      return;
    }
    this.world.oracle.observe({ kind: 'notified', resource: truth.resource, version: truth.version, current });
    const tag = listen === undefined ? '' : listen.subscriptionId === null ? ', untagged' : `, tagged for listen ${listen.subscriptionId}`;
    this.world.timeline?.note(this.world.nowMs, `→ client: updated ${truth.uri} on ${current ? 'the current' : 'an old'} session ${generation} [truth v${truth.version}${tag}]`);
  }

  /** After an event settled: what `get` serves now, per resource. */
  look(get: (uri: string, subject: string) => string | undefined, subjectOf: (resource: number) => string): void {
    for (let resource = 0; resource < this.uris.length; resource++) {
      const subject = subjectOf(resource);
      const text = get(this.uris[resource]!, subject);
      if (text !== this.served[resource]) this.changed(resource, text, subject);
      else if (text === undefined) this.deletionReflected(resource);
      else this.leaseRenewed(resource, text);
    }
    for (let index = this.purgesPending.length - 1; index >= 0; index--) {
      const pending = this.purgesPending[index]!;
      const uri = this.uris[pending.resource]!;
      if (get(uri, pending.subject) !== undefined) continue;
      this.purgesPending.splice(index, 1);
      this.judge([{ type: 'PurgeDone', uri, subject: pending.subject, invalidatedEntries: 0 }], () => `get(${uri}) serves nothing to ${pending.subject}, who lost access`);
    }
  }

  /**
   * Still serving `text` after a current-session read of it answered with that very content: the server confirmed
   * it again, so its authorization lease starts anew and the version counts as reflected again (as a reducer
   * client's accept of a re-read does). Without this a client that re-reads unchanged content would be judged
   * served_outside_lease 20 s after its first read, ttl_staleness by its first read's ttlMs and receipt, and
   * healed_convergence after a resubscribe in the healed phase (fenced-cache, swarm seed 2880783671: v55 served
   * throughout, "still waiting for v55").
   */
  private leaseRenewed(resource: number, text: string): void {
    const response = this.response;
    if (response === null || response.resource !== resource || !response.exists || response.deniedSubject >= 0 || response.outcome.type === 'error') return;
    if (!this.world.currentSession(response.requestSession) || parseContent(text)?.version !== response.version) return;
    const truth = fillStepTruth(this.truth, this.world.nowMs, this.cause, this.world.sessionGeneration, response);
    this.world.oracle.serving.onAccepted(resource, truth);
    // 2026-07-28: a black box may hold the entry this read brought or the one it had: each judgement takes the
    // reading that favours the client (the entry fresh longer for serving, the earlier end for dropping or refusing).
    const renewal = this.world.oracle.era2026Serving.onRenewed(resource, text, response.version, truth);
    if (renewal !== undefined) this.world.oracle.availability.era2026.onRenewed(resource, renewal.ttlMs, this.world.nowMs);
    // It also reflects that version (a re-subscribed resource whose content did not change is never "accepted" anew).
    this.world.oracle.convergence.onAccepted(resource, response.version, this.uris[resource]!, this.world.nowMs);
  }

  /**
   * Serving nothing after a not-found no older than anything reflected so far: the client reflects the deletion.
   * A current-session not-found of the deletion already reflected reflects it again, as `leaseRenewed` does for
   * content: a deleted resource watched again (a resubscribe in the healed phase) is never tombstoned anew by a
   * black box that served nothing all along (client-v2, era2026-broken-stream seed 3275855614: v33 deleted at
   * 7,775 ms, tombstoned at 11,293 ms, watched again at 15,856 ms, "still waiting for v33").
   */
  private deletionReflected(resource: number): void {
    const response = this.notFoundAnswer(resource);
    if (response === null || this.world.wanted[resource] === 0) return;
    const reflected = this.reflected[resource]!;
    if (response.version < reflected || (response.version === reflected && !this.world.currentSession(response.requestSession))) return;
    // Serving nothing before and after an answer to a read sent before the last close is no act of the client on it.
    if (this.world.oracle.close.closedSinceSent(resource, response.requestSentAtMs)) return;
    this.reflected[resource] = response.version;
    const uri = this.uris[resource]!;
    this.judge([{ type: 'TombstonePending', uri, readOrdinal: this.ordinalFor(resource) }], () => `get(${uri}) still serves nothing (read: not found)`);
  }

  /**
   * The response this event delivered, when it is the server's not-found to a read of `resource`. A permission error to a read of a deleted
   * resource is none (the server checks access before existence): what the client stops serving then is a purge.
   */
  private notFoundAnswer(resource: number): ResponseMessage | null {
    const response = this.response;
    return response !== null && response.resource === resource && !response.exists && response.deniedSubject < 0 ? response : null;
  }

  /** A serve command: `get` returned `text` for `uri` to `subject`. */
  serve(uri: string, resource: number, subject: string, text: string | undefined): void {
    // What `get` serves another subject (2026-07-28 serve-other-subject) says nothing about what it serves the resource's own.
    const own = resource >= 0 && subjects[this.world.subjectOf[resource]!] === subject;
    if (own && text !== this.served[resource]) this.changed(resource, text, subject);
    const effect: ClientEffect = text === undefined ? { type: 'ContentRefused', uri, subject, reason: 'get served nothing' } : { type: 'ContentServed', uri, subject, digest: text };
    this.judge([effect], () => `serve ${uri} to ${subject}: ${text === undefined ? 'nothing' : this.world.oracle.describeContent(text)}`);
  }

  private changed(resource: number, text: string | undefined, subject: string): void {
    const uri = this.uris[resource]!;
    const before = this.served[resource];
    this.served[resource] = text;
    if (text === undefined) {
      if (before === undefined) return;
      const response = this.world.wanted[resource] === 1 ? this.notFoundAnswer(resource) : null;
      const notFound = response !== null && !this.ttlLapsed(resource, before);
      if (notFound) this.reflected[resource] = Math.max(this.reflected[resource]!, response.version);
      const effect: ClientEffect = notFound ? { type: 'TombstonePending', uri, readOrdinal: this.ordinalFor(resource) } : { type: 'PurgeDone', uri, subject, invalidatedEntries: 0 };
      this.judge([effect], () => `get(${uri}) serves nothing now${notFound ? ' (read: not found)' : ''}`);
      return;
    }
    const version = parseContent(text)?.version ?? 0;
    if (version > this.reflected[resource]!) this.reflected[resource] = version;
    const effect: ClientEffect = {
      type: 'VersionAccepted',
      uri,
      text,
      encoding: 'text',
      mimeType: 'text/plain',
      digest: text,
      readOrdinal: this.ordinalFor(resource),
      watermarkBefore: 0,
      subscriptionGeneration: 0,
      sessionGeneration: this.world.sessionGeneration,
    };
    this.judge([effect], () => `get(${uri}) now serves ${this.world.oracle.describeContent(text)}`);
  }

  /**
   * Whether the 2026-07-28 entry the client served as `text` had outlived its `ttlMs` by now, counted from the
   * send of the read that brought it (the earliest a client may count from). A client may drop such an entry on
   * its own; `get` is looked at only after events, so the drop shows at the next one, which may be a not-found to
   * an older read: that stop is no tombstone from the not-found (client-v2, era2026-swarm seed 3099910486: v12
   * with ttlMs 866 read at 16142 ms, dropped by 17132 ms, when an abandoned read's not-found arrived).
   */
  private ttlLapsed(resource: number, text: string): boolean {
    const entry = this.world.oracle.era2026Serving.entries.entryOf(resource, text);
    return entry !== undefined && entry.lapsesAtMs <= this.world.nowMs;
  }

  /**
   * The read ordinal an accept of `resource` is judged with: the answered read's wire order when this event
   * is a response to a read of it; otherwise (content from a timer, a store, a command) the latest read sent.
   */
  private ordinalFor(resource: number): number {
    const response = this.response;
    if (response !== null && response.resource === resource && this.responseOrdinal > 0) return this.responseOrdinal;
    return this.readsSent[resource]!;
  }

  /** Judges synthesized effects; the timeline gets one line (`what`), marked with what it broke. */
  private judge(effects: ClientEffect[], what: () => string): void {
    this.steps++;
    const world = this.world;
    const oracle = world.oracle;
    const violationsBefore = oracle.violations.length;
    oracle.judge(effects, fillStepTruth(this.truth, world.nowMs, this.cause, world.sessionGeneration, this.response));
    const timeline = world.timeline;
    if (timeline === null) return;
    timeline.note(world.nowMs, what());
    const entry = timeline.entries[timeline.entries.length - 1]!;
    for (let index = violationsBefore; index < oracle.violations.length; index++) entry.invariants.push(oracle.violations[index]!.invariant);
    timeline.effects(world.nowMs, [], oracle, violationsBefore);
  }
}

/** A request's params besides its URI, as shown on the timeline (so what differs between two runs is named). */
function extraParams(params: Record<string, unknown> | undefined): string {
  if (params === undefined) return '';
  const { uri: _uri, ...rest } = params;
  if (Object.keys(rest).length === 0) return '';
  const text = JSON.stringify(rest);
  return ` ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
}
