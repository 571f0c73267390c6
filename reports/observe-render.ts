/**
 * The observability section of report.html: the simulated dashboards per fault (a table of the figures
 * an operator watches) and a bar chart of the mean cache age at serve per fault, with the no-fault row as
 * the healthy reference — e.g. drop-notification serves older content than no fault at all.
 */
import type { TopLevelSpec } from 'vega-lite';
import { color, config, width } from './chart-parts.js';
import type { SvgRenderer } from './indexer-render.js';
import type { Report } from './json.js';
import { observeTableOf } from './observe-table.js';

export async function observeHtml(report: Report, render: SvgRenderer, escape: (text: string) => string): Promise<string> {
  const section = report.observability;
  if (section === undefined) return '';
  const table = observeTableOf(section);
  const header = table.header;
  const rows = table.rows.map((row) => `<tr><td><code>${escape(row.row)}</code></td>${row.cells.map((value) => `<td class="num">${value}</td>`).join('')}</tr>`);
  const bars = section.rows.filter((row) => row.row !== 'all' && row.serveAgeMsMean !== null).map((row) => ({ row: row.row, ageMs: row.serveAgeMsMean, healthy: row.row === 'no fault fired' }));
  let chart = '';
  if (bars.length > 0) {
    const spec: TopLevelSpec = {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json', width: width - 200, height: bars.length * 16, config, data: { values: bars },
      mark: { type: 'bar', height: 11 },
      encoding: {
        y: { field: 'row', type: 'nominal', sort: null, title: null, axis: { labelLimit: 220 } },
        x: { field: 'ageMs', type: 'quantitative', title: 'mean cache age at serve, ms' },
        color: { field: 'healthy', type: 'nominal', legend: null, scale: { domain: [true, false], range: [color.pass, color.main] } },
      },
    };
    chart = `<figure data-chart="observe-serve-age" data-empty="false"><figcaption><strong>Cache age at serve, per fault</strong> The fenced cache's serve-age histogram folded over the simulated runs; green: runs where no fault fired.</figcaption>${await render(spec, 'chart-observe-serve-age')}</figure>`;
  }
  return `<section id="observability"><h2>Simulated operations: the cache's metrics per fault</h2><p>${escape(section.note)}.</p>
<table><thead><tr>${header.map((name) => `<th>${escape(name)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>${chart}</section>`;
}
