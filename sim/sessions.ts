/**
 * Connections and crashes: (re)connecting as a new session, the fault tick (disconnect, server restart,
 * client crash, permission revocation), and what a dead session or a crashed client leaves behind.
 */
import { causeConnection, causeOldNotification, causeWorkload } from './oracle.js';
import { faultIndex } from './faults.js';
import { Kind, type NotificationMessage } from './events.js';
import { subjects, type ServerSession } from './server.js';
import { revocationTick } from './workload.js';
import type { World } from './world.js';

export function connect(world: World, cause: number): void {
  world.sessionGeneration += 1;
  world.session = world.server.openSession(world.sessionGeneration, world.nowMs);
  world.deliver(
    { type: 'Connected', nowMs: world.nowMs, jitter: 0, sessionGeneration: world.sessionGeneration, capabilities: { ...world.capabilities } },
    cause,
    null,
  );
}

export function faultTick(world: World): void {
  if (world.healing) return;
  if (world.session !== null && world.session.alive) {
    if (world.fires('disconnect', 'disconnect?')) disconnect(world, false);
    else if (world.fires('server-restart', 'server restart?')) disconnect(world, true);
  }
  if (world.fires('client-crash', 'client crash?')) crash(world);
  revocationTick(world);
  world.schedule(world.nowMs + world.plan.network.faultTickMs, Kind.FaultTick, causeWorkload, 0, 0, null);
}

function disconnect(world: World, restart: boolean): void {
  const session = world.session!;
  session.alive = false;
  if (restart) world.server.restarts++;
  world.timeline?.note(world.nowMs, restart ? `server restart: session ${session.generation} and its subscriptions are gone` : `disconnect: session ${session.generation} ends`);
  const reconnectAtMs = world.nowMs + outageMs(world);
  if (restart) world.server.warmingUntilMs = reconnectAtMs + world.chooser.between('server', 'warm-up', 0, 1_000);
  if (world.faultOn[faultIndex['old-session-notification']] === 1) strandOldSessionMessages(world, session, reconnectAtMs);
  world.deliver({ type: 'Disconnected', nowMs: world.nowMs, jitter: 0, sessionGeneration: session.generation }, causeConnection, null);
  world.schedule(reconnectAtMs, Kind.Reconnect, causeConnection, 0, 0, null);
}

function outageMs(world: World): number {
  const network = world.plan.network;
  return world.chooser.between('network', 'outage', network.outageMsMin, network.outageMsMax);
}

/** old-session-notification: updates buffered on the dead session's stream surface after the reconnect. */
function strandOldSessionMessages(world: World, session: ServerSession, reconnectAtMs: number): void {
  for (let resource = 0; resource < session.subscribed.length; resource++) {
    if (session.subscribed[resource] === 0 || !world.fires('old-session-notification', 'strand old notification?')) continue;
    const message: NotificationMessage = {
      kind: 'notification',
      uri: world.server.uris[resource]!,
      resource,
      version: world.server.version[resource]!,
      survivesSessionEnd: true,
      listChanged: false,
    };
    const timeMs = reconnectAtMs + world.chooser.between('network', 'old notification delay', 1, 300);
    world.schedule(timeMs, Kind.ClientMessage, causeOldNotification, session.generation, resource, message);
  }
}

/**
 * client-crash: only the durable ledger survives (a JSON round trip, as if read back from disk); a client
 * without one starts from scratch and the application registers its subscriptions again. The session
 * ends (the server forgets it) and the client reconnects as a new session after an outage.
 */
function crash(world: World): void {
  const client = world.client;
  world.clientEpoch++;
  world.armedTimers.clear();
  world.oracle.onCrash(world.nowMs);
  const recovers = client.durable !== undefined && client.recover !== undefined;
  world.clientState = recovers
    ? client.recover!(world.config, JSON.parse(JSON.stringify(client.durable!(world.clientState) ?? null)))
    : client.init(world.config);
  const session = world.session;
  world.timeline?.note(world.nowMs, `client crash: restarted ${recovers ? 'from its durable ledger' : 'from scratch'}`);
  if (session !== null && session.alive) {
    session.alive = false;
    const reconnectAtMs = world.nowMs + outageMs(world);
    session.strandAfterMs = reconnectAtMs;
    world.schedule(reconnectAtMs, Kind.Reconnect, causeConnection, 0, 0, null);
  }
  if (recovers) return;
  for (let resource = 0; resource < world.wanted.length; resource++) {
    if (world.wanted[resource] === 0) continue;
    const uri = world.server.uris[resource]!;
    world.deliver({ type: 'SubscribeCommanded', nowMs: world.nowMs, jitter: 0, uri, subject: subjects[world.subjectOf[resource]!] }, causeWorkload, null);
  }
}
