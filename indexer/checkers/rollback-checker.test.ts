import { describe, expect, test } from 'vitest';
import { indexerConfig } from '../indexers.js';
import { runIndexerGate, runIndexerInterleaving } from '../runner.js';
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
    const view = (published: number, sourceDeletion = 0) =>
      ({ nowMs: 5_000, uris: ['u'], truth: () => ({ sequence: 21, deleted: false, digest: 'd', model: null }), sourceDeletion: () => sourceDeletion, state: { durable: { meta: { u: row(published) } } } }) as never;
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

  test('a resource deleted at the source after it was served is not held to it, even when the outbox lost the deletion', () => {
    const served = { served: true, model: 'fake-b', rows: [{ sequence: 17 }] } as never;
    const rollback = { type: 'ModelRollbackRequested', nowMs: 5_000 } as never;
    const switched = [{ type: 'ReadsSwitched', model: 'fake-a', previous: 'fake-b' }] as never;
    const view = (sourceDeletion: number) =>
      ({ nowMs: 5_000, uris: ['u'], truth: () => ({ sequence: 21, deleted: false, digest: 'd', model: null }), sourceDeletion: () => sourceDeletion, state: { durable: { meta: {} } } }) as never;
    const deletedSince = rollbackLost();
    deletedSince.onRead!(view(18), 'u', served);
    expect(deletedSince.onStep!(view(18), rollback, switched)).toBeNull();
    const deletedBefore = rollbackLost();
    deletedBefore.onRead!(view(9), 'u', served);
    expect(deletedBefore.onStep!(view(9), rollback, switched)?.detail).toBe('version 17 was served before the rollback, but fake-a, which reads switch back to, publishes nothing');
  });

  test('regression (default gate, indexer seed 3538251190): served v16, deleted v17 with the outbox entry dropped, rows lost, re-created v21, then the rollback', () => {
    const result = runIndexerInterleaving(3538251190, indexerConfig('reference')!, { trace: true });
    const timeline = result.timeline!.join('\n');
    expect(timeline).toMatch(/source mcp:\/\/docs\/r0 v17 delete\n.*outbox entry mcp:\/\/docs\/r0 v17 dropped/);
    expect(timeline).toContain('reads switched fake-b -> fake-a');
    expect(result.counts.rollback_lost!.checked).toBeGreaterThan(0);
    expect(result.violations).toEqual([]);
  });
});
