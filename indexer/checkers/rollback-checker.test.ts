import { describe, expect, test } from 'vitest';
import { indexerConfig } from '../indexers.js';
import { runIndexerGate } from '../runner.js';
import { rollbackLost } from './rollback-checker.js';

describe('rollback_lost: a rollback of a model migration loses nothing', () => {
  test('the reference keeps the old model up to date: 0 violations, and the check ran after real rollbacks', () => {
    const report = runIndexerGate(9, 250, 'reference', indexerConfig('reference')!);
    expect(report.metrics.faultsFired['model-rollback'] ?? 0).toBeGreaterThan(0);
    expect(report.counts.rollback_lost!.checked).toBeGreaterThan(20);
    expect(report.counts.rollback_lost!.violated).toBe(0);
  }, 60_000);

  test('a rollback that switches reads to a model left behind is caught; a version published in the switching step counts', () => {
    const row = (sequence: number) => ({ indexed: { 'fake-a': { sequence } } });
    const view = (published: number) =>
      ({ nowMs: 5_000, uris: ['u'], truth: () => ({ sequence: 17, deleted: false, digest: 'd', model: null }), deliveredDeletion: () => 0, state: { durable: { meta: { u: row(published) } } } }) as never;
    const served = { served: true, model: 'fake-b', rows: [{ sequence: 17 }] } as never;
    const rollback = { type: 'ModelRollbackRequested', nowMs: 5_000 } as never;
    const switched = { type: 'ReadsSwitched', model: 'fake-a', previous: 'fake-b' };
    const behind = rollbackLost();
    behind.onRead!(view(14), 'u', served);
    expect(behind.onStep!(view(14), rollback, [switched] as never)?.detail).toBe('version 17 was served before the rollback, but fake-a, which reads switch back to, publishes only version 14');
    const caughtUp = rollbackLost();
    caughtUp.onRead!(view(14), 'u', served);
    expect(caughtUp.onStep!(view(14), rollback, [{ type: 'IndexPublished', uri: 'u', model: 'fake-a', sequence: 17 }, switched] as never)).toBeNull();
    expect([behind.violated, caughtUp.violated, caughtUp.checked]).toEqual([1, 0, 1]);
  });
});
