/**
 * The simulated application around the client: it subscribes resources (each as one subject), closes and
 * re-opens them, asks for discovery, runs completeness tasks and serves content to subjects. Also the
 * authorization side of the world: the permission-revocation fault and the authorization feed that tells
 * the client about it (late, or never).
 */
import { causeConnection, causeWorkload } from '../oracle.js';
import { subjects } from './server.js';
import { scheduleNext } from './recurring.js';
import { scheduleFinalWrites, scheduleMutation } from './serving.js';
import { servedSubjectOf } from './era2026.js';
import { Kind } from '../kernel/events.js';
import type { WorldHost } from '../kernel/host.js';

export type CommandPayload = { type: 'SubscribeCommanded' | 'UnsubscribeCommanded'; resource: number };

const completenessTasks = ['cleanup', 'revocation-sweep'] as const;

/** Schedules the workload of the whole run; called once, after the first connect. */
export function startWorkload(world: WorldHost): void {
  const workload = world.plan.workload;
  const count = workload.resources.length;
  for (let resource = 0; resource < count; resource++) {
    // The application subscribes every resource at the start; the rare draw 0 (the simplest run) leaves one out.
    if (world.chooser.chance('workload', 'subscribed at the start?', 255, 256)) world.schedule(1 + resource, Kind.Command, causeWorkload, resource, { type: 'SubscribeCommanded', resource });
    scheduleMutation(world, resource);
    if (workload.closeRatio.numerator > 0) world.schedule(workload.closeTickMs, Kind.CloseTick, causeWorkload, resource, null);
    if (workload.serveIntervalMsMax > 0) scheduleServe(world, resource);
  }
  if (workload.discoverIntervalMsMax > 0) world.schedule(workload.firstDiscoverMs ?? 1 + count, Kind.Discover, causeWorkload, 0, null);
  if (workload.taskIntervalMsMax > 0) scheduleTask(world);
  world.schedule(world.plan.network.faultTickMs, Kind.FaultTick, causeWorkload, 0, null);
  scheduleFinalWrites(world);
  world.schedule(workload.faultPhaseMs, Kind.Heal, causeWorkload, 0, null);
}

export function command(world: WorldHost, payload: CommandPayload): void {
  const resource = payload.resource;
  const uri = world.server.uris[resource]!;
  if (payload.type === 'SubscribeCommanded') {
    if (world.wanted[resource] === 1) return;
    world.wanted[resource] = 1;
    world.observe({ kind: 'subscribed', resource, timeMs: world.nowMs });
    world.client.command({ type: 'SubscribeCommanded', nowMs: world.nowMs, jitter: 0, uri, subject: subjects[world.subjectOf[resource]!] }, causeWorkload);
    return;
  }
  if (world.wanted[resource] === 0) return;
  world.wanted[resource] = 0;
  world.observe({ kind: 'unsubscribed', resource, timeMs: world.nowMs });
  world.client.command({ type: 'UnsubscribeCommanded', nowMs: world.nowMs, jitter: 0, uri }, causeWorkload);
}

export function closeTick(world: WorldHost, resource: number): void {
  if (world.healing) return;
  const workload = world.plan.workload;
  const chooser = world.chooser;
  if (world.wanted[resource] === 1 && chooser.chance('workload', 'close?', workload.closeRatio.numerator, workload.closeRatio.denominator)) {
    command(world, { type: 'UnsubscribeCommanded', resource });
    const delay = chooser.between('workload', 'resubscribe delay', workload.resubscribeDelayMsMin, workload.resubscribeDelayMsMax);
    world.schedule(world.nowMs + delay, Kind.Command, causeWorkload, resource, { type: 'SubscribeCommanded', resource });
  }
  world.schedule(world.nowMs + workload.closeTickMs, Kind.CloseTick, causeWorkload, resource, null);
}

export function discover(world: WorldHost): void {
  if (world.healing) return;
  const workload = world.plan.workload;
  world.observe({ kind: 'discovery-asked', timeMs: world.nowMs });
  world.client.command({ type: 'DiscoverCommanded', nowMs: world.nowMs, jitter: 0 }, causeWorkload);
  scheduleNext(world, 'discover interval', workload.discoverIntervalMsMin, workload.discoverIntervalMsMax, Kind.Discover, 0);
}

