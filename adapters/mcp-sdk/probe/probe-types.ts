/** The probe's options and its report (plain JSON, schema fencesim.probe.v2). */
import type { ClientEffect } from '../../../core/types.js';
import type { CacheHealth } from '../../../observe/health.js';
import type { IncomingFaults } from '../transport/fault-transport.js';
import type { ServerProcessReport } from './process-group-transport.js';
import type { ProbeTrigger, TriggerRecord } from './trigger.js';
import type { EraProbeReport } from './probe-era.js';

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
  /** How long the server has to answer initialize and every later request (ms, default 10000, at most timeoutMs / 2). */
  requestTimeoutMs?: number;
  /** A tool called while observing, so the server changes something (`--trigger`). */
  trigger?: ProbeTrigger;
  /** The content limit of the cache (characters of one body; default the core's 1 MiB). */
  contentCharsMax?: number;
  /** A stdout line longer than this is skipped and reported (bytes, default 10 MiB). */
  lineBytesMax?: number;
  env?: Record<string, string>;
  /**
   * 'auto' (the CLI's default): an SDK v2 Client first negotiates the era and, on 2026-07-28, probes listen,
   * tags, cache hints and a restart (probe-era.ts), then the 2025-11-25 probe runs. '2025-11-25' (the
   * default here): the 2025-11-25 probe only.
   */
  protocol?: 'auto' | '2025-11-25';
}

export interface ProbeCheck {
  name: string;
  ok: boolean;
  checked: number;
  detail: string;
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
  /** The first 50 gaps between updates on the wire. */
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

/**
 * passed: every invariant and expectation held and changes were observed; nothing-observed: all held but
 * nothing changed while the probe watched (not a pass: nothing was tested); no-resources: the server
 * declares no resources capability; failed: an invariant or expectation failed; error / timeout: the run
 * could not complete (the server did not start, did not answer initialize, a trigger tool is missing, ...).
 */
export type ProbeOutcome = 'passed' | 'nothing-observed' | 'no-resources' | 'failed' | 'error' | 'timeout';

export interface ProbeReport {
  schema: 'fencesim.probe.v2';
  spec: Required<Omit<ProbeOptions, 'env' | 'uris' | 'faults' | 'trigger' | 'protocol'>> & { uris: string[] | null; faults: IncomingFaults; trigger: ProbeTrigger | null };
  outcome: ProbeOutcome;
  error: string | null;
  elapsedMs: number;
  /** The era phase (`protocol: 'auto'`), or null when it did not run. */
  era: EraProbeReport | null;
  server: {
    pid: number | null;
    name: string | null;
    version: string | null;
    capabilities: unknown;
    coreCapabilities: { subscribe: boolean; listChanged: boolean; snapshotId: boolean } | null;
    connectMs: number | null;
    /** What happened to the server process and its process group. */
    process: ServerProcessReport | null;
  };
  listing: {
    pages: ProbePage[];
    resources: number;
    duplicateUris: number;
    firstUris: string[];
    /** How long the probe's own walk took (ms; linear in the resources listed). */
    walkMs: number | null;
    /** The walk stopped at pagesMax with a cursor still given (an endless cursor). */
    endedAtPagesMax: boolean;
    invalidCursor: { behaviour: 'error' | 'ignored' | 'not-tested'; code: number | null; detail: string };
    error: string | null;
  };
  discovery: { catalogs: Array<{ status: string; uris: number }>; abandoned: Array<{ reason: string; detail: string }> };
  toggleTool: { listed: boolean; calls: number };
  trigger: TriggerRecord | null;
  subscriptions: ProbeSubscription[];
  /** `get()` of each subscribed URI every 100 ms while observing: calls, served, distinct body beginnings. */
  serving: { gets: number; served: number; servedPrefixes: string[] };
  /** Updates on the wire plus later accepted versions of the subscribed resources. */
  changesObserved: number;
  faults: { seen: number; dropped: number; duplicated: number; delayed: number };
  /** The first malformed messages (client.onerror), and how many there were in all. */
  malformedMessages: Array<{ atMs: number; kind: string; message: string }>;
  malformedMessageCount: number;
  /** Reads refused for exceeding the content limit (the first ones). */
  contentLimit: { contentCharsMax: number; refused: Array<{ uri: string; chars: number }> };
  effectCounts: Record<string, number>;
  fenceDecisions: FenceDecision[];
  invariants: ProbeCheck[];
  expectations: ProbeCheck[];
  cleanup: { closeMs: number | null; killFallback: boolean; processGone: boolean | null };
  stderrTail: string;
  /** The first stderr lines that name a cause ("Error: Cannot find module ..."). */
  stderrNotable: string[];
  /** Peak resident set size of the probe's own process (bytes). */
  peakRssBytes: number;
  /** `cache.health()` at the end of the observation period (before the unsubscribes). */
  health: CacheHealth | null;
}
