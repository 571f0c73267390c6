import { describe, expect, test } from 'vitest';
import { indexerConfig } from '../indexers.js';
import { deriveSeed } from '../kernel-imports.js';
import { runIndexerGate, runIndexerInterleaving } from '../runner.js';

describe('rollback_lost: a rollback of a model migration loses nothing', () => {
  test('the reference keeps the old model up to date: 0 violations, and the check ran after real rollbacks', () => {
    const report = runIndexerGate(9, 250, 'reference', indexerConfig('reference')!);
    expect(report.metrics.faultsFired['model-rollback'] ?? 0).toBeGreaterThan(0);
    expect(report.counts.rollback_lost!.checked).toBeGreaterThan(20);
    expect(report.counts.rollback_lost!.violated).toBe(0);
  }, 60_000);

  test('store first, never verified: reads switched back to rows the store never finished are caught', () => {
    const config = indexerConfig('naive-store-first')!;
    let failure = undefined;
    for (let index = 0; index < 400 && failure === undefined; index++) {
      failure = runIndexerInterleaving(deriveSeed(9, index), config).violations.find((found) => found.invariant === 'rollback_lost');
    }
    expect(failure?.detail ?? 'not caught').toMatch(/before the rollback to fake-a at \d+ ms version \d+ was served; the first read after it (refused|served version \d+)/);
  }, 60_000);
});
