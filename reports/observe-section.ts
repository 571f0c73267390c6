/**
 * report.json's `observability` section: the observation fold's dashboard figures over the simulated
 * runs (observe/gate-figures.ts), one row overall, one for the interleavings where no fault fired and one
 * per fault that fired somewhere, with the derived figures an operator watches: mean cache age at serve,
 * resubscription completeness, the share of notifications acted on, reconciliation finds per interleaving,
 * and the health verdicts at the end of the runs. Rebuilt from the accumulator alone (merge and verify
 * recompute it).
 */
import { observeRowNames, observeRowOf, type ObserveFigure } from '../observe/gate-figures.js';

export interface ObserveReportRow {
  row: string;
  figures: Record<ObserveFigure, number>;
  serveAgeMsMean: number | null;
  resubscriptionCompleteness: number | null;
  notificationsActedOnShare: number | null;
  reconciliationChangesPerInterleaving: number;
  unhealthyShare: number;
}

export interface ObserveReportSection {
  /** Which runs the rows cover: an interleaving is counted under every fault that fired in it. */
  note: string;
  rows: ObserveReportRow[];
}

const share = (numerator: number, denominator: number): number | null => (denominator === 0 ? null : Math.round((numerator / denominator) * 1e6) / 1e6);

export function observeSectionOf(figures: Float64Array): ObserveReportSection | undefined {
  const rows: ObserveReportRow[] = [];
  observeRowNames.forEach((name, index) => {
    const f = observeRowOf(figures, index);
    if (f.interleavings === 0) return;
    rows.push({
      row: name,
      figures: f,
      serveAgeMsMean: f.serveAgeCount === 0 ? null : Math.round(f.serveAgeSumMs / f.serveAgeCount),
      resubscriptionCompleteness: share(f.resubscriptionResubscribed, f.resubscriptionWanted),
      notificationsActedOnShare: share(f.notificationsActedOn, f.notifications),
      reconciliationChangesPerInterleaving: share(f.reconciliationChanges, f.interleavings) ?? 0,
      unhealthyShare: share(f.unhealthy, f.interleavings) ?? 0,
    });
  });
  if (rows.length === 0) return undefined;
  return { note: 'the fenced-cache metrics (observe/) folded over every client step of the gate; an interleaving counts under each fault that fired in it', rows };
}
