/**
 * One interleaving of a module client (a user's own async MCP client, contract.ts): the scenario's plan,
 * server model, faults, workload and oracle of the simulator, with the server end an SDK `Server` per
 * connection answering from the server model (sdk-sim-link.ts), and the client the user's code, driven
 * through its handle (module-driver.ts) and judged as a black box (observer.ts). The client's timers, Date,
 * performance.now and Math.random run on virtual time and the seeded PRNG (virtual-runtime.ts); the clock
 * drains promise jobs after every event, so the order of everything is a function of the seed.
 *
 * On a 2026-07-28 plan the server end is the SDK v2 server instead, and listens are followed
 * (adapters/mcp-sdk/v2/module-era2026.ts).
 *
 * Requests carry no ground truth: a read is answered as the subject the workload reads that resource as,
 * unless the request names one in `_meta['fencesim/subject']`.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Scenario } from '../../../scenarios/scenario.js';
import { Chooser, type Decision } from '../../../sim/chooser.js';
import type { Kind, NotificationMessage, RequestMessage } from '../../../sim/kernel/events.js';
import { causeConnection, causeWorkload, invariantIndex, type InvariantName } from '../../../sim/oracle.js';
import type { InterleavingPlan } from '../../../sim/plan.js';
import { subjects } from '../../../sim/actors/server.js';
import { connect } from '../../../sim/actors/sessions.js';
import { startWorkload } from '../../../sim/actors/workload.js';
import type { InterleavingResult } from '../../../sim/kernel/interleaving.js';
import type { TruthEvent } from '../../../sim/kernel/truth.js';
import { mix } from '../../../sim/kernel/step-truth.js';
import { LinkedWorld } from '../sim/linked-world.js';
import { deriveSeed, stringHash } from '../../../sim/prng.js';
import { VirtualClock } from '../transport/clock.js';
import { subjectMetaKey } from '../sim/sdk-sim-driver.js';
import { replayOn, type ServedAnswer, type SessionLink, type SimLinkHost, type SimRequestMethod, type WireTap } from '../sim/sdk-sim-link.js';
import { ModuleEra2026, wireListenIdOf } from '../v2/module-era2026.js';
import type { LinkDirection, MessageKind } from '../transport/virtual-transport.js';
import type { ModuleClient } from './contract.js';
import { ModuleDriver, type ModuleDriverWorld } from './module-driver.js';
import { BlackBoxObserver } from './observer.js';
import { VirtualRuntime } from './virtual-runtime.js';

export interface ModuleInterleavingOptions {
  trace: boolean;
  record: boolean;
  replay?: { decisions: readonly Decision[]; strict: boolean };
  /** Records every message on every link (bench/module-floor.ts replays them without the harness). */
  tap?: WireTap;
  /** Ends the run at the first instant this invariant is violated (the shrinker's replays), skipping the end-of-run checks. */
  stopAtInvariant?: InvariantName | null;
}

export async function runModuleInterleaving(seed: number, scenario: Scenario, client: ModuleClient, options: ModuleInterleavingOptions): Promise<InterleavingResult> {
  const chooser = options.replay ? Chooser.replaying(options.replay.decisions, options.replay.strict) : Chooser.seeded(seed, options.record);
  const plan = scenario.plan(chooser);
  const world = new ModuleWorld(seed, plan, chooser, client, options.trace, options.tap);
  await world.run(options.stopAtInvariant == null ? -1 : invariantIndex[options.stopAtInvariant]);
  return world.resultOf(world.client.steps, chooser.log);
}

export class ModuleWorld extends LinkedWorld implements SimLinkHost, ModuleDriverWorld {
  readonly clock: VirtualClock;
  readonly client: ModuleDriver;
  readonly observer: BlackBoxObserver;
  private readonly runtime: VirtualRuntime;
  /** 2026-07-28: the v2 server link, listens, replays (module-era2026.ts). */
  private readonly era: ModuleEra2026;
  private readonly processOf: number[] = [];
  private readonly resourceIndex = new Map<string, number>();
  /** Instants since the last event-loop turn (see `turnDue`). */
  private instantsSinceTurn = 0;
  private readonly peek = (uri: string, subject: string): string | undefined => this.client.peek(uri, subject);
  /** The event of a client timer's wake-up (one function for all of them). */
  private readonly wakeUp = (): void => this.observer.event(causeWorkload);
  private readonly subjectOfResource = (resource: number): string => subjects[this.subjectOf[resource]!]!;

  constructor(seed: number, plan: InterleavingPlan, chooser: Chooser, client: ModuleClient, trace: boolean, private readonly tap?: WireTap) {
    super(seed, plan, chooser, trace, 'module world');
    const uris = plan.workload.resources.map((resource) => resource.uri);
    uris.forEach((uri, index) => this.resourceIndex.set(uri, index));
    this.clock = new VirtualClock({
      eventsPerCallMax: 50_000_000,
      eventHooks: { before: () => this.runtime.sync(this.nowMs), settled: () => this.settled(), turnDue: () => this.turnDue() },
    });
    this.observer = new BlackBoxObserver(this, uris);
    this.era = new ModuleEra2026(this, () => this.ended);
    this.client = new ModuleDriver(this, client);
    this.runtime = new VirtualRuntime(deriveSeed(this.jitterSeed, 7), {
      wake: (deadlineMs) => this.clock.setTimer(deadlineMs, this.wakeUp),
      unwake: (handle) => this.clock.clearTimer(handle),
      timerFiring: (cause) => this.observer.event(cause),
      currentToken: () => this.observer.cause,
    });
  }

