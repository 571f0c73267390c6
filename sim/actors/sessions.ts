/**
 * Connections and crashes, written against the world port: (re)connecting as a new session, the fault
 * tick (disconnect, server restart, client crash, permission revocation), and what a dead session or a
 * crashed client leaves behind. The same code runs over every transport; only the client driver differs.
 */
import { causeConnection, causeOldNotification, causeWorkload } from '../oracle.js';
import { faultIndex } from '../faults.js';
import { Kind, type NotificationMessage } from '../kernel/events.js';
import type { WorldHost } from '../kernel/host.js';
import { subjects, type ServerSession } from './server.js';
import { revocationTick } from './workload.js';
import { releaseSession } from './serving.js';

/** The client (re)connects as a new session. */
export function connect(world: WorldHost): void {
  world.client.connect(causeConnection);
}

export function faultTick(world: WorldHost): void {
  if (world.healing) return;
  if (world.session !== null && world.session.alive) {
    if (world.fires('disconnect', 'disconnect?')) disconnect(world, false);
    else if (world.fires('server-restart', 'server restart?')) disconnect(world, true);
  }
  if (world.fires('client-crash', 'client crash?')) crash(world);
  revocationTick(world);
  world.schedule(world.nowMs + world.plan.network.faultTickMs, Kind.FaultTick, causeWorkload, 0, null);
}

function disconnect(world: WorldHost, restart: boolean): void {
  const session = world.session!;
  session.alive = false;
  world.observe({ kind: 'session-ended', timeMs: world.nowMs });
  releaseSession(world, session);
  if (restart) world.server.restarts++;
  world.timeline?.note(world.nowMs, restart ? `server restart: session ${session.generation} and its subscriptions are gone` : `disconnect: session ${session.generation} ends`);
  const reconnectAtMs = world.nowMs + outageMs(world);
  if (restart) world.server.warmingUntilMs = reconnectAtMs + world.chooser.between('server', 'warm-up', 0, 1_000);
  if (world.faultOn[faultIndex['old-session-notification']] === 1) strandOldSessionMessages(world, session, reconnectAtMs);
  // disconnect-unannounced: the transport never reports the close; the client learns it from the next connection.
  if (!world.fires('disconnect-unannounced', 'client not told of the disconnect?')) world.client.sessionLost(session);
  else world.timeline?.note(world.nowMs, `the client is not told that session ${session.generation} ended`);
  world.schedule(reconnectAtMs, Kind.Reconnect, causeConnection, 0, null);
}

/**
 * How long until the reconnect: 0.05-5 s, or (long-outage, once a run) 25-45 s, cut to end with the fault phase when
 * that is later than 5 s away. Once: two long outages back to back would keep a change from any connection for
 * longer than convergence_60s's 60 s, whatever the client does.
 */
function outageMs(world: WorldHost): number {
  const network = world.plan.network;
  const longOnce = world.faultCounts[faultIndex['long-outage']] === 0;
  if (!longOnce || !world.fires('long-outage', 'long outage?')) return world.chooser.between('network', 'outage', network.outageMsMin, network.outageMsMax);
  const drawnMs = world.chooser.between('network', 'long outage', longOutageMsMin, longOutageMsMax);
  // The heal's slack (sim/checkers/convergence.ts healSettleMs) allows for an ordinary outage only.
  return Math.min(drawnMs, Math.max(network.outageMsMax, world.plan.workload.faultPhaseMs - world.nowMs));
}

/** long-outage: longer than the authorization lease (20 s) and the reconciliation period (20-30 s) of the default configuration; short enough that a change made as it begins is still reflected within convergence_60s's 60 s. */
const longOutageMsMin = 25_000;
const longOutageMsMax = 45_000;

/** old-session-notification: updates buffered on the dead session's stream surface after the reconnect. */
function strandOldSessionMessages(world: WorldHost, session: ServerSession, reconnectAtMs: number): void {
  for (let resource = 0; resource < session.subscribed.length; resource++) {
    if (session.subscribed[resource] === 0 || !world.fires('old-session-notification', 'strand old notification?')) continue;
    const message: NotificationMessage = {
      kind: 'notification',
      uri: world.server.uris[resource]!,
      resource,
      version: world.server.version[resource]!,
      survivesSessionEnd: true,
      listChanged: false,
      malformed: false,
    };
    const timeMs = reconnectAtMs + world.chooser.between('network', 'old notification delay', 1, 300);
    world.toClient(timeMs, causeOldNotification, session.generation, message);
  }
}

/**
 * client-crash: only the durable ledger survives (as if read back from disk); a client without one
 * starts from scratch and the application registers its subscriptions again. The session ends (the
 * server forgets it) and the client reconnects as a new session after an outage.
 */
function crash(world: WorldHost): void {
  world.observe({ kind: 'crashed', timeMs: world.nowMs });
  const session = world.session;
  const alive = session !== null && session.alive;
  if (alive) {
    session.alive = false;
    releaseSession(world, session);
  }
  const recovers = world.client.crash();
  world.timeline?.note(world.nowMs, `client crash: restarted ${recovers ? 'from its durable ledger' : 'from scratch'}`);
  if (alive) {
    const reconnectAtMs = world.nowMs + outageMs(world);
    session.strandAfterMs = reconnectAtMs;
    world.schedule(reconnectAtMs, Kind.Reconnect, causeConnection, 0, null);
  }
  if (recovers) return;
  for (let resource = 0; resource < world.wanted.length; resource++) {
    if (world.wanted[resource] === 0) continue;
    const uri = world.server.uris[resource]!;
    world.client.command({ type: 'SubscribeCommanded', nowMs: world.nowMs, jitter: 0, uri, subject: subjects[world.subjectOf[resource]!]! }, causeWorkload);
  }
}
