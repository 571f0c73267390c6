/**
 * What the pure world (world.ts) and the SDK world (adapters/mcp-sdk/sdk-sim-world.ts) share: the
 * interleaving's server model, lister, oracle and fault draws set up from the plan in one order (so both
 * draw the same decisions), the network timing, the workload events that do not depend on the transport,
 * and the ground truth a step is judged with.
 */
import { transitionTable } from '../core/transitions.js';
import type { ServerCapabilities } from '../core/types.js';
import type { Chooser, Decision } from './chooser.js';
import { Kind, type ResponseMessage } from './events.js';
import { faultIndex, newFaultCounts, type FaultCounts, type FaultName } from './faults.js';
import { Lister } from './listing.js';
import { Oracle, type StepTruth } from './oracle.js';
import type { InterleavingPlan } from './plan.js';
import { respell, ServerModel, subjects, type ServerSession } from './server.js';
import { mutate, mutateBetweenPages } from './serving.js';
import { Timeline } from './timeline.js';
import { closeTick, command, deliverAuthorizationFeed, discover, serve, task, type CommandPayload } from './workload.js';
import type { InterleavingResult, World } from './world.js';

export abstract class WorldCore {
  readonly oracle: Oracle;
  readonly faultCounts: FaultCounts = newFaultCounts();
  readonly timeline: Timeline | null;
  readonly server: ServerModel;
  readonly lister: Lister;
  readonly faultOn: Uint8Array;
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
  abstract readonly nowMs: number;

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
    this.faultOn = new Uint8Array(faultIndex['no-list-changed-capability'] + 1);
    for (const name in plan.faults) this.faultOn[faultIndex[name as FaultName]] = 1;
    this.endMs = plan.workload.faultPhaseMs + plan.workload.healPhaseMs;
    this.capabilities = {
      resources: true,
      subscribe: !this.fires('no-subscribe-capability', 'server lacks subscribe?'),
      listChanged: !this.fires('no-list-changed-capability', 'server lacks listChanged?'),
      snapshotId: plan.server.snapshotId,
    };
    this.lister = new Lister(this.server, chooser, this, plan.server.snapshotId, plan.server.pageSizeMax, seed);
    for (let resource = 0; resource < uris.length; resource++) this.oracle.registerContent(this.server.content[resource]!, resource, 1);
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

  /** Client-to-server arrival time on `session` (FIFO), recorded as the session's latest. */
  clientToServerTime(session: ServerSession): number {
    const arrival = Math.max(this.nowMs + this.latency(), session.clientToServerLastMs);
    session.clientToServerLastMs = arrival;
    return arrival;
  }

  /** Runs a workload or server event that is the same whatever the transport; false for any other kind. */
  protected dispatchShared(kind: Kind, a: number, payload: unknown): boolean {
    const host = this as unknown as World;
    switch (kind) {
      case Kind.Mutation:
        mutate(host, a);
        return true;
      case Kind.Command:
        command(host, payload as CommandPayload);
        return true;
      case Kind.Heal:
        this.healing = true;
        this.timeline?.note(this.nowMs, 'heal phase: faults, mutations and workload commands stop');
        return true;
      case Kind.CloseTick:
        closeTick(host, a);
        return true;
      case Kind.Discover:
        discover(host);
        return true;
      case Kind.Serve:
        serve(host, a);
        return true;
      case Kind.Task:
        task(host);
        return true;
      case Kind.AuthorizationFeed:
        deliverAuthorizationFeed(host, a);
        return true;
      case Kind.ListMutation:
        mutateBetweenPages(host);
        return true;
      default:
        return false;
    }
  }

  /** What the ended run gives back: its oracle, counts and trace hash, with the decisions drawn (when recorded). */
  resultOf(steps: number, decisions: Decision[] | null): InterleavingResult {
    return {
      seed: this.seed,
      plan: this.plan,
      oracle: this.oracle,
      faultCounts: this.faultCounts,
      events: this.events,
      steps,
      endMs: this.endMs,
      traceHash: this.traceHash >>> 0,
      timeline: this.timeline?.lines ?? null,
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

/** A fresh, reusable step-truth record. */
export function newStepTruth(): StepTruth {
  return { timeMs: 0, cause: 0, currentSession: 0, requestSession: -1, requestSentAtMs: -1, servedResource: -1, servedVersion: 0, servedExists: true };
}

/** Fills `truth` for one step at `timeMs` on `currentSession`, answering `response` (null for any other input). */
export function fillStepTruth(truth: StepTruth, timeMs: number, cause: number, currentSession: number, response: ResponseMessage | null): StepTruth {
  truth.timeMs = timeMs;
  truth.cause = cause;
  truth.currentSession = currentSession;
  truth.requestSession = response === null ? -1 : response.requestSession;
  truth.requestSentAtMs = response === null ? -1 : response.requestSentAtMs;
  truth.servedResource = response === null ? -1 : response.resource;
  truth.servedVersion = response === null ? 0 : response.version;
  truth.servedExists = response === null ? true : response.exists;
  return truth;
}

/** What a current-session response tells the client, recorded before its step is judged. */
export function learnFromResponse(oracle: Oracle, timeline: Timeline | null, message: ResponseMessage, nowMs: number): void {
  if (message.deniedSubject >= 0) oracle.revocation.onLearned(message.resource, message.deniedSubject, nowMs);
  const list = message.list;
  if (list === null) return;
  if (list.last) oracle.catalog.onPassCompleted(list.pass, list.proof, list.passStartMs);
  timeline?.note(nowMs, `[truth] list pass ${list.pass} page${list.last ? ' (last)' : ''}: ${list.proof}`);
}

/** One FNV-1a-style step of a trace hash. */
export function mix(hash: number, value: number): number {
  return Math.imul(hash ^ (value | 0), 0x01000193);
}

/** The jitter handed to the client on each step: a pure function of the seed and the step (or draw) number. */
export function jitterFor(seed: number, step: number): number {
  let x = (seed ^ Math.imul(step + 1, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
