/**
 * The client driver of the pure transport: a reducer client (`ClientUnderTest`) stepped directly, its
 * effects carried out by the shared interpreter (effects.ts) onto the pure world's queue. Also the pure
 * transport's message delivery: what reaches the client on which session, and the stranding of
 * pre-crash responses (they may surface after the restart on their old session).
 */
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest, StepResult, TimerId } from '../../core/types.js';
import { ownedStepOf, type StepFunction } from '../../core/step-owned.js';
import { assertKnownEffects, interpretEffects, type EffectPort, type RequestEffect, type TimerEffect } from './effects.js';
import { Kind, type NotificationMessage, type RequestMessage, type ResponseMessage, type SimEvent } from './events.js';
import type { ClientDriver, CommandInput, WorldHost } from './host.js';
import { causeConnection, causeListChanged, causeNotification, causeOldNotification, type StepTruth } from '../oracle.js';
import type { ServerSession } from '../actors/server.js';
import { TimerTable } from './timer-table.js';
import { fillStepTruth, jitterFor, learnFromResponse, mix, newStepTruth } from './step-truth.js';
import { isEra2026Session, listenParams, observeEra2026Response, observeListenDelivery, openEra } from '../actors/era2026.js';
import type { ListenCancelEffect } from './effects.js';
import type { StepListener } from './interleaving.js';
import { deepFreeze, FrozenStepError, frozenRestart, frozenStep } from './frozen-step.js';
import { faultIndex } from '../faults.js';
import { hostileInputFor, hostileKindCount, hostileTableOf, type HostileInput } from '../actors/hostile-inputs.js';

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
  private notificationListenLive = false;
  /**
   * How a state is stepped: the client's owned step when it has one (the driver holds the only reference
   * to `state` and replaces it with each result, so the step may change it in place), else its pure step.
   */
  private readonly stepState: StepFunction<unknown>;
  /** The session the client was last handed Connected for, while it lasts (-1: none, or lost, or a crash since). */
  private connectedSession = -1;
  /** The client was handed Connected since it started or last restarted (it knows the server's capabilities). */
  private toldSinceRestart = false;
  /** The highest session generation the client was ever handed Connected for (0: none), crashes included. */
  private highestSession = 0;
  /** malformed-input is in the plan (sim/actors/hostile-inputs.ts): a step may be preceded, or replaced, by a hostile one. */
  private readonly hostile: boolean;
  /** input-repeated is in the plan: a Connected, subscribe or unsubscribe may be handed twice (maybeRepeat). */
  private readonly repeats: boolean;

  constructor(
    private readonly world: ReducerWorld,
    private readonly client: ClientUnderTest,
    private readonly config: ClientConfig,
    /** Told each step (InterleavingOptions.onStep); a hook rather than a wrapped client, so the step's call site stays the same. */
    private readonly onStep: StepListener | null = null,
    /** InterleavingOptions.pureStep: step through the pure `step` on deep-frozen states (sim/kernel/frozen-step.ts). */
    private readonly pureStep = false,
  ) {
    this.state = client.init(config);
    // What only a step client is judged on (a module client is observed from outside, sim/kernel/module-driver):
    // a step client keeps an outbox, each accepted version's lineage judged against its declared configuration;
    world.oracle.outboxLineage.expectLineage(config.derivedEntriesPerVersion);
    // it answers every serve command in its step (a module client may answer later);
    world.oracle.availability.answersRequired = true;
    // its effects are its own, so their shape is judged (a module client's are the harness's synthesis).
    world.oracle.effectShape.judges = true;
    // A step client that claims catalogs is judged on publishing one after the heal (sim/checkers/catalog-liveness.ts).
    if (client.features?.catalogs === true) {
      world.oracle.catalogLiveness.claim(config.catalogReviewMs, config.listChangedDebounceMs);
      // Its scan record too (sim/checkers/scan-record.ts), on a server that does or does not negotiate snapshot IDs.
      world.oracle.scanRecord.claim(config.scanPagesMax, world.capabilities.snapshotId === true);
    }
    // A step client's read reasons are judged against its own moves (sim/checkers/offered.ts request_record_untrue).
    world.oracle.offered.judgesReasons = true;
    // A step client names every listen it sends, so it is judged on renewing a lost watch (sim/checkers/era2026-renewal.ts).
    world.oracle.renewal.judge(config);
    const owned = pureStep ? undefined : ownedStepOf(client);
    this.stepState = pureStep ? frozenStep(client, () => world.timeline?.lines ?? null) : owned ?? ((state, input) => client.step(state, input));
    this.hostile = world.faultOn[faultIndex['malformed-input']] === 1;
    this.repeats = world.faultOn[faultIndex['input-repeated']] === 1;
  }

  // -- the driver port ---------------------------------------------------------------------------------

  command(input: CommandInput, cause: number): void {
    const effects = this.step(input, cause, null);
    const world = this.world;
    const session = world.session;
    if (input.type === 'SubscribeCommanded' && session !== null && session.alive && this.connectedSession === session.generation) {
      const violationsBefore = world.oracle.violations.length;
      world.oracle.offered.judgeSubscribeCommand(input.uri, effects, world.capabilities.resources && world.capabilities.subscribe, isEra2026Session(session), world.nowMs);
      world.timeline?.effects(world.nowMs, [], world.oracle, violationsBefore); // names a violation right after the step
    }
    if (input.type === 'SubscribeCommanded' || input.type === 'UnsubscribeCommanded') this.maybeRepeat(input);
  }

  connect(cause: number): void {
    const world = this.world;
    const session = world.openSession();
    const era = openEra(world, session);
    const input: ClientInput = { type: 'Connected', nowMs: world.nowMs, jitter: 0, sessionGeneration: session.generation, capabilities: { ...world.capabilities } };
    if (era !== undefined) input.era = era;
    this.world.oracle.sessions.onToldEnded(session.generation - 1); // a new connection: every older one is over
    this.step(input, cause, null);
    this.maybeRepeat(input);
    this.judgeClosesSettled();
    this.connectedSession = session.generation;
    this.toldSinceRestart = true;
    if (session.generation > this.highestSession) this.highestSession = session.generation;
  }

  sessionLost(session: ServerSession): void {
    this.world.oracle.sessions.onToldEnded(session.generation);
    if (this.connectedSession === session.generation) this.connectedSession = -1;
    this.step({ type: 'Disconnected', nowMs: this.world.nowMs, jitter: 0, sessionGeneration: session.generation }, causeConnection, null);
  }

  crash(): boolean {
    const client = this.client;
    this.epoch++;
    this.connectedSession = -1;
    this.toldSinceRestart = false;
    this.armedTimers.clear();
    if (client.durable === undefined || client.recover === undefined) {
      this.state = client.init(this.config);
      return false;
    }
    const violationsBefore = this.world.oracle.violations.length;
    this.world.oracle.crash.judgeDurableSession(client.durable(this.state), this.highestSession, this.world.nowMs);
    const config = this.config;
    const recover = (durable: unknown): unknown => {
      const ledger = JSON.parse(JSON.stringify(durable ?? null)) as unknown;
      if (this.pureStep) deepFreeze(ledger);
      return client.recover!(config, ledger);
    };
    const recovered = (this.pureStep
      ? frozenRestart({ durable: client.durable, recover: client.recover }, this.state, recover, () => this.world.timeline?.lines ?? null)
      : recover(client.durable(this.state))) as StepResult<unknown>;
    this.state = recoveredState(client.name, recovered);
    // The restart is a step: its effects (the reference's session_lost moves) are judged and carried out.
    // Not mixed into the trace hash: the steps after it carry its consequences (golden hashes stay put).
    this.judgeAndCarryOut(recovered.effects, causeConnection, null, violationsBefore);
    this.judgeClosesSettled();
    return true;
  }

  /**
   * input-repeated: the host hands `input` (a Connected, subscribe or unsubscribe command, just stepped) a second time
   * at once. The client already holds that session or that wish, so the repeat must change nothing: judged as an inert
   * hostile input (sim/checkers/inputs.ts), its effects never carried out, and a client that took it goes on from its
   * state before it.
   */
  private maybeRepeat(input: ClientInput): void {
    const world = this.world;
    if (!this.repeats || !world.fires('input-repeated', 'input repeated?')) return;
    const made: HostileInput = { kind: `${input.type}-repeated`, input: { ...input }, expect: 'inert', rejection: null, shows: [] };
    world.timeline?.note(world.nowMs, `[truth] the host hands the client the same ${input.type} again`);
    this.stepJudgedOnly(made, structuredClone(this.state));
  }

  /** A new session or a restart: no close of the session before it is still under way (sim/checkers/close-record.ts). */
  private judgeClosesSettled(): void {
    const world = this.world;
    const violationsBefore = world.oracle.violations.length;
    world.oracle.closeRecord.judgeSessionStarted(world.nowMs);
    world.timeline?.effects(world.nowMs, [], world.oracle, violationsBefore); // names a violation right after the step
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
      if (current) learnFromResponse(world.oracle, world.timeline, message, world.nowMs, event.cause);
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
    // 2026-07-28: does the updated's tag name a live listen acknowledged with its resource on this connection (before the step)?
    this.notificationListenLive = current && listen !== undefined && listen.subscriptionId !== null && world.oracle.era2026Watch.isLiveListen(listen.subscriptionId, sessionGeneration, message.resource);
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

  /** One step of `input` (after or in place of a hostile one when malformed-input fires): the real step's effects. */
  private step(input: ClientInput, cause: number, response: ResponseMessage | null): readonly ClientEffect[] {
    if (this.hostile && this.world.fires('malformed-input', 'malformed input?')) return this.stepHostile(input, cause, response);
    return this.stepOnce(input, cause, response);
  }

  /**
   * malformed-input: a hostile input (a malformed or inert one before `input`, or an equivalent spelling in its place),
   * then the real step, judged against the client's own step of `input` from its state before (a structured copy:
   * a step client's state is plain data, SPEC §4).
   */
  private stepHostile(input: ClientInput, cause: number, response: ResponseMessage | null): readonly ClientEffect[] {
    const world = this.world;
    const table = hostileTableOf(input, world.plan.era2026 !== undefined);
    const made = hostileInputFor(input, world.chooser.draw('faults', 'malformed input kind', hostileKindCount(table)), table);
    world.timeline?.note(world.nowMs, `[truth] the harness hands the client ${made.kind} (${made.expect}) ${made.expect === 'same' ? 'in place of' : 'before'} the next input`);
    const before: unknown = structuredClone(this.state);
    if (made.expect === 'rejected' || made.expect === 'inert') {
      const effects = this.stepJudgedOnly(made, before);
      if (effects !== null) world.traceHash = mix(world.traceHash, effects.length);
    }
    return this.finishHostile(made, input, cause, response, before);
  }

  /**
   * Steps a hostile input that must be rejected or change nothing (malformed-input's, or input-repeated's repeat),
   * judged only as the answer to it and not carried out: the truth events the real input comes with (a serve, a task)
   * are about the real step, and what a client does with such an input is a violation. A client that took it goes on
   * from `before`, its state before it (a state built from a malformed field, its effects never carried out, would
   * only fail later in ways that say less); one that threw (SPEC §11: a step never throws on input) too. Returns the
   * effects, or null when the step threw.
   */
  private stepJudgedOnly(made: HostileInput, before: unknown): readonly ClientEffect[] | null {
    const world = this.world;
    const violationsBefore = world.oracle.violations.length;
    this.steps++;
    let result: StepResult<unknown>;
    try {
      result = this.stepState(this.state, made.input as ClientInput);
    } catch (error) {
      if (error instanceof FrozenStepError) throw error; // the self-check's frozen run: a write into the state, not an input judgement
      world.oracle.inputs.judgeThrown(made, error, world.nowMs);
      this.state = structuredClone(before);
      world.timeline?.effects(world.nowMs, [], world.oracle, violationsBefore);
      return null;
    }
    const taken = world.oracle.inputs.judgeHostile(made, result.effects, world.nowMs);
    this.state = taken ? structuredClone(before) : result.state;
    world.timeline?.effects(world.nowMs, result.effects, world.oracle, violationsBefore);
    return result.effects;
  }

  /** The real step after (or, spelled, in place of) a hostile input, judged against the client's step of it from `before`. */
  private finishHostile(made: HostileInput, input: ClientInput, cause: number, response: ResponseMessage | null, before: unknown): readonly ClientEffect[] {
    const real = made.expect === 'same' ? (made.input as ClientInput) : input;
    const effects = this.stepOnce(real, cause, response);
    input.jitter = real.jitter;
    const world = this.world;
    const violationsBefore = world.oracle.violations.length;
    if (made.expect === 'pair') {
      const spelled = made.input as ClientInput;
      const other = made.other as ClientInput;
      spelled.jitter = other.jitter = real.jitter;
      world.oracle.inputs.judgeInert(made, this.client.step(before, spelled).effects, this.client.step(before, other).effects, world.nowMs);
    } else {
      world.oracle.inputs.judgeInert(made, effects, this.client.step(before, input).effects, world.nowMs);
    }
    world.timeline?.effects(world.nowMs, [], world.oracle, violationsBefore); // names a violation right after the step
    return effects;
  }

  private stepOnce(input: ClientInput, cause: number, response: ResponseMessage | null): readonly ClientEffect[] {
    const world = this.world;
    input.jitter = jitterFor(world.jitterSeed, this.steps);
    this.steps++;
    const timeline = world.timeline;
    const oracle = world.oracle;
    const violationsBefore = oracle.violations.length;
    if (timeline !== null) timeline.input(world.nowMs, input, response, world.sessionGeneration);
    const result = this.stepState(this.state, input);
    assertKnownEffects(this.client.name, result.effects);
    this.state = result.state;
    if (this.onStep !== null) this.onStep(input, result.effects);
    world.traceHash = mix(world.traceHash, result.effects.length);
    if ((input.type === 'SubscribeCommanded' || input.type === 'DiscoverCommanded') && !world.capabilities.resources && this.toldSinceRestart) {
      oracle.offered.judgeRefusal(input.type, input.type === 'SubscribeCommanded' ? input.uri : '', result.effects, world.nowMs);
    }
    this.judgeAndCarryOut(result.effects, cause, response, violationsBefore);
    return result.effects;
  }

  private judgeAndCarryOut(effects: readonly ClientEffect[], cause: number, response: ResponseMessage | null, violationsBefore: number): void {
    const world = this.world;
    const oracle = world.oracle;
    // one reused record: the oracle reads it during judge() only
    const truth = fillStepTruth(this.truth, world.nowMs, cause, world.sessionGeneration, response);
    const session = world.session;
    const era2026 = session !== null && isEra2026Session(session);
    oracle.subscriptionHeld.onStep(world.sessionGeneration, session !== null && session.alive && world.capabilities.subscribe && !era2026, world.nowMs);
    oracle.judge(effects, truth);
    // Step clients (SPEC §4) have receipts and audits among their effects: what became of a read's answer is judged.
    if (response !== null && response.read && response.deniedSubject < 0) oracle.answers.judgeReadAnswered(effects, truth);
    if (response !== null && (response.method === 'resources/subscribe' || response.method === 'resources/unsubscribe')) oracle.answers.judgeAckAnswered(effects, truth, response.method, response.outcome.type === 'error');
    oracle.unsubscribeAcks.judgeStep(effects, response, world.sessionGeneration, world.nowMs);
    if (this.notification !== null) oracle.notificationRecords.judgeStep(effects, this.notification, this.notificationCurrent, this.notificationListenLive, world.nowMs);
    if (session !== null) oracle.offered.judgeRequests(effects, world.capabilities.resources, world.capabilities.subscribe, era2026, world.nowMs);
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
