/**
 * Probe mode (SPEC §10): the fenced cache against a real MCP server process over stdio, in real time.
 *
 * Phases: start the process (StdioClientTransport, stderr piped) behind a seeded fault-injecting decorator
 * (drop / duplicate / delay of incoming resource notifications); walk `resources/list` page by page
 * (page sizes, repeated or empty cursors, what an invalid cursor does); let the core run its own A/B
 * discovery; subscribe; call `toggle-subscriber-updates` when the server lists it (server-everything sends
 * no updates before); observe for `durationMs`; unsubscribe; observe `quietMs` more; stop the process —
 * always, also on error or timeout (`client.close()`, then SIGKILL as a fallback, then a check that the
 * pid is gone). The report is plain JSON; invariants are checked on what was observed.
 */
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientEffect } from '../../core/types.js';
import { createPrng, deriveSeed } from '../../sim/prng.js';
import { systemClock, type Clock } from './clock.js';
import { FaultInjectingTransport, noIncomingFaults, validateIncomingFaults, type IncomingFaults } from './fault-transport.js';
import { FencedResourceCache, type CacheHealth, type EffectMeta } from './fenced-cache.js';
import { checkProbeInvariants, type ProbeCheck } from './probe-checks.js';

export { formatProbeReport } from './probe-format.js';

export interface ProbeOptions {
  /** The server command line, e.g. [process.execPath, '/path/to/dist/index.js', 'stdio']. */
  serverCommand: string[];
  seed: number;
  /** How long to observe updates while subscribed (ms). */
  durationMs: number;
  faults?: Partial<IncomingFaults>;
  /** Hard bound on the whole probe including cleanup (ms). */
  timeoutMs: number;
  /** URIs to subscribe (default: the first `subscribeCount` listed). */
  uris?: string[];
  subscribeCount?: number;
  /** How long to watch for updates after the unsubscribe ACKs (ms, default 6000: > one 5 s tick). */
  quietMs?: number;
  /** Updates may still arrive this long after an unsubscribe ACK (ms, default 1000; plus delayMsMax). */
  graceMs?: number;
  /** Pages walked at most (default 100). */
  pagesMax?: number;
  env?: Record<string, string>;
}

export interface ProbePage {
  size: number;
  nextCursor: 'none' | 'present' | 'empty';
  repeatedCursor: boolean;
}

export interface ProbeSubscription {
  uri: string;
  /** Times are ms since the probe started. */
  subscribeAckAtMs: number | null;
  updatesOnWire: number;
  updatesDelivered: number;
  updateGapsMs: number[];
  versionsAccepted: number;
  staleReceipts: number;
  unsubscribeBeganAtMs: number | null;
  unsubscribeAckAtMs: number | null;
  updatesOnWireAfterAck: number;
  updatesDeliveredAfterGrace: number;
}

export interface FenceDecision {
  atMs: number;
  type: ClientEffect['type'];
  uri: string;
  detail: string;
}

export interface ProbeReport {
  schema: 'fencesim.probe.v1';
  spec: Required<Omit<ProbeOptions, 'env' | 'uris' | 'faults'>> & { uris: string[] | null; faults: IncomingFaults };
  outcome: 'passed' | 'failed' | 'error' | 'timeout';
  error: string | null;
  elapsedMs: number;
  server: {
    pid: number | null;
    name: string | null;
    version: string | null;
    capabilities: unknown;
    coreCapabilities: { subscribe: boolean; listChanged: boolean; snapshotId: boolean } | null;
    connectMs: number | null;
  };
  listing: {
    pages: ProbePage[];
    resources: number;
    duplicateUris: number;
    firstUris: string[];
    invalidCursor: { behaviour: 'error' | 'ignored' | 'not-tested'; code: number | null; detail: string };
    error: string | null;
  };
  discovery: { catalogs: Array<{ status: string; uris: number }>; abandoned: Array<{ reason: string; detail: string }> };
  toggleTool: { listed: boolean; calls: number };
  subscriptions: ProbeSubscription[];
  faults: { seen: number; dropped: number; duplicated: number; delayed: number };
  malformedMessages: Array<{ atMs: number; kind: string; message: string }>;
  effectCounts: Record<string, number>;
  fenceDecisions: FenceDecision[];
  invariants: ProbeCheck[];
  expectations: ProbeCheck[];
  cleanup: { closeMs: number | null; killFallback: boolean; processGone: boolean | null };
  stderrTail: string;
  /** `cache.health()` at the end of the observation period (before the unsubscribes). */
  health: CacheHealth | null;
}

