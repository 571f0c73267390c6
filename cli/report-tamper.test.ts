/**
 * A report cannot lie (issue 14.4): `report` and `merge` refuse every kind of tampered report.json with
 * exit 2, naming the field, whether or not the forger also recomputed the digest (`resealed`: written with
 * serializeReport, which seals whatever it is given). The reports are real gate runs of a failing client.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeReport, type Report } from '../reports/json.js';
import { runCli } from '../test/cli-io.js';

let scratch = '';
const shards: string[] = [];
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fencesim-tamper-'));
  for (const index of [1, 2]) {
    const out = join(scratch, `shard-${index}`);
    const run = await runCli(['gate', '--scenario', 'read-race', '--client', 'naive-overwrite', '--interleavings', '120', '--seed', '3', '--max-failures', '4', '--workers', '1', '--no-shrink', '--shard', `${index}/2`, '--out', out]);
    expect(run.code).toBe(1);
    shards.push(out);
  }
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

type Edit = (json: any) => void;

const violationIndex = 0; // version_regression, the invariant naive-overwrite breaks on read-race

/** [name, edit, reseal the digest?, fragments the refusal must contain] */
const tampered: [string, Edit, boolean, string[]][] = [
  ['passed: true with violations', (json) => void (json.passed = true), false, ['report.json: passed is true but should be false']],
  ['passed: true with violations, digest recomputed', (json) => void (json.passed = true), true, ['report.json: passed is true but should be false', 'recomputed from its accumulator']],
  ['a zeroed counter, digest recomputed', (json) => void (json.counters.version_regression = 0), true, ['counters.version_regression is 0 but should be']],
  ['violations dropped from the reasons', (json) => void (json.reasons = []), true, ['reasons has 0 entries but should have 1']],
  ['a top level that contradicts its accumulator (totals)', (json) => void (json.totals.events += 1), true, ['totals.events is']],
  ['a metric pushed over its gate', (json) => void (json.metrics.read_amplification.passed = false), true, ['metrics.read_amplification.passed is false but should be true']],
  ['a threshold loosened', (json) => void (json.thresholds.read_amplification.value = 99), true, ['thresholds.read_amplification.value is 99 but should be 1.2']],
  [
    'an accumulator with its violations zeroed',
    (json) => void (json.accumulator.violationCounts[violationIndex] = 0),
    true,
    ['accumulator.violationCounts[0] (version_regression) is 0 but accumulator.failingInterleavings[0] is'],
  ],
  [
    'an accumulator with violations and failing interleavings zeroed',
    (json) => {
      json.accumulator.violationCounts[violationIndex] = 0;
      json.accumulator.failingInterleavings[violationIndex] = 0;
    },
    true,
    ['accumulator.failures records', 'failures of version_regression but accumulator.failingInterleavings[0] is 0'],
  ],
  ['a recorded failure dropped', (json) => void json.accumulator.failures.splice(0, 1), true, ['accumulator.failures records']],
  ['a failure moved to another seed', (json) => void (json.accumulator.failures[0].seed += 1), true, ['accumulator.failures[0].seed']],
  ['a failure outside the shard', (json) => void (json.accumulator.failures[0].index = 10_000), true, ['accumulator.failures[0].index 10000 is outside interleavings']],
  ['an accumulator field of the wrong type', (json) => void (json.accumulator.events = 'many'), true, ['accumulator.events is not a non-negative number']],
  ['negative timing', (json) => void (json.timing.wallMs = -5), false, ['timing.wallMs is -5, not a non-negative number']],
  ['negative timing, digest recomputed', (json) => void (json.timing.peakRssBytes = -1), true, ['timing.peakRssBytes is -1']],
  ['edited timing', (json) => void (json.timing.wallMs += 1_000), false, ['timing.sha256 does not match']],
  ['an edited failure detail', (json) => void (json.failures[0].detail = 'nothing to see'), false, ['failures[0].detail is "nothing to see" but should be']],
  ['an edited shrink note (not recomputable: the digest catches it)', (json) => void (json.failures[0].shrunk.skipped = 'shrunk fine'), false, ['integrity.contentSha256 does not match the content']],
  ['an edited run spec seed', (json) => void (json.runSpec.seed += 1), true, ['accumulator.failures[0].seed']],
  ['a self-check that checked nothing', (json) => void (json.determinism.checked = 0), true, ['determinism.checked is 0 but --self-check-ratio 1 samples']],
  ['no integrity section', (json) => void delete json.integrity, false, ['integrity is missing']],
  ['another fencesim version', (json) => void (json.integrity.fencesimVersion = '0.0.1'), false, ['integrity.fencesimVersion is "0.0.1" but this is fencesim']],
];

