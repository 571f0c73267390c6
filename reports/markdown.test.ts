import { describe, expect, it } from 'vitest';
import { loadReport, withNondeterminism } from '../test/fixtures/reports.js';
import type { Report } from './json.js';
import { renderMarkdown } from './markdown.js';

/** The bodies of the fenced code blocks, whatever the fence length. */
function codeBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  for (const match of markdown.matchAll(/^(`{3,})[a-z]*\n([\s\S]*?)\n\1$/gm)) blocks.push(match[2]!);
  return blocks;
}

function sectionOf(markdown: string, title: string): string {
  const start = markdown.indexOf(title);
  const end = markdown.indexOf('\n### ', start + title.length);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('renderMarkdown', () => {
  it('a passing run: the verdict and run spec in the first line, every metric row, no failing section', () => {
    const markdown = renderMarkdown(loadReport('report-pass'));
    expect(markdown.split('\n')[0]).toBe('## ✅ fencesim gate PASSED: 1,000 interleavings of `read-race` against `reference`, seed `11`');
    expect(codeBlocks(markdown)[0]).toBe('npx fencesim gate --seed 11 --interleavings 1000 --scenario read-race --client reference');
    expect(markdown).not.toContain('Failing invariants');
    expect(markdown).toContain('| `read_amplification` | 0.601 | \\< 1.2 | ✅ pass | 59,996 notification reads / 99,857 notified changes |');
    expect(markdown).toMatch(/\| `convergence_60s` \| 100 % \| ≥ 99\.9 % \| ✅ pass \|/);
    expect(markdown).toMatch(/\| `revocation_p99_ms` \| not measured \| \\< 30,000 ms \| ⚪ not measured \| p99 of 0 measured revocations; no sample in this run \(no revocation was measured\): the scenario does not claim this metric/);
    expect(markdown).toContain('✅ All 11 safety counters are 0.');
    expect(markdown).toContain('✅ Determinism self-check: 10 sampled interleavings (1 %) ran twice more: all identical.');
    expect(markdown).toContain('### Transition coverage: 11/36 edges hit (30 %)');
    expect(markdown).toMatch(/^events: [0-9,]+ · client steps: [0-9,]+ · reads: /m); // totals as "label: value"
  });

  it('a failing run: FAIL verdict, the reason, and the invariant with its recorded replay commands in a code block', () => {
    const report = loadReport('report-fail-read-race');
    const markdown = renderMarkdown(report);
    expect(markdown.split('\n')[0]).toBe('## ❌ fencesim gate FAILED: 500 interleavings of `read-race` against `naive-overwrite`, seed `995302589`');
    expect(markdown).toContain('- version\\_regression: 10846 violations in 500 interleavings');
    expect(markdown).toContain('**`version_regression`** (safety): 10,846 violations: the client accepted content older than');
    const block = codeBlocks(markdown).find((body) => body.includes('fencesim replay --seed'))!;
    for (const failure of report.failures.slice(0, 3)) expect(block).toContain(`\n${failure.replay}`);
    expect(block).toContain('# 1,158 ms, file:///project/src/index.ts: accepted v1 after v2');
    expect(markdown).toContain('first 3 of 20 recorded; all are in report.json');
    expect(markdown).toContain('| `version_regression` | 10,846 | ❌ **FAIL** |');
  });

  it('the shrunk first failure: how far it shrank, the replay-file command, and the minimal timeline', () => {
    const report = loadReport('report-fail-read-race');
    const shrink = sectionOf(renderMarkdown(report, { reportDir: 'out/gate/' }), '### First failure, shrunk: `version_regression`');
    expect(shrink).toContain('73 → 36 decisions in 121 replays, complete (1-minimal)');
    expect(codeBlocks(shrink)[0]).toBe('npx fencesim replay --file out/gate/shrunk-3707731505.json');
    expect(shrink).toContain('<summary>Minimal timeline (8 lines up to the violation; 6 lines about other resources hidden)</summary>');
    expect(codeBlocks(shrink)[1]).toContain('!! version_regression: accepted v1 after v2');
    expect(renderMarkdown(report)).toContain('npx fencesim replay --file shrunk-3707731505.json');
    expect(renderMarkdown(loadReport('report-swarm-reference'))).toMatch(/decisions in [0-9,]+ replays, INCOMPLETE \(stopped by the wall-clock safety net: NOT reproducible, it depends on machine load\)/);
  });

  it('every failing invariant is listed, with its replay commands or a note that none was recorded', () => {
    const markdown = renderMarkdown(loadReport('report-fail-swarm'));
    const failing = sectionOf(markdown, '### Failing invariants');
    for (const name of ['accept_when_not_active', 'post_close_outbox', 'late_tombstone', 'old_session_effect', 'served_after_revocation', 'fence_lost_after_crash', 'convergence_60s']) {
      expect(failing).toContain(`**\`${name}\`**`);
    }
    expect(failing).toContain('npx fencesim replay --seed 2481666381 --scenario swarm --client naive-no-resubscribe');
    expect(failing).toContain('npx fencesim replay --seed 27310084 --scenario swarm --client naive-no-resubscribe');
    expect(failing.match(/No replay recorded for it/g)).toHaveLength(3);
    expect(markdown).toContain('| `read_amplification` | 1.31 | \\< 1.2 | ❌ **FAIL** |');
    expect(markdown).toContain('| `convergence_60s` | 43.97 % | ≥ 99.9 % | ❌ **FAIL** |');
    expect(markdown).toContain('| `revocation_p99_ms` | 92,300 ms | \\< 30,000 ms | ❌ **FAIL** |');
    expect(markdown).toContain('⚠️ 4 required faults never fired (not enforced');
    expect(markdown).toContain('- … and 4 more (see the sections below)');
  });

  it('a run failing only on "sometimes", written before determinism and shrinking existed, still renders', () => {
    const markdown = renderMarkdown(loadReport('report-sometimes-fail'));
    expect(markdown.split('\n')[0]).toContain('fencesim gate FAILED');
    expect(markdown).toContain('❌ 8 required faults never fired, so the scenario did not test what it claims: `cursor-cycle`');
    expect(markdown).toContain('| `cursor-cycle` | 0 | ❌ **required, NEVER FIRED** |');
    expect(markdown).toContain('- `DISCOVERED --poll_started--> ACTIVE`');
    expect(markdown).not.toContain('Determinism self-check');
  });

  it('a failed determinism self-check comes first, with the replay command of each nondeterministic seed', () => {
    const markdown = renderMarkdown(withNondeterminism(loadReport('report-pass')));
    expect(markdown.split('\n')[0]).toContain('fencesim gate FAILED');
    const section = sectionOf(markdown, '### ❌ Nondeterminism');
    expect(markdown.indexOf('### ❌ Nondeterminism')).toBeLessThan(markdown.indexOf('### Metrics'));
    const block = codeBlocks(section)[0]!;
    expect(block).toContain('npx fencesim replay --seed 123456789 --scenario read-race --client reference');
    expect(block).toContain('npx fencesim replay --seed 987654321 --scenario read-race --client reference');
    expect(block).toContain('trace hash 0x1234abcd then 0x0badf00d; first difference at timeline line 12');
    expect(markdown).toContain('❌ Determinism self-check: 10 sampled interleavings (1 %) ran twice more: 2 NONDETERMINISTIC.');
  });

  it('text from the report cannot break the table or the code block', () => {
    const report = loadReport('report-fail-read-race');
    const hostile: Report = { ...report, failures: [{ ...report.failures[0]!, uri: 'demo://x|y', detail: 'line one\n```\nline `two` | three' }] };
    const markdown = renderMarkdown(hostile);
    const block = codeBlocks(markdown).find((body) => body.includes('fencesim replay --seed'))!;
    expect(block).toContain('# 1,158 ms, demo://x|y: line one ``` line `two` | three');
    expect(block).toContain(report.failures[0]!.replay);
  });

  it('a metric just below its gate is not rounded onto the passing side', () => {
    const report = loadReport('report-pass');
    const convergence = { ...report.metrics['convergence_60s']!, value: 0.998996, passed: false };
    const markdown = renderMarkdown({ ...report, passed: false, metrics: { ...report.metrics, convergence_60s: convergence } });
    expect(markdown).toContain('| `convergence_60s` | 99.8996 % | ≥ 99.9 % | ❌ **FAIL** |');
  });
});
