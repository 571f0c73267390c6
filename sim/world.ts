/**
 * One simulated interleaving: a client under test, the server model and the network, driven by one
 * virtual-time queue. The queue and the chooser are the only sources of "what happens next".
 */
import { edgeIndexOf } from '../core/transitions.js';
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest, ResponseOutcome, ServerCapabilities } from '../core/types.js';
import { defaultClientConfig } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { Chooser, type Decision } from './chooser.js';
import { faultIndex, newFaultCounts, type FaultCounts, type FaultName } from './faults.js';
import {
  causeConnection,
  causeNotification,
  causeOldNotification,
  causeWorkload,
  Oracle,
  type StepTruth,
} from './oracle.js';
import type { InterleavingPlan } from './plan.js';
import { EventQueue } from './queue.js';
import { respell, ServerModel, type ServerSession } from './server.js';
import { Timeline } from './timeline.js';
import { transitionTable } from '../core/transitions.js';

const enum Kind {
  ClientMessage = 1,
  ServerRequest = 2,
  Timer = 3,
  Mutation = 4,
  Command = 5,
  FaultTick = 6,
  Reconnect = 7,
  Heal = 8,
  CloseTick = 9,
}

interface SimEvent {
  timeMs: number;
  sequence: number;
  kind: Kind;
  cause: number;
  session: number;
  /** Kind-specific integer: resource index, request id, deadline, ... */
  a: number;
  payload: unknown;
}

interface ResponseMessage {
  kind: 'response';
  requestId: number;
  outcome: ResponseOutcome;
  requestSentAtMs: number;
  /** The session the request was sent on (ground truth, not the client's claim). */
  requestSession: number;
  resource: number;
  version: number;
  exists: boolean;
  /** Delivered even though its session died (old-session fault). */
  survivesSessionEnd: boolean;
}

interface NotificationMessage {
  kind: 'notification';
  uri: string;
  resource: number;
  version: number;
  survivesSessionEnd: boolean;
}

interface RequestMessage {
  requestId: number;
  method: string;
  uri: string;
  sentAtMs: number;
}

type CommandPayload = { type: 'SubscribeCommanded' | 'UnsubscribeCommanded'; resource: number };

export interface InterleavingOptions {
  /** Keep a readable timeline. */
  trace: boolean;
  /** Record every decision (for replay files and shrinking). */
  record: boolean;
  /** Replay these decisions instead of drawing from the seed. */
  replay?: { decisions: readonly Decision[]; strict: boolean };
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

const serverCapabilitiesFull: ServerCapabilities = { subscribe: true, listChanged: true, snapshotId: false };

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
  world.run();
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

class World {
  readonly oracle: Oracle;
  readonly faultCounts: FaultCounts = newFaultCounts();
  readonly timeline: Timeline | null;
  events = 0;
  steps = 0;
  traceHash = 0x811c9dc5;
  readonly endMs: number;

  private readonly queue = new EventQueue<SimEvent>();
  private readonly server: ServerModel;
  private readonly faultOn: Uint8Array;
  private nowMs = 0;
  private healing = false;
  private session: ServerSession | null = null;
  private sessionGeneration = 0;
  private clientState: unknown;
  /** Per resource: the workload wants it subscribed. */
  private readonly wanted: Uint8Array;
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
    private readonly seed: number,
    private readonly plan: InterleavingPlan,
    private readonly chooser: Chooser,
    private readonly client: ClientUnderTest,
    config: ClientConfig,
    trace: boolean,
  ) {
    const uris = plan.workload.resources.map((resource) => resource.uri);
    this.server = new ServerModel(plan.workload.resources);
    this.oracle = new Oracle(uris, transitionTable.length);
    this.timeline = trace ? new Timeline(uris) : null;
    this.wanted = new Uint8Array(uris.length);
    this.faultOn = new Uint8Array(faultIndex['no-list-changed-capability'] + 1);
    for (const name in plan.faults) this.faultOn[faultIndex[name as FaultName]] = 1;
    this.endMs = plan.workload.faultPhaseMs + plan.workload.healPhaseMs;
    uris.forEach((uri, resource) => this.oracle.registerContent(this.server.content[resource]!, resource, 1));
    this.clientState = client.init(config);
  }

  run(): void {
    const workload = this.plan.workload;
    this.connect(causeConnection);
    for (let resource = 0; resource < workload.resources.length; resource++) {
      this.schedule(1 + resource, Kind.Command, causeWorkload, 0, resource, { type: 'SubscribeCommanded', resource });
      this.scheduleMutation(resource);
      if (workload.closeRatio.numerator > 0) this.schedule(workload.closeTickMs, Kind.CloseTick, causeWorkload, 0, resource, null);
    }
    this.schedule(this.plan.network.faultTickMs, Kind.FaultTick, causeWorkload, 0, 0, null);
    this.schedule(workload.faultPhaseMs, Kind.Heal, causeWorkload, 0, 0, null);
    const queue = this.queue;
    for (;;) {
      const event = queue.pop();
      if (event === undefined || event.timeMs > this.endMs) break;
      this.nowMs = event.timeMs;
      this.events++;
      this.traceHash = mix(mix(mix(this.traceHash, event.timeMs), event.kind), event.a);
      this.dispatch(event);
    }
    this.oracle.finish(this.endMs);
  }

