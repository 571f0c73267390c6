/**
 * The metric catalogue: names in OpenTelemetry's style, closed attribute sets, and the README table
 * ("Watch it in production") listing exactly the catalogue, with kind and unit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { instruments, shadowInstruments, type InstrumentSpec } from './instruments.js';
import { indexerInstruments } from './indexer-fold.js';
import { seriesCount } from './series.js';

const all: InstrumentSpec[] = [...Object.values(instruments), ...Object.values(shadowInstruments)];

describe('the metric catalogue', () => {
  it('names are dot-separated lowercase under fencesim.*, units are UCUM (s or a {annotation}), names unique', () => {
    for (const spec of all) {
      expect(spec.name).toMatch(/^fencesim(\.[a-z_]+)+$/);
      expect(spec.unit).toMatch(spec.kind === 'histogram' ? /^s$/ : /^\{[a-z]+\}$/);
      for (const [name, values] of Object.entries(spec.attributes)) {
        expect(name).toMatch(/^fencesim(\.[a-z_]+)+$/);
        expect(new Set(values).size).toBe(values.length);
      }
    }
    expect(new Set(all.map((spec) => spec.name)).size).toBe(all.length);
    expect(seriesCount).toBeLessThan(400); // bounded cardinality without URI labels
  });

  it('the README table lists exactly the catalogue, with kind and unit', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Watch it in production'));
    const rows = [...section.matchAll(/^\| `(fencesim\.[a-z_.]+)` \| (counter|histogram) \| `([^`]+)` \|/gm)].map((match) => [match[1], match[2], match[3]]);
    // The cache's table, then the indexer's ("The indexer's curves").
    const indexer = Object.values(indexerInstruments);
    expect(rows).toEqual([...all, ...indexer].map((spec) => [spec.name, spec.kind, spec.unit]));
    for (const spec of indexer) expect(spec.name).toMatch(/^fencesim\.indexer(\.[a-z_]+)+$/);
  });
});
