/**
 * The observability table of the reports, one definition for both renderings (report.html's section in
 * observe-render.ts, summary.md's in observe-markdown.ts): the figures an operator watches, one row per
 * fault. 2026-07-28 columns (listens, acks the server narrowed, serves past TTL) appear when a run spoke it.
 */
import type { ObserveReportRow, ObserveReportSection } from './observe-section.js';

export interface ObserveTable {
  header: string[];
  /** Per row: its name, then the cells in header order after the first. */
  rows: Array<{ row: string; cells: string[] }>;
}

const cell = (value: number | null, digits = 3): string => (value === null ? '–' : Number.isInteger(value) ? String(value) : value.toFixed(digits));

const columns: Array<[string, (row: ObserveReportRow) => number | null]> = [
  ['interleavings', (row) => row.figures.interleavings],
  ['mean cache age at serve, ms', (row) => row.serveAgeMsMean],
  ['resubscription completeness', (row) => row.resubscriptionCompleteness],
  ['notifications acted on', (row) => row.notificationsActedOnShare],
  ['reconciliation finds / run', (row) => row.reconciliationChangesPerInterleaving],
  ['reconnects', (row) => row.figures.reconnects],
  ['stale fence decisions', (row) => row.figures.fenceStale],
  ['unhealthy at end', (row) => row.unhealthyShare],
];

const era2026Columns: Array<[string, (row: ObserveReportRow) => number | null]> = [
  ['listens', (row) => row.figures.listens ?? 0],
  ['acks honored', (row) => row.figures.listenAcksHonored ?? 0],
  ['acks narrowed', (row) => row.figures.listenAcksNarrowed ?? 0],
  ['serves past TTL', (row) => row.figures.ttlExpiredServes ?? 0],
  ['TTL re-reads', (row) => row.figures.readsTtl ?? 0],
];

export function observeTableOf(section: ObserveReportSection): ObserveTable {
  const spoke2026 = section.rows.some((row) => (row.figures.listens ?? 0) > 0);
  const chosen = spoke2026 ? [...columns, ...era2026Columns] : columns;
  return {
    header: ['row', ...chosen.map(([name]) => name)],
    rows: section.rows.map((row) => ({ row: row.row, cells: chosen.map(([, value]) => cell(value(row))) })),
  };
}
