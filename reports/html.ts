/**
 * The HTML report: one self-contained page (inline CSS, inline SVG charts, no script, no font or image
 * fetched at view time) that a person opens from a CI artifact. Header: verdict, run spec, then (failing)
 * the first failure with its shrunk timeline and a replay command that works from the report's folder,
 * why it failed and the command that reproduces the run. Then the failing invariants with their replay
 * commands, the same tables as the Markdown summary, and the charts of charts.ts, each an <svg> rendered
 * in Node inside <figure data-chart="...">: the read-amplification-by-strategy chart only with the strategy
 * benchmark's rows; transition coverage only for a client that reports the reference table's transitions.
 * Async only because vega's toSVG is.
 */
import { chartFigures, renderChartSvg, type ChartFigure, type HtmlExtras, type StrategyResult } from './charts.js';
import {
  determinismOf,
  determinismText,
  failingInvariants,
  findingCountText,
  gateCommand,
  grouped,
  livenessFailureText,
  metricRows,
  mismatchReplay,
  mismatchText,
  noTableText,
  runDescription,
  safetyNames,
  shrinkOf,
  shrinkSummaryText,
  shrunkReplayCommand,
  shrunkTimelineText,
  sometimesRows,
  timingText,
  totalsRows,
  usesReferenceTable,
  verdictWord,
  type InvariantFinding,
  allSafetyZeroText,
} from './digest.js';
import { indexerHtml } from './indexer-render.js';
import { applicabilityHtml } from './applicability-section.js';
import { observeHtml } from './observe-render.js';
import { eraHtml } from './era-section.js';
import type { Report } from './json.js';

export type { HtmlExtras, StrategyResult } from './charts.js';

/** Replays listed per failing invariant before the rest fold into <details>. */
const replaysShownOpen = 3;