  /** Runs to the end, or until invariant number `stopAtIndex` (>= 0) is violated. */
  async run(stopAtIndex = -1): Promise<void> {
    this.runtime.install();
    try {
      await this.clock.runUntil(this.client.start());
      connect(this);
      startWorkload(this);
      const counts = this.oracle.counts;
      const stopped = stopAtIndex < 0 ? undefined : () => counts[stopAtIndex]! > 0;
      await this.clock.advanceTo(this.endMs, stopped);
      this.throwFailure();
      const stoppedEarly = stopped?.() === true;
      this.ended = true;
      if (!stoppedEarly) this.finish();
    } finally {
      this.ended = true;
      await this.client.close().catch((error: unknown) => this.fail(error));
      await this.closeLinks();
      this.runtime.uninstall();
    }
    this.throwFailure();
  }

  // -- the world port ------------------------------------------------------------------------------

  schedule(timeMs: number, kind: Kind, cause: number, a: number, payload: unknown): void {
    this.clock.setTimer(timeMs, () => {
      if (this.ended) return;
      this.events++;
      this.traceHash = mix(mix(mix(this.traceHash, this.nowMs), kind), a);
      this.observer.event(cause);
      try {
        this.dispatchWorld(kind, a, payload);
      } catch (error) {
        this.fail(error);
      }
    });
  }

  /** An unclaimed revocation feed never reaches the client, so it cannot have learned from it. */
  override observe(event: TruthEvent): void {
    if (event.kind === 'learned') {
      if (!this.client.features.revocationFeed) return;
      this.observer.learned(event.resource, subjects[event.subject]!);
    }
    super.observe(event);
  }

  // -- the driver's world --------------------------------------------------------------------------

  resourceOf(uri: string): number {
    return this.resourceIndex.get(uri) ?? -1;
  }

  async openLink(process: number): Promise<Transport> {
    const generation = this.openSession().generation;
    const link = this.era.link({ scheduler: this.clock, generation, capabilities: this.capabilities, host: this, ...(this.tap ? { tap: this.tap } : {}) });
    this.links[generation] = link;
    this.processOf[generation] = process;
    this.timeline?.note(this.nowMs, `client opens connection ${generation}`);
    await link.connectServer();
    return link.clientSide;
  }

  closeProcess(process: number, reason: string): void {
    this.links.forEach((link, generation) => this.processOf[generation] === process && link?.close(reason));
  }

  currentSession(generation: number): boolean {
    const session = this.session;
    return session !== null && session.alive && session.generation === generation;
  }

  // -- the host of the SDK Server ------------------------------------------------------------------

  serve(link: SessionLink, method: SimRequestMethod, params: Record<string, unknown>, jsonRpcId: string | number): ServedAnswer {
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const record = this.observer.request(link.generation, jsonRpcId);
    const uri = typeof params.uri === 'string' ? params.uri : '';
    const resource = this.server.lookup(uri);
    const named = meta[subjectMetaKey];
    const request: RequestMessage = {
      requestId: -1,
      method,
      uri,
      subject: typeof named === 'string' ? named : resource >= 0 ? subjects[this.subjectOf[resource]!] : undefined,
      cursor: typeof params.cursor === 'string' ? params.cursor : undefined,
      sentAtMs: record?.sentAtMs ?? this.nowMs,
    };
    this.era.fillListen(request, method, params);

    return this.responses.serve(this, link.generation, record?.cause ?? causeConnection, request, record, replayOn(link, jsonRpcId));
  }

  route(link: SessionLink, direction: LinkDirection, message: JSONRPCMessage, kind: MessageKind, wire: string): number {
    const session = this.server.sessions[link.generation]!;
    if (direction === 'to-client') return this.serverToClientTime(session, 0) - this.nowMs;
    if (kind === 'request') {
      const request = message as { id: string | number; method: string; params?: Record<string, unknown> };
      this.traceHash = mix(mix(this.traceHash, this.nowMs), stringHash(wire));
      this.observer.sent(link.generation, request.id, request.method, request.params);
    }
    return this.clientToServerTime(session) - this.nowMs;
  }

  delivered(link: SessionLink, direction: LinkDirection, kind: MessageKind, truth: NotificationMessage | null, message: JSONRPCMessage): void {
    this.countDelivery(direction, kind);
    if (this.ended || direction !== 'to-client') return;
    const id = (message as { id?: string | number }).id;
    if (this.currentSession(link.generation)) this.era.delivered(link, kind, truth, kind === 'response' && id !== undefined ? (this.observer.request(link.generation, id)?.response ?? null) : null);
    if (kind === 'response') this.observer.responseDelivered(link.generation, id!);
    else if (truth !== null) this.observer.notificationDelivered(link.generation, truth, truth.listen === undefined ? undefined : wireListenIdOf(message));
  }

  // -- the loop ------------------------------------------------------------------------------------

  /** After each event settled: look at what the client serves. */
  private settled(): void {
    if (this.ended) return;
    this.observer.look(this.peek, this.subjectOfResource);
  }

  /**
   * At the end of an instant: take the event-loop turn when a setImmediate callback of the client is
   * pending (it runs at the end of the instant it was armed in, as it always did), else every
   * `instantsPerTurn` instants. The turn is what lets an escape (a real timer captured before the run, real
   * I/O) run at some point of the run, for the self-check to see; at every instant it was about a fifth of
   * the CPU time of a fixed-kb interleaving (bench/module-floor.ts).
   */
  private turnDue(): boolean {
    if (!this.runtime.immediatesPending && ++this.instantsSinceTurn < instantsPerTurn) return false;
    this.instantsSinceTurn = 0;
    return true;
  }

  private throwFailure(): void {
    if (this.failure !== null) throw this.failure instanceof Error ? this.failure : new Error(`the client under test threw: ${String(this.failure)}`);
  }
}

/** Instants between two event-loop turns when no client setImmediate is pending. */
const instantsPerTurn = 8;
