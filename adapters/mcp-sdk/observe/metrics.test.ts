/**
 * Must show (issue 16): the fenced cache against the real `@modelcontextprotocol/server-everything` process
 * over stdio (real time, a few seconds) with `@opentelemetry/sdk-metrics` and an in-memory exporter: a
 * subscription, updates, a forced reconnect (a new server process) and an unsubscribe; the exported values
 * are asserted, and they are the same figures `cache.health()` reports.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Histogram } from '@opentelemetry/sdk-metrics';
import { systemClock } from '../transport/clock.js';
import { FencedResourceCache } from '../cache/fenced-cache.js';
import { seriesKey } from '../../../observe/state.js';
import { testMeter, valueOf } from './otel-testing.js';

const require = createRequire(import.meta.url);
const serverEverything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const docA = 'demo://resource/static/document/architecture.md';
const docB = 'demo://resource/static/document/features.md';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => systemClock.setTimer(systemClock.nowMs() + ms, () => resolve()));
async function until(done: () => boolean, msMax: number, what: string): Promise<void> {
  const deadlineMs = systemClock.nowMs() + msMax;
  while (!done()) {
    if (systemClock.nowMs() > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

describe('metrics through OpenTelemetry against server-everything', () => {
  it('exports reconnects, a complete resubscription, reads by reason and cache age at serve', async () => {
    const { meterProvider, exported } = testMeter();
    const cache = new FencedResourceCache({
      connect: async () => new StdioClientTransport({ command: process.execPath, args: [serverEverything, 'stdio'], stderr: 'pipe' }),
      config: { reconcileIntervalMs: 1_000, reconcileJitterMsMax: 100 },
      reconnect: false,
      observe: { meterProvider, uriLabel: (uri) => (uri.endsWith('.md') ? 'static-doc' : undefined) },
    });
    cleanup = async () => {
      await cache.close();
      await meterProvider.shutdown();
    };
    await cache.start();
    cache.subscribe(docA);
    cache.subscribe(docB);
    await until(() => cache.health().subscribedUris === 2, 10_000, 'both subscriptions');
    await cache.client!.callTool({ name: 'toggle-subscriber-updates', arguments: {} }); // one round of updates at once
    const notificationReads = (): number => cache.health().counts[seriesKey('reads', { 'fencesim.read.reason': 'notification' })] ?? 0;
    await until(() => notificationReads() >= 1, 10_000, 'a read after a notification');
    await until(() => (cache.health().counts[seriesKey('reads', { 'fencesim.read.reason': 'reconcile' })] ?? 0) >= 1, 10_000, 'a reconciliation read');
    expect(cache.get(docA).served).toBe(true);
    expect(cache.get(docB).served).toBe(true);

    await cache.reconnect(); // a new server process: every wanted URI must be subscribed again
    await until(() => cache.health().resubscription.last?.outcome === 'complete', 10_000, 'the resubscription round');
    cache.unsubscribe(docB);
    await until(() => cache.health().wantedUris === 1 && cache.health().subscribedUris === 1, 10_000, 'the unsubscribe');
    await sleep(1_200);
    expect(cache.get(docA).served).toBe(true);

    const byName = await exported();
    const health = cache.health();
    expect(valueOf(byName, 'fencesim.cache.connections', { 'fencesim.connection.kind': 'first' })).toBe(1);
    expect(valueOf(byName, 'fencesim.cache.connections', { 'fencesim.connection.kind': 'reconnect' })).toBe(1);
    expect(valueOf(byName, 'fencesim.cache.disconnections')).toBe(1);
    expect(valueOf(byName, 'fencesim.cache.resubscription.rounds', { 'fencesim.outcome': 'complete' })).toBe(1);
    expect(valueOf(byName, 'fencesim.cache.resubscription.rounds', { 'fencesim.outcome': 'incomplete' })).toBe(0);
    expect(valueOf(byName, 'fencesim.cache.resubscription.uris', { 'fencesim.resubscription.state': 'wanted' })).toBe(2);
    expect(valueOf(byName, 'fencesim.cache.resubscription.uris', { 'fencesim.resubscription.state': 'resubscribed' })).toBe(2);
    expect(valueOf(byName, 'fencesim.cache.resubscription.duration')).toBe(1);
    expect(valueOf(byName, 'fencesim.cache.subscribe.attempts')).toBe(4);
    expect(valueOf(byName, 'fencesim.cache.subscribe.outcomes', { 'fencesim.outcome': 'acked' })).toBe(4);
    expect(valueOf(byName, 'fencesim.cache.reads', { 'fencesim.read.reason': 'initial', 'fencesim.uri.label': 'static-doc' })).toBe(4);
    expect(valueOf(byName, 'fencesim.cache.reads', { 'fencesim.read.reason': 'notification' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(byName, 'fencesim.cache.reads', { 'fencesim.read.reason': 'reconcile' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(byName, 'fencesim.cache.notifications', { 'fencesim.notification.kind': 'updated' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(byName, 'fencesim.cache.fence.decisions', { 'fencesim.fence.decision': 'accepted' })).toBeGreaterThanOrEqual(5);
    const age = byName.get('fencesim.cache.serve.age')!;
    expect(age).toHaveLength(1);
    expect(age[0]!.attributes).toEqual({ 'fencesim.uri.label': 'static-doc' });
    const ageValue = age[0]!.value as Histogram;
    expect(ageValue.count).toBe(3);
    expect(ageValue.max!).toBeGreaterThanOrEqual(0);
    expect(ageValue.max!).toBeLessThan(5); // seconds: the reconciliation reads keep it fresh
    // No raw URI anywhere among the exported attributes.
    for (const points of byName.values()) for (const point of points) expect(JSON.stringify(point.attributes)).not.toContain('demo://');
    // The exporter and health() report the same totals (one fold feeds both).
    expect(health.counts[seriesKey('reads', { 'fencesim.read.reason': 'initial' })]).toBe(4);
    expect(health.histograms[seriesKey('serveAge', {})]!.count).toBe(3);
    expect(health.verdict).toBe('healthy');
  });
});