  private dispatch(event: SimEvent): void {
    switch (event.kind) {
      case Kind.ClientMessage:
        this.deliverMessage(event);
        break;
      case Kind.ServerRequest:
        this.serveRequest(event);
        break;
      case Kind.Timer:
        this.deliver({ type: 'TimerFired', nowMs: this.nowMs, jitter: 0, timerKey: event.payload as string, deadlineMs: event.a }, event.cause, null);
        break;
      case Kind.Mutation:
        this.mutate(event.a);
        break;
      case Kind.Command:
        this.command(event.payload as CommandPayload);
        break;
      case Kind.FaultTick:
        this.faultTick();
        break;
      case Kind.Reconnect:
        this.connect(causeConnection);
        break;
      case Kind.Heal:
        this.healing = true;
        this.timeline?.note(this.nowMs, 'heal phase: faults, mutations and workload commands stop');
        break;
      case Kind.CloseTick:
        this.closeTick(event.a);
        break;
    }
  }

  // -- scheduling helpers ---------------------------------------------------------------------

  private schedule(timeMs: number, kind: Kind, cause: number, session: number, a: number, payload: unknown): void {
    this.queue.push({ timeMs, sequence: 0, kind, cause, session, a, payload });
  }

  private fires(fault: FaultName, label: string): boolean {
    const index = faultIndex[fault];
    if (this.healing || this.faultOn[index] === 0) return false;
    const intensity = this.plan.faults[fault]!;
    if (!this.chooser.chance('faults', label, intensity.numerator, intensity.denominator)) return false;
    this.faultCounts[index]! += 1;
    return true;
  }

  private latency(): number {
    const network = this.plan.network;
    return this.chooser.between('network', 'latency', network.latencyMsMin, network.latencyMsMax);
  }

  /** Server-to-client send time: FIFO unless this message is reordered or deliberately delayed. */
  private serverToClientTime(session: ServerSession, extraDelayMs: number): number {
    const base = this.nowMs + this.latency();
    if (extraDelayMs > 0) return base + extraDelayMs;
    if (this.fires('reorder', 'reorder?')) return base + this.chooser.between('network', 'reorder delay', 1, this.plan.network.reorderDelayMsMax);
    const timeMs = base > session.serverToClientLastMs ? base : session.serverToClientLastMs;
    session.serverToClientLastMs = timeMs;
    return timeMs;
  }

  private spell(uri: string): string {
    if (!this.fires('uri-spelling', 'respell?')) return uri;
    return respell(uri, this.chooser.draw('network', 'respelling', 2));
  }

  // -- the client --------------------------------------------------------------------------------

