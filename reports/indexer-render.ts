/**
 * The indexer section of every rendering of a report (the CLI summary, summary.md, junit.xml,
 * report.html), from report.json's `indexer` section only; each renders nothing when it is absent.
 */
import { indexerCharts } from './indexer-charts.js';
import type { IndexerReportSection } from './indexer-section.js';
import type { Report } from './json.js';

const failuresShown = 3;

function ok(passed: boolean): string {
  return passed ? 'ok' : 'FAIL';
}

function metricValue(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

function headline(section: IndexerReportSection): string {
  const verdict = section.passed ? 'passed' : 'FAILED';
  const enforced = section.enforced ? '' : ' (metric gates and faults reported, enforced from 200 indexer interleavings)';
  return `indexer ${section.indexer}: ${section.interleavings} indexer interleavings (one every ${section.every}), ${section.events} events, ${verdict}${enforced}`;
}

function rows(section: IndexerReportSection): string[][] {
  const out: string[][] = [];
  for (const [name, count] of Object.entries(section.invariants)) out.push([name, `${count.violated} violated of ${count.checked} checked`, ok(count.violated === 0)]);
  for (const metric of section.metrics) out.push([metric.name, `${metricValue(metric.value)} (gate ${metric.gate})`, metric.passed ? 'ok' : section.enforced ? 'FAIL' : 'not enforced']);
  const never = section.faultsNeverFired;
  out.push(['faults', never.length === 0 ? `all ${Object.keys(section.faults).length} fired` : `never fired: ${never.join(', ')}`, never.length === 0 ? 'ok' : section.enforced ? 'FAIL' : 'not enforced']);
  const drift = section.dashboard.drift;
  out.push(['drift found and repaired', `source ${drift.source}, store ${drift.store}, semantic ${drift.semantic}`, '']);
  out.push(['embedding calls', `${section.dashboard.embedCalls} (${section.dashboard.embedCallsMigration} for migrations) for ${section.dashboard.debouncedChanges} debounced changes`, '']);
  return out;
}

/** Lines for the CLI summary. */
export function indexerSummaryLines(report: Report): string[] {
  const section = report.indexer;
  if (section === undefined) return [];
  const width = Math.max(...rows(section).map((row) => row[0]!.length));
  const lines = [headline(section) + ':', ...rows(section).map((row) => `  ${row[0]!.padEnd(width)}  ${row[1]}  ${row[2]}`.trimEnd())];
  for (const failure of section.failures.slice(0, failuresShown)) {
    lines.push(`  ${failure.kind} at ${failure.timeMs} ms on ${failure.uri}: ${failure.detail}`, `    replay: ${failure.replay}`);
  }
  if (section.shrunk !== undefined) {
    lines.push(`  first indexer failure shrunk from ${section.shrunk.decisionsBefore} to ${section.shrunk.decisions} decisions (${section.shrunk.replays} replays):`);
    lines.push(...section.shrunk.timeline.map((line) => `    ${line}`));
  }
  return lines;
}

/** The summary.md section. */
export function indexerMarkdown(report: Report): string {
  const section = report.indexer;
  if (section === undefined) return '';
  const table = ['| check | value | result |', '| :-- | :-- | :-- |', ...rows(section).map((row) => `| \`${row[0]}\` | ${row[1]} | ${row[2]} |`)];
  const failures = section.failures.slice(0, failuresShown).map((failure) => `- \`${failure.kind}\` at ${failure.timeMs} ms on \`${failure.uri}\`: ${failure.detail}\n  replay: \`${failure.replay}\``);
  const shrunk = section.shrunk === undefined ? [] : ['', `First indexer failure shrunk to ${section.shrunk.decisions} decisions:`, '', '```text', ...section.shrunk.timeline, '```'];
  return [`## Downstream indexer`, '', headline(section) + '.', '', ...table, ...(failures.length > 0 ? ['', ...failures] : []), ...shrunk].join('\n');
}

export interface IndexerJunitCase {
  name: string;
  failure?: { message: string; type: string; body: string };
  skipped?: string;
}

/** JUnit cases, classname fencesim.indexer: one per invariant, metric gate and the fault counter. */
export function indexerJunitCases(report: Report): IndexerJunitCase[] {
  const section = report.indexer;
  if (section === undefined) return [];
  const replays = section.failures.slice(0, failuresShown).map((failure) => `${failure.kind} at ${failure.timeMs} ms on ${failure.uri}: ${failure.detail}\nreplay: ${failure.replay}`).join('\n');
  const cases: IndexerJunitCase[] = Object.entries(section.invariants).map(([name, count]) =>
    count.violated === 0 ? { name } : { name, failure: { message: `${name}: ${count.violated} violations`, type: 'indexer_violation', body: replays } },
  );
  for (const metric of section.metrics) {
    const text = `${metric.name} = ${metricValue(metric.value)} (gate ${metric.gate})`;
    if (metric.passed) cases.push({ name: metric.name });
    else if (!section.enforced) cases.push({ name: metric.name, skipped: `${text}: not enforced below 200 indexer interleavings` });
    else cases.push({ name: metric.name, failure: { message: `${text} misses its gate`, type: 'indexer_metric', body: replays } });
  }
  const never = section.faultsNeverFired;
  if (never.length === 0) cases.push({ name: 'every indexer fault fired' });
  else if (!section.enforced) cases.push({ name: 'every indexer fault fired', skipped: `never fired: ${never.join(', ')} (not enforced below 200 indexer interleavings)` });
  else cases.push({ name: 'every indexer fault fired', failure: { message: `never fired: ${never.join(', ')}`, type: 'indexer_sometimes', body: '' } });
  return cases;
}

export type SvgRenderer = (spec: import('vega-lite').TopLevelSpec, idPrefix: string) => Promise<string>;

/** The report.html section: the table, the failures and the dashboard's charts. */
export async function indexerHtml(report: Report, render: SvgRenderer, escape: (text: string) => string): Promise<string> {
  const section = report.indexer;
  if (section === undefined) return '';
  const charts = indexerCharts(section);
  const svgs = await Promise.all(charts.map((chart) => render(chart.spec, `chart-${chart.kind}`)));
  const figures = charts.map((chart, index) => `<figure data-chart="${chart.kind}" data-empty="${chart.empty}">
<figcaption><strong>${escape(chart.title)}</strong> ${escape(chart.caption)}</figcaption>
${chart.empty ? '<p class="no-data">No data in this run.</p>' : ''}${svgs[index]}
</figure>`);
  const tableRows = rows(section).map((row) => `<tr class="${row[2] === 'FAIL' ? 'bad' : 'ok'}"><td><code>${escape(row[0]!)}</code></td><td>${escape(row[1]!)}</td><td>${escape(row[2]!)}</td></tr>`);
  const failures = section.failures.slice(0, failuresShown).map((failure) => `<li><code>${escape(failure.kind)}</code> at ${failure.timeMs} ms on <code>${escape(failure.uri)}</code>: ${escape(failure.detail)}<br><code>${escape(failure.replay)}</code></li>`);
  const shrunk = section.shrunk === undefined ? '' : `<p>First indexer failure shrunk to ${section.shrunk.decisions} decisions:</p><pre>${escape(section.shrunk.timeline.join('\n'))}</pre>`;
  return `<section id="indexer"><h2>Downstream indexer</h2><p>${escape(headline(section))}</p>
<table><thead><tr><th>check</th><th>value</th><th>result</th></tr></thead><tbody>${tableRows.join('')}</tbody></table>
${failures.length > 0 ? `<ul>${failures.join('')}</ul>` : ''}${shrunk}
<div class="grid">${figures.join('')}</div></section>`;
}
