import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../test/cli-io.js';

describe('fencesim index-gate', () => {
  test('the reference indexer passes a short gate and writes index-report.json', async () => {
    const out = await mkdtemp(join(tmpdir(), 'index-gate-'));
    const run = await runCli(['index-gate', '--seed', '7', '--interleavings', '150', '--out', out]);
    expect(run.stdout).toContain('verdict: PASSED');
    expect(run.code).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'index-report.json'), 'utf8'));
    expect(report.schema).toBe('fencesim.index-report.v1');
    expect(report.faultsNeverFired).toEqual([]);
  });

  test('a naive indexer fails with replay commands that reproduce the violation', async () => {
    const out = await mkdtemp(join(tmpdir(), 'index-gate-'));
    const run = await runCli(['index-gate', '--seed', '7', '--interleavings', '40', '--indexer', 'naive-no-tombstone', '--out', out, '--no-shrink']);
    expect(run.code).toBe(1);
    const replay = /replay: npx fencesim (index-gate --indexer \S+ --replay \d+)/.exec(run.stdout);
    expect(replay, run.stdout).not.toBeNull();
    const again = await runCli(replay![1]!.split(' '));
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('verdict: VIOLATION');
  });

  test('bad input exits 2 naming the problem', async () => {
    const run = await runCli(['index-gate', '--indexer', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown indexer "nope"');
  });
});
