/**
 * summary.md's observability section: the same table as report.html's (one definition, observe-table.ts),
 * the all-runs and no-fault rows in view, one row per fault that fired under <details>, and the 2026-07-28
 * columns only when a run spoke it.
 */
import { describe, expect, it } from 'vitest';
import { addObservedRun, emptyObserveFigures, observeFigureNames } from '../observe/gate-figures.js';
import { faultIndex, newFaultCounts } from '../sim/faults.js';
import type { Report } from './json.js';
import { observeMarkdown } from './observe-markdown.js';
import { observeSectionOf } from './observe-section.js';
import { observeTableOf } from './observe-table.js';

function runRow(values: Partial<Record<(typeof observeFigureNames)[number], number>>): number[] {
  return observeFigureNames.map((name) => (name === 'interleavings' ? 1 : (values[name] ?? 0)));
}

function reportOf(rows: Array<{ values: Parameters<typeof runRow>[0]; fault?: 'drop-notification' }>): Report {
  const figures = emptyObserveFigures();
  for (const row of rows) {
    const counts = newFaultCounts();
    if (row.fault !== undefined) counts[faultIndex[row.fault]] = 1;
    addObservedRun(figures, runRow(row.values), counts);
  }
  return { observability: observeSectionOf(figures) } as unknown as Report;
}

describe('the Markdown observability section', () => {
  it('renders the table of report.html with the fault rows under details', () => {
    const report = reportOf([{ values: { serveAgeCount: 2, serveAgeSumMs: 3_000 } }, { values: { serveAgeCount: 1, serveAgeSumMs: 9_000 }, fault: 'drop-notification' }]);
    const text = observeMarkdown(report);
    const table = observeTableOf(report.observability!);
    expect(text).toContain(`| ${table.header.join(' | ')} |`);
    expect(text).toContain('| `all` | 2 | 4000 |');
    expect(text).toContain('| `no fault fired` | 1 | 1500 |');
    expect(text.indexOf('<details>')).toBeLessThan(text.indexOf('| `drop-notification` | 1 | 9000 |'));
    expect(table.header).not.toContain('listens');
  });

  it('adds the 2026-07-28 columns when a run sent listens', () => {
    const report = reportOf([{ values: { listens: 4, listenAcksHonored: 3, listenAcksNarrowed: 1, ttlExpiredServes: 2, readsTtl: 2 } }]);
    const table = observeTableOf(report.observability!);
    expect(table.header.slice(-5)).toEqual(['listens', 'acks honored', 'acks narrowed', 'serves past TTL', 'TTL re-reads']);
    expect(observeMarkdown(report)).toContain('| 4 | 3 | 1 | 2 | 2 |');
  });

  it('is empty without an observability section', () => {
    expect(observeMarkdown({} as Report)).toBe('');
  });
});
