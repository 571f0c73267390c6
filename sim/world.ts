/**
 * One simulated interleaving: a client under test, the server model and the network, driven by one
 * virtual-time queue. The queue and the chooser are the only sources of "what happens next".
 *
 * This file holds the loop and the client side (delivering inputs, carrying out effects). Event and
 * message types are in events.ts, connections and crashes in sessions.ts, the server side in serving.ts,
 * workload commands and revocations in workload.ts, listing in listing.ts.
 */
import { edgeIndexOf, transitionTable } from '../core/transitions.js';
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest, ServerCapabilities } from '../core/types.js';
import { defaultClientConfig } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { Chooser, type Decision } from './chooser.js';
import { faultIndex, newFaultCounts, type FaultCounts, type FaultName } from './faults.js';
import { Kind, type NotificationMessage, type RequestMessage, type ResponseMessage, type SimEvent } from './events.js';
import { Lister } from './listing.js';
import { causeConnection, causeListChanged, causeNotification, causeOldNotification, invariantIndex, Oracle, type InvariantName, type StepTruth } from './oracle.js';
import type { InterleavingPlan } from './plan.js';
import { EventQueue } from './queue.js';
import { respell, ServerModel, subjects, type ServerSession } from './server.js';
import { mutate, mutateBetweenPages, serveRequest } from './serving.js';
import { connect, faultTick } from './sessions.js';
import { Timeline } from './timeline.js';
import { closeTick, command, deliverAuthorizationFeed, discover, serve, startWorkload, task, type CommandPayload } from './workload.js';

export { Kind, type NotificationMessage, type RequestMessage, type ResponseMessage, type SimEvent } from './events.js';

export interface InterleavingOptions {
  /** Keep a readable timeline. */
  trace: boolean;
  /** Record every decision (for replay files and shrinking). */
  record: boolean;
  /** Replay these decisions instead of drawing from the seed. */
  replay?: { decisions: readonly Decision[]; strict: boolean };
  /** Stop the run right after the first step that violates this invariant (the shrinker's early exit). */
  stopAtInvariant?: InvariantName | null;
}

export interface InterleavingResult {
  seed: number;
  plan: InterleavingPlan;
  oracle: Oracle;
  faultCounts: FaultCounts;
  events: number;
  steps: number;
  endMs: number;
  traceHash: number;
  timeline: string[] | null;
  decisions: Decision[] | null;
}

export function runInterleaving(
  seed: number,
  scenario: Scenario,
  client: ClientUnderTest,
  options: InterleavingOptions,
): InterleavingResult {
  const chooser = options.replay
    ? Chooser.replaying(options.replay.decisions, options.replay.strict)
    : Chooser.seeded(seed, options.record);
  const plan = scenario.plan(chooser);
  const world = new World(seed, plan, chooser, client, { ...defaultClientConfig, ...scenario.clientConfig }, options.trace);
  world.run(options.stopAtInvariant == null ? -1 : invariantIndex[options.stopAtInvariant]);
  return {
    seed,
    plan,
    oracle: world.oracle,
    faultCounts: world.faultCounts,
    events: world.events,
    steps: world.steps,
    endMs: world.endMs,
    traceHash: world.traceHash >>> 0,
    timeline: world.timeline?.lines ?? null,
    decisions: chooser.log,
  };
}

/** The state of one interleaving. Fields are shared with serving.ts and workload.ts (same package). */
export class World {
  readonly oracle: Oracle;
  readonly faultCounts: FaultCounts = newFaultCounts();
  readonly timeline: Timeline | null;
  events = 0;
  steps = 0;
  traceHash = 0x811c9dc5;
  readonly endMs: number;

