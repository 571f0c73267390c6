/**
 * Probe mode (SPEC §10): the fenced cache against a real MCP server process over stdio, in real time.
 *
 * Phases (probe/probe-body.ts): start the process in its own process group (ProcessGroupTransport) behind a
 * seeded fault-injecting decorator (drop / duplicate / delay of incoming resource notifications); initialize;
 * a server declaring no resources capability ends here with its own verdict; walk `resources/list` page by
 * page; let the core run its own A/B discovery; subscribe; call `toggle-subscriber-updates` when listed, or
 * the `trigger` tool on a schedule; observe for `durationMs`; unsubscribe; observe `quietMs` more; stop the
 * process group — always, also on error or timeout (stdin EOF, SIGTERM, SIGKILL to the group, then a check
 * by process group that nothing is left). Observations are checked online (probe-checks.ts), so memory stays
 * bounded under a notification flood. The report is plain JSON.
 */
import { defaultClientConfig, type ClientEffect } from '../../../core/types.js';
import { createPrng, deriveSeed } from '../../../sim/prng.js';
import { systemClock, type Clock } from '../transport/clock.js';
import { FaultInjectingTransport, noIncomingFaults, validateIncomingFaults, type IncomingFaults } from '../transport/fault-transport.js';
import { FencedResourceCache } from '../cache/fenced-cache.js';
import { ProbeRecorder } from './probe-checks.js';
import { probeBody, ProbeVerdict } from './probe-body.js';
import { ProcessGroupTransport } from './process-group-transport.js';
import { processGroupMembers } from './process-group.js';
import { probeEra } from './probe-era.js';
import type { FenceDecision, ProbeOptions, ProbeReport } from './probe-types.js';

export { formatProbeReport } from './probe-format.js';
export { isAlive, processGroupMembers } from './process-group.js';
export type { FenceDecision, ProbeOptions, ProbeOutcome, ProbePage, ProbeReport, ProbeSubscription } from './probe-types.js';

const DECISIONS_MAX = 200;
const CATALOGS_MAX = 50;
const MALFORMED_MAX = 20;
const FENCE_TYPES = new Set<ClientEffect['type']>(['VersionAccepted', 'StaleReceiptWritten', 'AuditWritten', 'SubscriptionClosed', 'ProtocolRejected', 'ScanAbandoned', 'CatalogPublished', 'TombstonePending', 'RevocationLearned']);

class ProbeTimeout extends Error {}

export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  if (options.protocol !== undefined && options.protocol !== 'auto' && options.protocol !== '2025-11-25') {
    throw new TypeError(`probe: protocol must be "auto" or "2025-11-25", got ${JSON.stringify(options.protocol)}`);
  }
  if (options.protocol !== 'auto') return runProbe2025(options);
  validateProbeOptions(options, { ...noIncomingFaults, ...options.faults });
  // The era phase gets at most a third of the time (and 20 s); the 2025-11-25 probe the rest.
  const startMs = systemClock.nowMs();
  const requestTimeoutMs = Math.min(options.requestTimeoutMs ?? 10_000, Math.max(1, Math.floor(options.timeoutMs / 6)));
  const eraReport = await probeEra({ serverCommand: options.serverCommand, env: options.env, budgetMs: Math.min(20_000, Math.floor(options.timeoutMs / 3)), requestTimeoutMs, uris: options.uris, trigger: options.trigger });
  const eraMs = systemClock.nowMs() - startMs;
  const report = await runProbe2025({ ...options, timeoutMs: Math.max(1, options.timeoutMs - eraMs) });
  report.spec.timeoutMs = options.timeoutMs;
  report.era = eraReport;
  report.elapsedMs += eraMs;
  if (!eraReport.processesGone) report.cleanup.processGone = false;
  return report;
}

