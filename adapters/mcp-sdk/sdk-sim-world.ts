/**
 * One simulated interleaving over the real MCP SDK (SPEC §10): the simulator's scenario, server model,
 * faults and oracle, with every request, response and notification carried as JSON-RPC between an SDK
 * `Client` (inside a `FencedResourceCache` running the client under test) and an SDK `Server` (one per
 * connection, answering from the server model), on one `VirtualClock`.
 *
 * What is reused from the pure simulator, unchanged: the scenario's plan (drawn by the same `Chooser`
 * from the interleaving seed), the `ServerModel` and `Lister`, the serving code (sim/serving.ts: reads,
 * lists, subscriptions, mutations, notifications, slow-read, late-response, drop-unsubscribe-ack,
 * reorder, duplicate, drop, URI spelling, list faults), the workload (sim/workload.ts: commands, closes,
 * discovery, serving, revocations and the authorization feed) and the `Oracle`, which judges every step's
 * effects with the same causes. This world is the host those modules run against (`SimHost`, the part of
 * `World` they use). What differs is the transport:
 * - a message the serving code schedules for the client becomes a real SDK response or notification whose
 *   link delivery is planned for the same virtual time (sdk-sim-link.ts);
 * - connections are real: `initialize` over the link, a new SDK Client and Server per session;
 *   disconnect and server-restart close the link (the cache reports `Disconnected`), the reconnect opens a
 *   new one after the drawn outage; old-session notifications reach the old, closed Client's handlers;
 * - ground truth that a response or notification carries (which resource and version really) never goes on
 *   the wire: requests are tagged with the client's request id in `_meta` so the world can pair them.
 * Not supported: client-crash (a crash would need the cache rebuilt from its ledger mid-run).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defaultClientConfig, type ClientEffect, type ClientInput, type ClientUnderTest } from '../../core/types.js';
import type { Scenario } from '../../scenarios/scenario.js';
import { Chooser, type Decision } from '../../sim/chooser.js';
import { Kind, type NotificationMessage, type RequestMessage, type ResponseMessage } from '../../sim/events.js';
import { faultIndex } from '../../sim/faults.js';
import { causeConnection, causeWorkload } from '../../sim/oracle.js';
import type { InterleavingPlan } from '../../sim/plan.js';
import type { ServerSession } from '../../sim/server.js';
import { serveRequest } from '../../sim/serving.js';
import { revocationTick, startWorkload } from '../../sim/workload.js';
import type { InterleavingResult, World } from '../../sim/world.js';
import { jitterFor, mix, WorldCore } from '../../sim/world-core.js';
import { VirtualClock } from './clock.js';
import { FencedResourceCache } from './fenced-cache.js';
import { StepJudge } from './sdk-sim-judge.js';
import { SimLink, unusedJsonSchemaValidator, type ServedAnswer, type SimLinkHost, type SimRequestMethod } from './sdk-sim-link.js';
import { sdkUnsupportedFaults } from './sdk-support.js';
import type { LinkDirection, MessageKind } from './virtual-transport.js';

/** The part of the pure `World` that sim/serving.ts and sim/workload.ts use. */
export type SimHost = Pick<
  World,
  'server' | 'lister' | 'chooser' | 'plan' | 'wanted' | 'subjectOf' | 'capabilities' | 'timeline' | 'oracle' | 'healing' | 'session' | 'nowMs' | 'fires' | 'schedule' | 'serverToClientTime' | 'spell' | 'deliver'
>;

/** `_meta` keys of a request: the client's request id and the subject it reads as (never shown to the client). */
export const requestIdMetaKey = 'fencesim/requestId';
export const subjectMetaKey = 'fencesim/subject';

/** The SDK's request timeout in a simulated run: the largest Node timer (cleared when the connection closes). */
export const sdkRequestTimeoutMs = 2_147_483_647;

export class UnsupportedSdkFault extends Error {
  constructor(readonly faults: readonly string[]) {
    super(`the SDK transport cannot inject ${faults.join(', ')} yet`);
    this.name = 'UnsupportedSdkFault';
  }
}