  readonly queue = new EventQueue<SimEvent>();
  readonly server: ServerModel;
  readonly lister: Lister;
  readonly faultOn: Uint8Array;
  readonly capabilities: ServerCapabilities;
  nowMs = 0;
  healing = false;
  session: ServerSession | null = null;
  sessionGeneration = 0;
  /** Increases at every client crash: timers armed before it never fire. */
  clientEpoch = 0;
  /** Timer key -> the deadline of its latest TimerArmed; earlier ones for the key are replaced. */
  readonly armedTimers = new Map<string, number>();
  clientState: unknown;
  /** Per resource: the workload wants it subscribed. */
  readonly wanted: Uint8Array;
  /** Per resource: the subject (index into `subjects`) it is subscribed, read and served as. */
  readonly subjectOf: Uint8Array;
  private readonly truth: StepTruth = {
    timeMs: 0,
    cause: 0,
    currentSession: 0,
    requestSession: -1,
    requestSentAtMs: -1,
    servedResource: -1,
    servedVersion: 0,
    servedExists: true,
  };

  constructor(
    readonly seed: number,
    readonly plan: InterleavingPlan,
    readonly chooser: Chooser,
    readonly client: ClientUnderTest,
    readonly config: ClientConfig,
    trace: boolean,
  ) {
    const uris = plan.workload.resources.map((resource) => resource.uri);
    this.server = new ServerModel(plan.workload.resources);
    this.oracle = new Oracle(uris, transitionTable.length);
    this.timeline = trace ? new Timeline(uris) : null;
    this.wanted = new Uint8Array(uris.length);
    this.subjectOf = new Uint8Array(uris.length);
    for (let resource = 0; resource < uris.length; resource++) this.subjectOf[resource] = chooser.draw('workload', 'subject of resource', subjects.length);
    this.faultOn = new Uint8Array(faultIndex['no-list-changed-capability'] + 1);
    for (const name in plan.faults) this.faultOn[faultIndex[name as FaultName]] = 1;
    this.endMs = plan.workload.faultPhaseMs + plan.workload.healPhaseMs;
    this.capabilities = {
      subscribe: !this.fires('no-subscribe-capability', 'server lacks subscribe?'),
      listChanged: !this.fires('no-list-changed-capability', 'server lacks listChanged?'),
      snapshotId: plan.server.snapshotId,
    };
    this.lister = new Lister(this.server, chooser, this, plan.server.snapshotId, plan.server.pageSizeMax, seed);
    for (let resource = 0; resource < uris.length; resource++) this.oracle.registerContent(this.server.content[resource]!, resource, 1);
    this.clientState = client.init(config);
  }

  /** Runs to the end, or until invariant number `stopAtIndex` (>= 0) is violated. */
  run(stopAtIndex: number): void {
    connect(this, causeConnection);
    startWorkload(this);
    const queue = this.queue;
    const counts = this.oracle.counts;
    for (;;) {
      const event = queue.pop();
      if (event === undefined || event.timeMs > this.endMs) break;
      this.nowMs = event.timeMs;
      this.events++;
      this.traceHash = mix(mix(mix(this.traceHash, event.timeMs), event.kind), event.a);
      this.dispatch(event);
      if (stopAtIndex >= 0 && counts[stopAtIndex]! > 0) return;
    }
    const violationsBefore = this.oracle.violations.length;
    this.oracle.finish(this.endMs);
    this.timeline?.effects(this.endMs, [], this.oracle, violationsBefore); // liveness failures found at the end
  }

