/**
 * What the pure world (world.ts) and the SDK world (adapters/mcp-sdk/sim/sdk-sim-world.ts) share: the world
 * port's state (host.ts) set up from the plan in one order (so both draw the same decisions), the network
 * timing, sessions, every world event (workload, faults, reconnects: all transport-independent), and the
 * ground truth a step is judged with. A world adds a clock, a client driver and message delivery.
 */
import { transitionTable } from '../../core/transitions.js';
import type { ServerCapabilities } from '../../core/types.js';
import type { Chooser, Decision } from '../chooser.js';
import type { ClientDriver, WorldHost } from './host.js';
import type { TruthEvent } from './truth.js';
import { Kind, type NotificationMessage, type ResponseMessage } from './events.js';
import type { InterleavingResult } from './interleaving.js';
import { faultIndex, faultNames, newFaultCounts, type FaultCounts, type FaultName } from '../faults.js';
import { Lister } from '../actors/listing.js';
import { Oracle } from '../oracle.js';
import type { InterleavingPlan } from '../plan.js';
import { outcomeOf } from '../verdict.js';
import { ServerModel, subjects, type ServerSession } from '../actors/server.js';
import { spellingOf, spellingVariants } from '../actors/spelling.js';
import { mutate, mutateBetweenPages } from '../actors/serving.js';
import { Timeline } from '../timeline.js';
import { connect, faultTick } from '../actors/sessions.js';
import { closeTick, command, deliverAuthorizationFeed, discover, serve, task, type CommandPayload } from '../actors/workload.js';

export abstract class WorldCore implements WorldHost {
  readonly oracle: Oracle;
  readonly faultCounts: FaultCounts = newFaultCounts();
  readonly timeline: Timeline | null;
  readonly server: ServerModel;
  readonly lister: Lister;
  readonly faultOn: Uint8Array;
  /** Per fault index: the planned intensity (denominator 0: not planned), so `fires` reads no object by name. */
  private readonly faultNumerators: Float64Array;
  private readonly faultDenominators: Float64Array;
  readonly capabilities: ServerCapabilities;
  /** Per resource: the workload wants it subscribed. */
  readonly wanted: Uint8Array;
  /** Per resource: the subject (index into `subjects`) it is subscribed, read and served as. */
  readonly subjectOf: Uint8Array;
  readonly endMs: number;
  healing = false;
  session: ServerSession | null = null;
  sessionGeneration = 0;
  events = 0;
  traceHash = 0x811c9dc5;
  /** The seed of the jitter handed to the client on each step (a decision, so a replay file carries it). */
  readonly jitterSeed: number;
  abstract readonly nowMs: number;
  abstract readonly client: ClientDriver & { readonly steps: number };
  abstract schedule(timeMs: number, kind: Kind, cause: number, a: number, payload: unknown): void;
  abstract toClient(timeMs: number, cause: number, generation: number, message: ResponseMessage | NotificationMessage): void;

  constructor(
    readonly seed: number,
    readonly plan: InterleavingPlan,
    readonly chooser: Chooser,
    trace: boolean,
  ) {
    const uris = plan.workload.resources.map((resource) => resource.uri);
    this.server = new ServerModel(plan.workload.resources);
    this.oracle = new Oracle(uris, transitionTable.length);
    this.timeline = trace ? new Timeline(uris) : null;
    this.wanted = new Uint8Array(uris.length);
    this.subjectOf = new Uint8Array(uris.length);
    for (let resource = 0; resource < uris.length; resource++) this.subjectOf[resource] = chooser.draw('workload', 'subject of resource', subjects.length);
    this.faultOn = new Uint8Array(faultNames.length);
    this.faultNumerators = new Float64Array(faultNames.length);
    this.faultDenominators = new Float64Array(faultNames.length);
    for (const name in plan.faults) {
      const index = faultIndex[name as FaultName];
      const intensity = plan.faults[name as FaultName]!;
      this.faultOn[index] = 1;
      this.faultNumerators[index] = intensity.numerator;
      this.faultDenominators[index] = intensity.denominator;
    }
    this.endMs = plan.workload.faultPhaseMs + plan.workload.healPhaseMs;
    this.capabilities = {
      resources: !this.fires('no-resources-capability', 'server lacks resources?'),
      subscribe: !this.fires('no-subscribe-capability', 'server lacks subscribe?'),
      listChanged: !this.fires('no-list-changed-capability', 'server lacks listChanged?'),
      snapshotId: plan.server.snapshotId,
    };
    // No resources capability: nothing can be read or listed, so no resource is owed convergence, deletion or a catalog.
    if (!this.capabilities.resources) this.oracle.onNothingOffered();
    this.lister = new Lister(this.server, chooser, this, plan.server.snapshotId, plan.server.pageSizeMax, chooser.draw('server', 'cursor token seed', tokenSeedRange));
    this.jitterSeed = chooser.draw('workload', 'client jitter seed', tokenSeedRange);
    for (let resource = 0; resource < uris.length; resource++) this.observe({ kind: 'content', text: this.server.content[resource]!, resource, version: 1 });
  }