/** The 2025-11-25 probe: the fenced cache over SDK 1.x. */
async function runProbe2025(options: ProbeOptions): Promise<ProbeReport> {
  const clock: Clock = systemClock;
  const startMs = clock.nowMs();
  const at = (): number => clock.nowMs() - startMs;
  const faults: IncomingFaults = { ...noIncomingFaults, ...options.faults };
  validateProbeOptions(options, faults);
  const report = emptyReport(options, faults);
  const graceMs = (options.graceMs ?? 1_000) + (faults.delay !== null ? faults.delayMsMax : 0) + (faults.duplicate !== null ? 1 : 0);
  const recorder = new ProbeRecorder(graceMs);
  let transport: ProcessGroupTransport | null = null;
  let decorated: FaultInjectingTransport | null = null;
  const jitter = createPrng(deriveSeed(options.seed, 1));

  const cache = new FencedResourceCache({
    clock,
    jitter: () => jitter.nextUint32(),
    reconnect: false,
    requestTimeoutMs: report.spec.requestTimeoutMs,
    config: { contentCharsMax: report.spec.contentCharsMax },
    connect: async () => {
      const [command, ...args] = options.serverCommand;
      transport = new ProcessGroupTransport({ command: command!, args, env: options.env, lineBytesMax: report.spec.lineBytesMax });
      decorated = new FaultInjectingTransport(transport, { seed: deriveSeed(options.seed, 2), faults, clock });
      decorated.onArrival = (arrival) => {
        if (arrival.method === 'notifications/resources/updated') recorder.onWire(arrival.atMs - startMs, arrival.uri);
      };
      return decorated;
    },
  });
  cache.onEffect((effect, meta) => {
    const atMs = meta.atMs - startMs;
    recorder.effect(effect, atMs);
    keepDecision(report, effect, atMs);
  });
  cache.onInput((input) => {
    if (input.type === 'NotificationArrived' && input.method === 'notifications/resources/updated') {
      const uri = (input.params as { uri?: unknown } | undefined)?.uri;
      recorder.delivered(input.nowMs - startMs, typeof uri === 'string' ? uri : null);
    }
  });

  let timedOut = false;
  let timer: number | null = null;
  const budgetMs = options.timeoutMs - cleanupBudgetMs(options.timeoutMs);
  const timeout = new Promise<never>((_, reject) => {
    timer = clock.setTimer(startMs + Math.max(1, budgetMs), () => {
      timedOut = true;
      const phase = report.server.connectMs === null ? ' waiting for the answer to initialize' : '';
      reject(new ProbeTimeout(`probe timed out after ${budgetMs} ms${phase} (before cleanup)`));
    });
  });
  const body = probeBody({ cache, options, report, recorder, at, stopped: () => timedOut, transport: () => transport, requestTimeoutMs: report.spec.requestTimeoutMs });
  try {
    await Promise.race([body, timeout]);
  } catch (error) {
    report.outcome = error instanceof ProbeVerdict ? error.outcome : error instanceof ProbeTimeout ? 'timeout' : 'error';
    report.error = error instanceof Error ? error.message : String(error);
    body.catch(() => undefined);
  } finally {
    if (timer !== null) clock.clearTimer(timer);
    report.cleanup = await stopProcess(cache, transport, clock, startMs + options.timeoutMs);
  }
  finishReport(report, cache, recorder, decorated, transport, startMs);
  report.elapsedMs = at();
  return report;
}

/**
 * Always stops the process group: the cache's close (the SDK closes the transport, which ends the group:
 * stdin EOF, SIGTERM, SIGKILL) bounded by what is left of the probe's time, then the transport's own close
 * (the server may have exited and closed the session itself), then SIGKILL to the group as a fallback.
 */