export async function renderHtml(report: Report, extras: HtmlExtras = {}): Promise<string> {
  // The read-amplification-by-strategy chart is drawn only from the strategy benchmark: without it, it
  // would be one lone bar repeating the metric table, so it is left out.
  const benchmarked = extras.strategies !== undefined && extras.strategies.length > 0;
  const figures = chartFigures(report, extras).filter((figure) => benchmarked || figure.kind !== 'read-amplification');
  const svgs = await Promise.all(figures.map((figure) => renderChartSvg(figure.spec, `chart-${figure.kind}`)));
  const figureHtml = new Map(figures.map((figure, index) => [figure.kind, figureElement(figure, svgs[index]!)]));
  const indexerSection = await indexerHtml(report, renderChartSvg, escape);
  const observeSection = await observeHtml(report, renderChartSvg, escape);
  const title = `fencesim gate ${verdictWord(report)} · ${report.runSpec.scenario} / ${report.runSpec.client} · seed ${report.runSpec.seed}`;
  const body = [
    header(report),
    nondeterminismSection(report),
    failingSection(report),
    applicabilityHtml(report, escape),
    metricsSection(report),
    section('charts', 'Distributions', `<div class="grid">${figureHtml.get('convergence-cdf')}${figureHtml.get('revocation-histogram')}${figureHtml.get('fault-mix')}</div>`),
    strategySection(extras.strategies, figureHtml.get('read-amplification') ?? ''),
    `<div class="grid">${safetySection(report)}${sometimesSection(report)}</div>`,
    coverageSection(report, figureHtml.get('transition-coverage')!),
    totalsSection(report),
    eraHtml(report, escape),
    indexerSection,
    observeSection,
    footer(report),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escape(title)}</title>
<style>${css}</style>
</head>
<body class="${report.passed ? 'passed' : 'failed'}">
<main>
${body.filter((part) => part !== '').join('\n')}
</main>
</body>
</html>
`;
}

function header(report: Report): string {
  const spec = report.runSpec;
  const reasons = report.reasons.length === 0 ? '' : `<ul class="reasons">${report.reasons.map((reason) => `<li>${escape(reason)}</li>`).join('')}</ul>`;
  return `<header class="verdict ${report.passed ? 'pass' : 'fail'}">
<h1><span class="badge">${verdictWord(report)}</span> fencesim gate</h1>
<p class="spec">${grouped(report.interleavings)} interleavings of <code>${escape(spec.scenario)}</code> against <code>${escape(spec.client)}</code>, seed <code>${spec.seed}</code>, max failures ${spec.maxFailures}</p>
${firstFailureLead(report)}${reasons}
<p class="label">Reproduce this run:</p>
<pre class="command"><code>${escape(gateCommand(report))}</code></pre>
</header>`;
}

function nondeterminismSection(report: Report): string {
  const determinism = determinismOf(report);
  if (determinism === undefined || determinism.nondeterministic_interleavings === 0) return '';
  const items = determinism.mismatches.map(
    (mismatch) => `<li><pre class="command"><code>${escape(mismatchReplay(report, mismatch))}</code></pre><span class="detail">${escape(mismatchText(mismatch))}</span></li>`,
  );
  const body = `<div class="finding"><h3>Determinism self-check <span class="count">${escape(determinismText(determinism))}</span></h3>
<p>The same seed gave two different traces, so no result of this run can be trusted to replay.</p><ul class="replays">${items.join('')}</ul></div>`;
  return section('nondeterminism', 'Nondeterminism', body);
}

function failingSection(report: Report): string {
  const findings = failingInvariants(report);
  if (findings.length === 0) return '';
  return section('failing', 'Failing invariants', findings.map((finding) => failingInvariant(report, finding)).join('\n'));
}

/**
 * What a failing report leads with, inside the verdict box: the first failure, its shrunk timeline (open)
 * and the command that replays the minimal run from this report's own folder (the replay file sits beside
 * report.html, so the relative path keeps working when the folder is downloaded from CI). Without a shrunk
 * run, the first failure's seed replay (which works anywhere) and why it was not shrunk.
 */
function firstFailureLead(report: Report): string {
  const view = shrinkOf(report);
  const failure = report.failures[0];
  if (failure === undefined) return '';
  const what = `<h2 class="lead">First failure: <code>${escape(failure.invariant)}</code> at ${grouped(failure.timeMs)} ms on <code>${escape(failure.uri)}</code></h2><p class="detail">${escape(failure.detail)}</p>`;
  if (view === undefined || view.kind === 'skipped') {
    const why = view === undefined ? '' : `<p class="muted">${escape(view.reason.charAt(0).toUpperCase() + view.reason.slice(1))}.</p>`;
    return `<section id="first-failure">${what}<p class="label">Replay it:</p><pre class="command" data-replay="seed"><code>${escape(failure.replay)}</code></pre>${why}</section>`;
  }
  const shrunk = view.shrunk;
  return `<section id="first-failure">${what}
<p class="label">Replay the minimal run, from this report's folder (${escape(shrinkSummaryText(shrunk))}):</p>
<pre class="command" data-replay="file"><code>${escape(shrunkReplayCommand(shrunk))}</code></pre>
<p class="label">Minimal timeline (${escape(shrunkTimelineText(shrunk))}):</p>
<pre class="timeline" id="shrunk-timeline">${escape(shrunk.timeline.join('\n'))}</pre></section>`;
}

function failingInvariant(report: Report, finding: InvariantFinding): string {
  const counted = findingCountText(finding);
  const head = `<h3><code>${escape(finding.name)}</code> <span class="kind">${finding.kind}</span> <span class="count">${counted}</span></h3>
<p>${escape(finding.explanation)}</p>`;
  if (finding.failures.length === 0) {
    return `<div class="finding">${head}<p class="muted">No replay recorded for it: report.json keeps the first violation of the first ${report.runSpec.maxFailures} failing interleavings. Re-run with a larger <code>--max-failures</code>.</p></div>`;
  }
  const item = (failure: Report['failures'][number]): string =>
    `<li><pre class="command"><code>${escape(failure.replay)}</code></pre><span class="detail">at ${grouped(failure.timeMs)} ms on <code>${escape(failure.uri)}</code>: ${escape(failure.detail)}</span></li>`;
  const open = finding.failures.slice(0, replaysShownOpen).map(item).join('');
  const rest = finding.failures.slice(replaysShownOpen);
  const more = rest.length === 0 ? '' : `<details><summary>${rest.length} more recorded replay${rest.length === 1 ? '' : 's'}</summary><ul class="replays">${rest.map(item).join('')}</ul></details>`;
  return `<div class="finding">${head}<ul class="replays">${open}</ul>${more}</div>`;
}

function metricsSection(report: Report): string {
  const rows = metricRows(report).map(
    (row) =>
      `<tr class="${row.passed ? (row.sampled ? 'ok' : 'unmeasured') : 'bad'}"><td><code>${escape(row.name)}</code></td><td class="num">${escape(row.value)}</td><td>${escape(row.gate)}</td><td>${row.passed ? `<span class="${row.sampled ? 'good-text' : 'muted'}">${escape(row.result)}</span>` : `<strong class="bad-text">${escape(row.result)}</strong>`}</td><td>${escape(row.measured)}${row.note === '' ? '' : `<br><span class="muted">${escape(row.note)}</span>`}</td></tr>`,
  );
  return section('metrics', 'Metrics', table(['metric', 'value', 'gate', 'result', 'measured'], rows));
}

function safetySection(report: Report): string {
  const names = safetyNames(report);
  const failing = names.filter((name) => (report.counters[name] ?? 0) > 0).length;
  const rows = names.map((name) => {
    const count = report.counters[name] ?? 0;
    return `<tr class="${count > 0 ? 'bad' : 'ok'}"><td><code>${escape(name)}</code></td><td class="num">${grouped(count)}</td><td>${result(count === 0, 'ok')}</td></tr>`;
  });
  const liveness = Object.entries(report.liveness).map(
    ([name, count]) => `<p class="${count > 0 ? 'bad-text' : 'muted'}">Liveness <code>${escape(name)}</code>: ${grouped(count)} interleavings ${livenessFailureText(name)}.</p>`,
  );
  const lead = failing === 0 ? `<p class="good-text">${escape(allSafetyZeroText(report))}</p>` : `<p class="bad-text">${failing} of ${names.length} safety counters are non-zero; each must be 0.</p>`;
  const determinism = determinismOf(report);
  const selfCheck =
    determinism === undefined
      ? ''
      : `<p class="${determinism.nondeterministic_interleavings > 0 ? 'bad-text' : determinism.checked === 0 ? 'muted' : 'good-text'}">Determinism self-check: ${escape(determinismText(determinism))}.</p>`;
  return section('safety', 'Safety counters', `${lead}${table(['invariant', 'violations', 'result'], rows)}${liveness.join('')}${selfCheck}`);
}

function sometimesSection(report: Report): string {
  const rows = sometimesRows(report);
  if (rows.length === 0) return section('sometimes', 'Sometimes (faults that fired)', '<p class="muted">No fault fired and none is required.</p>');
  const body = rows.map((row) => {
    const bad = row.status === 'never fired';
    const warn = row.status === 'not enforced';
    return `<tr class="${bad ? 'bad' : warn ? 'warn' : 'ok'}"><td><code>${escape(row.fault)}</code></td><td class="num">${grouped(row.fired)}</td><td>${bad ? `<strong class="bad-text">${escape(row.text)}</strong>` : escape(row.text)}</td></tr>`;
  });
  return section('sometimes', 'Sometimes (faults that fired)', table(['fault', 'fired', 'status'], body));
}

function coverageSection(report: Report, figure: string): string {
  const coverage = report.coverage;
  const percent = coverage.total === 0 ? 0 : Math.floor((coverage.hit / coverage.total) * 100);
  if (!usesReferenceTable(report)) {
    return section('coverage', 'Transition coverage: not applicable', `<p class="muted">${escape(noTableText(report))}</p>`);
  }
  const unreached =
    coverage.unreached.length === 0
      ? '<p class="good-text">Every edge of the transition table was hit.</p>'
      : `<details${coverage.unreached.length <= 8 ? ' open' : ''}><summary>${coverage.unreached.length} unreached edge${coverage.unreached.length === 1 ? '' : 's'}</summary><ul class="edges">${coverage.unreached.map((edge) => `<li><code>${escape(edge)}</code></li>`).join('')}</ul></details>`;
  return section('coverage', `Transition coverage: ${coverage.hit}/${coverage.total} edges hit (${percent} %)`, `${figure}${unreached}`);
}

function strategySection(strategies: StrategyResult[] | undefined, figure: string): string {
  if (strategies === undefined || strategies.length === 0) return '';
  const header = ['strategy', 'condition', 'duplicates', 'drops', 'reads / change', 'convergence p50', 'convergence p99', 'stale served', 'reconciliation reads / min'];
  const rows = strategies.map(
    (row) =>
      `<tr><td>${escape(row.strategy)}</td><td>${escape(row.condition)}</td><td class="num">${row.duplicateRatePercent} %</td><td class="num">${row.dropRatePercent} %</td><td class="num">${row.readsPerChange.toFixed(2)}</td><td class="num">${grouped(row.convergenceP50Ms)} ms</td><td class="num">${grouped(row.convergenceP99Ms)} ms</td><td class="num">${row.staleServedPercent} %</td><td class="num">${row.reconciliationReadsPerMinute}</td></tr>`,
  );
  return section('strategies', 'Strategy benchmark', `${figure}${table(header, rows)}`);
}

function totalsSection(report: Report): string {
  const rows = totalsRows(report).map(([label, value]) => `<tr><td>${escape(label)}</td><td class="num">${escape(value)}</td></tr>`);
  return section('totals', 'Totals', table(['', ''], rows, 'totals'));
}

function footer(report: Report): string {
  return `<footer>Rendered from report.json (<code>${escape(report.schema)}</code>): ${escape(runDescription(report))}. Timing (the only part that differs between identical runs): ${escape(timingText(report))}.</footer>`;
}

function figureElement(figure: ChartFigure, svg: string): string {
  const note = figure.empty ? '<p class="no-data">No data in this run.</p>' : '';
  return `<figure data-chart="${figure.kind}" data-empty="${figure.empty}">
<figcaption><strong>${escape(figure.title)}</strong> ${escape(figure.caption)}</figcaption>
${note}${svg}
</figure>`;
}

function section(id: string, title: string, body: string): string {
  return `<section id="${id}"><h2>${escape(title)}</h2>${body}</section>`;
}

function table(header: string[], rows: string[], className = ''): string {
  const head = header.every((cell) => cell === '') ? '' : `<thead><tr>${header.map((cell) => `<th>${escape(cell)}</th>`).join('')}</tr></thead>`;
  return `<table${className === '' ? '' : ` class="${className}"`}>${head}<tbody>${rows.join('')}</tbody></table>`;
}

function result(passed: boolean, word: string): string {
  return passed ? `<span class="good-text">${word}</span>` : '<strong class="bad-text">FAIL</strong>';
}

export function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const css = `
:root { --ink: #24292f; --muted: #57606a; --line: #d0d7de; --pass: #1a7f37; --fail: #c62828; --warn: #9a6700; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1280px; margin: 0 auto; padding: 24px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12.5px; }
h1 { margin: 0 0 6px; font-size: 24px; }
h2 { margin: 28px 0 10px; font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 14px 0 4px; font-size: 15px; }
.verdict { border-radius: 8px; padding: 16px 20px; border: 1px solid var(--line); border-left-width: 8px; }
.verdict.pass { border-left-color: var(--pass); background: #f0fff4; }
.verdict.fail { border-left-color: var(--fail); background: #fff5f5; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 6px; color: #fff; font-size: 18px; vertical-align: 2px; letter-spacing: 0.04em; }
.pass .badge { background: var(--pass); }
.fail .badge { background: var(--fail); }
.spec { margin: 4px 0; font-size: 15px; }
.reasons { margin: 8px 0; padding-left: 20px; color: var(--fail); }
.label { margin: 10px 0 2px; color: var(--muted); }
pre.command { margin: 2px 0; padding: 8px 10px; background: #fff; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; user-select: all; }
.finding { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; padding: 4px 14px 10px; margin: 10px 0; }
.finding p { margin: 2px 0 6px; }
.kind { font-size: 12px; font-weight: normal; color: var(--muted); border: 1px solid var(--line); border-radius: 10px; padding: 0 8px; }
.count { color: var(--fail); font-weight: 600; }
ul.replays { list-style: none; margin: 0; padding: 0; }
ul.replays li { margin: 6px 0; }
.detail { color: var(--muted); font-size: 13px; }
.finding.shrunk { border-left-color: var(--warn); }
#first-failure { margin: 12px 0 4px; padding: 10px 14px; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
h2.lead { margin: 0 0 4px; border: none; padding: 0; font-size: 17px; }
#first-failure pre.timeline { max-height: 60vh; overflow: auto; }
pre.timeline { margin: 4px 0; padding: 8px 10px; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; font-size: 11.5px; line-height: 1.45; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { text-align: left; padding: 4px 12px 4px 0; border-bottom: 1px solid #eaeef2; vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: 0.03em; }
td code { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.bad td { background: #fff5f5; }
tr.warn td { background: #fffbea; }
.good-text { color: var(--pass); }
.bad-text { color: var(--fail); }
.muted { color: var(--muted); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr)); gap: 8px 28px; align-items: start; }
figure { margin: 8px 0 16px; }
figcaption { margin-bottom: 6px; color: var(--muted); font-size: 13px; max-width: 620px; }
figcaption strong { color: var(--ink); display: block; font-size: 15px; }
figure svg { max-width: 100%; height: auto; display: block; }
.no-data { margin: 4px 0; padding: 4px 10px; display: inline-block; background: var(--soft); border: 1px dashed var(--line); border-radius: 6px; color: var(--muted); font-weight: 600; }
ul.edges { columns: 2; margin: 6px 0; }
details summary { cursor: pointer; color: var(--muted); margin: 6px 0; }
footer { margin-top: 32px; padding-top: 10px; border-top: 1px solid var(--line); color: var(--muted); font-size: 12px; }
`;
