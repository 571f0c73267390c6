/**
 * The client driver of the pure transport: a reducer client (`ClientUnderTest`) stepped directly, its
 * effects carried out by the shared interpreter (effects.ts) onto the pure world's queue. Also the pure
 * transport's message delivery: what reaches the client on which session, and the stranding of
 * pre-crash responses (they may surface after the restart on their old session).
 */
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest, TimerId } from '../../core/types.js';
import { ownedStepOf, type StepFunction } from '../../core/step-owned.js';
import { interpretEffects, type EffectPort, type RequestEffect, type TimerEffect } from './effects.js';
import { Kind, type NotificationMessage, type RequestMessage, type ResponseMessage, type SimEvent } from './events.js';
import type { ClientDriver, CommandInput, WorldHost } from './host.js';
import { causeConnection, causeListChanged, causeNotification, causeOldNotification, type StepTruth } from '../oracle.js';
import type { ServerSession } from '../actors/server.js';
import { TimerTable } from './timer-table.js';
import { fillStepTruth, jitterFor, learnFromResponse, mix, newStepTruth } from './step-truth.js';
import { isEra2026Session, listenParams, observeEra2026Response, observeListenDelivery, openEra } from '../actors/era2026.js';
import type { ListenCancelEffect } from './effects.js';
import type { StepListener } from './interleaving.js';

/** What the reducer driver needs of the pure world beyond the port: its queue and trace hash. */
export interface ReducerWorld extends WorldHost {
  traceHash: number;
  readonly jitterSeed: number;
  /** A pure-transport queue event tagged with a session generation (messages, requests) or client epoch (timers). */
  enqueue(timeMs: number, kind: Kind, cause: number, session: number, a: number, payload: unknown): void;
}

export class ReducerDriver implements ClientDriver, EffectPort {
  steps = 0;
  state: unknown;
  /** Increases at every client crash: timers armed before it never fire. */
  private epoch = 0;
  /** The deadline of each timer's latest TimerArmed; earlier ones for the timer are replaced. */
  private readonly armedTimers = new TimerTable();
  private readonly truth: StepTruth = newStepTruth();
  /** The updated notification the step under way handles (null: another input), and whether it came on the current session. */
  private notification: NotificationMessage | null = null;
  private notificationCurrent = true;
  /**
   * How a state is stepped: the client's owned step when it has one (the driver holds the only reference
   * to `state` and replaces it with each result, so the step may change it in place), else its pure step.
   */
  private readonly stepState: StepFunction<unknown>;

  constructor(
    private readonly world: ReducerWorld,
    private readonly client: ClientUnderTest,
    private readonly config: ClientConfig,
    /** Told each step (InterleavingOptions.onStep); a hook rather than a wrapped client, so the step's call site stays the same. */
    private readonly onStep: StepListener | null = null,
  ) {
    this.state = client.init(config);
    // A step client that claims catalogs is judged on publishing one after the heal (sim/checkers/catalog-liveness.ts).
    if (client.features?.catalogs === true) world.oracle.catalogLiveness.claim(config.catalogReviewMs, config.listChangedDebounceMs);
    const owned = ownedStepOf(client);
    this.stepState = owned ?? ((state, input) => client.step(state, input));
  }

  // -- the driver port ---------------------------------------------------------------------------------

  command(input: CommandInput, cause: number): void {
    this.step(input, cause, null);
  }

  connect(cause: number): void {
    const world = this.world;
    const session = world.openSession();
    const era = openEra(world, session);
    const input: ClientInput = { type: 'Connected', nowMs: world.nowMs, jitter: 0, sessionGeneration: session.generation, capabilities: { ...world.capabilities } };
    if (era !== undefined) input.era = era;
    this.step(input, cause, null);
  }

  sessionLost(session: ServerSession): void {
    this.step({ type: 'Disconnected', nowMs: this.world.nowMs, jitter: 0, sessionGeneration: session.generation }, causeConnection, null);
  }

