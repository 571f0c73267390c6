/**
 * The HTML report's charts: each one a Vega-Lite spec built from report data by a pure function, then
 * compiled and rendered to an SVG string in Node (vega View, renderer 'none', toSVG), so the page needs
 * no script and no network to show them. Charts whose data the run did not produce render a visible
 * "no data in this run" panel instead of an empty frame.
 *
 * (a) convergence-cdf         report.distributions.convergenceMs, as a cumulative share on a log time axis
 * (b) revocation-histogram    report.distributions.revocationMs, re-binned to about 40 bars, gate and p99 rules
 * (c) read-amplification      extras.strategies (strategy benchmark), else this run's read_amplification
 * (d) fault-mix               report.faults and report.sometimes: fired count per fault, by requirement
 * (e) transition-coverage     report.coverage.edges: hits per edge on a symlog axis, unreached in red
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { color, config, emptySpec, gateRule, height, lastNonEmpty, markerRule, powersOfTen, seconds, width, type Layers } from './chart-parts.js';
import { grouped, histogramOf, histogramTotal, metricRows, sometimesEnforced, type Histogram } from './digest.js';
import type { Report } from './json.js';
import './text-metrics.js';

export const chartKinds = ['convergence-cdf', 'revocation-histogram', 'read-amplification', 'fault-mix', 'transition-coverage'] as const;
export type ChartKind = (typeof chartKinds)[number];

/** One row of the strategy benchmark (read amplification and freshness per client strategy and condition). */
export interface StrategyResult {
  strategy: string;
  condition: string;
  duplicateRatePercent: number;
  dropRatePercent: number;
  readsPerChange: number;
  convergenceP50Ms: number;
  convergenceP99Ms: number;
  staleServedPercent: number;
  reconciliationReadsPerMinute: number;
}

/** Data the HTML report can show that report.json does not carry. */
export interface HtmlExtras {
  /** Rows of the strategy benchmark; without them chart (c) shows this run's read_amplification alone. */
  strategies?: StrategyResult[];
  /** Directory of report.json, to print the shrunk replay file's path (see RenderOptions). */
  reportDir?: string;
}

export interface ChartFigure {
  kind: ChartKind;
  title: string;
  caption: string;
  /** True when the run produced no data for it: the spec then draws a "no data in this run" panel. */
  empty: boolean;
  spec: TopLevelSpec;
}

/** The five figures of the HTML report, specs included, in page order. */
export function chartFigures(report: Report, extras: HtmlExtras = {}): ChartFigure[] {
  return [convergenceFigure(report), revocationFigure(report), amplificationFigure(report, extras), faultMixFigure(report), coverageFigure(report)];
}

/** Compiles a Vega-Lite spec and renders it to an SVG string; element ids are prefixed to stay unique in a page. */
export async function renderChartSvg(spec: TopLevelSpec, idPrefix: string): Promise<string> {
  const compiled = compile(spec, { logger: vega.logger(vega.Error) }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
  try {
    return prefixIds(await view.toSVG(), idPrefix);
  } finally {
    view.finalize();
  }
}

function prefixIds(svg: string, prefix: string): string {
  return svg.replace(/\bid="([^"]+)"/g, `id="${prefix}-$1"`).replace(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`);
}

// (a) -------------------------------------------------------------------------------------------------

function convergenceFigure(report: Report): ChartFigure {
  const title = 'Convergence time (CDF)';
  const histogram = histogramOf(report, 'convergenceMs');
  const total = histogram === undefined ? 0 : histogramTotal(histogram);
  const metric = metricRows(report).find((row) => row.name === 'convergence_60s');
  const gateText = metric === undefined ? '' : ` convergence_60s = ${metric.value} (gate ${metric.gate}).`;
  if (histogram === undefined || total === 0) {
    return { kind: 'convergence-cdf', title, caption: `No convergence-time distribution in this report.${gateText}`, empty: true, spec: emptySpec('seconds from change to accepted content') };
  }
  const points = cdfPoints(histogram, total);
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width,
    height,
    config,
    layer: [
      {
        data: { values: points },
        mark: { type: 'line', color: color.main, strokeWidth: 2, point: points.length <= 40 ? { filled: true, size: 14, color: color.main } : false },
        encoding: {
          x: { field: 'seconds', type: 'quantitative', scale: { type: 'log' }, title: 'seconds from change to accepted content (log scale)' },
          y: { field: 'share', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%' }, title: 'changes converged' },
        },
      },
      ...gateRule(60, '60 s window', 'seconds'),
    ],
  };
  const overflow = histogram.overflow > 0 ? ` ${grouped(histogram.overflow)} at or beyond ${seconds(histogram.counts.length * histogram.bucketMs)} (not converged within the histogram's range).` : '';
  const caption = `Share of ${grouped(total)} changes whose accepted content reached the change within a given time.${gateText}${overflow}`;
  return { kind: 'convergence-cdf', title, caption, empty: false, spec };
}

