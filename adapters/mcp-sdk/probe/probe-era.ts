/**
 * The era phase of `fencesim probe` (`--protocol auto`, the default): before the 2025-11-25 probe, an SDK v2
 * `Client` negotiates with the server (`versionNegotiation: 'auto'`, probing in place over the process-group
 * transport) and the report says which era it speaks. On 2026-07-28 it also reports what a caching client
 * depends on, as the server really does it:
 * - the cache hints (`ttlMs`, `cacheScope`) of the first `resources/list` page and of each read;
 * - a `subscriptions/listen` for the probed URIs plus one that does not exist: the ack's honored filter
 *   (narrower, equal or wider than requested) and how long the ack took;
 * - the subscription-id tagging of every update while the server's toggle (or `--trigger`) tool makes changes:
 *   tagged with the listen's id, untagged, or tagged with another id;
 * - a restart: the process is stopped and started again; how the old listen ended (`closed`), whether updates
 *   arrive on the new connection before a new listen (the server must hold no listen state), and the new ack.
 * Every phase is bounded by `budgetMs`; every process it starts is stopped (process group) before it returns.
 */
import { Client, type McpSubscription } from '@modelcontextprotocol/client';
import { subscriptionIdMetaKey } from '../../../core/era.js';
import { systemClock } from '../transport/clock.js';
import { ProcessGroupTransport } from './process-group-transport.js';
import { processGroupMembers } from './process-group.js';

export interface EraHint {
  method: 'resources/list' | 'resources/read';
  uri: string | null;
  ttlMs: unknown;
  cacheScope: unknown;
}

export interface EraListen {
  requested: string[];
  honored: string[] | null;
  /** 'equal' | 'narrower' | 'wider' | 'different' than requested. */
  filter: string;
  ackMs: number | null;
  updates: number;
  /** Updates tagged with this listen's subscription id / without one / with another id. */
  tagged: number;
  untagged: number;
  otherTag: number;
}

export interface EraRestart {
  /** How the listen of the stopped process ended (`McpSubscription.closed`). */
  oldListenClosed: string | null;
  /** Updates on the new connection before any listen (should be 0: no listen state survives). */
  updatesBeforeRelisten: number;
  relisten: EraListen | null;
}

export interface EraProbeReport {
  /** 'legacy' (2025-11-25) or 'modern' (2026-07-28); null when negotiation failed. */
  era: 'legacy' | 'modern' | null;
  protocolVersion: string | null;
  connectMs: number | null;
  hints: EraHint[];
  listen: EraListen | null;
  restart: EraRestart | null;
  /** Processes started and whether each process group was gone at the end. */
  processes: number;
  processesGone: boolean;
  error: string | null;
}

export interface EraProbeOptions {
  serverCommand: string[];
  env?: Record<string, string>;
  budgetMs: number;
  requestTimeoutMs: number;
  /** URIs to read and listen to (default: the first two listed). */
  uris?: string[];
  /** The tool that makes changes (default `toggle-subscriber-updates` when listed); called once to start. */
  trigger?: { tool: string; arguments: Record<string, unknown> };
  /** How long to count updates after the trigger (ms, default 1500). */
  observeMs?: number;
}

const TOGGLE_TOOL = 'toggle-subscriber-updates';
const NOT_THERE = 'fencesim://probe/not-there';

interface Session {
  client: Client;
  transport: ProcessGroupTransport;
  updates: Array<{ uri: unknown; id: unknown }>;
}

export async function probeEra(options: EraProbeOptions): Promise<EraProbeReport> {
  const report: EraProbeReport = { era: null, protocolVersion: null, connectMs: null, hints: [], listen: null, restart: null, processes: 0, processesGone: true, error: null };
  const sessions: Session[] = [];
  const deadline = systemClock.nowMs() + options.budgetMs;
  let timer: number | null = null;
  const bound = new Promise<never>((_, reject) => {
    timer = systemClock.setTimer(deadline, () => reject(new Error(`the era probe ran out of its ${options.budgetMs} ms`)));
  });
  try {
    await Promise.race([eraPhases(options, report, sessions), bound]);
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
  } finally {
    if (timer !== null) systemClock.clearTimer(timer);
    report.processesGone = await stopAll(sessions);
  }
  return report;
}

async function open(options: EraProbeOptions, sessions: Session[], report: EraProbeReport): Promise<Session> {
  const [command, ...args] = options.serverCommand;
  const transport = new ProcessGroupTransport({ command: command!, args, env: options.env });
  const client = new Client({ name: 'fencesim-probe', version: '0.1.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.requestTimeoutMs } } });
  const session: Session = { client, transport, updates: [] };
  sessions.push(session);
  report.processes++;
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    const params = notification.params as { uri?: unknown; _meta?: Record<string, unknown> };
    session.updates.push({ uri: params.uri, id: params._meta?.[subscriptionIdMetaKey] });
  });
  await client.connect(transport as never, { timeout: options.requestTimeoutMs });
  return session;
}