  crash(): boolean {
    const client = this.client;
    this.epoch++;
    this.armedTimers.clear();
    if (client.durable === undefined || client.recover === undefined) {
      this.state = client.init(this.config);
      return false;
    }
    const violationsBefore = this.world.oracle.violations.length;
    const recovered = client.recover(this.config, JSON.parse(JSON.stringify(client.durable(this.state) ?? null)));
    this.state = recoveredState(client.name, recovered);
    // The restart is a step: its effects (the reference's session_lost moves) are judged and carried out.
    // Not mixed into the trace hash: the steps after it carry its consequences (golden hashes stay put).
    this.judgeAndCarryOut(recovered.effects, causeConnection, null, violationsBefore);
    return true;
  }

  // -- the effect port -----------------------------------------------------------------------------------

  request(effect: RequestEffect, cause: number): void {
    const world = this.world;
    const session = world.session;
    if (session === null || !session.alive) return; // no connection: the send fails
    const arrival = world.clientToServerTime(session);
    const request: RequestMessage = { requestId: effect.requestId, method: effect.method, uri: effect.uri, subject: effect.subject, cursor: effect.cursor, sentAtMs: world.oracle.stamp(world.nowMs) };
    world.enqueue(arrival, Kind.ServerRequest, cause, session.generation, effect.requestId, request);
  }

  /** 2026-07-28: `notifications/cancelled` for a listen goes down the same FIFO pipe as requests. */
  cancelListen(effect: ListenCancelEffect, cause: number): void {
    const world = this.world;
    const session = world.session;
    if (session === null || !session.alive || session.generation !== effect.sessionGeneration) return;
    const request: RequestMessage = { requestId: effect.requestId, method: 'notifications/cancelled', uri: effect.uri, subject: undefined, cursor: undefined, sentAtMs: world.oracle.stamp(world.nowMs) };
    world.enqueue(world.clientToServerTime(session), Kind.ServerRequest, cause, session.generation, effect.requestId, request);
  }

  timer(effect: TimerEffect, cause: number): void {
    const deadlineMs = effect.deadlineMs;
    if (deadlineMs < this.world.nowMs) return;
    this.armedTimers.arm(effect.timer, deadlineMs);
    this.world.enqueue(deadlineMs, Kind.Timer, cause, this.epoch, deadlineMs, effect.timer);
  }

  // -- queue events of the pure transport ------------------------------------------------------------

  timerFired(event: SimEvent): void {
    if (event.session !== this.epoch) return; // armed by a client that has since crashed
    const timer = event.payload as TimerId;
    // Re-arming a timer replaces it (as clearTimeout + setTimeout would): only the latest fires.
    if (!this.armedTimers.takeIfLatest(timer, event.a)) return;
    this.step({ type: 'TimerFired', nowMs: this.world.nowMs, jitter: 0, timer, deadlineMs: event.a }, event.cause, null);
  }

  messageArrived(event: SimEvent): void {
    const world = this.world;
    const message = event.payload as ResponseMessage | NotificationMessage;
    const current = event.session === world.sessionGeneration && world.session !== null && world.session.alive;
    if (!current && !message.survivesSessionEnd) {
      if (message.kind === 'response') this.strandAfterCrash(event, message);
      return;
    }
    const nowMs = world.nowMs;
    const sessionGeneration = event.session;
    if (message.kind === 'response') {
      if (current) learnFromResponse(world.oracle, world.timeline, message, world.nowMs);
      if (current) observeEra2026Response(world, message);
      this.step({ type: 'ResponseArrived', nowMs, jitter: 0, sessionGeneration, requestId: message.requestId, outcome: message.outcome }, event.cause, message);
      return;
    }
    if (message.listChanged) {
      if (current) world.observe({ kind: 'list-changed', timeMs: nowMs });
      this.step({ type: 'NotificationArrived', nowMs, jitter: 0, sessionGeneration, method: 'notifications/resources/list_changed', params: {} }, current ? causeListChanged : causeOldNotification, null);
      return;
    }
    const listen = message.listen;
    if (current && listen !== undefined) observeListenDelivery(world, sessionGeneration, message);
    if (listen === undefined || listen.method === 'notifications/resources/updated') world.observe({ kind: 'notified', resource: message.resource, version: message.version, current });
    const method = listen === undefined ? 'notifications/resources/updated' : listen.method;
    const params = listen === undefined ? { uri: message.uri } : listenParams(message.uri, listen);
    // A 2026 ack answers the listen (like a 2025 subscribe ACK): it keeps the cause of the step that sent the listen.
    const ackCause = listen !== undefined && listen.method !== 'notifications/resources/updated' ? event.cause : causeNotification;
    this.notification = message;
    this.notificationCurrent = current;
    this.step({ type: 'NotificationArrived', nowMs, jitter: 0, sessionGeneration, method, params }, current ? ackCause : causeOldNotification, null);
    this.notification = null;
  }