async function stopProcess(cache: FencedResourceCache, transport: ProcessGroupTransport | null, clock: Clock, deadlineMs: number): Promise<ProbeReport['cleanup']> {
  const closeStart = clock.nowMs();
  const closeBoundMs = Math.max(200, deadlineMs - closeStart - 600);
  let bound: number | null = null;
  const closing = (async () => {
    await cache.close().catch(() => undefined);
    await transport?.close();
  })();
  await Promise.race([closing, new Promise((resolve) => (bound = clock.setTimer(clock.nowMs() + closeBoundMs, () => resolve(undefined))))]);
  if (bound !== null) clock.clearTimer(bound); // a pending bound would keep the process alive until it fired
  const closeMs = clock.nowMs() - closeStart;
  const pgid = transport?.pid ?? null;
  if (pgid === null) return { closeMs, killFallback: false, processGone: transport === null || transport.report().spawnError !== null ? null : true };
  let killFallback = false;
  if (processGroupMembers(pgid).length > 0) {
    killFallback = true;
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (let attempt = 0; attempt < 40 && processGroupMembers(pgid).length > 0; attempt++) await new Promise((resolve) => clock.setTimer(clock.nowMs() + 50, () => resolve(undefined)));
  return { closeMs, killFallback, processGone: processGroupMembers(pgid).length === 0 };
}

function cleanupBudgetMs(timeoutMs: number): number {
  return Math.min(9_000, Math.floor(timeoutMs / 3));
}

function validateProbeOptions(options: ProbeOptions, faults: IncomingFaults): void {
  if (!Array.isArray(options.serverCommand) || options.serverCommand.length === 0 || options.serverCommand.some((part) => typeof part !== 'string')) {
    throw new TypeError(`probe: serverCommand must be a non-empty array of strings, got ${JSON.stringify(options.serverCommand)}`);
  }
  if (!(Number.isInteger(options.seed) && options.seed >= 0 && options.seed <= 0xffffffff)) throw new RangeError(`probe: seed must be a uint32, got ${String(options.seed)}`);
  for (const name of ['durationMs', 'timeoutMs', 'requestTimeoutMs', 'contentCharsMax', 'lineBytesMax'] as const) {
    const value = options[name];
    if (value === undefined && name !== 'durationMs' && name !== 'timeoutMs') continue;
    if (!(Number.isInteger(value) && value! > 0)) throw new RangeError(`probe: ${name} must be a positive integer, got ${String(value)}`);
  }
  const trigger = options.trigger;
  if (trigger !== undefined && (typeof trigger.tool !== 'string' || trigger.tool === '' || trigger.arguments === null || typeof trigger.arguments !== 'object')) {
    throw new TypeError(`probe: trigger must be {tool: non-empty string, arguments: object}, got ${JSON.stringify(trigger)}`);
  }
  if (trigger?.everyMs !== undefined && !(Number.isInteger(trigger.everyMs) && trigger.everyMs > 0)) throw new RangeError(`probe: trigger.everyMs must be a positive integer, got ${String(trigger.everyMs)}`);
  validateIncomingFaults(faults);
}

function emptyReport(options: ProbeOptions, faults: IncomingFaults): ProbeReport {
  const contentCharsMax = options.contentCharsMax ?? defaultClientConfig.contentCharsMax;
  return {
    schema: 'fencesim.probe.v2',
    spec: {
      serverCommand: options.serverCommand,
      seed: options.seed,
      durationMs: options.durationMs,
      timeoutMs: options.timeoutMs,
      subscribeCount: options.subscribeCount ?? 2,
      quietMs: options.quietMs ?? 6_000,
      graceMs: options.graceMs ?? 1_000,
      pagesMax: options.pagesMax ?? 100,
      requestTimeoutMs: Math.min(options.requestTimeoutMs ?? 10_000, Math.max(1, Math.floor(options.timeoutMs / 2))),
      contentCharsMax,
      lineBytesMax: options.lineBytesMax ?? 10 * 1024 * 1024,
      uris: options.uris ?? null,
      faults,
      trigger: options.trigger ?? null,
    },
    outcome: 'passed',
    error: null,
    elapsedMs: 0,
    era: null,
    server: { pid: null, name: null, version: null, capabilities: null, coreCapabilities: null, connectMs: null, process: null },
    listing: { pages: [], resources: 0, duplicateUris: 0, firstUris: [], walkMs: null, endedAtPagesMax: false, invalidCursor: { behaviour: 'not-tested', code: null, detail: '' }, error: null },
    discovery: { catalogs: [], abandoned: [] },
    toggleTool: { listed: false, calls: 0 },
    trigger: null,
    subscriptions: [],
    serving: { gets: 0, served: 0, servedPrefixes: [] },
    changesObserved: 0,
    faults: { seen: 0, dropped: 0, duplicated: 0, delayed: 0 },
    malformedMessages: [],
    malformedMessageCount: 0,
    contentLimit: { contentCharsMax, refused: [] },
    effectCounts: {},
    fenceDecisions: [],
    invariants: [],
    expectations: [],
    cleanup: { closeMs: null, killFallback: false, processGone: null },
    stderrTail: '',
    stderrNotable: [],
    health: null,
    peakRssBytes: 0,
  };
}

function keepDecision(report: ProbeReport, effect: ClientEffect, atMs: number): void {
  if (effect.type === 'CatalogPublished' && report.discovery.catalogs.length < CATALOGS_MAX) report.discovery.catalogs.push({ status: effect.status, uris: effect.uris.length });
  if (effect.type === 'ScanAbandoned' && report.discovery.abandoned.length < CATALOGS_MAX) report.discovery.abandoned.push({ reason: effect.reason, detail: effect.detail.slice(0, 300) });
  if (FENCE_TYPES.has(effect.type) && report.fenceDecisions.length < DECISIONS_MAX) {
    const decision: FenceDecision = { atMs, type: effect.type, uri: 'uri' in effect ? effect.uri : '', detail: decisionDetail(effect) };
    report.fenceDecisions.push(decision);
  }
}

function finishReport(report: ProbeReport, cache: FencedResourceCache, recorder: ProbeRecorder, decorated: FaultInjectingTransport | null, transport: ProcessGroupTransport | null, startMs: number): void {
  if (decorated !== null) report.faults = { ...decorated.stats };
  if (transport !== null) {
    report.server.process = transport.report();
    report.server.pid = transport.pid;
    report.stderrTail = transport.stderrTail.text;
    report.stderrNotable = transport.stderrTail.notable;
  }
  report.effectCounts = { ...recorder.effectCounts };
  report.health ??= cache.health();
  const diagnostics = cache.diagnostics();
  report.malformedMessages = diagnostics.transportErrors.slice(0, MALFORMED_MAX).map((error) => ({ atMs: error.atMs - startMs, kind: error.kind, message: error.message.slice(0, 300) }));
  report.malformedMessageCount = diagnostics.transportErrorCount;
  report.contentLimit.refused = cache.contentLimitRefusals().map((refusal) => ({ uri: refusal.uri, chars: refusal.chars }));
  report.subscriptions = recorder.subscriptions();
  report.changesObserved = recorder.changesObserved();
  report.serving = { gets: recorder.gets, served: recorder.served, servedPrefixes: [...recorder.servedPrefixes] };
  report.invariants = recorder.invariants();
  const changeSource = report.trigger !== null ? `the trigger tool ${report.trigger.tool}` : report.toggleTool.listed ? 'toggle-subscriber-updates' : null;
  const initialized = report.server.connectMs !== null;
  report.expectations = report.outcome === 'no-resources' || !initialized ? [] : recorder.expectations(report.server.coreCapabilities?.subscribe === true, changeSource, report.contentLimit);
  const gone = report.cleanup.processGone;
  const summary = report.server.process?.summary ?? 'no server process was started';
  report.expectations.push({ name: 'process_gone', ok: gone !== false, checked: 1, detail: gone === null ? 'no server process was started' : summary });
  if (diagnostics.failure !== null && report.error === null) report.error = `core failure: ${diagnostics.failure}`;
  const serverProcess = report.server.process;
  if (initialized && serverProcess?.exitedUnasked === true && report.error === null) {
    report.error = `the server exited mid-session (${serverProcess.exitSignal !== null ? `signal ${serverProcess.exitSignal}` : `code ${serverProcess.exitCode}`})`;
  }
  report.peakRssBytes = process.resourceUsage().maxRSS * 1024;
  if (report.outcome !== 'passed') {
    if (report.outcome === 'no-resources' && gone === false) report.outcome = 'failed';
    return;
  }
  const failed = report.invariants.some((check) => !check.ok) || report.expectations.some((check) => !check.ok) || report.error !== null;
  if (failed) report.outcome = report.error !== null ? 'error' : 'failed';
  else if (report.changesObserved === 0) report.outcome = 'nothing-observed';
}

function decisionDetail(effect: ClientEffect): string {
  switch (effect.type) {
    case 'VersionAccepted':
      return `ordinal ${effect.readOrdinal} > watermark ${effect.watermarkBefore}, digest ${effect.digest.slice(0, 12)}, session ${effect.sessionGeneration}`;
    case 'StaleReceiptWritten':
      return `ordinal ${effect.readOrdinal} refused (${effect.reason}), watermark ${effect.watermark}`;
    case 'AuditWritten':
      return `${effect.kind}: ${effect.detail.slice(0, 300)}`;
    case 'SubscriptionClosed':
      return `${effect.outcome}, close ordinal ${effect.closeOrdinal}, epoch ${effect.closeEpoch}`;
    case 'ProtocolRejected':
      return `${effect.rejection.kind}: ${effect.rejection.detail.slice(0, 300)}`;
    case 'ScanAbandoned':
      return `${effect.reason}: ${effect.detail.slice(0, 300)}`;
    case 'CatalogPublished':
      return `${effect.status}, ${effect.uris.length} URIs`;
    default:
      return '';
  }
}
