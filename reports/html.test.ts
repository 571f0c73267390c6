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
    expect([...found.keys()]).toEqual([...chartKinds]);
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

  it('without distributions or strategy benchmark: a visible "no data in this run" note and a single-bar fallback', async () => {
    const html = await renderHtml(loadReport('report-pass'));
    const found = figures(html);
    expect([...found.keys()]).toEqual([...chartKinds]);
    for (const kind of ['convergence-cdf', 'revocation-histogram']) {
      const figure = found.get(kind)!;
      expect(figure, kind).toContain('data-empty="true"');
      expect(figure, kind).toContain('<p class="no-data">No data in this run.</p>');
      expect(figure, kind).toContain('>no data in this run</text>');
    }
    const amplification = found.get('read-amplification')!;
    expect(amplification).toContain('The strategy benchmark was not run');
    expect(barCount(amplification)).toBe(1);
    expect(amplification).toContain('reference (this run)');
    expect(html).not.toContain('id="strategies"');
  });

  it('the shrunk first failure and a failed determinism self-check are on the page', async () => {
    const html = await renderHtml(withNondeterminism(loadReport('report-fail-read-race')), { reportDir: 'gate-out' });
    expect(html).toContain('<h3>First failure, shrunk: <code>version_regression</code></h3>');
    expect(html).toContain('<code>npx fencesim replay --file gate-out/shrunk-3707731505.json</code>');
    expect(html).toMatch(/<pre class="timeline">[^<]*!! version_regression: accepted v1 after v2/);
    expect(html).toContain('<section id="nondeterminism"><h2>Nondeterminism</h2>');
    expect(html).toContain('<code>npx fencesim replay --seed 123456789 --scenario read-race --client naive-overwrite</code>');
    expect(html.indexOf('id="nondeterminism"')).toBeLessThan(html.indexOf('id="failing"'));
    expect(html).toContain('Determinism self-check: 10 sampled interleavings (1 %) ran twice more with tracing: 2 NONDETERMINISTIC.');
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