  /** client-crash: a response to a pre-crash request may still surface after the restart, on its old session. */
  private strandAfterCrash(event: SimEvent, message: ResponseMessage): void {
    const world = this.world;
    const session = world.server.sessions[event.session];
    if (session === undefined || session.strandAfterMs < 0) return;
    if (!world.chooser.chance('faults', 'pre-crash response surfaces?', 1, 2)) return;
    message.survivesSessionEnd = true;
    const timeMs = Math.max(world.nowMs, session.strandAfterMs) + world.chooser.between('network', 'pre-crash response delay', 1, 300);
    world.enqueue(timeMs, Kind.ClientMessage, event.cause, event.session, event.a, message);
  }

  // -- one step -------------------------------------------------------------------------------------------

  private step(input: ClientInput, cause: number, response: ResponseMessage | null): void {
    const world = this.world;
    input.jitter = jitterFor(world.jitterSeed, this.steps);
    this.steps++;
    const timeline = world.timeline;
    const oracle = world.oracle;
    const violationsBefore = oracle.violations.length;
    if (timeline !== null) timeline.input(world.nowMs, input, response, world.sessionGeneration);
    const result = this.stepState(this.state, input);
    this.state = result.state;
    if (this.onStep !== null) this.onStep(input, result.effects);
    world.traceHash = mix(world.traceHash, result.effects.length);
    this.judgeAndCarryOut(result.effects, cause, response, violationsBefore);
  }

  private judgeAndCarryOut(effects: readonly ClientEffect[], cause: number, response: ResponseMessage | null, violationsBefore: number): void {
    const world = this.world;
    const oracle = world.oracle;
    // one reused record: the oracle reads it during judge() only
    const truth = fillStepTruth(this.truth, world.nowMs, cause, world.sessionGeneration, response);
    const session = world.session;
    oracle.subscriptionHeld.onStep(world.sessionGeneration, session !== null && session.alive && world.capabilities.subscribe && !isEra2026Session(session), world.nowMs);
    oracle.judge(effects, truth);
    // Step clients (SPEC §4) have receipts and audits among their effects: what became of a read's answer is judged.
    if (response !== null && response.read && response.deniedSubject < 0) oracle.answers.judgeReadAnswered(effects, truth);
    oracle.unsubscribeAcks.judgeStep(effects, response, world.sessionGeneration, world.nowMs);
    if (this.notification !== null) oracle.notificationRecords.judgeStep(effects, this.notification, this.notificationCurrent, world.nowMs);
    if (world.session !== null) oracle.offered.judgeRequests(effects, world.capabilities.subscribe, isEra2026Session(world.session), world.nowMs);
    interpretEffects(effects, cause, oracle, this);
    if (world.timeline !== null) world.timeline.effects(world.nowMs, effects, oracle, violationsBefore);
  }
}

/** The state of a `recover` result, which must be a StepResult (`{ state, effects }`); a clear error otherwise. */
function recoveredState(name: string, recovered: unknown): unknown {
  const result = recovered as { state?: unknown; effects?: unknown } | null;
  if (result === null || typeof result !== 'object' || !('state' in result) || !Array.isArray(result.effects)) {
    throw new TypeError(`client ${name}: recover(config, durable) must return a step result { state, effects }, got ${result === null ? 'null' : typeof result}`);
  }
  return result.state;
}
