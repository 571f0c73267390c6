/**
 * The indexer's four curves through OpenTelemetry: an in-memory exporter, the indexer runtime over PGlite
 * with IndexerObserver as its onEffect, a cosmetic edit, a real edit, and a lost change event that the
 * reconciliation pass finds and repairs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dimensions } from '../../../indexer/embedding.js';
import { contentDigest } from '../../../indexer/kernel-imports.js';
import { openPgliteStore, type PgStore } from '../../../indexer/pg-store.js';
import { IndexerRuntime } from '../../../indexer/runtime.js';
import type { SourceObservation } from '../../../indexer/types.js';
import { IndexerObserver } from './indexer-metrics.js';
import { testMeter, valueOf } from './otel-testing.js';

let pg: { store: PgStore; close: () => Promise<void> };
beforeAll(async () => {
  pg = await openPgliteStore(dimensions);
}, 60_000);
afterAll(async () => pg?.close());

const body = (words: string, spacer = ' '): string => `${words.split(' ').join(spacer)} the of and.\n\nlomix pamix vix is here.\n`;
const entry = (uri: string, sequence: number, text: string) => ({ uri, sequence, operation: 'upsert' as const, digest: contentDigest(text), contentType: 'document', text, subject: 'alice' });

describe('IndexerObserver: index freshness, semantic decisions, embedding calls, reconciliation drift', () => {
  test('exports the curves and the drift/repair counts of a real run', async () => {
    const meter = testMeter();
    const observer = new IndexerObserver({ meterProvider: meter.meterProvider });
    const lost = entry('mcp://obs/b', 9, body('zufax golx hesx'));
    const sources: SourceObservation[] = [];
    const runtime = new IndexerRuntime({
      store: pg.store, onEffect: observer.onEffect, listSource: async () => sources,
      config: { debounceMsDefault: 20, debounceMsByType: {}, storeRetryMs: 200, reconcilePeriodMs: 400 },
    });
    const a1 = entry('mcp://obs/a', 1, body('kalox nekx dorx'));
    const a2 = entry('mcp://obs/a', 2, body('kalox nekx dorx', '  ')); // cosmetic: spacing only
    const a3 = entry('mcp://obs/a', 3, body('bripax sentux fagolx')); // a real change
    for (const change of [a1, a2, a3]) {
      runtime.enqueue(change);
      await runtime.idle();
    }
    // The source lists a resource whose change event never arrived: the next full pass finds and repairs it.
    sources.push({ uri: a3.uri, sequence: 3, deleted: false, digest: a3.digest, contentType: 'document', text: a3.text });
    sources.push({ uri: lost.uri, sequence: lost.sequence, deleted: false, digest: lost.digest, contentType: 'document', text: lost.text });
    await new Promise((resolve) => setTimeout(resolve, 900));
    await runtime.idle();
    runtime.close();
    const exported = await meter.exported();
    expect(valueOf(exported, 'fencesim.indexer.semantic.decisions', { 'fencesim.decision': 'metadata_only' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(exported, 'fencesim.indexer.semantic.decisions', { 'fencesim.decision': 'refresh' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(exported, 'fencesim.indexer.semantic.similarity')).toBeGreaterThanOrEqual(1);
    expect(valueOf(exported, 'fencesim.indexer.embedding.calls', { 'fencesim.model': 'fake-a' })).toBeGreaterThanOrEqual(3);
    expect(valueOf(exported, 'fencesim.indexer.embedding.texts')).toBeGreaterThanOrEqual(valueOf(exported, 'fencesim.indexer.embedding.calls'));
    // a1, a2, a3 and the lost b9 each became current in the index.
    expect(valueOf(exported, 'fencesim.indexer.index.lag')).toBeGreaterThanOrEqual(4);
    expect(valueOf(exported, 'fencesim.indexer.reconciliation.drift', { 'fencesim.drift.kind': 'source' })).toBe(1);
    expect(valueOf(exported, 'fencesim.indexer.reconciliation.repairs', { 'fencesim.drift.kind': 'source' })).toBe(1);
    expect(Object.keys(observer.state.drifting)).toEqual([]);
    expect((await runtime.read(lost.uri)).served).toBe(true);
  }, 60_000);
});
