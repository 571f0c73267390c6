/**
 * `bench --strategies --client PATH`: a client module is one more strategy row, measured under the same
 * conditions and seeds as the reducer strategies, and its measures come out where its design puts them.
 */
import { describe, expect, it } from 'vitest';
import { loadClientModule } from './client-module.js';
import { clientStrategyCells, clientStrategyName, runClientStrategyCell } from './module-strategy.js';
import { pollingConditionName, strategyCells, type StrategyRow } from './strategy-bench.js';
import { strategyConditions } from '../scenarios/strategies.js';
import { runCli } from '../test/cli-io.js';

const naive = './examples/naive-kb/client.mjs';
const fixed = './examples/fixed-kb/client.mjs';
const cell = (duplicateRatePercent: number, dropRatePercent: number): number =>
  strategyConditions.findIndex((condition) => condition.duplicateRatePercent === duplicateRatePercent && condition.dropRatePercent === dropRatePercent);

describe('a client module as a strategy', () => {
  it('runs under every condition; a client that claims no subscriptions runs once, as a poller', async () => {
    expect(clientStrategyCells(await loadClientModule(fixed, 'bench'))).toHaveLength(strategyConditions.length);
    const poller = await loadClientModule('./test/fixtures/modules/poller.mjs', 'bench');
    expect(clientStrategyCells(poller)).toEqual([{ condition: { duplicateRatePercent: 0, dropRatePercent: 0 }, conditionName: pollingConditionName }]);
    const row = await runClientStrategyCell(poller, 0, 1, 4);
    expect(row.strategy).toBe('module-poller (./test/fixtures/modules/poller.mjs)');
    // 60 s / 2 s per poll: about 30 reads per resource-minute, none caused by a notification.
    expect(row.reconciliationReadsPerMinute).toBeGreaterThan(20);
    expect(row.reconciliationReadsPerMinute).toBeLessThan(40);
    expect(row.readsPerChange).toBe(row.totalReadsPerChange);
  });

  it('the naive module client reads once per delivered copy; the fixed one coalesces them', async () => {
    const naiveClient = await loadClientModule(naive, 'bench');
    const fixedClient = await loadClientModule(fixed, 'bench');
    // One after another: module interleavings share the thread's fake clock.
    const naiveQuiet = await runClientStrategyCell(naiveClient, cell(0, 0), 1, 6);
    const naiveStorm = await runClientStrategyCell(naiveClient, cell(300, 0), 1, 6);
    const fixedStorm = await runClientStrategyCell(fixedClient, cell(300, 0), 1, 6);
    expect(naiveQuiet.readsPerChange).toBeGreaterThan(0.8);
    expect(naiveQuiet.readsPerChange).toBeLessThan(1.3);
    expect(naiveStorm.readsPerChange).toBeGreaterThan(3.2);
    expect(fixedStorm.readsPerChange).toBeLessThan(naiveStorm.readsPerChange / 2);
    expect(fixedStorm.condition).toBe('dup 300 % / drop 0 %');
    expect(clientStrategyName(fixedClient)).toBe(`fixed-kb (${fixed})`);
  });

  it('is deterministic: a cell run twice gives the same row', async () => {
    const client = await loadClientModule(fixed, 'bench');
    expect(await runClientStrategyCell(client, cell(100, 10), 3, 3)).toEqual(await runClientStrategyCell(client, cell(100, 10), 3, 3));
  });
});

describe('fencesim bench --strategies --client', () => {
  it('adds the client module\'s row after the reducer strategies, the same on one thread and on workers', async () => {
    const argv = ['bench', '--strategies', '--client', fixed, '--interleavings', '1', '--json'];
    const [here, workers] = [await runCli([...argv, '--workers', '1']), await runCli([...argv, '--workers', '2'])];
    expect(here.code).toBe(0);
    const rows = JSON.parse(here.stdout) as StrategyRow[];
    const reducerCells = strategyCells().length;
    expect(rows).toHaveLength(reducerCells + strategyConditions.length);
    expect(rows.slice(reducerCells).map((row) => row.strategy)).toEqual(strategyConditions.map(() => `fixed-kb (${fixed})`));
    expect(rows.slice(reducerCells).map((row) => row.condition)).toEqual(rows.slice(0, strategyConditions.length).map((row) => row.condition));
    expect(workers.code).toBe(0);
    expect(JSON.parse(workers.stdout)).toEqual(rows);
  });

  it('refuses a registry client name, naming the path form', async () => {
    const run = await runCli(['bench', '--strategies', '--client', 'naive-overwrite']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--client ./my-client.mjs');
  });
});