/** What the checks need (recorded during the run). */
export interface ProbeObservations {
  effects: Array<{ effect: ClientEffect; meta: EffectMeta }>;
  /** resources/updated as they reached the core (after faults). */
  delivered: Array<{ atMs: number; uri: string | null }>;
  /** resources/updated as they came off the wire (before faults). */
  onWire: Array<{ atMs: number; uri: string | null }>;
}

const STDERR_CHARS_MAX = 4_000;
const DECISIONS_MAX = 200;
const FENCE_TYPES = new Set<ClientEffect['type']>(['VersionAccepted', 'StaleReceiptWritten', 'AuditWritten', 'SubscriptionClosed', 'ProtocolRejected', 'ScanAbandoned', 'CatalogPublished', 'TombstonePending', 'RevocationLearned']);

class ProbeTimeout extends Error {}

export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  const clock: Clock = systemClock;
  const startMs = clock.nowMs();
  const at = (): number => clock.nowMs() - startMs;
  const faults: IncomingFaults = { ...noIncomingFaults, ...options.faults };
  validateProbeOptions(options, faults);
  const report = emptyReport(options, faults);
  const observations: ProbeObservations = { effects: [], delivered: [], onWire: [] };
  let stdio: StdioClientTransport | null = null;
  let decorated: FaultInjectingTransport | null = null;
  let stderr = '';
  const jitter = createPrng(deriveSeed(options.seed, 1));

  const cache = new FencedResourceCache({
    clock,
    jitter: () => jitter.nextUint32(),
    reconnect: false,
    requestTimeoutMs: Math.min(10_000, options.timeoutMs),
    connect: async () => {
      const [command, ...args] = options.serverCommand;
      stdio = new StdioClientTransport({ command: command!, args, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...options.env } });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_CHARS_MAX);
      });
      decorated = new FaultInjectingTransport(stdio, { seed: deriveSeed(options.seed, 2), faults, clock });
      return decorated;
    },
  });
  cache.onEffect((effect, meta) => observations.effects.push({ effect: { ...effect, ...('text' in effect ? { text: `(${effect.text.length} chars)` } : {}) } as ClientEffect, meta: { ...meta, atMs: meta.atMs - startMs } }));
  cache.onInput((input) => {
    if (input.type === 'NotificationArrived' && input.method === 'notifications/resources/updated') {
      const uri = (input.params as { uri?: unknown } | undefined)?.uri;
      observations.delivered.push({ atMs: input.nowMs - startMs, uri: typeof uri === 'string' ? uri : null });
    }
  });

  let timedOut = false;
  let timer: number | null = null;
  const timeout = new Promise<never>((_, reject) => {
    timer = clock.setTimer(startMs + Math.max(1, options.timeoutMs - cleanupBudgetMs(options.timeoutMs)), () => {
      timedOut = true;
      reject(new ProbeTimeout(`probe timed out after ${options.timeoutMs - cleanupBudgetMs(options.timeoutMs)} ms (before cleanup)`));
    });
  });
  const body = probeBody(cache, options, report, observations, at, () => timedOut);
  try {
    await Promise.race([body, timeout]);
  } catch (error) {
    report.outcome = error instanceof ProbeTimeout ? 'timeout' : 'error';
    report.error = error instanceof Error ? error.message : String(error);
    body.catch(() => undefined);
  } finally {
    if (timer !== null) clock.clearTimer(timer);
    const pid = (stdio as StdioClientTransport | null)?.pid ?? null;
    report.server.pid = pid;
    report.cleanup = await stopProcess(cache, pid, clock, startMs + options.timeoutMs);
  }

  const transport = decorated as FaultInjectingTransport | null;
  if (transport !== null) {
    report.faults = { ...transport.stats };
    observations.onWire = transport.arrivals.filter((arrival) => arrival.method === 'notifications/resources/updated').map((arrival) => ({ atMs: arrival.atMs - startMs, uri: arrival.uri }));
  }
  finishReport(report, cache, observations, faults, options);
  report.stderrTail = stderr;
  report.elapsedMs = at();
  return report;
}

