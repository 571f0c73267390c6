/** Small pure text helpers shared by the commands. */

// The number and duration texts are the reports' (one formatter for the terminal and every report).
export { duration, grouped, mebibytes } from '../reports/digest.js';

/** Left-aligned columns: every row padded to the widest cell of each column but the last. */
export function columns(rows: readonly (readonly string[])[], indent = '  ', gap = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) => indent + row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index]!))).join(gap).trimEnd());
}

/** Per-second rate of `count` over `ms`, 0 when no time has passed. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? (count * 1_000) / ms : 0;
}
