import * as vega from 'vega';
import { describe, expect, it } from 'vitest';
import { loadReport, withDistributions } from '../test/fixtures/reports.js';
import { cdfPoints, chartFigures, chartKinds, rebin, renderChartSvg } from './charts.js';
import { textWidth } from './text-metrics.js';

describe('chart data', () => {
  it('cdfPoints: cumulative share at each bucket upper edge, overflow kept in the denominator, trailing empties dropped', () => {
    const points = cdfPoints({ bucketMs: 500, counts: [1, 0, 2, 1, 0, 0], overflow: 1 }, 5);
    expect(points).toEqual([
      { seconds: 0.5, share: 0.2 },
      { seconds: 1, share: 0.2 },
      { seconds: 1.5, share: 0.6 },
      { seconds: 2, share: 0.8 },
    ]);
  });

  it('rebin: at most barsMax bars covering the data, counts preserved', () => {
    const counts = Array.from({ length: 1_200 }, (_, i) => (i < 95 ? 1 : 0));
    const bars = rebin({ bucketMs: 100, counts, overflow: 0 }, 40);
    expect(bars).toHaveLength(32);
    expect(bars[0]).toEqual({ start: 0, end: 0.3, count: 3, overflow: false, label: '' });
    expect(bars.reduce((sum, bar) => sum + bar.count, 0)).toBe(95);
  });

  it('rebin: the overflow bar sits just past the data and past the gate, labelled with the range end', () => {
    const counts = Array.from({ length: 1_200 }, (_, i) => (i < 100 ? 1 : 0));
    const bars = rebin({ bucketMs: 100, counts, overflow: 7 }, 40, 30_000);
    const overflow = bars[bars.length - 1]!;
    expect(overflow).toMatchObject({ count: 7, overflow: true, label: '≥ 120 s' });
    expect(overflow.start).toBeGreaterThan(30);
    expect(overflow.start).toBeLessThan(40);
    // A histogram whose range ends before the gate puts it where its values really start.
    const short = rebin({ bucketMs: 100, counts: [1, 1, 1], overflow: 2 }, 40, 30_000);
    expect(short[short.length - 1]).toMatchObject({ start: 0.3, overflow: true, label: '≥ 300 ms' });
  });

  it('textWidth: Arial advance widths, so layout matches the page font instead of 0.8 em per character', () => {
    expect(textWidth('iiii', 10, false)).toBeCloseTo(8.88, 2);
    expect(textWidth('MMMM', 10, false)).toBeCloseTo(33.32, 2);
    expect(textWidth('MMMM', 10, true)).toBeGreaterThan(textWidth('MMMM', 10, false));
    // Installed into vega (which would otherwise estimate 0.8 em per character: 32 px here).
    const metrics = (vega as unknown as { textMetrics: { width: (item: object, text: string) => number } }).textMetrics;
    expect(metrics.width({ fontSize: 10 }, 'iiii')).toBeCloseTo(8.88, 2);
  });
});

describe('chart rendering', () => {
  it('every kind renders to an svg with element ids made unique by the chart prefix', async () => {
    const figures = chartFigures(withDistributions(loadReport('report-swarm-reference')));
    expect(figures.map((figure) => figure.kind)).toEqual([...chartKinds]);
    for (const figure of figures) {
      const svg = await renderChartSvg(figure.spec, `chart-${figure.kind}`);
      expect(svg.startsWith('<svg ')).toBe(true);
      for (const match of svg.matchAll(/\bid="([^"]+)"/g)) expect(match[1]!.startsWith(`chart-${figure.kind}-`)).toBe(true);
      for (const match of svg.matchAll(/url\(#([^)]+)\)/g)) expect(match[1]!.startsWith(`chart-${figure.kind}-`)).toBe(true);
    }
  });

  it('the revocation histogram draws the gate and the p99 as rules', async () => {
    const report = withDistributions(loadReport('report-pass'));
    const figure = chartFigures(report).find((candidate) => candidate.kind === 'revocation-histogram')!;
    const svg = await renderChartSvg(figure.spec, 'r');
    expect(svg).toContain('>gate 30 s</text>');
    expect(svg).toMatch(/>p99 [0-9.]+ s<\/text>/);
    expect(figure.caption).toMatch(/^391 revocations, 300 ms bins\. p99 = [0-9,]+ ms \(gate < 30,000 ms\)\./);
  });
});