export interface SdkInterleavingOptions {
  trace: boolean;
  record: boolean;
  replay?: { decisions: readonly Decision[]; strict: boolean };
}

const kindCodes: Record<MessageKind, number> = { request: 1, response: 2, notification: 3, raw: 4 };

const inputCodes: Record<ClientInput['type'], number> = {
  SubscribeCommanded: 1,
  UnsubscribeCommanded: 2,
  DiscoverCommanded: 3,
  ServeCommanded: 4,
  CompletenessTaskCommanded: 5,
  Connected: 6,
  Disconnected: 7,
  ResponseArrived: 8,
  NotificationArrived: 9,
  TimerFired: 10,
  AuthorizationChanged: 11,
};

export async function runSdkInterleaving(seed: number, scenario: Scenario, client: ClientUnderTest<any>, options: SdkInterleavingOptions): Promise<InterleavingResult> {
  const chooser = options.replay ? Chooser.replaying(options.replay.decisions, options.replay.strict) : Chooser.seeded(seed, options.record);
  const plan = scenario.plan(chooser);
  const unsupported = sdkUnsupportedFaults.filter((fault) => plan.faults[fault] !== undefined);
  if (unsupported.length > 0) throw new UnsupportedSdkFault(unsupported);
  const world = new SdkSimWorld(seed, plan, chooser, client, scenario, options.trace);
  await world.run();
  return world.resultOf(world.judge.steps, chooser.log);
}

export class SdkSimWorld extends WorldCore implements SimHost, SimLinkHost {
  readonly clock = new VirtualClock({ eventsPerCallMax: 50_000_000 });
  readonly judge: StepJudge;

  private readonly cache: FencedResourceCache;
  /** By session generation (index 0 unused). */
  private readonly links: Array<SimLink | undefined> = [];
  private captured: { timeMs: number; message: ResponseMessage } | null = null;
  private commandCause = causeWorkload;
  private jitterDraws = 0;
  private ended = false;
  /** A programmer error seen inside an SDK callback (which would otherwise swallow it). */
  private failure: unknown = null;

  constructor(
    seed: number,
    plan: InterleavingPlan,
    chooser: Chooser,
    client: ClientUnderTest<any>,
    scenario: Scenario,
    trace: boolean,
  ) {
    super(seed, plan, chooser, trace);
    this.judge = new StepJudge(this.oracle, this.timeline);
    this.cache = new FencedResourceCache({
      client,
      config: { ...defaultClientConfig, ...scenario.clientConfig },
      clock: this.clock,
      jitter: () => jitterFor(seed, this.jitterDraws++),
      reconnect: false,
      requestTimeoutMs: sdkRequestTimeoutMs,
      createClient: () => new Client({ name: 'fencesim-sim-client', version: '0.1.0' }, { capabilities: {}, jsonSchemaValidator: unusedJsonSchemaValidator }),
      requestMeta: (request) => (request.subject === undefined ? { [requestIdMetaKey]: request.requestId } : { [requestIdMetaKey]: request.requestId, [subjectMetaKey]: request.subject }),
      connect: () => this.openLink(),
    });
    this.cache.onStep((input, effects) => this.guard(() => this.step(input, effects)));
  }

  get nowMs(): number {
    return this.clock.nowMs();
  }

  /** Runs the interleaving to its end, then closes every connection; throws a programmer error seen on the way. */
  async run(): Promise<void> {
    this.connect();
    startWorkload(this as unknown as World);
    try {
      await this.clock.advanceTo(this.endMs);
      this.throwFailure();
      this.ended = true;
      this.finish();
    } finally {
      this.ended = true;
      await this.cache.close();
      for (const link of this.links) link?.close('interleaving ended');
      await this.clock.advanceBy(0);
    }
    this.throwFailure();
  }

  // -- the host of sim/serving.ts and sim/workload.ts ----------------------------------------------

  schedule(timeMs: number, kind: Kind, cause: number, session: number, a: number, payload: unknown): void {
    if (kind === Kind.ClientMessage) {
      this.toClient(timeMs, session, payload as ResponseMessage | NotificationMessage);
      return;
    }
    this.clock.setTimer(timeMs, () => this.guard(() => this.dispatch(kind, cause, a, payload)));
  }