/** Cumulative share at each bucket's upper edge, up to the last non-empty bucket. */
export function cdfPoints(histogram: Histogram, total: number): { seconds: number; share: number }[] {
  const last = lastNonEmpty(histogram.counts);
  const points: { seconds: number; share: number }[] = [];
  let seen = 0;
  for (let i = 0; i <= last; i++) {
    seen += histogram.counts[i]!;
    points.push({ seconds: ((i + 1) * histogram.bucketMs) / 1_000, share: seen / total });
  }
  return points;
}

// (b) -------------------------------------------------------------------------------------------------

const revocationBarsMax = 40;

function revocationFigure(report: Report): ChartFigure {
  const title = 'Revocation latency';
  const histogram = histogramOf(report, 'revocationMs');
  const total = histogram === undefined ? 0 : histogramTotal(histogram);
  const metric = report.metrics['revocation_p99_ms'];
  const gateMs = metric?.threshold.value ?? report.thresholds['revocation_p99_ms']?.value;
  const metricText = metric === undefined ? '' : metric.denominator === 0 ? ' No revocation was measured.' : ` p99 = ${grouped(metric.value)} ms (gate < ${grouped(metric.threshold.value)} ms).`;
  if (histogram === undefined || total === 0) {
    return { kind: 'revocation-histogram', title, caption: `No revocation-latency distribution in this report.${metricText}`, empty: true, spec: emptySpec('seconds from revocation to purge complete') };
  }
  const bars = rebin(histogram, revocationBarsMax, gateMs);
  const rules = [
    ...(gateMs === undefined ? [] : gateRule(gateMs / 1_000, `gate ${seconds(gateMs)}`, 'start')),
    ...(metric === undefined || metric.denominator === 0 ? [] : markerRule(metric.value / 1_000, `p99 ${seconds(metric.value)}`, 'start')),
  ];
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width,
    height,
    config,
    layer: [
      {
        data: { values: bars },
        mark: { type: 'bar', stroke: 'white', strokeWidth: 0.5 },
        encoding: {
          x: { field: 'start', type: 'quantitative', bin: 'binned', title: 'seconds from revocation to purge complete' },
          x2: { field: 'end' },
          y: { field: 'count', type: 'quantitative', title: 'revocations' },
          color: { field: 'overflow', type: 'nominal', scale: { domain: [false, true], range: [color.main, color.warn] }, legend: null },
        },
      },
      {
        data: { values: bars.filter((bar) => bar.overflow) },
        mark: { type: 'text', baseline: 'bottom', dy: -3, fontSize: 10, color: color.warn },
        encoding: { x: { field: 'start', type: 'quantitative' }, y: { field: 'count', type: 'quantitative' }, text: { field: 'label' } },
      },
      ...rules,
    ],
  };
  const overflow = histogram.overflow > 0 ? ` The orange bar, drawn just past the data, counts ${grouped(histogram.overflow)} at or beyond ${seconds(histogram.counts.length * histogram.bucketMs)}.` : '';
  const binText = `${seconds(bars[0]!.end * 1_000 - bars[0]!.start * 1_000)} bins`;
  return { kind: 'revocation-histogram', title, caption: `${grouped(total)} revocations, ${binText}.${metricText}${overflow}`, empty: false, spec };
}

export interface HistogramBar {
  start: number;
  end: number;
  count: number;
  overflow: boolean;
  /** '' for a regular bar; "≥ 120 s" on the overflow bar. */
  label: string;
}

/**
 * Merges consecutive buckets into at most `barsMax` bars (seconds). Values beyond the histogram's range
 * get one more bar, labelled with where the range ends; it is drawn just past the data (and past the gate,
 * so it never looks like it passes), not at the far end of the range where it would squash every other bar.
 */
