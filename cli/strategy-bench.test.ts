/**
 * The strategy benchmark: its scenario fixes the duplicate and drop rates, its measures come out where the
 * strategies' designs put them (a naive client reads once per copy, pollers read at their interval), the
 * results are deterministic, and the command prints a table or the StrategyResult[] JSON.
 */
import { describe, expect, it } from 'vitest';
import { strategyCells, runStrategyCell, type StrategyCell, type StrategyRow } from './strategy-bench.js';
import { strategyConditions } from '../scenarios/strategies.js';
import { runCli } from '../test/cli-io.js';

const interleavings = 40;
const cells = strategyCells();

function cell(strategy: string, duplicateRatePercent = 0, dropRatePercent = 0): StrategyCell {
  const found = cells.find(
    (candidate) =>
      candidate.strategy.client.name === strategy &&
      (candidate.strategy.polling || (candidate.condition.duplicateRatePercent === duplicateRatePercent && candidate.condition.dropRatePercent === dropRatePercent)),
  );
  if (found === undefined) throw new Error(`no cell ${strategy} ${duplicateRatePercent}/${dropRatePercent}`);
  return found;
}

const rows = new Map<string, StrategyRow>();
function row(strategy: string, duplicateRatePercent = 0, dropRatePercent = 0): StrategyRow {
  const key = `${strategy} ${duplicateRatePercent} ${dropRatePercent}`;
  if (!rows.has(key)) rows.set(key, runStrategyCell(cell(strategy, duplicateRatePercent, dropRatePercent), 1, interleavings));
  return rows.get(key)!;
}

describe('strategy benchmark: cells', () => {
  it('every subscription strategy runs under 4 duplicate x 3 drop rates, each poller once', () => {
    expect(strategyConditions).toHaveLength(12);
    expect(cells).toHaveLength(3 * 12 + 3);
    expect(cells.filter((candidate) => candidate.strategy.polling).map((candidate) => candidate.strategy.client.name)).toEqual(['poll-1s', 'poll-5s', 'poll-15s']);
  });

  it('naive subscription reads once per delivered copy: duplicate rate r % gives 1 + r/100 reads per notified change', () => {
    expect(row('naive-overwrite').readsPerChange).toBeCloseTo(1, 1);
    expect(row('naive-overwrite', 100).readsPerChange).toBeCloseTo(2, 1);
    expect(row('naive-overwrite', 300).readsPerChange).toBeGreaterThan(3.6);
    expect(row('naive-overwrite', 300).readsPerChange).toBeLessThan(4.4);
  });

  it('the reference coalesces: under 1.2 reads per notified change (issue 10), even under duplicates', () => {
    // 1.0-1.15 (the most with 30 % drops): copies are coalesced, a few per read, as many as the learned pulse credits (core/duplicates.ts).
    for (const duplicateRatePercent of [100, 200, 300]) {
      expect(row('reference', duplicateRatePercent).readsPerChange).toBeLessThan(1.2);
      expect(row('reference', duplicateRatePercent, 30).readsPerChange).toBeLessThan(1.2);
    }
    expect(row('subscribe-version-check', 300).readsPerChange).toBeGreaterThan(3.6);
  });

  it('the reference serves stale content about as rarely as the clients that read every pulse (issue 10)', () => {
    // Without duplicates it never coalesces: 40 interleavings give 12.4 % beside naive-overwrite's 12.4 % (when a
    // burst could make it learn duplicates from three unchanged reads, 13.0 %).
    expect(row('reference', 0, 10).staleServedPercent).toBeLessThanOrEqual(row('naive-overwrite', 0, 10).staleServedPercent + 0.3);
    // One pulse credit per read at 100 %: 1.0 points staler than naive-overwrite (2.2 with the third-late-pulse rule).
    expect(row('reference', 100).staleServedPercent - row('naive-overwrite', 100).staleServedPercent).toBeLessThan(1.5);
  });

  it('drops: without reconciliation the naive client never converges some changes; the others do', () => {
    expect(row('naive-overwrite', 0, 30).convergenceP99Ms).toBe(60_100);
    expect(row('subscribe-version-check', 0, 30).convergenceP99Ms).toBeLessThan(40_000);
    expect(row('reference', 0, 30).convergenceP99Ms).toBeLessThan(40_000);
  });

  it('pollers read at their interval, converge within about one interval, and serve staler content the slower they poll', () => {
    const [fast, mid, slow] = [row('poll-1s'), row('poll-5s'), row('poll-15s')];
    // 60 s / (interval + mean jitter of a tenth), plus the first read.
    expect(mid.reconciliationReadsPerMinute).toBeGreaterThan(9);
    expect(mid.reconciliationReadsPerMinute).toBeLessThan(13);
    expect(fast.reconciliationReadsPerMinute).toBeGreaterThan(45);
    expect(slow.convergenceP99Ms).toBeLessThanOrEqual(18_100);
    expect(fast.staleServedPercent).toBeLessThan(mid.staleServedPercent);
    expect(mid.staleServedPercent).toBeLessThan(slow.staleServedPercent);
    expect(fast.condition).toBe('any (no notifications)');
  });

  it('is deterministic: a cell run twice gives the same row', () => {
    expect(runStrategyCell(cell('reference', 200, 10), 1, 15)).toEqual(runStrategyCell(cell('reference', 200, 10), 1, 15));
  });
});