  /** A workload input (the only caller): carried out through the cache's public commands. */
  deliver(input: ClientInput, cause: number, _response: ResponseMessage | null): void {
    this.commandCause = cause;
    const cache = this.cache;
    switch (input.type) {
      case 'SubscribeCommanded':
        cache.subscribe(input.uri, input.subject);
        break;
      case 'UnsubscribeCommanded':
        cache.unsubscribe(input.uri);
        break;
      case 'DiscoverCommanded':
        cache.discover();
        break;
      case 'CompletenessTaskCommanded':
        cache.completenessTask(input.task);
        break;
      case 'ServeCommanded':
        cache.get(input.uri, input.subject);
        break;
      case 'AuthorizationChanged':
        if (input.allowed) cache.grant(input.subject, input.uri);
        else cache.revoke(input.subject, input.uri);
        break;
      default:
        throw new Error(`SDK world: the workload delivered ${input.type}, which only the transport may produce`);
    }
    this.commandCause = causeWorkload;
  }

  // -- the host of the SDK Server (sdk-sim-link.ts) --------------------------------------------------

  serve(link: SimLink, method: SimRequestMethod, params: Record<string, unknown>): ServedAnswer {
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const requestId = typeof meta[requestIdMetaKey] === 'number' ? (meta[requestIdMetaKey] as number) : -1;
    const record = this.judge.request(requestId);
    const request: RequestMessage = {
      requestId,
      method,
      uri: typeof params.uri === 'string' ? params.uri : '',
      subject: typeof meta[subjectMetaKey] === 'string' ? (meta[subjectMetaKey] as string) : undefined,
      cursor: typeof params.cursor === 'string' ? params.cursor : undefined,
      sentAtMs: record?.sentAtMs ?? this.nowMs,
    };
    this.captured = null;
    const cause = record?.cause ?? causeWorkload;
    serveRequest(this as unknown as World, { timeMs: this.nowMs, sequence: 0, kind: Kind.ServerRequest, cause, session: link.generation, a: requestId, payload: request });
    const captured = this.captured as { timeMs: number; message: ResponseMessage } | null;
    this.captured = null;
    if (captured === null) return { outcome: { type: 'result', result: {} }, plan: null }; // lost on the way back
    if (record !== undefined) record.response = captured.message;
    const outcome = captured.message.outcome;
    const plan = { deliverAtMs: captured.timeMs };
    if (outcome.type === 'result') return { outcome: { type: 'result', result: outcome.result }, plan };
    return { outcome: { type: 'error', code: outcome.code as number, message: String(outcome.message), data: outcome.data }, plan };
  }

  route(link: SimLink, direction: LinkDirection): number {
    const session = this.server.sessions[link.generation]!;
    if (direction === 'to-client') return this.serverToClientTime(session, 0) - this.nowMs;
    return this.clientToServerTime(session) - this.nowMs;
  }

  delivered(link: SimLink, direction: LinkDirection, kind: MessageKind, truth: NotificationMessage | null): void {
    this.events++;
    this.traceHash = mix(mix(this.traceHash, this.nowMs), (direction === 'to-client' ? 10 : 20) + kindCodes[kind]);
    if (truth !== null) this.judge.notificationDelivered(link.generation, truth);
  }

  // -- the loop ------------------------------------------------------------------------------------

  private dispatch(kind: Kind, cause: number, a: number, payload: unknown): void {
    if (this.ended) return;
    this.events++;
    this.traceHash = mix(mix(mix(this.traceHash, this.nowMs), kind), a);
    switch (kind) {
      case Kind.FaultTick:
        this.faultTick();
        break;
      case Kind.Reconnect:
        this.connect();
        break;
      default:
        if (!this.dispatchShared(kind, a, payload)) throw new Error(`SDK world: unexpected event kind ${kind} (cause ${cause})`);
    }
  }

