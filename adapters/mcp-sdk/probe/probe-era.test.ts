/**
 * The era phase of the probe against real servers over stdio (real time): the SDK v2 example server
 * (examples/v2-server, `serveStdio`) speaks 2026-07-28 with an ack and tagged updates; server-everything
 * (SDK 1.x) speaks 2025-11-25 only. Both bounded in time, both leave no process behind.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { probeEra, type EraProbeReport } from './probe-era.js';

const require = createRequire(import.meta.url);
const serverEverything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const v2Server = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'v2-server', 'server.mjs');

function leftRunning(report: EraProbeReport): boolean {
  return !report.processesGone;
}

describe('probe era phase', () => {
  it('the v2 example server: era 2026-07-28, ack with the honored filter, every update tagged with the listen id, hints per result, no listen across a restart', async () => {
    const startMs = Date.now();
    const report = await probeEra({ serverCommand: [process.execPath, v2Server], budgetMs: 20_000, requestTimeoutMs: 5_000, observeMs: 1_000 });
    expect(Date.now() - startMs).toBeLessThan(20_000);
    expect(report.error).toBeNull();
    expect(report.era).toBe('modern');
    expect(report.protocolVersion).toBe('2026-07-28');
    expect(report.hints).toContainEqual({ method: 'resources/read', uri: 'note://a', ttlMs: 2_000, cacheScope: 'private' });
    expect(report.hints.find((hint) => hint.method === 'resources/list')?.cacheScope).toBe('private');
    const listen = report.listen!;
    expect(listen.ackMs).not.toBeNull();
    expect(listen.honored).toEqual(expect.arrayContaining(['note://a', 'note://b']));
    expect(listen.updates).toBeGreaterThan(0);
    expect(listen.tagged).toBe(listen.updates);
    expect(listen.untagged + listen.otherTag).toBe(0);
    expect(report.restart!.oldListenClosed).toBe('remote');
    expect(report.restart!.updatesBeforeRelisten).toBe(0);
    expect(report.restart!.relisten!.tagged).toBeGreaterThan(0);
    expect(report.processes).toBe(2);
    expect(leftRunning(report)).toBe(false);
  }, 30_000);

  it('server-everything (SDK 1.x): era 2025-11-25 (legacy); no listen is tried; its process is gone', async () => {
    const report = await probeEra({ serverCommand: [process.execPath, serverEverything, 'stdio'], budgetMs: 15_000, requestTimeoutMs: 5_000 });
    expect(report.error).toBeNull();
    expect(report.era).toBe('legacy');
    expect(report.protocolVersion).toBe('2025-11-25');
    expect(report.listen).toBeNull();
    expect(report.processes).toBe(1);
    expect(leftRunning(report)).toBe(false);
  }, 30_000);

  it('a server that exits at once: the error is reported within the budget and nothing is left', async () => {
    const startMs = Date.now();
    const report = await probeEra({ serverCommand: [process.execPath, '-e', 'process.exit(3)'], budgetMs: 5_000, requestTimeoutMs: 2_000 });
    expect(Date.now() - startMs).toBeLessThan(8_000);
    expect(report.era).toBeNull();
    expect(report.error).not.toBeNull();
    expect(leftRunning(report)).toBe(false);
    expect(report.processes).toBe(1);
  }, 15_000);
});
