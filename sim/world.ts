/**
 * One simulated interleaving: a client under test, the server model and the network, driven by one
 * virtual-time queue. The queue and the chooser are the only sources of "what happens next".
 *
 * This file holds the loop and the client side (delivering inputs, carrying out effects). Event and
 * message types are in events.ts, connections and crashes in sessions.ts, the server side in serving.ts,
 * workload commands and revocations in workload.ts, listing in listing.ts.
 */
import { edgeIndexOf } from '../core/transitions.js';
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest, TimerId } from '../core/types.js';
import { defaultClientConfig, timerName } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { Chooser, type Decision } from './chooser.js';
import type { FaultCounts } from './faults.js';
import { Kind, type NotificationMessage, type RequestMessage, type ResponseMessage, type SimEvent } from './events.js';
import { causeConnection, causeListChanged, causeNotification, causeOldNotification, invariantIndex, type InvariantName, type Oracle, type StepTruth } from './oracle.js';
import type { InterleavingPlan } from './plan.js';
import { EventQueue } from './queue.js';
import { serveRequest } from './serving.js';
import { connect, faultTick } from './sessions.js';
import { startWorkload } from './workload.js';
import { fillStepTruth, jitterFor, learnFromResponse, mix, newStepTruth, WorldCore } from './world-core.js';

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
  return world.resultOf(world.steps, chooser.log);
}

/** The state of one interleaving. Fields are shared with serving.ts and workload.ts (same package). */
export class World extends WorldCore {
  steps = 0;
  readonly queue = new EventQueue<SimEvent>();
  nowMs = 0;
  /** Increases at every client crash: timers armed before it never fire. */
  clientEpoch = 0;
  /** Timer key -> the deadline of its latest TimerArmed; earlier ones for the key are replaced. */
  readonly armedTimers = new Map<string, number>();
  clientState: unknown;
  private readonly truth: StepTruth = newStepTruth();

  constructor(
    seed: number,
    plan: InterleavingPlan,
    chooser: Chooser,
    readonly client: ClientUnderTest,
    readonly config: ClientConfig,
    trace: boolean,
  ) {
    super(seed, plan, chooser, trace);
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
    this.finish();
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
        if (this.armedTimers.get(timerName(event.payload as TimerId)) !== event.a) break;
        this.armedTimers.delete(timerName(event.payload as TimerId));
        this.deliver({ type: 'TimerFired', nowMs: this.nowMs, jitter: 0, timer: event.payload as TimerId, deadlineMs: event.a }, event.cause, null);
        break;
      case Kind.FaultTick:
        faultTick(this);
        break;
      case Kind.Reconnect:
        connect(this, causeConnection);
        break;
      default:
        this.dispatchShared(event.kind, event.a, event.payload);
        break;
    }
  }

  // -- scheduling helpers ---------------------------------------------------------------------

  schedule(timeMs: number, kind: Kind, cause: number, session: number, a: number, payload: unknown): void {
    this.queue.push({ timeMs, sequence: 0, kind, cause, session, a, payload });
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
    const effects = result.effects;
    // one reused record: the oracle reads it during judge() only
    this.oracle.judge(effects, fillStepTruth(this.truth, this.nowMs, cause, this.sessionGeneration, response));
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
          this.armedTimers.set(timerName(effect.timer), effect.deadlineMs);
          this.schedule(effect.deadlineMs, Kind.Timer, cause, this.clientEpoch, effect.deadlineMs, effect.timer);
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
    const arrival = this.clientToServerTime(session);
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
      if (current) learnFromResponse(this.oracle, this.timeline, message, this.nowMs);
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
