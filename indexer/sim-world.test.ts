import { describe, expect, test } from 'vitest';
import { indexerConfig } from './indexers.js';
import { runIndexerGate, runIndexerInterleaving } from './runner.js';

describe('indexer simulation', () => {
  test('deterministic: the same seed gives the same trace and timeline', () => {
    const config = indexerConfig('reference')!;
    const first = runIndexerInterleaving(123, config, { trace: true, record: true });
    const second = runIndexerInterleaving(123, config, { trace: true, record: true });
    expect(second.traceHash).toBe(first.traceHash);
    expect(second.timeline).toEqual(first.timeline);
    const replayed = runIndexerInterleaving(0, config, { replay: first.decisions!, strict: true, trace: true });
    expect(replayed.timeline).toEqual(first.timeline);
  });

  test('the reference indexer passes 300 interleavings: invariants 0, metrics inside their gates, every fault fired', () => {
    const report = runIndexerGate(42, 300, 'reference', indexerConfig('reference')!);
    for (const invariant in report.counts) expect(report.counts[invariant]!.violated, invariant).toBe(0);
    for (const invariant in report.counts) expect(report.counts[invariant]!.checked, invariant).toBeGreaterThan(0);
    for (const metric of report.metricResults) expect(metric.passed, `${metric.name} = ${metric.value}`).toBe(true);
    expect(report.faultsNeverFired).toEqual([]);
    expect(report.passed).toBe(true);
  });
});
