/**
 * report.json's `eras` section and its Markdown and HTML renderings: the gate's figures per protocol era
 * (sim/era-figures.ts), present when at least one interleaving spoke 2026-07-28 (`--protocol 2026-07-28`
 * or `both`). Per era: interleavings (and those that failed), the faults that fired, every invariant's
 * checked / violated counts, and freshness (stale serves, convergence within 60 s, read amplification).
 */
import type { GateAccumulator } from '../sim/gate.js';
import { eraFiguresOf, protocolEraNames, type ProtocolEraName } from '../sim/era-figures.js';

export interface EraReportRow {
  era: ProtocolEraName;
  interleavings: number;
  failingInterleavings: number;
  events: number;
  faultsFired: Record<string, number>;
  invariants: Record<string, { checked: number; violated: number }>;
  freshness: { servesJudged: number; staleServes: number; servesBeyondBound: number; convergence60s: number | null; readAmplification: number | null };
}

export interface EraReportSection {
  rows: EraReportRow[];
}

const ratioOf = (numerator: number, denominator: number): number | null => (denominator === 0 ? null : Math.round((numerator / denominator) * 1e6) / 1e6);

export function eraSectionOf(accumulator: GateAccumulator): EraReportSection | undefined {
  const rows = protocolEraNames.map((era): EraReportRow => {
    const { scalars, faultsFired, invariants } = eraFiguresOf(accumulator.eraFigures, era);
    return {
      era,
      interleavings: scalars.interleavings,
      failingInterleavings: scalars.failingInterleavings,
      events: scalars.events,
      faultsFired,
      invariants,
      freshness: {
        servesJudged: scalars.servesJudged,
        staleServes: scalars.staleServes,
        servesBeyondBound: scalars.servesBeyondBound,
        convergence60s: ratioOf(scalars.changesConverged, scalars.changesTracked),
        readAmplification: ratioOf(scalars.notificationReads, scalars.notifiedChanges),
      },
    };
  });
  return rows[1]!.interleavings === 0 ? undefined : { rows };
}

interface EraReportHolder {
  eras?: EraReportSection;
}

const shown = (value: number | null): string => (value === null ? '—' : String(value));

/** The table rows both renderings show: a label and one cell per era. */
function tableRows(section: EraReportSection): string[][] {
  const rows = section.rows;
  const violated = (row: EraReportRow): number => Object.values(row.invariants).reduce((sum, count) => sum + count.violated, 0);
  const checked = (row: EraReportRow): number => Object.values(row.invariants).reduce((sum, count) => sum + count.checked, 0);
  return [
    ['interleavings', ...rows.map((row) => String(row.interleavings))],
    ['failing interleavings', ...rows.map((row) => String(row.failingInterleavings))],
    ['events', ...rows.map((row) => String(row.events))],
    ['faults fired (kinds / total)', ...rows.map((row) => `${Object.keys(row.faultsFired).length} / ${Object.values(row.faultsFired).reduce((sum, fired) => sum + fired, 0)}`)],
    ['invariant checks / violations', ...rows.map((row) => `${checked(row)} / ${violated(row)}`)],
    ['serves judged / stale / beyond bound', ...rows.map((row) => `${row.freshness.servesJudged} / ${row.freshness.staleServes} / ${row.freshness.servesBeyondBound}`)],
    ['convergence within 60 s', ...rows.map((row) => shown(row.freshness.convergence60s))],
    ['read amplification', ...rows.map((row) => shown(row.freshness.readAmplification))],
  ];
}

export function eraMarkdown(report: EraReportHolder): string {
  const section = report.eras;
  if (section === undefined) return '';
  const header = `| figure | ${section.rows.map((row) => `\`${row.era}\``).join(' | ')} |`;
  const align = `| :-- | ${section.rows.map(() => '--:').join(' | ')} |`;
  const violated = section.rows.flatMap((row) => Object.entries(row.invariants).filter(([, count]) => count.violated > 0).map(([name, count]) => `- ${row.era}: \`${name}\` ${count.violated} violated of ${count.checked} checked`));
  return ['## By protocol era', '', header, align, ...tableRows(section).map((cells) => `| ${cells.join(' | ')} |`), ...(violated.length > 0 ? ['', ...violated] : [])].join('\n');
}

export function eraHtml(report: EraReportHolder, escape: (text: string) => string): string {
  const section = report.eras;
  if (section === undefined) return '';
  const header = `<tr><th>figure</th>${section.rows.map((row) => `<th class="num"><code>${escape(row.era)}</code></th>`).join('')}</tr>`;
  const body = tableRows(section).map(([label, ...cells]) => `<tr><td>${escape(label!)}</td>${cells.map((cell) => `<td class="num">${escape(cell)}</td>`).join('')}</tr>`);
  return `<section id="eras"><h2>By protocol era</h2><table>${header}${body.join('')}</table></section>`;
}