  private dispatch(event: SimEvent): void {
    switch (event.kind) {
      case Kind.ClientMessage:
        this.deliverMessage(event);
        break;
      case Kind.ServerRequest:
        serveRequest(this, event);
        break;
      case Kind.Timer:
        if (event.session !== this.clientEpoch) break; // armed by a client that has since crashed
        // Re-arming a key replaces its timer (as clearTimeout + setTimeout would): only the latest fires.
        if (this.armedTimers.get(event.payload as string) !== event.a) break;
        this.armedTimers.delete(event.payload as string);
        this.deliver({ type: 'TimerFired', nowMs: this.nowMs, jitter: 0, timerKey: event.payload as string, deadlineMs: event.a }, event.cause, null);
        break;
      case Kind.Mutation:
        mutate(this, event.a);
        break;
      case Kind.Command:
        command(this, event.payload as CommandPayload);
        break;
      case Kind.FaultTick:
        faultTick(this);
        break;
      case Kind.Reconnect:
        connect(this, causeConnection);
        break;
      case Kind.Heal:
        this.healing = true;
        this.timeline?.note(this.nowMs, 'heal phase: faults, mutations and workload commands stop');
        break;
      case Kind.CloseTick:
        closeTick(this, event.a);
        break;
      case Kind.Discover:
        discover(this);
        break;
      case Kind.Serve:
        serve(this, event.a);
        break;
      case Kind.Task:
        task(this);
        break;
      case Kind.AuthorizationFeed:
        deliverAuthorizationFeed(this, event.a);
        break;
      case Kind.ListMutation:
        mutateBetweenPages(this);
        break;
    }
  }

  // -- scheduling helpers ---------------------------------------------------------------------

  schedule(timeMs: number, kind: Kind, cause: number, session: number, a: number, payload: unknown): void {
    this.queue.push({ timeMs, sequence: 0, kind, cause, session, a, payload });
  }

  fires(fault: FaultName, label: string): boolean {
    const index = faultIndex[fault];
    if (this.healing || this.faultOn[index] === 0) return false;
    const intensity = this.plan.faults[fault]!;
    if (!this.chooser.chance('faults', label, intensity.numerator, intensity.denominator)) return false;
    this.faultCounts[index]! += 1;
    return true;
  }

  latency(): number {
    const network = this.plan.network;
    return this.chooser.between('network', 'latency', network.latencyMsMin, network.latencyMsMax);
  }

  /** Server-to-client send time: FIFO unless this message is reordered or deliberately delayed. */
  serverToClientTime(session: ServerSession, extraDelayMs: number): number {
    const base = this.nowMs + this.latency();
    if (extraDelayMs > 0) return base + extraDelayMs;
    if (this.fires('reorder', 'reorder?')) return base + this.chooser.between('network', 'reorder delay', 1, this.plan.network.reorderDelayMsMax);
    const timeMs = base > session.serverToClientLastMs ? base : session.serverToClientLastMs;
    session.serverToClientLastMs = timeMs;
    return timeMs;
  }

  spell(uri: string): string {
    if (!this.fires('uri-spelling', 'respell?')) return uri;
    return respell(uri, this.chooser.draw('network', 'respelling', 2));
  }

  // -- the client --------------------------------------------------------------------------------

  deliver(input: ClientInput, cause: number, response: ResponseMessage | null): void {
    input.jitter = jitterFor(this.seed, this.steps);
    this.steps++;
    const timeline = this.timeline;
    const violationsBefore = this.oracle.violations.length;
    if (timeline !== null) timeline.input(this.nowMs, input, response, this.sessionGeneration);
    const result = this.client.step(this.clientState, input);
    this.clientState = result.state;
    const truth = this.truth; // one reused record: the oracle reads it during judge() only
    truth.timeMs = this.nowMs;
    truth.cause = cause;
    truth.currentSession = this.sessionGeneration;
    truth.requestSession = response === null ? -1 : response.requestSession;
    truth.requestSentAtMs = response === null ? -1 : response.requestSentAtMs;
    truth.servedResource = response === null ? -1 : response.resource;
    truth.servedVersion = response === null ? 0 : response.version;
    truth.servedExists = response === null ? true : response.exists;
    const effects = result.effects;
    this.oracle.judge(effects, truth);
    this.traceHash = mix(this.traceHash, effects.length);
    for (let index = 0; index < effects.length; index++) this.carryOut(effects[index]!, cause);
    if (timeline !== null) timeline.effects(this.nowMs, effects, this.oracle, violationsBefore);
  }

