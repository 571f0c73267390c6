import { describe, expect, it } from 'vitest';
import { barCount, figures, markElements } from '../test/fixtures/html.js';
import { loadReport, strategyResults, withDistributions, withNondeterminism } from '../test/fixtures/reports.js';
import { chartKinds } from './charts.js';
import { renderHtml } from './html.js';
import type { Report } from './json.js';

describe('renderHtml', () => {
  it('one self-contained page: no external src or href, no script, inline CSS only', async () => {
    const html = await renderHtml(withDistributions(loadReport('report-fail-swarm')), { strategies: strategyResults });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script\b/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import|@font-face|url\((?!#)/i);
    expect(html).not.toMatch(/\b(?:src|href|xlink:href)\s*=\s*["']?(?:https?:)?\/\//i);
    // The only absolute URLs are the SVG namespace declarations.
    const urls = [...html.matchAll(/(\S+)="?https?:\/\/[^"\s>]*/g)].map((match) => match[1]);
    expect(new Set(urls)).toEqual(new Set(['xmlns', 'xmlns:xlink']));
  });

  it('has the header: verdict, run spec, reproduce command, reasons', async () => {
    const html = await renderHtml(loadReport('report-fail-read-race'));
    expect(html).toContain('<title>fencesim gate FAILED · read-race / naive-overwrite · seed 995302589</title>');
    expect(html).toMatch(/<header class="verdict fail">\s*<h1><span class="badge">FAILED<\/span> fencesim gate<\/h1>/);
    expect(html).toContain('500 interleavings of <code>read-race</code> against <code>naive-overwrite</code>, seed <code>995302589</code>');
    expect(html).toContain('<code>npx fencesim gate --seed 995302589 --interleavings 500 --scenario read-race --client naive-overwrite</code>');
    expect(html).toContain('<li>version_regression: 10846 violations in 500 interleavings</li>');
    expect(html).toContain('<code>npx fencesim replay --seed 3707731505 --scenario read-race --client naive-overwrite</code>');
  });

  it('with distributions and the strategy benchmark: the five figures, each an svg with drawn marks', async () => {
    const html = await renderHtml(withDistributions(loadReport('report-swarm-reference')), { strategies: strategyResults });
    const found = figures(html);
    // The strategy chart sits in the strategy benchmark's section, after the distributions.
    expect([...found.keys()]).toEqual(['convergence-cdf', 'revocation-histogram', 'fault-mix', 'read-amplification', 'transition-coverage']);
    expect(new Set(found.keys())).toEqual(new Set(chartKinds));
    expect(html.indexOf('data-chart="read-amplification"')).toBeGreaterThan(html.indexOf('<section id="strategies">'));
    for (const [kind, figure] of found) {
      expect(figure, kind).toContain('data-empty="false"');
      expect(figure, kind).toMatch(/<figcaption><strong>[^<]+<\/strong> [^<]+<\/figcaption>/);
      expect(figure, kind).toMatch(/<svg [^>]*class="marks"/);
      expect(figure, kind).toMatch(/<path|<rect/);
      expect(markElements(figure), kind).toBeGreaterThan(0);
    }
    // Data actually reached the charts: one bar per strategy result, one per fault, one per edge.
    expect(barCount(found.get('read-amplification')!)).toBe(strategyResults.length);
    expect(barCount(found.get('fault-mix')!)).toBe(18);
    expect(barCount(found.get('transition-coverage')!)).toBe(36);
    expect(found.get('convergence-cdf')).toMatch(/<g class="mark-line role-mark[^"]*"[^>]*><path /);
    expect(found.get('transition-coverage')).toContain('>unreached</text>');
    expect(html).toContain('<section id="strategies"><h2>Strategy benchmark</h2>');
  });

  it('without distributions or strategy benchmark: a visible "no data in this run" note, and no strategy chart', async () => {
    const html = await renderHtml(loadReport('report-pass'));
    const found = figures(html);
    expect([...found.keys()]).toEqual(chartKinds.filter((kind) => kind !== 'read-amplification'));
    for (const kind of ['convergence-cdf', 'revocation-histogram']) {
      const figure = found.get(kind)!;
      expect(figure, kind).toContain('data-empty="true"');
      expect(figure, kind).toContain('<p class="no-data">No data in this run.</p>');
      expect(figure, kind).toContain('>no data in this run</text>');
    }
    expect(html).not.toContain('data-chart="read-amplification"');
    expect(html).not.toContain('lone bar');
    expect(html).not.toContain('id="strategies"');
    expect(html).toContain('<section id="coverage"><h2>Transition coverage: 11/36 edges hit (30 %)</h2>');
  });

  it('a failing report leads with the first failure: its shrunk timeline and a replay command relative to the report folder', async () => {
    const html = await renderHtml(withNondeterminism(loadReport('report-fail-read-race')), { reportDir: '/ci/runner/work/gate-out' });
    expect(html).toContain('<h2 class="lead">First failure: <code>version_regression</code>');
    expect(html).toContain('<pre class="command" data-replay="file"><code>npx fencesim replay --file shrunk-3707731505.json</code></pre>');
    expect(html).not.toContain('/ci/runner/work');
    expect(html).toMatch(/<pre class="timeline" id="shrunk-timeline">[^<]*!! version_regression: accepted v1 after v2/);
    // Inside the verdict box, above the reasons, the reproduce command and every section.
    const timeline = html.indexOf('id="shrunk-timeline"');
    expect(timeline).toBeGreaterThan(html.indexOf('<header class="verdict fail">'));
    expect(timeline).toBeLessThan(html.indexOf('class="reasons"'));
    expect(timeline).toBeLessThan(html.indexOf('<section id="nondeterminism">'));
    expect(html).not.toContain('<details><summary>Minimal timeline');
    expect(html).toContain('<section id="nondeterminism"><h2>Nondeterminism</h2>');
    expect(html).toContain('<code>npx fencesim replay --seed 123456789 --scenario read-race --client naive-overwrite</code>');
    expect(html.indexOf('id="nondeterminism"')).toBeLessThan(html.indexOf('id="failing"'));
    expect(html).toContain('Determinism self-check: 10 sampled interleavings (1 %) ran twice more: 2 NONDETERMINISTIC.');
  });

  it('a failure that was not shrunk leads with its seed replay; a client without the reference table gets no unreached-edge list', async () => {
    const report = loadReport('report-fail-read-race');
    const unshrunk: Report = { ...report, failures: report.failures.map((failure, index) => (index === 0 ? { ...failure, shrunk: { skipped: 'not shrunk: --no-shrink' } } : failure)) };
    const html = await renderHtml(unshrunk);
    expect(html).toContain(`<pre class="command" data-replay="seed"><code>${report.failures[0]!.replay}</code></pre><p class="muted">Not shrunk: --no-shrink.</p>`);
    expect(report.coverage.hit).toBe(0);
    expect(html).toContain('<section id="coverage"><h2>Transition coverage: not applicable</h2><p class="muted">client naive-overwrite reported no transition of the reference subscription table');
    expect(html).not.toContain('unreached edge');
    const passing = await renderHtml(loadReport('report-pass'));
    expect(passing).not.toContain('id="first-failure"');
  });

  it('malformed distributions count as absent rather than crashing', async () => {
    const report = { ...loadReport('report-pass'), distributions: { convergenceMs: { bucketMs: 0, counts: [1], overflow: 0 }, revocationMs: { bucketMs: 100, counts: ['x'] } } };
    const html = await renderHtml(report as unknown as Report);
    expect(figures(html).get('convergence-cdf')).toContain('data-empty="true"');
    expect(figures(html).get('revocation-histogram')).toContain('data-empty="true"');
  });

  it('escapes report text', async () => {
    const report = loadReport('report-fail-read-race');
    const hostile: Report = { ...report, failures: [{ ...report.failures[0]!, detail: '<img src=x onerror=alert(1)>' }] };
    const html = await renderHtml(hostile);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('renders a report in well under 2 s once warm, and the same report to the same bytes', async () => {
    const report = withDistributions(loadReport('report-fail-swarm'));
    const first = await renderHtml(report, { strategies: strategyResults });
    const started = performance.now();
    const second = await renderHtml(report, { strategies: strategyResults });
    const elapsedMs = performance.now() - started;
    expect(second).toBe(first);
    expect(elapsedMs).toBeLessThan(2_000);
  });
});
