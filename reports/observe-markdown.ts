/**
 * summary.md's observability section: the same table as report.html's (observe-table.ts), rows where a
 * fault fired collapsed under <details> so the all-runs and no-fault rows stay in view.
 */
import type { Report } from './json.js';
import { observeTableOf } from './observe-table.js';

const inViewRows = new Set(['all', 'no fault fired']);

export function observeMarkdown(report: Report): string {
  const section = report.observability;
  if (section === undefined) return '';
  const table = observeTableOf(section);
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const head = [line(table.header), line(table.header.map((_, at) => (at === 0 ? ':--' : '--:')))];
  const render = (row: { row: string; cells: string[] }): string => line([`\`${row.row}\``, ...row.cells]);
  const inView = table.rows.filter((row) => inViewRows.has(row.row)).map(render);
  const faults = table.rows.filter((row) => !inViewRows.has(row.row)).map(render);
  const details = faults.length === 0 ? [] : ['', `<details><summary>${faults.length} rows, one per fault that fired</summary>`, '', ...head, ...faults, '', '</details>'];
  return ['## Simulated operations: the cache\'s metrics per fault', '', `${section.note}.`, '', ...head, ...inView, ...details].join('\n');
}