describe('fencesim bench --strategies', () => {
  it('--json prints one StrategyResult per cell', async () => {
    const run = await runCli(['bench', '--strategies', '--interleavings', '2', '--workers', '1', '--json']);
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as StrategyRow[];
    expect(parsed).toHaveLength(cells.length);
    for (const result of parsed) {
      for (const field of ['duplicateRatePercent', 'dropRatePercent', 'readsPerChange', 'convergenceP50Ms', 'convergenceP99Ms', 'staleServedPercent', 'reconciliationReadsPerMinute']) {
        expect(typeof (result as unknown as Record<string, unknown>)[field]).toBe('number');
      }
    }
  });

  it('prints an aligned table with every strategy', async () => {
    const run = await runCli(['bench', '--strategies', '--interleavings', '1', '--workers', '1']);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    const header = lines.findIndex((line) => line.startsWith('strategy '));
    expect(header).toBeGreaterThan(0);
    const table = lines.slice(header, header + 2 + cells.length + 5).filter((line) => line !== '');
    expect(new Set(table.map((line) => line.length)).size).toBe(1);
    for (const name of ['naive-overwrite', 'poll-1s', 'poll-5s', 'poll-15s', 'subscribe-version-check', 'reference']) expect(run.stdout).toContain(`\n${name} `);
  });

  it('says what the safety violations column is made of, per strategy and invariant, and the sum is the column', async () => {
    const poller = row('poll-1s');
    expect(poller.safetyViolations).toBeGreaterThan(0);
    expect(Object.values(poller.safetyViolationsByInvariant).reduce((sum, count) => sum + count, 0)).toBe(poller.safetyViolations);
    // A poller never subscribes although the server declares subscribe: that is what its column counts.
    expect(Object.keys(poller.safetyViolationsByInvariant).sort()).toEqual(['server_subscription_missing', 'subscribe_unsent']);
    expect(row('reference').safetyViolationsByInvariant).toEqual({});
    const run = await runCli(['bench', '--strategies', '--interleavings', '3', '--workers', '1']);
    expect(run.stdout).toContain('safety viol.: safety invariants violated, summed over the interleavings, by strategy and invariant');
    expect(run.stdout).toMatch(/^ {2}poll-1s: (subscribe_unsent|server_subscription_missing) \d+, (subscribe_unsent|server_subscription_missing) \d+$/m);
    expect(run.stdout).not.toMatch(/^ {2}reference: /m);
  });

  it.each([
    [['bench', '--strategies', '--scenario', 'swarm'], '--scenario does not apply to --strategies'],
    [['bench', '--strategies', '--repetitions', '2'], '--repetitions does not apply to --strategies'],
    [['bench', '--workers', '2'], '--workers applies only to --strategies'],
    [['bench', '--strategies', '--interleavings', '0'], '--interleavings'],
  ])('%j exits 2', async (argv, fragment) => {
    const run = await runCli(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(fragment);
  });
});