async function tamper(source: string, target: string, edit: Edit, reseal: boolean): Promise<void> {
  const json = JSON.parse(await readFile(join(source, 'report.json'), 'utf8'));
  edit(json);
  await mkdir(target, { recursive: true });
  await writeFile(join(target, 'report.json'), reseal ? serializeReport(json as Report) : JSON.stringify(json, null, 2));
}

describe('tampered reports are refused, naming the field', () => {
  it('the untampered shards pass every check and merge into a failing gate', async () => {
    const report = await runCli(['report', shards[0]!, '--format', 'md']);
    expect(report.code, report.stderr).toBe(0);
    const merge = await runCli(['merge', ...shards, '--out', join(scratch, 'merged')]);
    expect(merge.code, merge.stderr).toBe(1);
    expect(merge.stdout).toContain('gate FAILED');
  });

  it.each(tampered)('report: %s exits 2', async (name, edit, reseal, fragments) => {
    const dir = join(scratch, `report-${name.replace(/[^a-z0-9]+/gi, '-')}`);
    await tamper(shards[0]!, dir, edit, reseal);
    const run = await runCli(['report', dir, '--format', 'md']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('refused report');
    for (const fragment of fragments) expect(run.stderr).toContain(fragment);
  });

  it.each(tampered)('merge: %s in one shard exits 2 and writes nothing', async (name, edit, reseal, fragments) => {
    const dir = join(scratch, `merge-${name.replace(/[^a-z0-9]+/gi, '-')}`);
    await tamper(shards[1]!, dir, edit, reseal);
    const out = join(scratch, `merged-${name.replace(/[^a-z0-9]+/gi, '-')}`);
    const run = await runCli(['merge', shards[0]!, dir, '--out', out]);
    expect(run.code, run.stderr).toBe(2);
    for (const fragment of fragments) expect(run.stderr).toContain(fragment);
    await expect(readFile(join(out, 'report.json'))).rejects.toThrow();
  });

  it('a partial merge reads back, and cannot lose its "partial merge" reason', async () => {
    const partial = join(scratch, 'partial');
    const merge = await runCli(['merge', shards[1]!, '--allow-partial', '--out', partial]);
    expect(merge.code).toBe(1);
    const report = await runCli(['report', partial, '--format', 'md']);
    expect(report.code, report.stderr).toBe(0);
    const edited = join(scratch, 'partial-edited');
    await tamper(
      partial,
      edited,
      (json) => {
        json.reasons = json.reasons.filter((reason: string) => !reason.startsWith('partial merge: '));
      },
      true,
    );
    const refused = await runCli(['report', edited, '--format', 'md']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('reasons must end with one "partial merge: ..." reason');
  });

  it('merging two failing shards whose accumulators were both edited to pass is refused', async () => {
    const forged: string[] = [];
    for (const [index, shard] of shards.entries()) {
      const dir = join(scratch, `forged-${index}`);
      await tamper(
        shard,
        dir,
        (json) => {
          json.accumulator.violationCounts = json.accumulator.violationCounts.map(() => 0);
          json.accumulator.failingInterleavings = json.accumulator.failingInterleavings.map(() => 0);
        },
        true,
      );
      forged.push(dir);
    }
    const run = await runCli(['merge', ...forged, '--out', join(scratch, 'forged-merged')]);
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain('PASSED');
    expect(run.stderr).toContain('accumulator.failures records');
  });
});