export function task(world: WorldHost): void {
  if (world.healing) return;
  const name = completenessTasks[world.chooser.draw('workload', 'completeness task', completenessTasks.length)]!;
  world.observe({ kind: 'task-asked', timeMs: world.nowMs });
  world.client.command({ type: 'CompletenessTaskCommanded', nowMs: world.nowMs, jitter: 0, task: name }, causeWorkload);
  scheduleTask(world);
}

function scheduleTask(world: WorldHost): void {
  const workload = world.plan.workload;
  scheduleNext(world, 'task interval', workload.taskIntervalMsMin, workload.taskIntervalMsMax, Kind.Task, 0);
}

/** The application serves a resource's cached content to the subject it reads it as (2026-07-28: or, by fault, another). */
export function serve(world: WorldHost, resource: number): void {
  if (world.healing) return;
  const subjectIndex = servedSubjectOf(world, resource);
  const subject = subjects[subjectIndex];
  const session = world.session;
  world.observe({ kind: 'serve', resource, subject: subjectIndex, own: subjectIndex === world.subjectOf[resource], connected: session !== null && session.alive, session: world.sessionGeneration, timeMs: world.nowMs });
  world.client.command({ type: 'ServeCommanded', nowMs: world.nowMs, jitter: 0, uri: world.server.uris[resource]!, subject }, causeWorkload);
  scheduleServe(world, resource);
}

function scheduleServe(world: WorldHost, resource: number): void {
  const workload = world.plan.workload;
  scheduleNext(world, 'serve interval', workload.serveIntervalMsMin, workload.serveIntervalMsMax, Kind.Serve, resource);
}

// -- authorization ------------------------------------------------------------------------------------

/**
 * permission-revocation, once per fault tick: a subject loses access to a resource it has subscribed. The
 * truth changes at once; the authorization feed tells the client after a delay, or loses the event.
 */
export function revocationTick(world: WorldHost): void {
  const server = world.server;
  let candidates = 0;
  for (let resource = 0; resource < world.wanted.length; resource++) {
    if (world.wanted[resource] === 1 && server.mayRead(resource, world.subjectOf[resource]!)) candidates++;
  }
  if (candidates === 0 || !world.fires('permission-revocation', 'revoke access?')) return;
  let pick = world.chooser.draw('faults', 'revoked resource', candidates);
  let resource = 0;
  for (; resource < world.wanted.length; resource++) {
    if (world.wanted[resource] === 1 && server.mayRead(resource, world.subjectOf[resource]!) && pick-- === 0) break;
  }
  const subject = world.subjectOf[resource]!;
  server.revoke(resource, subject);
  world.observe({ kind: 'revoked', resource, subject, timeMs: world.nowMs });
  const network = world.plan.network;
  const lost = world.chooser.chance('network', 'authorization feed loses it?', network.authorizationFeedLossRatio.numerator, network.authorizationFeedLossRatio.denominator);
  const feed = lost ? 'loses the event' : world.client.takesAuthorizationFeed === false ? 'carries it to a client that does not take the feed (it learns of it from what the server answers)' : 'will tell the client';
  world.timeline?.note(world.nowMs, `[truth] ${subjects[subject]} loses access to ${server.uris[resource]}; the authorization feed ${feed}`);
  if (lost) return;
  const delay = world.chooser.between('network', 'authorization feed delay', network.authorizationFeedDelayMsMin, network.authorizationFeedDelayMsMax);
  world.schedule(world.nowMs + delay, Kind.AuthorizationFeed, causeConnection, resource * subjects.length + subject, null);
}

/** The authorization feed delivers a revocation: from this step on the client knows. */
export function deliverAuthorizationFeed(world: WorldHost, slot: number): void {
  const resource = Math.floor(slot / subjects.length);
  const subject = slot % subjects.length;
  world.observe({ kind: 'learned', resource, subject, timeMs: world.nowMs });
  world.client.command(
    { type: 'AuthorizationChanged', nowMs: world.nowMs, jitter: 0, subject: subjects[subject]!, uri: world.server.uris[resource]!, allowed: false },
    causeConnection,
  );
}