  private deliver(input: ClientInput, cause: number, response: ResponseMessage | null): void {
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
        this.sendToServer(effect.requestId, effect.method, effect.uri, cause);
        break;
      case 'TimerArmed':
        if (effect.deadlineMs >= this.nowMs) this.schedule(effect.deadlineMs, Kind.Timer, cause, 0, effect.deadlineMs, effect.timerKey);
        break;
      case 'Transitioned':
        this.oracle.recordEdge(edgeIndexOf(effect.from, effect.event));
        break;
      default:
        break;
    }
  }

  private sendToServer(requestId: number, method: string, uri: string, cause: number): void {
    const session = this.session;
    if (session === null || !session.alive) return; // no connection: the send fails
    const arrival = Math.max(this.nowMs + this.latency(), session.clientToServerLastMs);
    session.clientToServerLastMs = arrival;
    const request: RequestMessage = { requestId, method, uri, sentAtMs: this.nowMs };
    this.schedule(arrival, Kind.ServerRequest, cause, session.generation, requestId, request);
  }

  private deliverMessage(event: SimEvent): void {
    const message = event.payload as ResponseMessage | NotificationMessage;
    const current = event.session === this.sessionGeneration && this.session !== null && this.session.alive;
    if (!current && !message.survivesSessionEnd) return;
    if (message.kind === 'response') {
      this.deliver(
        { type: 'ResponseArrived', nowMs: this.nowMs, jitter: 0, sessionGeneration: event.session, requestId: message.requestId, outcome: message.outcome },
        event.cause,
        message,
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

  // -- the server ----------------------------------------------------------------------------------

  private serveRequest(event: SimEvent): void {
    const session = this.server.sessions[event.session];
    if (session === undefined || !session.alive) return;
    const request = event.payload as RequestMessage;
    const resource = this.server.lookup(request.uri);
    if (request.method === 'resources/read') {
      const spelled = resource >= 0 ? this.spell(this.server.uris[resource]!) : null;
      const answer = this.server.read(request.uri, spelled);
      let extraDelayMs = 0;
      if (this.fires('slow-read', 'slow read?')) {
        extraDelayMs = this.chooser.between('network', 'slow read delay', 1, this.plan.network.slowReadDelayMsMax);
      }
      if (resource >= 0 && this.wanted[resource] === 1 && this.fires('late-response-after-close', 'late response?')) {
        extraDelayMs = this.chooser.between('network', 'late response delay', 200, this.plan.network.lateResponseDelayMsMax);
        this.forceCloseRace(resource, extraDelayMs);
      }
      this.respond(session, event.cause, request, resource, answer.outcome, answer.version, answer.exists, extraDelayMs);
      return;
    }
    if (this.nowMs < this.server.warmingUntilMs) {
      // A restarted server answers its first requests with an internal error while it warms up.
      const outcome: ResponseOutcome = { type: 'error', code: -32603, message: 'Server not ready' };
      this.respond(session, event.cause, request, -1, outcome, 0, true, 0);
      return;
    }
    if (request.method === 'resources/subscribe' || request.method === 'resources/unsubscribe') {
      if (resource >= 0) session.subscribed[resource] = request.method === 'resources/subscribe' ? 1 : 0;
      if (request.method === 'resources/unsubscribe' && this.fires('drop-unsubscribe-ack', 'drop unsubscribe ack?')) return;
      this.respond(session, event.cause, request, resource, { type: 'result', result: {} }, 0, true, 0);
      return;
    }
    this.respond(session, event.cause, request, -1, { type: 'error', code: -32601, message: 'Method not found' }, 0, true, 0);
  }

  private respond(
    session: ServerSession,
    cause: number,
    request: RequestMessage,
    resource: number,
    outcome: ResponseMessage['outcome'],
    version: number,
    exists: boolean,
    extraDelayMs: number,
  ): void {
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
    };
    this.schedule(this.serverToClientTime(session, extraDelayMs), Kind.ClientMessage, cause, session.generation, request.requestId, message);
  }

  /** late-response-after-close: the client is told to unsubscribe while this response is held back. */
  private forceCloseRace(resource: number, responseDelayMs: number): void {
    const closeAtMs = this.nowMs + 1 + this.chooser.draw('workload', 'close before late response', responseDelayMs - 1);
    this.schedule(closeAtMs, Kind.Command, causeWorkload, 0, resource, { type: 'UnsubscribeCommanded', resource });
    const reopenDelayMs = this.chooser.between('workload', 'resubscribe delay', 500, 3_000);
    this.schedule(this.nowMs + responseDelayMs + reopenDelayMs, Kind.Command, causeWorkload, 0, resource, { type: 'SubscribeCommanded', resource });
  }

  private notify(resource: number): void {
    const session = this.session;
    if (session === null || !session.alive || session.subscribed[resource] === 0) return;
    if (this.fires('drop-notification', 'drop notification?')) return;
    let copies = 1;
    if (this.fires('duplicate-notification', 'duplicate?')) {
      copies += this.chooser.between('network', 'duplicate copies', 1, this.plan.network.duplicateCopiesMax);
    }
    const version = this.server.version[resource]!;
    for (let copy = 0; copy < copies; copy++) {
      const extra = copy === 0 ? 0 : this.chooser.between('network', 'duplicate delay', 1, this.plan.network.duplicateDelayMsMax);
      const message: NotificationMessage = { kind: 'notification', uri: this.spell(this.server.uris[resource]!), resource, version, survivesSessionEnd: false };
      this.schedule(this.serverToClientTime(session, extra), Kind.ClientMessage, causeNotification, session.generation, resource, message);
    }
  }

  private mutate(resource: number): void {
    if (this.healing) return;
    const workload = this.plan.workload;
    const server = this.server;
    let burst = 1;
    if (server.exists[resource] === 0) {
      server.write(resource);
    } else if (this.chooser.chance('workload', 'delete?', workload.deleteRatio.numerator, workload.deleteRatio.denominator)) {
      server.delete(resource);
    } else {
      server.write(resource);
      if (this.chooser.chance('workload', 'burst?', workload.burstRatio.numerator, workload.burstRatio.denominator)) {
        burst = this.chooser.between('workload', 'burst length', 2, 4);
      }
    }
    this.afterChange(resource);
    for (let extra = 1; extra < burst; extra++) {
      server.write(resource);
      this.afterChange(resource);
    }
    this.scheduleMutation(resource);
  }

  private afterChange(resource: number): void {
    const version = this.server.version[resource]!;
    if (this.server.exists[resource] === 1) this.oracle.registerContent(this.server.content[resource]!, resource, version);
    this.oracle.onChange(resource, version, this.nowMs);
    this.timeline?.truth(this.nowMs, this.server.uris[resource]!, version, this.server.exists[resource] === 1);
    this.notify(resource);
  }

  private scheduleMutation(resource: number): void {
    const workload = this.plan.workload;
    const delay = this.chooser.between('workload', 'mutation interval', workload.mutationIntervalMsMin, workload.mutationIntervalMsMax);
    this.schedule(this.nowMs + delay, Kind.Mutation, causeWorkload, 0, resource, null);
  }

  // -- workload commands ------------------------------------------------------------------------

  private command(payload: CommandPayload): void {
    const resource = payload.resource;
    const uri = this.server.uris[resource]!;
    if (payload.type === 'SubscribeCommanded') {
      if (this.wanted[resource] === 1) return;
      this.wanted[resource] = 1;
      this.oracle.onSubscribeCommand(resource);
    } else {
      if (this.wanted[resource] === 0) return;
      this.wanted[resource] = 0;
      this.oracle.onUnsubscribeCommand(resource, this.nowMs);
    }
    this.deliver({ type: payload.type, nowMs: this.nowMs, jitter: 0, uri }, causeWorkload, null);
  }

  private closeTick(resource: number): void {
    if (this.healing) return;
    const workload = this.plan.workload;
    if (this.wanted[resource] === 1 && this.chooser.chance('workload', 'close?', workload.closeRatio.numerator, workload.closeRatio.denominator)) {
      this.command({ type: 'UnsubscribeCommanded', resource });
      const delay = this.chooser.between('workload', 'resubscribe delay', workload.resubscribeDelayMsMin, workload.resubscribeDelayMsMax);
      this.schedule(this.nowMs + delay, Kind.Command, causeWorkload, 0, resource, { type: 'SubscribeCommanded', resource });
    }
    this.schedule(this.nowMs + workload.closeTickMs, Kind.CloseTick, causeWorkload, 0, resource, null);
  }

  // -- connections --------------------------------------------------------------------------------

  private connect(cause: number): void {
    this.sessionGeneration += 1;
    this.session = this.server.openSession(this.sessionGeneration, this.nowMs);
    this.deliver(
      { type: 'Connected', nowMs: this.nowMs, jitter: 0, sessionGeneration: this.sessionGeneration, capabilities: serverCapabilitiesFull },
      cause,
      null,
    );
  }

  private faultTick(): void {
    if (this.healing) return;
    if (this.session !== null && this.session.alive) {
      if (this.fires('disconnect', 'disconnect?')) this.disconnect(false);
      else if (this.fires('server-restart', 'server restart?')) this.disconnect(true);
    }
    this.schedule(this.nowMs + this.plan.network.faultTickMs, Kind.FaultTick, causeWorkload, 0, 0, null);
  }

  private disconnect(restart: boolean): void {
    const session = this.session!;
    session.alive = false;
    if (restart) this.server.restarts++;
    this.timeline?.note(this.nowMs, restart ? `server restart: session ${session.generation} and its subscriptions are gone` : `disconnect: session ${session.generation} ends`);
    const network = this.plan.network;
    const reconnectAtMs = this.nowMs + this.chooser.between('network', 'outage', network.outageMsMin, network.outageMsMax);
    if (restart) this.server.warmingUntilMs = reconnectAtMs + this.chooser.between('server', 'warm-up', 0, 1_000);
    if (this.faultOn[faultIndex['old-session-notification']] === 1) this.strandOldSessionMessages(session, reconnectAtMs);
    this.deliver({ type: 'Disconnected', nowMs: this.nowMs, jitter: 0, sessionGeneration: session.generation }, causeConnection, null);
    this.schedule(reconnectAtMs, Kind.Reconnect, causeConnection, 0, 0, null);
  }

  /** old-session-notification: updates buffered on the dead session's stream surface after the reconnect. */
  private strandOldSessionMessages(session: ServerSession, reconnectAtMs: number): void {
    for (let resource = 0; resource < session.subscribed.length; resource++) {
      if (session.subscribed[resource] === 0 || !this.fires('old-session-notification', 'strand old notification?')) continue;
      const message: NotificationMessage = {
        kind: 'notification',
        uri: this.server.uris[resource]!,
        resource,
        version: this.server.version[resource]!,
        survivesSessionEnd: true,
      };
      const timeMs = reconnectAtMs + this.chooser.between('network', 'old notification delay', 1, 300);
      this.schedule(timeMs, Kind.ClientMessage, causeOldNotification, session.generation, resource, message);
    }
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
