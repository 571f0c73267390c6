/**
 * The probe against real servers over stdio (real time): `@modelcontextprotocol/server-everything` (updates
 * through its toggle tool), `server-filesystem` (tools only: no resources capability), `server-memory` (a
 * resource that changes only when a tool acts: nothing observed without `trigger`, changes with it), and
 * servers that cannot start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../transport/clock.js';
import { FencedResourceCache, ProcessGroupTransport } from '../cache/fenced-cache.js';
import { formatProbeReport, isAlive, processGroupMembers, runProbe } from './probe.js';

const require = createRequire(import.meta.url);
const serverPath = (name: string): string => join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
const serverEverything = serverPath('server-everything');
const memoryEntity = { entities: [{ name: 'fencesim-probe', entityType: 'test', observations: ['made by the probe trigger'] }] };

describe('probe against server-everything over stdio', () => {
  it('observes updates, sees them stop after unsubscribe, violates no invariant, and leaves no process behind', async () => {
    const startMs = systemClock.nowMs();
    const report = await runProbe({
      serverCommand: [process.execPath, serverEverything, 'stdio'],
      seed: 42,
      durationMs: 7_000,
      quietMs: 6_000,
      timeoutMs: 40_000,
      faults: { drop: { numerator: 1, denominator: 5 }, duplicate: { numerator: 1, denominator: 3 }, delay: { numerator: 1, denominator: 4 }, delayMsMax: 300 },
    });
    const elapsedMs = systemClock.nowMs() - startMs;
    console.log(formatProbeReport(report));

    expect(report.error).toBeNull();
    expect(report.outcome).toBe('passed');
    expect(report.server.name).toBe('mcp-servers/everything');
    expect(report.server.coreCapabilities).toEqual({ subscribe: true, listChanged: true, snapshotId: false });
    expect(report.toggleTool).toEqual({ listed: true, calls: 2 });
    expect(report.listing.pages.length).toBeGreaterThanOrEqual(1);
    expect(report.subscriptions).toHaveLength(2);
    for (const subscription of report.subscriptions) {
      expect(subscription.updatesOnWire).toBeGreaterThan(0);
      expect(subscription.versionsAccepted).toBeGreaterThan(0);
      expect(subscription.unsubscribeAckAtMs).not.toBeNull();
      expect(subscription.updatesDeliveredAfterGrace).toBe(0);
    }
    expect(report.invariants.every((check) => check.ok)).toBe(true);
    expect(report.invariants.find((check) => check.name === 'accepted_ordinals_increase')!.checked).toBeGreaterThan(0);
    expect(report.cleanup.processGone).toBe(true);
    expect(isAlive(report.server.pid!)).toBe(false);
    expect(processGroupMembers(report.server.pid!)).toEqual([]);
    expect(report.changesObserved).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(elapsedMs).toBeLessThan(30_000);
  }, 45_000);

  it('a server that exits at once: an error naming initialize and the exit code, bounded, nothing left running', async () => {
    const report = await runProbe({ serverCommand: [process.execPath, '-e', 'process.exit(3)'], seed: 1, durationMs: 1_000, timeoutMs: 10_000 });
    expect(report.outcome).toBe('error');
    expect(report.error).toBe('the server exited during initialize (code 3)');
    expect(report.elapsedMs).toBeLessThan(10_000);
    expect(report.server.pid).not.toBeNull();
    expect(processGroupMembers(report.server.pid!)).toEqual([]);
    expect(report.server.process).toMatchObject({ exitCode: 3, exitedUnasked: true });
    expect(formatProbeReport(report)).toMatch(/^fencesim probe: /);
  });

  it('a server whose module is missing: the stderr keeps the "Cannot find module" line past a long stack', async () => {
    const report = await runProbe({ serverCommand: [process.execPath, '/nonexistent/fencesim-no-such-server.js'], seed: 1, durationMs: 1_000, timeoutMs: 10_000 });
    expect(report.outcome).toBe('error');
    expect(report.stderrNotable).toContainEqual(expect.stringMatching(/^Error: Cannot find module '\/nonexistent\/fencesim-no-such-server\.js'/));
    expect(formatProbeReport(report)).toMatch(/server stderr \(the lines naming a cause, then the last lines\):\n {2}Error: Cannot find module/);
  });

  it('a command that does not exist: the spawn error, no pid, nothing to end', async () => {
    const report = await runProbe({ serverCommand: ['/nonexistent/fencesim-no-such-command'], seed: 1, durationMs: 1_000, timeoutMs: 10_000 });
    expect(report.outcome).toBe('error');
    expect(report.error).toMatch(/^the server could not be started: spawn \/nonexistent\/fencesim-no-such-command ENOENT/);
    expect(report.server.pid).toBeNull();
    expect(report.cleanup.processGone).toBeNull();
  });

  it('a server that never answers and ignores SIGTERM: initialize named within the request bound, then killed', async () => {
    const report = await runProbe({
      serverCommand: [process.execPath, '-e', 'process.stdin.resume(); process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'],
      seed: 1,
      durationMs: 1_000,
      timeoutMs: 12_000,
      requestTimeoutMs: 1_000,
    });
    expect(report.outcome).toBe('error');
    expect(report.error).toBe('the server did not answer initialize within 1000 ms');
    // initialize (1 s), then ending the server: stdin closed (1 s), SIGTERM ignored (2 s), SIGKILL
    expect(report.elapsedMs).toBeLessThan(7_000);
    expect(report.server.process).toMatchObject({ stdinClosed: true, sigtermSent: true, sigkillSent: true, exitSignal: 'SIGKILL' });
    expect(report.server.pid).not.toBeNull();
    expect(report.cleanup.processGone).toBe(true);
    expect(isAlive(report.server.pid!)).toBe(false);
  }, 20_000);

  it('server-filesystem (tools only): the server declares no resources capability; no resources/* request is sent', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fencesim-fs-'));
    try {
      const report = await runProbe({ serverCommand: [process.execPath, serverPath('server-filesystem'), root], seed: 1, durationMs: 1_000, timeoutMs: 15_000 });
      expect(report.outcome).toBe('no-resources');
      expect(report.error).toMatch(/^the server declares no resources capability \(it declares: .*tools/);
      expect(report.effectCounts.RequestSent ?? 0).toBe(0);
      expect(report.listing.pages).toEqual([]);
      expect(report.expectations.map((check) => check.name)).toEqual(['process_gone']);
      expect(processGroupMembers(report.server.pid!)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 20_000);

  it('the fenced cache on a tools-only server (server-filesystem): no resources/* request, every command refused as CapabilityMissing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fencesim-fs-'));
    const cache = new FencedResourceCache({ connect: async () => new ProcessGroupTransport({ command: process.execPath, args: [serverPath('server-filesystem'), root] }) });
    const sent: string[] = [];
    const rejections: string[] = [];
    cache.onEffect((effect) => {
      if (effect.type === 'RequestSent') sent.push(effect.method);
      if (effect.type === 'ProtocolRejected') rejections.push(effect.rejection.kind);
    });
    try {
      await cache.start();
      cache.subscribe('file:///etc/hostname', 'alice');
      cache.discover();
      expect(sent).toEqual([]);
      expect(rejections).toEqual(['CapabilityMissing', 'CapabilityMissing', 'CapabilityMissing']);
      expect(cache.get('file:///etc/hostname', 'alice').served).toBe(false);
    } finally {
      await cache.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 20_000);

  it('server-memory: nothing observed without a trigger (not a pass); with --trigger create_entities, changes observed and passed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fencesim-memory-'));
    const options = { serverCommand: [process.execPath, serverPath('server-memory')], seed: 3, durationMs: 2_000, quietMs: 500, timeoutMs: 20_000, env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } };
    try {
      const idle = await runProbe(options);
      expect(idle.outcome, JSON.stringify([idle.error, idle.expectations])).toBe('nothing-observed');
      expect(idle.changesObserved).toBe(0);
      expect(idle.invariants.every((check) => check.ok)).toBe(true);
      const triggered = await runProbe({ ...options, trigger: { tool: 'create_entities', arguments: memoryEntity, everyMs: 500 } });
      expect(triggered.outcome, JSON.stringify([triggered.error, triggered.expectations])).toBe('passed');
      expect(triggered.trigger).toMatchObject({ tool: 'create_entities', listed: true, errors: 0 });
      expect(triggered.trigger!.calls).toBeGreaterThanOrEqual(3);
      expect(triggered.subscriptions[0]).toMatchObject({ uri: 'memory://knowledge-graph' });
      expect(triggered.subscriptions[0]!.updatesOnWire).toBeGreaterThan(0);
      expect(triggered.subscriptions[0]!.versionsAccepted).toBeGreaterThanOrEqual(2);
      expect(triggered.expectations.find((check) => check.name === 'updates_observed')).toMatchObject({ ok: true });
      const missing = await runProbe({ ...options, trigger: { tool: 'no_such_tool', arguments: {} } });
      expect(missing.outcome).toBe('error');
      expect(missing.error).toMatch(/^--trigger: the server lists no tool no_such_tool \(it lists: create_entities, /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('rejects malformed probe options with an error naming the field', async () => {
    await expect(runProbe({ serverCommand: [], seed: 1, durationMs: 1, timeoutMs: 1 })).rejects.toThrow(/serverCommand/);
    await expect(runProbe({ serverCommand: ['x'], seed: -1, durationMs: 1, timeoutMs: 1 })).rejects.toThrow(/seed/);
    await expect(runProbe({ serverCommand: ['x'], seed: 1, durationMs: 1, timeoutMs: 1, faults: { drop: { numerator: 2, denominator: 1 } } })).rejects.toThrow(/faults.drop/);
  });
});