  fires(fault: FaultName, label: string): boolean {
    const index = faultIndex[fault];
    if (this.healing || this.faultOn[index] === 0) return false;
    if (!this.chooser.chance('faults', label, this.faultNumerators[index]!, this.faultDenominators[index]!)) return false;
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
    const variant = this.chooser.draw('network', 'respelling', spellingVariants);
    const resource = this.server.lookup(uri);
    // A resource with spellings of its own (scenarios/uri-shapes.ts) is spelled with one of those, by the same draw.
    const own = this.plan.workload.resources[resource]?.spellings;
    const spelling = own !== undefined && own.length > 0 ? own[variant % own.length]! : spellingOf(uri, variant);
    this.spelled(spelling, resource);
    return spelling;
  }

  /** The server names `resource` as `spelling`, an equivalent spelling it made (also the listing's, ListingFaults.spelled). */
  spelled(spelling: string, resource: number): void {
    this.server.alias(spelling, resource);
    this.observe({ kind: 'spelled', spelling, resource });
  }

  /** Client-to-server arrival time on `session` (FIFO), recorded as the session's latest. */
  clientToServerTime(session: ServerSession): number {
    const arrival = Math.max(this.nowMs + this.latency(), session.clientToServerLastMs);
    session.clientToServerLastMs = arrival;
    return arrival;
  }

  observe(event: TruthEvent): void {
    this.oracle.observe(event);
  }

  openSession(): ServerSession {
    this.sessionGeneration += 1;
    this.session = this.server.openSession(this.sessionGeneration, this.nowMs);
    return this.session;
  }

  /** Runs a world event (workload, server, faults, reconnect): the same whatever the transport. */
  protected dispatchWorld(kind: Kind, a: number, payload: unknown): void {
    const host: WorldHost = this;
    switch (kind) {
      case Kind.Mutation:
        mutate(host, a, payload);
        return;
      case Kind.Command:
        command(host, payload as CommandPayload);
        return;
      case Kind.Heal:
        this.healing = true;
        this.observe({ kind: 'healed', timeMs: this.nowMs });
        this.timeline?.note(this.nowMs, 'heal phase: faults, mutations and workload commands stop');
        return;
      case Kind.CloseTick:
        closeTick(host, a);
        return;
      case Kind.Discover:
        discover(host);
        return;
      case Kind.Serve:
        serve(host, a);
        return;
      case Kind.Task:
        task(host);
        return;
      case Kind.AuthorizationFeed:
        deliverAuthorizationFeed(host, a);
        return;
      case Kind.ListMutation:
        mutateBetweenPages(host);
        return;
      case Kind.FaultTick:
        faultTick(host);
        return;
      case Kind.Reconnect:
        connect(host);
        return;
      default:
        throw new Error(`world event of unknown kind ${kind}`);
    }
  }

  /** What the ended run gives back: its oracle, counts and trace hash, with the decisions drawn (when recorded). */
  resultOf(steps: number, decisions: Decision[] | null): InterleavingResult {
    return {
      seed: this.seed,
      outcome: outcomeOf(this.oracle.counts),
      plan: this.plan,
      oracle: this.oracle,
      faultCounts: this.faultCounts,
      events: this.events,
      steps,
      endMs: this.endMs,
      traceHash: this.traceHash >>> 0,
      timeline: this.timeline?.lines ?? null,
      timelineEntries: this.timeline?.entries ?? null,
      decisions,
    };
  }

  /** The oracle's end-of-run checks (liveness failures found at the end go to the timeline). */
  protected finish(): void {
    const violationsBefore = this.oracle.violations.length;
    this.oracle.finish(this.endMs);
    this.timeline?.effects(this.endMs, [], this.oracle, violationsBefore);
  }
}

/** Token and jitter seeds are drawn from [0, 2^32). */
const tokenSeedRange = 0x1_0000_0000;