async function probeBody(
  cache: FencedResourceCache,
  options: ProbeOptions,
  report: ProbeReport,
  observations: ProbeObservations,
  at: () => number,
  stopped: () => boolean,
): Promise<void> {
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => systemClock.setTimer(systemClock.nowMs() + ms, resolve));
  const until = async (done: () => boolean, msMax: number): Promise<void> => {
    const deadline = at() + msMax;
    while (!done() && at() < deadline && !stopped()) await sleep(25);
  };
  const connectStart = at();
  await cache.start();
  report.server.connectMs = at() - connectStart;
  const client = cache.client!;
  const version = client.getServerVersion();
  report.server.name = version?.name ?? null;
  report.server.version = version?.version ?? null;
  report.server.capabilities = client.getServerCapabilities() ?? null;
  const caps = cache.serverCapabilities?.resources;
  report.server.coreCapabilities = { subscribe: caps?.subscribe === true, listChanged: caps?.listChanged === true, snapshotId: false };

  const listed = await walkListing(cache, report, options.pagesMax ?? 100);
  cache.discover();

  const tools = report.server.capabilities !== null && typeof report.server.capabilities === 'object' && 'tools' in report.server.capabilities ? await client.listTools().catch(() => null) : null;
  report.toggleTool.listed = tools?.tools.some((tool) => tool.name === 'toggle-subscriber-updates') ?? false;

  const uris = options.uris ?? listed.slice(0, options.subscribeCount ?? 2);
  report.spec.uris = uris;
  for (const uri of uris) cache.subscribe(uri);
  const acked = (uri: string): boolean => observations.effects.some(({ effect }) => effect.type === 'Transitioned' && effect.uri === uri && effect.event === 'subscribe_acked');
  await until(() => uris.every(acked), 5_000);
  if (report.toggleTool.listed) {
    await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    report.toggleTool.calls++;
  }
  await sleep(options.durationMs);
  report.health = cache.health();

  for (const uri of uris) cache.unsubscribe(uri);
  const closed = (uri: string): boolean => observations.effects.some(({ effect }) => effect.type === 'SubscriptionClosed' && effect.uri === uri);
  await until(() => uris.every(closed), 5_000);
  await sleep(options.quietMs ?? 6_000);
  if (report.toggleTool.listed && cache.connected) {
    await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} }).catch(() => undefined);
    report.toggleTool.calls++;
  }
}