  private carryOut(effect: ClientEffect, cause: number): void {
    switch (effect.type) {
      case 'RequestSent':
        this.sendToServer(effect, cause);
        break;
      case 'TimerArmed':
        if (effect.deadlineMs >= this.nowMs) {
          this.armedTimers.set(effect.timerKey, effect.deadlineMs);
          this.schedule(effect.deadlineMs, Kind.Timer, cause, this.clientEpoch, effect.deadlineMs, effect.timerKey);
        }
        break;
      case 'Transitioned':
        this.oracle.recordEdge(edgeIndexOf(effect.from, effect.event));
        break;
      default:
        break;
    }
  }

  private sendToServer(effect: Extract<ClientEffect, { type: 'RequestSent' }>, cause: number): void {
    const session = this.session;
    if (session === null || !session.alive) return; // no connection: the send fails
    const arrival = Math.max(this.nowMs + this.latency(), session.clientToServerLastMs);
    session.clientToServerLastMs = arrival;
    const request: RequestMessage = {
      requestId: effect.requestId,
      method: effect.method,
      uri: effect.uri,
      subject: effect.subject,
      cursor: effect.cursor,
      sentAtMs: this.nowMs,
    };
    this.schedule(arrival, Kind.ServerRequest, cause, session.generation, effect.requestId, request);
  }

  private deliverMessage(event: SimEvent): void {
    const message = event.payload as ResponseMessage | NotificationMessage;
    const current = event.session === this.sessionGeneration && this.session !== null && this.session.alive;
    if (!current && !message.survivesSessionEnd) {
      if (message.kind === 'response') this.strandAfterCrash(event, message);
      return;
    }
    if (message.kind === 'response') {
      if (current) this.learnFromResponse(message);
      this.deliver(
        { type: 'ResponseArrived', nowMs: this.nowMs, jitter: 0, sessionGeneration: event.session, requestId: message.requestId, outcome: message.outcome },
        event.cause,
        message,
      );
      return;
    }
    if (message.listChanged) {
      this.deliver(
        { type: 'NotificationArrived', nowMs: this.nowMs, jitter: 0, sessionGeneration: event.session, method: 'notifications/resources/list_changed', params: {} },
        current ? causeListChanged : causeOldNotification,
        null,
      );
      return;
    }
    this.oracle.onNotificationDelivered(message.resource, message.version, current);
    this.deliver(
      {
        type: 'NotificationArrived',
        nowMs: this.nowMs,
        jitter: 0,
        sessionGeneration: event.session,
        method: 'notifications/resources/updated',
        params: { uri: message.uri },
      },
      current ? causeNotification : causeOldNotification,
      null,
    );
  }

  /** What a current-session response tells the client, recorded before its step is judged. */
  private learnFromResponse(message: ResponseMessage): void {
    if (message.deniedSubject >= 0) this.oracle.revocation.onLearned(message.resource, message.deniedSubject, this.nowMs);
    const list = message.list;
    if (list === null) return;
    if (list.last) this.oracle.catalog.onPassCompleted(list.pass, list.proof, list.passStartMs);
    this.timeline?.note(this.nowMs, `[truth] list pass ${list.pass} page${list.last ? ' (last)' : ''}: ${list.proof}`);
  }

  /** client-crash: a response to a pre-crash request may still surface after the restart, on its old session. */
  private strandAfterCrash(event: SimEvent, message: ResponseMessage): void {
    const session = this.server.sessions[event.session];
    if (session === undefined || session.strandAfterMs < 0) return;
    if (!this.chooser.chance('faults', 'pre-crash response surfaces?', 1, 2)) return;
    message.survivesSessionEnd = true;
    const timeMs = Math.max(this.nowMs, session.strandAfterMs) + this.chooser.between('network', 'pre-crash response delay', 1, 300);
    this.schedule(timeMs, Kind.ClientMessage, event.cause, event.session, event.a, message);
  }
}

function mix(hash: number, value: number): number {
  return Math.imul(hash ^ (value | 0), 0x01000193);
}

/** The jitter handed to the client on each step: a pure function of the seed and the step number. */
function jitterFor(seed: number, step: number): number {
  let x = (seed ^ Math.imul(step + 1, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
