/**
 * What the reference's coalescing of duplicate `updated` pulses costs in freshness and saves in reads, measured
 * as `fencesim bench --strategies` measures (cli/strategy-bench.ts: same scenarios, seed, oracle and sums): the
 * reference at its defaults, the same code with shorter coalescing windows (ClientConfig.debounceMs; 0 turns
 * coalescing off: every pulse gets a read, as subscribe-version-check does), and the two other subscribed
 * strategies, for every duplicate / drop condition. Prints reads per notified change and the share of stale
 * serves per row.
 *
 *   node --import tsx scripts/freshness-tradeoff.mts [--interleavings N] [--windows 0,100,200]
 *
 * A 2025-11-25 `updated` names only the URI: a copy of a pulse and the pulse of a new change look the same, so a
 * client that reads fewer times than it is notified must leave some news unread until a later pulse (at most one
 * debounce window later with drop 0, a reconciliation period with drops). This script shows the price on the one
 * axis and the other, side by side, so the trade is a measurement, not an argument.
 */
import { runStrategyCell, strategyCells, type StrategyRow } from '../cli/strategy-bench.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const interleavings = Number(option('--interleavings', '300'));
const windows = option('--windows', '0,100,200').split(',').map(Number);
if (!Number.isInteger(interleavings) || interleavings < 1 || windows.some((ms) => !Number.isInteger(ms) || ms < 0)) {
  console.error('usage: node --import tsx scripts/freshness-tradeoff.mts [--interleavings N >= 1] [--windows MS,MS,...]');
  process.exit(2);
}

const seed = 1;
const cells = strategyCells().filter((cell) => !cell.strategy.polling);
const conditions = [...new Set(cells.map((cell) => cell.conditionName))];
const rows: { label: string; condition: string; row: StrategyRow }[] = [];
for (const conditionName of conditions) {
  for (const cell of cells.filter((candidate) => candidate.conditionName === conditionName)) {
    const name = cell.strategy.client.name;
    const variants: { label: string; debounceMs: number | null }[] =
      name === 'reference' ? [{ label: 'reference', debounceMs: null }, ...windows.map((ms) => ({ label: `reference, window ${ms} ms`, debounceMs: ms }))] : [{ label: name, debounceMs: null }];
    for (const variant of variants) {
      const window = variant.debounceMs === null ? undefined : { debounceMs: variant.debounceMs, debounceMsMax: variant.debounceMs };
      rows.push({ label: variant.label, condition: conditionName, row: runStrategyCell(cell, seed, interleavings, window) });
    }
  }
}

console.log(`reads per notified change / stale serves, ${interleavings} interleavings per cell (seed ${seed}), the strategy benchmark's conditions`);
const labels = [...new Set(rows.map((entry) => entry.label))];
const width = Math.max(...labels.map((label) => label.length));
console.log(`${''.padEnd(width)}  ${conditions.map((condition) => condition.replace(/ %/g, '%').replace('dup ', 'd').replace('drop ', 'x').replace(' / ', '/').padStart(12)).join(' ')}`);
for (const label of labels) {
  const cellsText = conditions.map((condition) => {
    const entry = rows.find((candidate) => candidate.label === label && candidate.condition === condition);
    return (entry === undefined ? '-' : `${entry.row.readsPerChange.toFixed(2)}/${entry.row.staleServedPercent.toFixed(1)}`).padStart(12);
  });
  console.log(`${label.padEnd(width)}  ${cellsText.join(' ')}`);
}
