/**
 * One simulated interleaving over the real MCP SDK (SPEC §10): the simulator's scenario, server model,
 * faults and oracle, with every request, response and notification carried as JSON-RPC between an SDK
 * `Client` (inside a `FencedResourceCache` running the client under test) and an SDK `Server` (one per
 * connection, answering from the server model), on one `VirtualClock`.
 *
 * What is reused from the pure simulator, unchanged: the scenario's plan (drawn by the same `Chooser`
 * from the interleaving seed), the `ServerModel` and `Lister`, the serving code (sim/actors/serving.ts: reads,
 * lists, subscriptions, mutations, notifications, slow-read, late-response, drop-unsubscribe-ack,
 * reorder, duplicate, drop, URI spelling, list faults), the workload (sim/actors/workload.ts: commands, closes,
 * discovery, serving, revocations and the authorization feed) and the `Oracle`, which judges every step's
 * effects with the same causes, and the fault code (sim/actors/sessions.ts: disconnect, server restart,
 * client-crash, old-session messages). This world implements the world port (sim/host.ts) those modules
 * are written against; its client driver is the cache (sdk-sim-driver.ts). What differs is the transport:
 * - a message the serving code schedules for the client becomes a real SDK response or notification whose
 *   link delivery is planned for the same virtual time (sdk-sim-link.ts);
 * - connections are real: `initialize` over the link, a new SDK Client and Server per session;
 *   disconnect and server-restart close the link (the cache reports `Disconnected`), the reconnect opens a
 *   new one after the drawn outage; old-session notifications reach the old, closed Client's handlers;
 *   client-crash replaces the cache by one recovered from its ledger (sdk-sim-driver.ts);
 * - ground truth that a response or notification carries (which resource and version really) never goes on
 *   the wire: requests are tagged with the client's request id in `_meta` so the world can pair them.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { defaultClientConfig, type ClientUnderTest } from '../../../core/types.js';
import type { Scenario } from '../../../scenarios/scenario.js';
import { Chooser, type Decision } from '../../../sim/chooser.js';
import type { Kind, NotificationMessage, RequestMessage } from '../../../sim/kernel/events.js';
import { causeWorkload } from '../../../sim/oracle.js';
import type { InterleavingPlan } from '../../../sim/plan.js';
import { connect } from '../../../sim/actors/sessions.js';
import { startWorkload } from '../../../sim/actors/workload.js';
import type { InterleavingResult } from '../../../sim/kernel/interleaving.js';
import { mix } from '../../../sim/kernel/step-truth.js';
import { VirtualClock } from '../transport/clock.js';
import { LinkedWorld } from './linked-world.js';
import { CacheDriver, requestIdMetaKey, subjectMetaKey, type CacheWorld } from './sdk-sim-driver.js';
import { replayOn, SimLink, type ServedAnswer, type SessionLink, type SimLinkHost, type SimRequestMethod, type WorldLink } from './sdk-sim-link.js';
import type { SdkConnectionFactory } from '../cache/sdk-connection.js';
import type { LinkDirection, MessageKind } from '../transport/virtual-transport.js';

export { requestIdMetaKey, sdkRequestTimeoutMs, subjectMetaKey } from './sdk-sim-driver.js';

export interface SdkInterleavingOptions {
  trace: boolean;
  record: boolean;
  replay?: { decisions: readonly Decision[]; strict: boolean };
}

export async function runSdkInterleaving(seed: number, scenario: Scenario, client: ClientUnderTest<any>, options: SdkInterleavingOptions): Promise<InterleavingResult> {
  const chooser = options.replay ? Chooser.replaying(options.replay.decisions, options.replay.strict) : Chooser.seeded(seed, options.record);
  const plan = scenario.plan(chooser);
  const world = new SdkSimWorld(seed, plan, chooser, client, scenario, options.trace);
  await world.run();
  return world.resultOf(world.client.steps, chooser.log);
}

export class SdkSimWorld extends LinkedWorld implements CacheWorld, SimLinkHost {
  readonly clock = new VirtualClock({ eventsPerCallMax: 50_000_000 });
  readonly client: CacheDriver;

  /** `connection`: the cache's SDK binding (default SDK 1.x; the 2026-07-28 world passes the v2 one). */
  constructor(seed: number, plan: InterleavingPlan, chooser: Chooser, client: ClientUnderTest<any>, scenario: Scenario, trace: boolean, connection?: SdkConnectionFactory) {
    super(seed, plan, chooser, trace, 'SDK world');
    this.client = new CacheDriver(this, client, { ...defaultClientConfig, ...scenario.clientConfig }, connection);
  }

  /** Runs the interleaving to its end, then closes every connection; throws a programmer error seen on the way. */
  async run(): Promise<void> {
    connect(this);
    startWorkload(this);
    try {
      await this.clock.advanceTo(this.endMs);
      this.throwFailure();
      this.ended = true;
      this.finish();
    } finally {
      this.ended = true;
      await this.client.close();
      await this.closeLinks();
    }
    this.throwFailure();
  }

  // -- the world port ------------------------------------------------------------------------------

  schedule(timeMs: number, kind: Kind, _cause: number, a: number, payload: unknown): void {
    this.clock.setTimer(timeMs, () => this.guard(() => this.dispatch(kind, a, payload)));
  }

  // -- the cache driver's world --------------------------------------------------------------------

  /** The cache's `connect`: a new session on the server model and a new link with its own SDK Server. */
  async openLink(): Promise<Transport> {
    const generation = this.openSession().generation;
    const link = this.createLink(generation);
    this.links[generation] = link;
    await link.connectServer();
    return link.clientSide;
  }

  /** The link of a new session (an SDK 1.x Server end here). */
  protected createLink(generation: number): WorldLink {
    return new SimLink({ scheduler: this.clock, generation, capabilities: this.capabilities, host: this });
  }

  // -- the host of the SDK Server (sdk-sim-link.ts) --------------------------------------------------

  serve(link: SessionLink, method: SimRequestMethod, params: Record<string, unknown>, jsonRpcId: string | number): ServedAnswer {
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const requestId = typeof meta[requestIdMetaKey] === 'number' ? (meta[requestIdMetaKey] as number) : -1;
    const record = this.client.judge.requestRecord(requestId);
    const request: RequestMessage = {
      requestId,
      method,
      uri: typeof params.uri === 'string' ? params.uri : '',
      subject: typeof meta[subjectMetaKey] === 'string' ? (meta[subjectMetaKey] as string) : undefined,
      cursor: typeof params.cursor === 'string' ? params.cursor : undefined,
      sentAtMs: record?.sentAtMs ?? this.nowMs,
    };
    return this.responses.serve(this, link.generation, record?.cause ?? causeWorkload, request, record, replayOn(link, jsonRpcId));
  }

  route(link: SessionLink, direction: LinkDirection): number {
    const session = this.server.sessions[link.generation]!;
    if (direction === 'to-client') return this.serverToClientTime(session, 0) - this.nowMs;
    return this.clientToServerTime(session) - this.nowMs;
  }

  delivered(link: SessionLink, direction: LinkDirection, kind: MessageKind, truth: NotificationMessage | null, _message?: unknown): void {
    this.countDelivery(direction, kind);
    if (truth !== null) this.client.judge.notificationDelivered(link.generation, truth);
  }

  // -- the loop ------------------------------------------------------------------------------------

  private dispatch(kind: Kind, a: number, payload: unknown): void {
    if (this.ended) return;
    this.events++;
    this.traceHash = mix(mix(mix(this.traceHash, this.nowMs), kind), a);
    this.dispatchWorld(kind, a, payload);
  }

  private throwFailure(): void {
    const failure = this.client.failure();
    if (failure !== null) throw new Error(`the client under test threw: ${failure}`);
    if (this.failure !== null) throw this.failure;
  }
}