async function eraPhases(options: EraProbeOptions, report: EraProbeReport, sessions: Session[]): Promise<void> {
  const start = systemClock.nowMs();
  const first = await open(options, sessions, report);
  report.connectMs = systemClock.nowMs() - start;
  report.era = (first.client.getProtocolEra() as 'legacy' | 'modern' | undefined) ?? null;
  report.protocolVersion = first.client.getNegotiatedProtocolVersion() ?? null;
  if (report.era !== 'modern') return;
  const timeout = { timeout: options.requestTimeoutMs };
  const page = (await first.client.request({ method: 'resources/list', params: {} } as never, timeout as never)) as { resources?: Array<{ uri: string }>; ttlMs?: unknown; cacheScope?: unknown };
  report.hints.push({ method: 'resources/list', uri: null, ttlMs: page.ttlMs ?? null, cacheScope: page.cacheScope ?? null });
  const uris = options.uris ?? (page.resources ?? []).slice(0, 2).map((resource) => resource.uri);
  for (const uri of uris) {
    const read = (await first.client.readResource({ uri }, { ...timeout, cacheMode: 'bypass' })) as { ttlMs?: unknown; cacheScope?: unknown };
    report.hints.push({ method: 'resources/read', uri, ttlMs: read.ttlMs ?? null, cacheScope: read.cacheScope ?? null });
  }
  const tools = await first.client.listTools(undefined, timeout).catch(() => ({ tools: [] as Array<{ name: string }> }));
  const trigger = options.trigger ?? (tools.tools.some((tool) => tool.name === TOGGLE_TOOL) ? { tool: TOGGLE_TOOL, arguments: {} } : null);
  const observed = await listenAndObserve(first, [...uris, NOT_THERE], trigger, options);
  report.listen = observed.listen;
  // Restart: stop the process; the old listen ends; a new process holds no listen until a new one is acked.
  await first.transport.close();
  report.restart = { oldListenClosed: await Promise.race([observed.subscription?.closed ?? Promise.resolve(null), sleep(options.requestTimeoutMs).then(() => 'not settled')]), updatesBeforeRelisten: 0, relisten: null };
  const second = await open(options, sessions, report);
  if (trigger !== null) await second.client.callTool({ name: trigger.tool, arguments: trigger.arguments }, timeout).catch(() => undefined);
  await sleep(options.observeMs ?? 1_500);
  report.restart.updatesBeforeRelisten = second.updates.length;
  second.updates.length = 0;
  report.restart.relisten = (await listenAndObserve(second, uris, null, options)).listen;
}

async function listenAndObserve(session: Session, requested: string[], trigger: { tool: string; arguments: Record<string, unknown> } | null, options: EraProbeOptions): Promise<{ listen: EraListen; subscription: McpSubscription | null }> {
  const listen: EraListen = { requested, honored: null, filter: 'no ack', ackMs: null, updates: 0, tagged: 0, untagged: 0, otherTag: 0 };
  const start = systemClock.nowMs();
  let subscription: McpSubscription | null = null;
  let listenId: unknown = undefined;
  const send = session.transport.send.bind(session.transport);
  session.transport.send = (message) => {
    const wire = message as { method?: string; id?: unknown };
    if (wire.method === 'subscriptions/listen') listenId = wire.id;
    return send(message);
  };
  try {
    subscription = await session.client.listen({ resourceSubscriptions: requested }, { timeout: options.requestTimeoutMs });
  } finally {
    session.transport.send = send;
  }
  listen.ackMs = systemClock.nowMs() - start;
  listen.honored = subscription.honoredFilter.resourceSubscriptions ?? [];
  listen.filter = filterRelation(requested, listen.honored);
  session.updates.length = 0;
  if (trigger !== null) await session.client.callTool({ name: trigger.tool, arguments: trigger.arguments }, { timeout: options.requestTimeoutMs });
  await sleep(options.observeMs ?? 1_500);
  if (trigger !== null) await session.client.callTool({ name: trigger.tool, arguments: trigger.arguments }, { timeout: options.requestTimeoutMs }).catch(() => undefined);
  for (const update of session.updates) {
    listen.updates++;
    if (update.id === undefined) listen.untagged++;
    else if (update.id === listenId) listen.tagged++;
    else listen.otherTag++;
  }
  return { listen, subscription };
}

function filterRelation(requested: string[], honored: string[]): string {
  const extra = honored.filter((uri) => !requested.includes(uri));
  const missing = requested.filter((uri) => !honored.includes(uri));
  if (extra.length === 0 && missing.length === 0) return 'equal';
  if (extra.length === 0) return `narrower (left out ${missing.join(' ')})`;
  if (missing.length === 0) return `wider (added ${extra.join(' ')})`;
  return `different (left out ${missing.join(' ')}, added ${extra.join(' ')})`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => systemClock.setTimer(systemClock.nowMs() + ms, () => resolve()));
}

/** Closes every client and transport (ends each process group); true when every group is gone. */
async function stopAll(sessions: Session[]): Promise<boolean> {
  for (const session of sessions) {
    await Promise.race([session.client.close().catch(() => undefined), sleep(1_000)]);
    await Promise.race([session.transport.close().catch(() => undefined), sleep(3_000)]);
  }
  let gone = true;
  for (const session of sessions) {
    const pgid = session.transport.pid;
    if (pgid === null) continue;
    if (processGroupMembers(pgid).length > 0) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (let attempt = 0; attempt < 20 && processGroupMembers(pgid).length > 0; attempt++) await sleep(50);
    gone &&= processGroupMembers(pgid).length === 0;
  }
  return gone;
}
