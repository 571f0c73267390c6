/**
 * `--client ./module.mjs` end to end through `main`: a module client is caught and shrunk, the printed
 * replay commands work when pasted, and the report does not depend on --workers or on sharding + merge.
 * (Workers run dist/cli/worker.js: build first.)
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/cli-io.js';

const naive = './examples/naive-kb/client.mjs';
let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fencesim-module-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function deterministicPart(text: string): string {
  return text.slice(0, text.indexOf('"timing"'));
}

/** The arguments of a printed `npx fencesim ...` command line. */
function pasted(line: string): string[] {
  return line.trim().replace(/^npx fencesim /, '').split(/\s+/);
}

describe('gate --client ./examples/naive-kb/client.mjs', () => {
  it('fails read-race, prints commands naming the module path that work when pasted, and shrinks the stale read', async () => {
    const out = join(scratch, 'naive');
    const gate = await runCli(['gate', '--client', naive, '--scenario', 'read-race', '--interleavings', '30', '--seed', '3', '--workers', '1', '--out', out]);
    expect(gate.code).toBe(1);
    expect(gate.stdout).toContain(`reproduce this run: npx fencesim gate --seed 3 --interleavings 30 --scenario read-race --client ${naive}`);
    expect(gate.stdout).toMatch(/module client +naive-kb: claims subscriptions/);
    const replayLine = gate.stdout.split('\n').find((line) => line.includes('npx fencesim replay --seed'))!;
    expect(replayLine).toContain(`--client ${naive}`);
    const replay = await runCli(pasted(replayLine));
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain('verdict: VIOLATION version_regression');
    const full = await runCli([...pasted(replayLine), '--full']);
    expect(full.code).toBe(1);
    expect(full.stdout).toContain('timeline (whole run, every resource):');
    expect(full.stdout.split('\n').length).toBeGreaterThan(replay.stdout.split('\n').length);
    expect(full.stdout).not.toContain('more lines like the ones above');
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    expect(report.applicability.clientKind).toBe('module');
    expect(report.applicability.invariantsJudged).toContain('version_regression');
    expect(report.applicability.invariantsNotJudged).toContain('post_close_outbox');
    report.shrunk = report.failures[0].shrunk;
    expect(report.shrunk.invariant).toBe('version_regression');
    expect(report.shrunk.timelineLines).toBeLessThanOrEqual(30);
    expect(report.shrunk.timeline.some((line: string) => line.includes('<== version_regression'))).toBe(true);
    const fileReplay = await runCli(['replay', '--file', join(out, report.shrunk.file)]);
    expect(fileReplay.code).toBe(1);
    expect(fileReplay.stdout).toContain('<== version_regression');
    expect(fileReplay.stdout).toContain('decisions, replayed exactly)');
    const file = JSON.parse(await readFile(join(out, report.shrunk.file), 'utf8'));
    file.decisions[0][0] = 'edited'; // a decision is [label, value, range]
    const edited = join(scratch, 'edited.json');
    await writeFile(edited, JSON.stringify(file));
    const diverged = await runCli(['replay', '--file', edited]);
    expect(diverged.code).toBe(2); // strict: exactly or not at all, naming where
    expect(diverged.stderr).toContain(`--file ${edited}: `);
    expect(diverged.stderr).toMatch(/decision \d+/);
    // The same client by its absolute path is the same client (exact); a registry client named with --client runs the
    // file's schedule (leniently), for replay and for shrink, instead of being ignored.
    const absolute = await runCli(['replay', '--file', join(out, report.shrunk.file), '--client', join(process.cwd(), naive)]);
    expect(absolute.stdout).toContain('decisions, replayed exactly)');
    const other = await runCli(['replay', '--file', join(out, report.shrunk.file), '--client', 'reference']);
    expect(other.stdout).toContain(`recorded against ${naive}, replayed leniently against reference`);
    expect(other.stdout).toMatch(/^ {2}client +reference$/m);
    const otherShrink = await runCli(['shrink', '--file', join(out, report.shrunk.file), '--client', 'naive-overwrite', '--out', join(scratch, 'other.json')]);
    expect(otherShrink.stdout).toMatch(new RegExp(`^ {2}client +naive-overwrite \\(the file's schedule was recorded against ${naive.replace(/\./g, '\\.')}\\)$`, 'm'));
    const shrinkLine = `shrink --seed ${/--seed (\d+)/.exec(replayLine)![1]} --scenario read-race --client ${naive} --out ${join(scratch, 'min.json')} --attempts 40`;
    const shrink = await runCli(shrinkLine.split(' '));
    expect(shrink.code).toBe(1);
    expect(shrink.stdout).toContain(`replay it: npx fencesim replay --file ${join(scratch, 'min.json')}`);
  }, 240_000);

  it('gives the same report.json (apart from timing) with --workers 1, --workers 2 and 4 shards merged', async () => {
    const base = ['--client', naive, '--scenario', 'read-race', '--interleavings', '24', '--seed', '9', '--no-shrink'];
    const one = join(scratch, 'w1');
    const two = join(scratch, 'w2');
    const first = await runCli(['gate', ...base, '--workers', '1', '--out', one]);
    const second = await runCli(['gate', ...base, '--workers', '2', '--out', two]);
    expect(second.code).toBe(first.code);
    const whole = deterministicPart(await readFile(join(one, 'report.json'), 'utf8'));
    expect(deterministicPart(await readFile(join(two, 'report.json'), 'utf8'))).toBe(whole);
    const shards: string[] = [];
    for (let index = 1; index <= 4; index++) {
      const dir = join(scratch, `shard-${index}`);
      shards.push(dir);
      await runCli(['gate', ...base, '--workers', '1', '--shard', `${index}/4`, '--out', dir]);
    }
    const merged = join(scratch, 'merged');
    const merge = await runCli(['merge', ...shards, '--out', merged]);
    expect(merge.code).toBe(first.code);
    expect(deterministicPart(await readFile(join(merged, 'report.json'), 'utf8'))).toBe(whole);
  }, 240_000);

  it('a reducer module without durable/recover that claims no catalogs passes swarm: its list faults and client-crash are not applicable', async () => {
    const reducer = './test/fixtures/modules/reducer-no-recovery.mjs';
    const args = ['gate', '--client', reducer, '--scenario', 'swarm', '--interleavings', '300', '--seed', '7'];
    const gate = await runCli([...args, '--workers', '1', '--out', join(scratch, 'reducer1')]);
    expect(gate.stdout).toMatch(/not applicable +cursor-cycle \(needs catalogs\), .*client-crash \(needs crashRecovery\)/);
    expect(gate.stdout).toMatch(/fence_lost_after_crash +0 /);
    expect(gate.code).toBe(0); // with every fault on, seed 7 fails fence_lost_after_crash (the reducer keeps no ledger)
    const workers = await runCli([...args, '--workers', '2', '--out', join(scratch, 'reducer2')]);
    expect(workers.code).toBe(0);
    const report = (dir: string) => readFile(join(scratch, dir, 'report.json'), 'utf8').then(deterministicPart);
    expect(await report('reducer2')).toBe(await report('reducer1'));
    const applicability = JSON.parse(await readFile(join(scratch, 'reducer1', 'report.json'), 'utf8')).applicability;
    expect(applicability.clientKind).toBe('reducer');
    expect(applicability.claims).toEqual({ catalogs: false, crashRecovery: false });
    expect(applicability.notApplicable).toContainEqual({ fault: 'client-crash', feature: 'crashRecovery' });
    expect(applicability.invariantsNotJudged).toEqual([]);
    expect(await readFile(join(scratch, 'reducer1', 'summary.md'), 'utf8')).toContain('Faults not applicable: cursor-cycle (needs catalogs)');
    expect(await readFile(join(scratch, 'reducer1', 'report.html'), 'utf8')).toContain('<section id="applicability">');
    const shards = ['1/3', '2/3', '3/3'].map((shard, index) => join(scratch, `reducer-shard${index}`));
    for (const [index, out] of shards.entries()) expect((await runCli([...args, '--workers', '1', '--shard', `${index + 1}/3`, '--out', out])).code).toBe(0);
    expect((await runCli(['merge', ...shards, '--out', join(scratch, 'reducer-merged')])).code).toBe(0); // judged with the same faults off
    expect(await report('reducer-merged')).toBe(await report('reducer1'));
    const notApplicable = await runCli(['gate', '--client', reducer, '--scenario', 'cursor-cycle', '--interleavings', '5', '--out', join(scratch, 'reducer3')]);
    expect(notApplicable.code).toBe(0);
    expect(notApplicable.stdout).toContain('not applicable to ./test/fixtures/modules/reducer-no-recovery.mjs: scenario cursor-cycle tests fault cursor-cycle, which needs the feature catalogs');
  }, 120_000);

  it('a scenario built on an unclaimed feature is not applicable (exit 0), and a bad module path exits 2 naming it', async () => {
    const crash = await runCli(['gate', '--client', naive, '--scenario', 'client-crash', '--interleavings', '5', '--out', join(scratch, 'na')]);
    expect(crash.code).toBe(0);
    expect(crash.stdout).toContain('not applicable');
    expect(crash.stdout).toContain('crashRecovery');
    const stepOnly = await runCli(['gate', '--client', naive, '--scenario', 'malformed-input', '--interleavings', '5', '--out', join(scratch, 'na2')]);
    expect(stepOnly.code).toBe(0);
    expect(stepOnly.stdout).toContain("which needs a reducer client's step interface (a module client is judged on the wire)");
    const missing = await runCli(['gate', '--client', './examples/nope/client.mjs', '--interleavings', '5', '--out', join(scratch, 'bad')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--client ./examples/nope/client.mjs: no such file');
    const notClient = await runCli(['gate', '--client', './package.json', '--interleavings', '5', '--out', join(scratch, 'bad2')]);
    expect(notClient.code).toBe(2);
    expect(notClient.stderr).toContain('--client ./package.json');
  }, 120_000);

  it('a handle that breaks the contract is bad input (exit 2) on this thread, on workers and in replay; what a client throws is its own (exit 3)', async () => {
    const noGet = './test/fixtures/modules/no-get.mjs';
    const problem = 'not a client module: client no-get: the handle start(env) resolved to has no `get` function';
    for (const workers of ['1', '2']) {
      const gate = await runCli(['gate', '--client', noGet, '--interleavings', '200', '--seed', '1', '--workers', workers, '--out', join(scratch, `no-get-${workers}`)]);
      expect(gate.code, gate.stderr).toBe(2);
      expect(gate.stderr).toContain(`fencesim gate: --client ${noGet}: ${problem}\n`);
    }
    const replay = await runCli(['replay', '--seed', '5', '--scenario', 'read-race', '--client', noGet]);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain(`fencesim replay: --client: ${problem}`);
    const throwing = './test/fixtures/modules/throws-in-start.mjs';
    for (const workers of ['1', '2']) {
      const gate = await runCli(['gate', '--client', throwing, '--interleavings', '200', '--seed', '1', '--workers', workers, '--out', join(scratch, `throws-${workers}`)]);
      expect(gate.code).toBe(3);
      // Interleaving 0 on 2 workers too: the lowest crashing index is reported, whichever worker answers first.
      expect(gate.stderr).toMatch(new RegExp(`^fencesim gate: the client under test \\(${throwing.replace(/\./g, '\\.')}\\): interleaving 0 \\(seed \\d+\\) threw: cannot start: no configuration file$`, 'm'));
      expect(gate.stderr).not.toContain('internal error');
      expect(gate.stderr).toContain('throws-in-start.mjs:6'); // the client's own frame, also from a worker
    }
  }, 120_000);
});
