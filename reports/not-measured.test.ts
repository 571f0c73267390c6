/**
 * A metric with no samples is "not measured" (issue 15): shown as such in report.json, the Markdown, the
 * JUnit XML, the HTML and the terminal summary, never as a pass on a placeholder value; and it fails the
 * gate when the scenario claims that metric (on runs of at least 1,000 interleavings, like "sometimes").
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summaryLines } from '../cli/summary.js';
import { findScenario } from '../scenarios/catalog.js';
import type { Scenario } from '../scenarios/scenario.js';
import { coverageOf, GateAccumulator, sometimesMinimumInterleavings, verdictOf } from '../sim/gate.js';
import { faultNames } from '../sim/faults.js';
import { runCli } from '../test/cli-io.js';
import { renderHtml } from './html.js';
import { buildReport, type Report } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';

/** A run of `scenario` with every required fault fired, changes tracked and notified, and no revocation measured. */
function reportWithoutRevocations(scenario: Scenario, interleavings: number): Report {
  const accumulator = new GateAccumulator({ seed: 1, interleavings, scenario: scenario.name, client: 'reference', maxFailures: 5 });
  accumulator.interleavings = interleavings;
  for (const fault of scenario.sometimes) accumulator.faultCounts[faultNames.indexOf(fault)] = 1;
  accumulator.changesTracked = accumulator.changesConverged = 100;
  accumulator.notifiedChanges = 100;
  accumulator.notificationReads = 100;
  const timing = { wallMs: 1, interleavingsPerSecond: 1, eventsPerSecond: 1, peakRssBytes: 1 };
  return buildReport(accumulator, verdictOf(accumulator, scenario), coverageOf(accumulator), timing);
}

const claiming = findScenario('permission-revocation')!;
const notClaiming = findScenario('read-race')!;

describe('a metric with no samples', () => {
  it('the scenarios that claim revocation_p99_ms are the ones built around revocations', () => {
    expect(claiming.claims).toContain('revocation_p99_ms');
    expect(findScenario('swarm')!.claims).toContain('revocation_p99_ms');
    expect(notClaiming.claims ?? []).not.toContain('revocation_p99_ms');
  });

  it('fails the gate when the scenario claims it, and every format says "not measured"', async () => {
    const report = reportWithoutRevocations(claiming, sometimesMinimumInterleavings);
    const metric = report.metrics.revocation_p99_ms!;
    expect(metric).toMatchObject({ measured: false, passed: false, denominator: 0 });
    expect(report.passed).toBe(false);
    expect(report.reasons).toEqual(['revocation_p99_ms not measured: 0 samples in 1000 interleavings, but scenario permission-revocation claims this metric']);
    expect(report.metrics.convergence_60s).toMatchObject({ measured: true, passed: true });

    expect(renderMarkdown(report)).toMatch(/\| `revocation_p99_ms` \| not measured \| \\< 30,000 ms \| ❌ \*\*FAIL: not measured\*\* \| .*scenario permission-revocation claims this metric, so the gate fails/);
    const junit = renderJunit(report);
    expect(junit).toMatch(/<testcase classname="fencesim.metric" name="revocation_p99_ms">\s*<failure message="revocation_p99_ms FAIL: not measured: [^"]*" type="metric_not_measured">/);
    const html = await renderHtml(report);
    expect(html).toContain('<td class="num">not measured</td>');
    expect(html).toContain('<strong class="bad-text">FAIL: not measured</strong>');
    const summary = summaryLines(report, 'report.json').join('\n');
    expect(summary).toMatch(/revocation_p99_ms +not measured +gate < 30,000 ms +FAIL: not measured/);
    expect(summary).not.toMatch(/revocation_p99_ms +0 /);
  });

  it('is shown as "not measured", not as a pass, when the scenario does not claim it', async () => {
    const report = reportWithoutRevocations(notClaiming, sometimesMinimumInterleavings);
    expect(report.metrics.revocation_p99_ms).toMatchObject({ measured: false, passed: true });
    expect(report.passed).toBe(true);
    const markdown = renderMarkdown(report);
    expect(markdown).toMatch(/\| `revocation_p99_ms` \| not measured \| \\< 30,000 ms \| ⚪ not measured \|/);
    expect(markdown).not.toMatch(/revocation_p99_ms[^\n]*✅ pass/);
    expect(renderJunit(report)).toMatch(/<testcase classname="fencesim.metric" name="revocation_p99_ms">\s*<skipped message="revocation_p99_ms not measured: [^"]*does not claim this metric/);
    const html = await renderHtml(report);
    expect(html).toContain('<tr class="unmeasured"><td><code>revocation_p99_ms</code></td><td class="num">not measured</td>');
    expect(summaryLines(report, 'report.json').join('\n')).toMatch(/revocation_p99_ms +not measured +gate < 30,000 ms +not measured/);
  });

  it('below 1,000 interleavings a claimed metric without samples is not enforced, but still not measured', () => {
    const report = reportWithoutRevocations(claiming, sometimesMinimumInterleavings - 1);
    expect(report.metrics.revocation_p99_ms).toMatchObject({ measured: false, passed: true });
    expect(report.passed).toBe(true);
  });

  it('a real gate writes measured: false into report.json for a metric it has no sample of', async () => {
    const out = await mkdtemp(join(tmpdir(), 'fencesim-not-measured-'));
    try {
      const run = await runCli(['gate', '--scenario', 'read-race', '--interleavings', '20', '--seed', '9', '--workers', '1', '--no-shrink', '--out', out]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/revocation_p99_ms +not measured/);
      expect(run.stdout).toMatch(/read_amplification +0\.[0-9]+ +gate < 1\.2 +pass/);
      const json = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
      expect(json.metrics.revocation_p99_ms).toMatchObject({ measured: false, passed: true, denominator: 0 });
      expect(json.metrics.read_amplification.measured).toBe(true);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
