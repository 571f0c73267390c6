/**
 * The indexer's charts in the HTML report, the document's dashboard for the run: per embedding model the
 * similarity histogram of the semantic decisions, split by the hidden truth (changed / unchanged), with the
 * threshold in use and the valley the oracle computes; and the freshness curve (share of probes fresh
 * within window + 10 s, per 10 s of virtual time) against its 0.99 gate. Vega-Lite specs from report data.
 */
import type { TopLevelSpec } from 'vega-lite';
import { color, config, emptySpec, gateRule, height, markerRule, width, type Layers } from './chart-parts.js';
import type { IndexerReportSection } from './indexer-section.js';

export interface IndexerChart {
  kind: string;
  title: string;
  caption: string;
  empty: boolean;
  spec: TopLevelSpec;
}

export function indexerCharts(section: IndexerReportSection): IndexerChart[] {
  const models = Object.keys(section.dashboard.similarity);
  return [...models.map((model) => similarityChart(section, model)), freshnessChart(section)];
}

function similarityChart(section: IndexerReportSection, model: string): IndexerChart {
  const histogram = section.dashboard.similarity[model]!;
  const rows: { similarity: number; count: number; truth: string }[] = [];
  histogram.changed.forEach((count, bin) => count > 0 && rows.push({ similarity: bin * histogram.binWidth, count, truth: 'changed (hidden label)' }));
  histogram.unchanged.forEach((count, bin) => count > 0 && rows.push({ similarity: bin * histogram.binWidth, count, truth: 'unchanged (hidden label)' }));
  const title = `Similarity histogram, ${model}`;
  if (rows.length === 0) return { kind: `indexer-similarity-${model}`, title, caption: 'No semantic decision compared two versions.', empty: true, spec: emptySpec('decisions') };
  const layers: Layers = [
    {
      data: { values: rows },
      mark: { type: 'bar', width: { band: 0.9 } },
      encoding: {
        x: { field: 'similarity', type: 'quantitative', bin: { binned: true, step: histogram.binWidth }, scale: { domain: [0, 1] }, title: 'lowest changed-chunk cosine vs the confirmed version' },
        x2: { datum: 0 },
        y: { field: 'count', type: 'quantitative', stack: true, title: 'decisions' },
        color: { field: 'truth', type: 'nominal', title: null, scale: { range: [color.fail, color.main] } },
      },
    },
    ...markerRule(histogram.valley, `oracle valley ${histogram.valley.toFixed(2)}`, 'similarity'),
    ...(histogram.threshold === null ? [] : gateRule(histogram.threshold, `threshold ${histogram.threshold}`, 'similarity')),
  ];
  const spec: TopLevelSpec = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', width, height, config, layer: layers };
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  return {
    kind: `indexer-similarity-${model}`, title, empty: false, spec,
    caption: `${total} semantic decisions of ${model}; below the threshold a resource is refreshed. The oracle's valley (knowing the hidden labels) is ${histogram.valley.toFixed(2)}.`,
  };
}

function freshnessChart(section: IndexerReportSection): IndexerChart {
  const { slotMs, probes, fresh } = section.dashboard.freshness;
  const rows = probes.map((count, slot) => ({ seconds: (slot * slotMs) / 1000, share: count === 0 ? null : fresh[slot]! / count, probes: count })).filter((row) => row.share !== null);
  const title = 'Index freshness over the run';
  if (rows.length === 0) return { kind: 'indexer-freshness', title, caption: 'No freshness probe ran.', empty: true, spec: emptySpec('share fresh') };
  const layers: Layers = [
    {
      data: { values: rows },
      mark: { type: 'line', point: true, color: color.main },
      encoding: {
        x: { field: 'seconds', type: 'quantitative', title: 'virtual time of the probe, s (10 s slots)' },
        y: { field: 'share', type: 'quantitative', scale: { domain: [Math.min(0.9, ...rows.map((row) => row.share!)), 1] }, title: 'probes fresh within window + 10 s' },
        tooltip: [{ field: 'probes', type: 'quantitative' }],
      },
    },
    ...gateRule(0.99, 'gate 0.99', 'share', 'y'),
  ];
  const spec: TopLevelSpec = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', width, height, config, layer: layers };
  const total = probes.reduce((sum, count) => sum + count, 0);
  return { kind: 'indexer-freshness', title, empty: false, spec, caption: `${total} probes over ${section.interleavings} indexer interleavings (outages excluded).` };
}