/** Walks resources/list with the SDK client directly (the probe's own record of pages and cursors). */
async function walkListing(cache: FencedResourceCache, report: ProbeReport, pagesMax: number): Promise<string[]> {
  const client = cache.client!;
  const uris: string[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  try {
    for (let page = 0; page < pagesMax; page++) {
      const result = await client.listResources(cursor === undefined ? undefined : { cursor });
      const next = result.nextCursor;
      const repeated = next !== undefined && cursors.has(next);
      report.listing.pages.push({ size: result.resources.length, nextCursor: next === undefined ? 'none' : next === '' ? 'empty' : 'present', repeatedCursor: repeated });
      for (const resource of result.resources) {
        if (uris.includes(resource.uri)) report.listing.duplicateUris++;
        else uris.push(resource.uri);
      }
      if (next === undefined || repeated) break;
      cursors.add(next);
      cursor = next;
    }
  } catch (error) {
    report.listing.error = error instanceof Error ? error.message : String(error);
  }
  report.listing.resources = uris.length;
  report.listing.firstUris = uris.slice(0, 10);
  try {
    const bogus = await client.listResources({ cursor: 'fencesim-probe-invalid-cursor' });
    report.listing.invalidCursor = { behaviour: 'ignored', code: null, detail: `returned a page of ${bogus.resources.length} resources` };
  } catch (error) {
    const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null;
    report.listing.invalidCursor = { behaviour: 'error', code, detail: error instanceof Error ? error.message.slice(0, 200) : String(error) };
  }
  return uris;
}

/**
 * Always stops the process: client.close() (stdin EOF, SIGTERM after 2 s, SIGKILL after 4 s) bounded by
 * what is left of the probe's time, then SIGKILL as a fallback, then a check that the pid is gone.
 */
async function stopProcess(cache: FencedResourceCache, pid: number | null, clock: Clock, deadlineMs: number): Promise<ProbeReport['cleanup']> {
  const closeStart = clock.nowMs();
  const closeBoundMs = Math.max(200, deadlineMs - closeStart - 600);
  let bound: number | null = null;
  await Promise.race([cache.close().catch(() => undefined), new Promise((resolve) => (bound = clock.setTimer(clock.nowMs() + closeBoundMs, () => resolve(undefined))))]);
  if (bound !== null) clock.clearTimer(bound); // a pending bound would keep the process alive until it fired
  const closeMs = clock.nowMs() - closeStart;
  if (pid === null) return { closeMs, killFallback: false, processGone: null };
  let killFallback = false;
  if (isAlive(pid)) {
    killFallback = true;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (let attempt = 0; attempt < 40 && isAlive(pid); attempt++) await new Promise((resolve) => clock.setTimer(clock.nowMs() + 50, () => resolve(undefined)));
  return { closeMs, killFallback, processGone: !isAlive(pid) };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function cleanupBudgetMs(timeoutMs: number): number {
  return Math.min(9_000, Math.floor(timeoutMs / 3));
}

function validateProbeOptions(options: ProbeOptions, faults: IncomingFaults): void {
  if (!Array.isArray(options.serverCommand) || options.serverCommand.length === 0 || options.serverCommand.some((part) => typeof part !== 'string')) {
    throw new TypeError(`probe: serverCommand must be a non-empty array of strings, got ${JSON.stringify(options.serverCommand)}`);
  }
  if (!(Number.isInteger(options.seed) && options.seed >= 0 && options.seed <= 0xffffffff)) throw new RangeError(`probe: seed must be a uint32, got ${String(options.seed)}`);
  for (const name of ['durationMs', 'timeoutMs'] as const) {
    if (!(Number.isInteger(options[name]) && options[name] > 0)) throw new RangeError(`probe: ${name} must be a positive integer, got ${String(options[name])}`);
  }
  validateIncomingFaults(faults);
}

function emptyReport(options: ProbeOptions, faults: IncomingFaults): ProbeReport {
  return {
    schema: 'fencesim.probe.v1',
    spec: {
      serverCommand: options.serverCommand,
      seed: options.seed,
      durationMs: options.durationMs,
      timeoutMs: options.timeoutMs,
      subscribeCount: options.subscribeCount ?? 2,
      quietMs: options.quietMs ?? 6_000,
      graceMs: options.graceMs ?? 1_000,
      pagesMax: options.pagesMax ?? 100,
      uris: options.uris ?? null,
      faults,
    },
    outcome: 'passed',
    error: null,
    elapsedMs: 0,
    server: { pid: null, name: null, version: null, capabilities: null, coreCapabilities: null, connectMs: null },
    listing: { pages: [], resources: 0, duplicateUris: 0, firstUris: [], invalidCursor: { behaviour: 'not-tested', code: null, detail: '' }, error: null },
    discovery: { catalogs: [], abandoned: [] },
    toggleTool: { listed: false, calls: 0 },
    subscriptions: [],
    faults: { seen: 0, dropped: 0, duplicated: 0, delayed: 0 },
    malformedMessages: [],
    effectCounts: {},
    fenceDecisions: [],
    invariants: [],
    expectations: [],
    cleanup: { closeMs: null, killFallback: false, processGone: null },
    stderrTail: '',
    health: null,
  };
}

function finishReport(report: ProbeReport, cache: FencedResourceCache, observations: ProbeObservations, faults: IncomingFaults, options: ProbeOptions): void {
  for (const { effect, meta } of observations.effects) {
    report.effectCounts[effect.type] = (report.effectCounts[effect.type] ?? 0) + 1;
    if (effect.type === 'CatalogPublished') report.discovery.catalogs.push({ status: effect.status, uris: effect.uris.length });
    if (effect.type === 'ScanAbandoned') report.discovery.abandoned.push({ reason: effect.reason, detail: effect.detail });
    if (FENCE_TYPES.has(effect.type) && report.fenceDecisions.length < DECISIONS_MAX) {
      report.fenceDecisions.push({ atMs: meta.atMs, type: effect.type, uri: 'uri' in effect ? effect.uri : '', detail: decisionDetail(effect) });
    }
  }
  report.health ??= cache.health();
  const diagnostics = cache.diagnostics();
  report.malformedMessages = diagnostics.transportErrors.map((error) => ({ atMs: error.atMs, kind: error.kind, message: error.message }));
  const graceMs = (options.graceMs ?? 1_000) + (faults.delay !== null ? faults.delayMsMax : 0) + (faults.duplicate !== null ? 1 : 0);
  const checked = checkProbeInvariants(report.spec.uris ?? [], observations, graceMs);
  report.subscriptions = checked.subscriptions;
  report.invariants = checked.invariants;
  report.expectations = checked.expectations(report.toggleTool.listed, report.server.coreCapabilities?.subscribe === true);
  const gone = report.cleanup.processGone;
  report.expectations.push({ name: 'process_gone', ok: gone !== false, checked: 1, detail: gone === true ? 'the server process is gone' : gone === null ? 'no server process was started' : 'the server process may still run' });
  if (diagnostics.failure !== null && report.error === null) report.error = `core failure: ${diagnostics.failure}`;
  if (report.outcome === 'passed') {
    const failed = report.invariants.some((check) => !check.ok) || report.expectations.some((check) => !check.ok) || report.error !== null;
    if (failed) report.outcome = report.error !== null ? 'error' : 'failed';
  }
}

function decisionDetail(effect: ClientEffect): string {
  switch (effect.type) {
    case 'VersionAccepted':
      return `ordinal ${effect.readOrdinal} > watermark ${effect.watermarkBefore}, digest ${effect.digest.slice(0, 12)}, session ${effect.sessionGeneration}`;
    case 'StaleReceiptWritten':
      return `ordinal ${effect.readOrdinal} refused (${effect.reason}), watermark ${effect.watermark}`;
    case 'AuditWritten':
      return `${effect.kind}: ${effect.detail}`;
    case 'SubscriptionClosed':
      return `${effect.outcome}, close ordinal ${effect.closeOrdinal}, epoch ${effect.closeEpoch}`;
    case 'ProtocolRejected':
      return `${effect.rejection.kind}: ${effect.rejection.detail}`;
    case 'ScanAbandoned':
      return `${effect.reason}: ${effect.detail}`;
    case 'CatalogPublished':
      return `${effect.status}, ${effect.uris.length} URIs`;
    default:
      return '';
  }
}
