/**
 * Sharded gates and `fencesim merge`: the four reports of --shard 1/4 .. 4/4 merge into exactly the
 * unsharded report (apart from timing), --workers does not change a report, and every bad input exits 2
 * with a message naming the problem.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/cli-io.js';

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fencesim-shard-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function reportText(dir: string): Promise<string> {
  return readFile(join(dir, 'report.json'), 'utf8');
}

/** Everything a report holds before `timing` (its last key): what identical runs must agree on. */
function deterministicPart(text: string): string {
  return text.slice(0, text.indexOf('"timing"'));
}

async function gate(out: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(['gate', ...argv, '--out', out]);
}

describe('gate --shard i/n and merge', () => {
  it.each([
    ['swarm', 'reference', ['--interleavings', '400', '--seed', '7']],
    ['read-race', 'naive-overwrite', ['--interleavings', '200', '--seed', '3', '--max-failures', '6']],
  ])('merging --shard 1/4 .. 4/4 of %s against %s gives the unsharded report', async (scenario, client, argv) => {
    const base = [...argv, '--scenario', scenario, '--client', client, '--workers', '1'];
    const whole = join(scratch, `${client}-whole`);
    const wholeRun = await gate(whole, base);
    const shardDirs: string[] = [];
    for (let index = 1; index <= 4; index++) {
      const dir = join(scratch, `${client}-shard-${index}`);
      shardDirs.push(dir);
      const shard = await gate(dir, [...base, '--shard', `${index}/4`]);
      expect(shard.stdout).toContain(`--shard ${index}/4`);
      const json = JSON.parse(await reportText(dir));
      const total = Number(argv[1]);
      expect(json.runSpec.shard).toEqual({ index, count: 4, start: Math.floor(((index - 1) * total) / 4), end: Math.floor((index * total) / 4) });
      expect(json.interleavings).toBe(total / 4);
    }
    const merged = join(scratch, `${client}-merged`);
    // Given out of order: merge sorts the shards by their slice.
    const merge = await runCli(['merge', shardDirs[2]!, shardDirs[0]!, shardDirs[3]!, shardDirs[1]!, '--out', merged]);
    expect(merge.code).toBe(wholeRun.code);
    expect(merge.stderr).toBe('');
    expect(deterministicPart(await reportText(merged))).toBe(deterministicPart(await reportText(whole)));
    expect(JSON.parse(await reportText(merged)).runSpec.shard).toBeUndefined();
    for (const file of ['summary.md', 'junit.xml', 'report.html']) expect(existsSync(join(merged, file))).toBe(true);
    const failures = JSON.parse(await reportText(merged)).failures;
    if (client === 'naive-overwrite') {
      // The first failure is in shard 1, which shrank it exactly as the unsharded run did; its replay file comes along.
      expect(failures).toHaveLength(6);
      expect(existsSync(join(merged, failures[0].shrunk.file))).toBe(true);
    } else {
      expect(failures).toHaveLength(0);
    }
  });

  it('--workers 2 writes the same report as --workers 1, for a whole run and for a shard', async () => {
    for (const shard of [[], ['--shard', '2/3']]) {
      const argv = ['--interleavings', '600', '--seed', '11', ...shard];
      const one = join(scratch, `workers-1-${shard.length}`);
      const two = join(scratch, `workers-2-${shard.length}`);
      await gate(one, [...argv, '--workers', '1']);
      await gate(two, [...argv, '--workers', '2']);
      expect(deterministicPart(await reportText(two))).toBe(deterministicPart(await reportText(one)));
    }
  });

  it('progress counts the shard\'s own interleavings', async () => {
    const run = await gate(join(scratch, 'progress-shard'), ['--interleavings', '200', '--seed', '2', '--shard', '3/4', '--workers', '1']);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('progress: '));
    expect(lines.length).toBeGreaterThanOrEqual(9);
    expect(lines.at(-1)).toContain('100% (50/50 interleavings');
    const tty = await runCli(['gate', '--interleavings', '200', '--seed', '2', '--shard', '3/4', '--workers', '2', '--out', join(scratch, 'progress-tty')], { stderrIsTty: true });
    expect(tty.stderr).toMatch(/\[#+\] 100% 50\/50 interleavings/);
    expect(tty.stderr).not.toContain('/200 interleavings');
  });

  it('a partial merge is refused without --allow-partial, and fails the gate with it', async () => {
    const dirs = [1, 3].map((index) => join(scratch, `partial-${index}`));
    for (const [offset, dir] of dirs.entries()) await gate(dir, ['--interleavings', '120', '--seed', '5', '--workers', '1', '--shard', `${offset * 2 + 1}/4`]);
    const refused = await runCli(['merge', ...dirs, '--out', join(scratch, 'partial-out')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('missing shards 2/4, 4/4 (interleavings 30..59, 90..119)');
    expect(refused.stderr).toContain('--allow-partial');
    const partial = await runCli(['merge', ...dirs, '--allow-partial', '--out', join(scratch, 'partial-out')]);
    expect(partial.code).toBe(1);
    expect(partial.stdout).toContain('partial merge: missing shards 2/4, 4/4');
    expect(JSON.parse(await reportText(join(scratch, 'partial-out'))).passed).toBe(false);
  });
});

describe('bad input exits 2 naming the problem', () => {
  const shardCases: [string, string[]][] = [
    ['5/4', ['--shard: "5/4" has shard index 5, above the shard count 4']],
    ['0/3', ['--shard: "0/3" has shard index 0; shards are numbered from 1 to 3']],
    ['1/0', ['--shard: "1/0" has shard count 0; the count must be at least 1']],
    ['a/b', ['--shard: "a/b" is not INDEX/COUNT']],
    ['2', ['--shard: "2" is not INDEX/COUNT']],
  ];
  it.each(shardCases)('gate --shard %s', async (text, fragments) => {
    const run = await runCli(['gate', '--interleavings', '10', '--shard', text]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    for (const fragment of fragments) expect(run.stderr).toContain(fragment);
  });

  it('gate --shard with more shards than interleavings', async () => {
    const run = await runCli(['gate', '--interleavings', '3', '--shard', '1/4']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('more shards than interleavings (3)');
  });

  describe('merge', () => {
    const dirs: Record<string, string> = {};
    beforeAll(async () => {
      const runs: [string, Record<string, string>][] = [
        ['s1', { shard: '1/2' }],
        ['s2', { shard: '2/2' }],
        ['q2', { shard: '2/4' }],
        ['seed', { shard: '2/2', seed: '10' }],
        ['interleavings', { shard: '2/2', interleavings: '42' }],
        ['scenario', { shard: '2/2', scenario: 'read-race' }],
        ['client', { shard: '2/2', client: 'naive-overwrite' }],
        ['maxFailures', { shard: '2/2', 'max-failures': '3' }],
      ];
      for (const [name, overrides] of runs) {
        dirs[name] = join(scratch, `merge-${name}`);
        const options = { interleavings: '40', seed: '9', workers: '1', 'self-check-ratio': '0', ...overrides };
        const run = await gate(dirs[name]!, [...Object.entries(options).flatMap(([option, value]) => [`--${option}`, value]), '--no-shrink']);
        expect(run.code, run.stderr).toBeLessThan(2);
      }
    });

    it.each(['seed', 'interleavings', 'scenario', 'client', 'maxFailures'])('reports of different runs (%s)', async (field) => {
      const run = await runCli(['merge', dirs['s1']!, dirs[field]!, '--out', join(scratch, 'merge-out')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the reports are of different runs');
      expect(run.stderr).toContain(`has ${field} `);
    });

    it('the same shard twice', async () => {
      const run = await runCli(['merge', dirs['s1']!, dirs['s2']!, join(dirs['s2']!, 'report.json'), '--out', join(scratch, 'merge-out')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('duplicate shard');
      expect(run.stderr).toContain('shard 2/2, interleavings 20..39');
    });

    it('overlapping shards of different counts', async () => {
      const run = await runCli(['merge', dirs['s1']!, dirs['s2']!, dirs['q2']!, '--out', join(scratch, 'merge-out')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('overlapping shards');
      expect(run.stderr).toContain('shard 1/2, interleavings 0..19');
      expect(run.stderr).toContain('shard 2/4, interleavings 10..19');
    });

    it('a missing shard is named', async () => {
      const run = await runCli(['merge', dirs['s2']!, '--out', join(scratch, 'merge-out')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('missing shard 1/2 (interleavings 0..19)');
    });

    it('--out that is one of the inputs', async () => {
      const run = await runCli(['merge', dirs['s1']!, dirs['s2']!, '--out', dirs['s2']!]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('is also an input');
    });

    it('no directories, a missing one, a corrupt report, a report without an accumulator', async () => {
      expect((await runCli(['merge'])).stderr).toContain('no reports given');
      const missing = await runCli(['merge', join(scratch, 'nope')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no report.json there');
      const corruptDir = join(scratch, 'corrupt');
      await runCli(['gate', '--interleavings', '2', '--seed', '1', '--workers', '1', '--out', corruptDir]);
      const text = await reportText(corruptDir);
      await writeFile(join(corruptDir, 'report.json'), text.slice(0, 200));
      const corrupt = await runCli(['merge', corruptDir]);
      expect(corrupt.code).toBe(2);
      expect(corrupt.stderr).toContain('is not valid JSON');
      const json = JSON.parse(text);
      delete json.accumulator;
      await writeFile(join(corruptDir, 'report.json'), JSON.stringify(json));
      const old = await runCli(['merge', corruptDir, '--out', join(scratch, 'merge-out')]);
      expect(old.code).toBe(2);
      expect(old.stderr).toContain('accumulator is missing');
    });
  });
});
