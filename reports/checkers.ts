/**
 * report.json's `checkers` and `freshness` sections, from the accumulator: per checker family (sim/invariants.ts
 * `checkerFamilies`) how many effects were checked against its invariants and how many violated them, and the
 * freshness figures against the client's own promises (sim/checkers/convergence.ts). Rendered as rows by
 * digest.ts for every report format.
 */
import { freshnessFigures, type GateAccumulator } from '../sim/gate.js';
import { checkerFamilies, invariantIndex } from '../sim/oracle.js';

export interface ReportChecker {
  invariants: string[];
  checked: number;
  violated: number;
  /**
   * Per invariant of the family with violations: the interleavings that violated it. Not summed over the family: one
   * interleaving can fail two of its invariants (convergence_60s and healed_convergence, say).
   */
  failingInterleavingsByInvariant: Record<string, number>;
}

export function checkersOf(accumulator: GateAccumulator): Record<string, ReportChecker> {
  const result: Record<string, ReportChecker> = {};
  for (const [family, invariants] of Object.entries(checkerFamilies)) {
    let checked = 0;
    let violated = 0;
    const failing: Record<string, number> = {};
    for (const name of invariants) {
      const index = invariantIndex[name];
      checked += accumulator.checks[index]!;
      violated += accumulator.violationCounts[index]!;
      if (accumulator.failingInterleavings[index]! > 0) failing[name] = accumulator.failingInterleavings[index]!;
    }
    result[family] = { invariants: [...invariants], checked, violated, failingInterleavingsByInvariant: failing };
  }
  return result;
}

/** " in N interleavings" for one failing invariant; per invariant for several (an interleaving may fail more than one). */
function failingText(byInvariant: Record<string, number> | undefined, grouped: (value: number) => string): string {
  const entries = Object.entries(byInvariant ?? {});
  if (entries.length === 0) return '';
  if (entries.length === 1) return ` in ${grouped(entries[0]![1])} interleavings`;
  return ` (interleavings failing each: ${entries.map(([name, count]) => `${name} ${grouped(count)}`).join(', ')})`;
}

export function freshnessOf(accumulator: GateAccumulator): Record<(typeof freshnessFigures)[number], number> {
  const result = {} as Record<(typeof freshnessFigures)[number], number>;
  freshnessFigures.forEach((name, index) => (result[name] = accumulator.freshness[index]!));
  return result;
}

/** Rows for the totals table: "checker versions: checked 2,100,000, violated 0" and the freshness figures. */
export function checkerRows(checkers: Record<string, ReportChecker> | undefined, freshness: Record<string, number> | undefined, grouped: (value: number) => string): [string, string][] {
  const rows: [string, string][] = [];
  for (const [family, entry] of Object.entries(checkers ?? {})) {
    rows.push([`checker ${family}`, `checked ${grouped(entry.checked)}, violated ${grouped(entry.violated)}${failingText(entry.failingInterleavingsByInvariant, grouped)}`]);
  }
  if (freshness !== undefined) {
    const share = (part: number, whole: number): string => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(2)} %`);
    rows.push(['serves stale', `${grouped(freshness.staleServes ?? 0)} of ${grouped(freshness.servesJudged ?? 0)} (${share(freshness.staleServes ?? 0, freshness.servesJudged ?? 0)})`]);
    rows.push(['serves beyond the published staleness bound', `${grouped(freshness.servesBeyondBound ?? 0)} (${share(freshness.servesBeyondBound ?? 0, freshness.servesJudged ?? 0)})`]);
    rows.push(['over-rejections (newer than accepted, refused)', `${grouped(freshness.overRejections ?? 0)} of ${grouped(freshness.staleReceiptsJudged ?? 0)} stale receipts`]);
    rows.push(['healed phase: resources judged / failed', `${grouped(freshness.healedJudged ?? 0)} / ${grouped(freshness.healedFailed ?? 0)}`]);
  }
  return rows;
}