export function rebin(histogram: Histogram, barsMax: number, gateMs = 0): HistogramBar[] {
  const last = Math.max(0, lastNonEmpty(histogram.counts));
  const factor = Math.max(1, Math.ceil((last + 1) / barsMax));
  const widthMs = histogram.bucketMs * factor;
  const bars: HistogramBar[] = [];
  for (let first = 0; first <= last; first += factor) {
    let count = 0;
    for (let i = first; i < first + factor && i < histogram.counts.length; i++) count += histogram.counts[i]!;
    bars.push({ start: (first * histogram.bucketMs) / 1_000, end: (first * histogram.bucketMs + widthMs) / 1_000, count, overflow: false, label: '' });
  }
  if (histogram.overflow > 0) {
    const rangeEndMs = histogram.counts.length * histogram.bucketMs;
    const lastEndMs = bars[bars.length - 1]!.end * 1_000;
    const rightmostMs = Math.max(lastEndMs, gateMs);
    const startMs = Math.max(lastEndMs, Math.min(rangeEndMs, rightmostMs + Math.max(widthMs, rightmostMs * 0.08)));
    bars.push({ start: startMs / 1_000, end: (startMs + widthMs) / 1_000, count: histogram.overflow, overflow: true, label: `≥ ${seconds(rangeEndMs)}` });
  }
  return bars;
}

// (c) -------------------------------------------------------------------------------------------------

function amplificationFigure(report: Report, extras: HtmlExtras): ChartFigure {
  const title = 'Read amplification by strategy';
  const metric = report.metrics['read_amplification'];
  const gate = metric?.threshold.value ?? report.thresholds['read_amplification']?.value;
  const rule = (axis: 'x' | 'y'): Layers => (gate === undefined ? [] : gateRule(gate, `gate < ${gate}`, 'readsPerChange', axis));
  const strategies = extras.strategies ?? [];
  if (strategies.length > 0) {
    const conditions = [...new Set(strategies.map((row) => row.condition))];
    const strategyCount = new Set(strategies.map((row) => row.strategy)).size;
    const spec: TopLevelSpec = {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      width: 360,
      height: Math.max(120, strategyCount * (conditions.length * 13 + 10)),
      config,
      layer: [
        {
          data: { values: strategies.map((row) => ({ strategy: row.strategy, condition: row.condition, readsPerChange: row.readsPerChange })) },
          layer: [
            { mark: { type: 'bar', height: { band: 0.9 } }, encoding: { color: { field: 'condition', type: 'nominal', sort: conditions, title: null, scale: { scheme: 'tableau10' } } } },
            { mark: { type: 'text', align: 'left', dx: 3, fontSize: 9, color: color.ink }, encoding: { text: { field: 'readsPerChange', type: 'quantitative', format: '.2f' } } },
          ],
          encoding: {
            y: { field: 'strategy', type: 'nominal', sort: null, axis: { labelLimit: 220 }, title: null },
            yOffset: { field: 'condition', type: 'nominal', sort: conditions },
            x: { field: 'readsPerChange', type: 'quantitative', title: 'reads per notified change' },
          },
        },
        ...rule('x'),
      ],
    };
    const caption = `Reads triggered per distinct notified change, per client strategy (strategy benchmark, ${strategies.length} results). The dashed line is the release gate.`;
    return { kind: 'read-amplification', title, caption, empty: false, spec };
  }
  if (metric === undefined) {
    return { kind: 'read-amplification', title, caption: 'The strategy benchmark was not run, and this report has no read_amplification metric.', empty: true, spec: emptySpec('reads per notified change') };
  }
  const row = { strategy: `${report.runSpec.client} (this run)`, readsPerChange: metric.value, status: metric.passed ? 'within gate' : 'misses gate' };
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width,
    height,
    config,
    layer: [
      {
        data: { values: [row] },
        layer: [
          {
            mark: { type: 'bar', width: 80 },
            encoding: { color: { field: 'status', type: 'nominal', scale: { domain: ['within gate', 'misses gate'], range: [color.pass, color.fail] }, legend: null } },
          },
          { mark: { type: 'text', dy: -6, fontSize: 11, color: color.ink }, encoding: { text: { field: 'readsPerChange', type: 'quantitative', format: '.3f' } } },
        ],
        encoding: {
          x: { field: 'strategy', type: 'nominal', axis: { labelAngle: 0, labelLimit: 400 }, title: null },
          y: { field: 'readsPerChange', type: 'quantitative', title: 'reads per notified change' },
        },
      },
      ...rule('y'),
    ],
  };
  const caption = `The strategy benchmark was not run: showing only this run's read_amplification (${grouped(metric.numerator)} notification reads / ${grouped(metric.denominator)} notified changes).`;
  return { kind: 'read-amplification', title, caption, empty: false, spec };
}

// (d) -------------------------------------------------------------------------------------------------

