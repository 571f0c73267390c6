/**
 * The probe against the real `@modelcontextprotocol/server-everything` process over stdio (real time).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';
import { formatProbeReport, isAlive, runProbe } from './probe.js';

const require = createRequire(import.meta.url);
const serverEverything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

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
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(elapsedMs).toBeLessThan(30_000);
  }, 45_000);

  it('a server that cannot start: an error outcome, bounded, nothing left running', async () => {
    const report = await runProbe({ serverCommand: [process.execPath, '-e', 'process.exit(3)'], seed: 1, durationMs: 1_000, timeoutMs: 10_000 });
    expect(report.outcome).toBe('error');
    expect(report.error).toMatch(/closed|Connection/i);
    expect(report.elapsedMs).toBeLessThan(10_000);
    expect(report.server.pid === null || !isAlive(report.server.pid)).toBe(true);
    expect(formatProbeReport(report)).toMatch(/^fencesim probe: /);
  });

  it('a server that never answers: a timeout outcome within the bound, and the process is killed', async () => {
    const report = await runProbe({
      serverCommand: [process.execPath, '-e', 'process.stdin.resume(); process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'],
      seed: 1,
      durationMs: 1_000,
      timeoutMs: 6_000,
    });
    expect(report.outcome).toBe('timeout');
    expect(report.elapsedMs).toBeLessThan(7_000); // timeoutMs bounds the probe including cleanup
    expect(report.cleanup.killFallback).toBe(true); // it ignores SIGTERM and the SDK's close was cut short
    expect(report.server.pid).not.toBeNull();
    expect(report.cleanup.processGone).toBe(true);
    expect(isAlive(report.server.pid!)).toBe(false);
  }, 20_000);

  it('rejects malformed probe options with an error naming the field', async () => {
    await expect(runProbe({ serverCommand: [], seed: 1, durationMs: 1, timeoutMs: 1 })).rejects.toThrow(/serverCommand/);
    await expect(runProbe({ serverCommand: ['x'], seed: -1, durationMs: 1, timeoutMs: 1 })).rejects.toThrow(/seed/);
    await expect(runProbe({ serverCommand: ['x'], seed: 1, durationMs: 1, timeoutMs: 1, faults: { drop: { numerator: 2, denominator: 1 } } })).rejects.toThrow(/faults.drop/);
  });
});