  /** A response (captured for the SDK handler that is serving it) or a notification (sent now by the SDK Server). */
  private toClient(timeMs: number, generation: number, message: ResponseMessage | NotificationMessage): void {
    if (message.kind === 'response') {
      if (this.captured !== null) throw new Error(`SDK world: two responses to one request (#${message.requestId})`);
      this.captured = { timeMs, message };
      return;
    }
    this.links[generation]?.notify(message, timeMs);
  }

  // -- connections ---------------------------------------------------------------------------------

  private connect(): void {
    this.cache.reconnect().catch(() => undefined); // a handshake cut short by a disconnect: the next reconnect retries
  }

  /** The cache's `connect`: a new session on the server model and a new link with its own SDK Server. */
  private async openLink(): Promise<SimLink['clientSide']> {
    const generation = ++this.sessionGeneration;
    this.session = this.server.openSession(generation, this.nowMs);
    const link = new SimLink({ scheduler: this.clock, generation, capabilities: this.capabilities, host: this });
    this.links[generation] = link;
    await link.connectServer();
    return link.clientSide;
  }

  private faultTick(): void {
    if (this.healing) return;
    if (this.session !== null && this.session.alive) {
      if (this.fires('disconnect', 'disconnect?')) this.disconnect(false);
      else if (this.fires('server-restart', 'server restart?')) this.disconnect(true);
    }
    revocationTick(this as unknown as World);
    this.schedule(this.nowMs + this.plan.network.faultTickMs, Kind.FaultTick, causeWorkload, 0, 0, null);
  }

  /** disconnect / server-restart: the link closes (the cache reports Disconnected); a new session after the outage. */
  private disconnect(restart: boolean): void {
    const session = this.session!;
    session.alive = false;
    if (restart) this.server.restarts++;
    this.timeline?.note(this.nowMs, restart ? `server restart: session ${session.generation} and its subscriptions are gone` : `disconnect: session ${session.generation} ends`);
    const network = this.plan.network;
    const reconnectAtMs = this.nowMs + this.chooser.between('network', 'outage', network.outageMsMin, network.outageMsMax);
    if (restart) this.server.warmingUntilMs = reconnectAtMs + this.chooser.between('server', 'warm-up', 0, 1_000);
    const link = this.links[session.generation]!;
    if (this.faultOn[faultIndex['old-session-notification']] === 1) this.strandOldSessionMessages(session, link, reconnectAtMs);
    link.close(restart ? 'fault: server-restart' : 'fault: disconnect');
    this.schedule(reconnectAtMs, Kind.Reconnect, causeConnection, 0, 0, null);
  }

  /** old-session-notification: updates buffered on the dead session's stream surface after the reconnect. */
  private strandOldSessionMessages(session: ServerSession, link: SimLink, reconnectAtMs: number): void {
    for (let resource = 0; resource < session.subscribed.length; resource++) {
      if (session.subscribed[resource] === 0 || !this.fires('old-session-notification', 'strand old notification?')) continue;
      const message: NotificationMessage = { kind: 'notification', uri: this.server.uris[resource]!, resource, version: this.server.version[resource]!, survivesSessionEnd: true, listChanged: false };
      const timeMs = reconnectAtMs + this.chooser.between('network', 'old notification delay', 1, 300);
      this.clock.setTimer(timeMs, () => this.guard(() => this.ended || link.strand(message)));
    }
  }

  /** One step of the client under test (reported by the cache): judged, and folded into the trace hash. */
  private step(input: ClientInput, effects: readonly ClientEffect[]): void {
    if (this.ended) return;
    const session = this.session;
    const nowMs = this.nowMs;
    this.judge.judge(input, effects, { nowMs, sessionGeneration: this.sessionGeneration, sessionAlive: session !== null && session.alive, commandCause: this.commandCause });
    this.traceHash = mix(mix(mix(this.traceHash, nowMs), inputCodes[input.type]), effects.length);
  }

  private guard(body: () => unknown): void {
    try {
      body();
    } catch (error) {
      if (this.failure === null) this.failure = error;
    }
  }

  private throwFailure(): void {
    const failure = this.cache.diagnostics().failure;
    if (failure !== null) throw new Error(`the client under test threw: ${failure}`);
    if (this.failure !== null) throw this.failure;
  }
}