const faultStatuses = ['required, fired', 'fired, not required', 'required, never fired', 'not in this scenario'] as const;

function faultMixFigure(report: Report): ChartFigure {
  const title = 'Fault mix';
  const enforced = sometimesEnforced(report);
  const rows = Object.entries(report.faults).map(([fault, fired]) => {
    const required = report.sometimes[fault]?.required ?? false;
    const status = required ? (fired > 0 ? faultStatuses[0] : faultStatuses[2]) : fired > 0 ? faultStatuses[1] : faultStatuses[3];
    const label = fired > 0 ? grouped(fired) : required ? (enforced ? 'never fired (fails the gate)' : 'never fired (not enforced)') : '0';
    return { fault, fired, status, label };
  });
  if (rows.length === 0) {
    return { kind: 'fault-mix', title, caption: 'This report lists no faults.', empty: true, spec: emptySpec('times fired') };
  }
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width: 330,
    height: rows.length * 16,
    config,
    data: { values: rows },
    encoding: {
      y: { field: 'fault', type: 'nominal', sort: null, title: null, axis: { labelLimit: 220 } },
      x: { field: 'fired', type: 'quantitative', title: 'times fired, all interleavings' },
    },
    layer: [
      { mark: { type: 'bar', height: 11 }, encoding: { color: { field: 'status', type: 'nominal', title: null, scale: { domain: [...faultStatuses], range: [color.main, color.muted, color.fail, '#d0d7de'] }, legend: { columns: 2 } } } },
      {
        mark: { type: 'text', align: 'left', dx: 4, fontSize: 10 },
        encoding: {
          text: { field: 'label' },
          color: { condition: { test: `datum.status === '${faultStatuses[2]}'`, value: color.fail }, value: color.ink },
        },
      },
    ],
  };
  const fired = rows.filter((row) => row.fired > 0).length;
  const missing = rows.filter((row) => row.status === faultStatuses[2]).length;
  const missingText = missing === 0 ? '' : ` ${missing} required fault${missing === 1 ? '' : 's'} never fired${enforced ? ', which fails the gate' : ' (not enforced in a run this small)'}.`;
  return { kind: 'fault-mix', title, caption: `Times each fault of the catalogue fired: ${fired} of ${rows.length} fired.${missingText}`, empty: false, spec };
}

// (e) -------------------------------------------------------------------------------------------------

function coverageFigure(report: Report): ChartFigure {
  const title = 'Transition coverage';
  const coverage = report.coverage;
  if (coverage.edges.length === 0) {
    return { kind: 'transition-coverage', title, caption: 'This report lists no transition edges.', empty: true, spec: emptySpec('hits') };
  }
  const rows = coverage.edges.map((edge) => ({ edge: edge.edge, hits: edge.hits, status: edge.hits > 0 ? 'hit' : 'unreached', label: edge.hits > 0 ? grouped(edge.hits) : 'unreached' }));
  const unreached = JSON.stringify(coverage.unreached);
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width: 560,
    height: rows.length * 15,
    config,
    data: { values: rows },
    encoding: {
      y: {
        field: 'edge',
        type: 'nominal',
        sort: null,
        title: null,
        axis: { labelLimit: 420, labelFontSize: 10, labelColor: { condition: { test: `indexof(${unreached}, datum.value) >= 0`, value: color.fail }, value: color.ink } },
      },
      // All-zero hits (a client that never drove the table) would collapse the scale to one point.
      x: {
        field: 'hits',
        type: 'quantitative',
        scale: coverage.hit === 0 ? { type: 'symlog', domain: [0, 10] } : { type: 'symlog' },
        axis: { values: powersOfTen(Math.max(10, ...rows.map((row) => row.hits))), format: ',d' },
        title: 'hits, all interleavings (symlog scale)',
      },
    },
    layer: [
      { mark: { type: 'bar', height: 10 }, encoding: { color: { field: 'status', type: 'nominal', title: null, scale: { domain: ['hit', 'unreached'], range: [color.main, color.fail] } } } },
      {
        mark: { type: 'text', align: 'left', dx: 4, fontSize: 9 },
        encoding: { text: { field: 'label' }, color: { condition: { test: "datum.status === 'unreached'", value: color.fail }, value: color.ink } },
      },
    ],
  };
  const caption = `${coverage.hit} of ${coverage.total} edges of the subscription state machine's transition table were hit; unreached edges are labelled in red.`;
  return { kind: 'transition-coverage', title, caption, empty: false, spec };
}
