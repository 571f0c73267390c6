import { describe, expect, test } from 'vitest';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { coverageOf, runRange, verdictOf, type RunSpec } from '../sim/gate.js';
import { renderHtml } from './html.js';
import { buildReport } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';

function reportOf(spec: RunSpec) {
  const scenario = findScenario(spec.scenario)!;
  const accumulator = runRange(spec, scenario, findClient(spec.client)!, 0, spec.interleavings);
  return buildReport(accumulator, verdictOf(accumulator, scenario), coverageOf(accumulator), { wallMs: 1, interleavingsPerSecond: 1, eventsPerSecond: 1, peakRssBytes: 1 });
}

describe('the indexer in every rendering of the report', () => {
  const failing = reportOf({ seed: 5, interleavings: 40, scenario: 'swarm', client: 'reference', maxFailures: 20, indexer: 'naive-no-tombstone' });

  test('report.json: a failing indexer fails the run, names why, and lists replayable failures', () => {
    expect(failing.passed).toBe(false);
    expect(failing.indexer!.passed).toBe(false);
    expect(failing.reasons.some((reason) => reason.startsWith('indexer '))).toBe(true);
    expect(failing.indexer!.failures[0]!.replay).toMatch(/^npx fencesim index-gate --indexer naive-no-tombstone --replay \d+$/);
  }, 120_000);

  test('summary.md, junit.xml and report.html carry the section, the failing checks and the dashboard charts', async () => {
    const markdown = renderMarkdown(failing);
    expect(markdown).toContain('## Downstream indexer');
    expect(markdown).toMatch(/\| `deleted_served` \| [1-9]\d* violated of \d+ checked \| FAIL \|/);
    const junit = renderJunit(failing);
    expect(junit).toMatch(/<testcase classname="fencesim.indexer" name="deleted_served">\s*<failure/);
    const html = await renderHtml(failing);
    expect(html).toContain('<section id="indexer">');
    expect(html).toMatch(/data-chart="indexer-similarity-fake-a" data-empty="false"/);
    expect(html).toMatch(/data-chart="indexer-freshness" data-empty="false"/);
  }, 120_000);

  test('a run without indexer interleavings renders no indexer section', () => {
    const report = reportOf({ seed: 5, interleavings: 1, scenario: 'swarm', client: 'reference', maxFailures: 20 });
    expect(report.indexer!.interleavings).toBe(1);
    const none = { ...report, indexer: undefined };
    expect(renderMarkdown(none)).not.toContain('Downstream indexer');
  });
});
