/**
 * `fencesim report DIR`: re-renders summary.md, junit.xml and report.html from DIR/report.json (the gate
 * writes them by default too), appends the Markdown to $GITHUB_STEP_SUMMARY when set, takes the strategy
 * benchmark's rows for the HTML, and exits 2 naming the problem for a missing or corrupt report or a bad
 * option.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../reports/markdown.js';
import { runCli } from '../test/cli-io.js';
import { strategyResults } from '../test/fixtures/reports.js';

let scratch = '';
let gateDir = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fencesim-report-'));
  gateDir = join(scratch, 'gate');
  const run = await runCli(['gate', '--interleavings', '120', '--seed', '4', '--workers', '1', '--out', gateDir]);
  expect(run.code).toBe(0);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the gate writes every format', () => {
  it('report.json with distributions and accumulator, then summary.md, junit.xml and report.html rendered from it', async () => {
    const json = JSON.parse(await readFile(join(gateDir, 'report.json'), 'utf8'));
    expect(json.distributions.convergenceMs.bucketMs).toBe(100);
    expect(json.distributions.convergenceMs.counts).toHaveLength(600);
    expect(json.distributions.revocationMs.counts).toHaveLength(1_200);
    const converged = json.distributions.convergenceMs.counts.reduce((sum: number, count: number) => sum + count, json.distributions.convergenceMs.overflow);
    expect(converged).toBeGreaterThan(0);
    expect(json.accumulator.interleavings).toBe(120);
    expect(await readFile(join(gateDir, 'summary.md'), 'utf8')).toBe(renderMarkdown(json, { reportDir: gateDir }));
    expect(await readFile(join(gateDir, 'junit.xml'), 'utf8')).toContain('<testsuite name="fencesim gate"');
    const html = await readFile(join(gateDir, 'report.html'), 'utf8');
    expect(html).toContain('data-chart="convergence-cdf" data-empty="false"');
  });

  it('appends the Markdown to $GITHUB_STEP_SUMMARY when it is set', async () => {
    const summary = join(scratch, 'step-summary.md');
    await writeFile(summary, 'before\n');
    const run = await runCli(['gate', '--interleavings', '20', '--seed', '4', '--workers', '1', '--out', join(scratch, 'gate-summary')], {
      env: (name) => (name === 'GITHUB_STEP_SUMMARY' ? summary : undefined),
    });
    expect(run.code).toBe(0);
    const text = await readFile(summary, 'utf8');
    expect(text.startsWith('before\n## ✅ fencesim gate PASSED: 20 interleavings')).toBe(true);
  });
});

describe('fencesim report DIR', () => {
  it('re-renders every format and prints the paths', async () => {
    const before = (await stat(join(gateDir, 'report.html'))).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const run = await runCli(['report', gateDir]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(['summary.md', 'junit.xml', 'report.html'].map((file) => join(gateDir, file)));
    expect((await stat(join(gateDir, 'report.html'))).mtimeMs).toBeGreaterThan(before);
  });

  it('--format md writes only summary.md; a report.json path works too', async () => {
    const run = await runCli(['report', '--format', 'md', join(gateDir, 'report.json')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${join(gateDir, 'summary.md')}\n`);
  });

  it('--strategies puts the strategy benchmark into report.html, and gate --strategies-json does too', async () => {
    const file = join(scratch, 'strategies.json');
    await writeFile(file, JSON.stringify(strategyResults));
    const run = await runCli(['report', gateDir, '--format=html', '--strategies', file]);
    expect(run.code).toBe(0);
    expect(await readFile(join(gateDir, 'report.html'), 'utf8')).toContain('<section id="strategies"><h2>Strategy benchmark</h2>');
    const out = join(scratch, 'gate-strategies');
    const gate = await runCli(['gate', '--interleavings', '10', '--seed', '4', '--workers', '1', '--strategies-json', file, '--out', out]);
    expect(gate.code).toBe(0);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('<section id="strategies">');
  });

  const bad: [string, (dir: string) => Promise<string[]>, string[]][] = [
    ['no directory', async () => ['report'], ['missing the report directory']],
    ['two directories', async (dir) => ['report', dir, dir], ['one report directory at a time']],
    ['a directory without report.json', async (dir) => ['report', join(dir, 'nothing-here')], ['no report.json there']],
    ['an unknown format', async (dir) => ['report', dir, '--format', 'pdf'], ['--format: unknown format "pdf"', 'md, junit, html, all']],
    ['a near-miss format', async (dir) => ['report', dir, '--format', 'htm'], ['did you mean html?']],
    [
      'truncated JSON',
      async (dir) => {
        await writeFile(join(dir, 'report.json'), '{"schema": "fencesim.report.v1", "runSpec": {');
        return ['report', dir];
      },
      ['corrupt report', 'is not valid JSON'],
    ],
    [
      'another schema',
      async (dir) => {
        await writeFile(join(dir, 'report.json'), JSON.stringify({ schema: 'fencesim.replay.v1' }));
        return ['report', dir];
      },
      ['has schema "fencesim.replay.v1", expected "fencesim.report.v1"'],
    ],
    [
      'a field of the wrong type',
      async (dir) => {
        const json = JSON.parse(await readFile(join(gateDir, 'report.json'), 'utf8'));
        json.runSpec.seed = 'seven';
        await writeFile(join(dir, 'report.json'), JSON.stringify(json));
        return ['report', dir];
      },
      ['report.runSpec.seed is not a non-negative integer'],
    ],
    [
      'a strategies file that is not a list of results',
      async (dir) => {
        await writeFile(join(dir, 'bad-strategies.json'), JSON.stringify([{ strategy: 'x' }]));
        return ['report', gateDir, '--strategies', join(dir, 'bad-strategies.json')];
      },
      ['--strategies', 'entry 0: condition is missing or not a string'],
    ],
  ];
  it.each(bad)('%s exits 2', async (name, setup, fragments) => {
    const dir = await mkdtemp(join(scratch, 'bad-'));
    const run = await runCli(await setup(dir));
    expect(run.code, name).toBe(2);
    for (const fragment of fragments) expect(run.stderr).toContain(fragment);
  });
});
