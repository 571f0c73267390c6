/**
 * The command line, driven through `main` with a captured Io (no build, no child process): exit codes,
 * messages that name the bad argument, report.json contents and determinism, replay of a gate failure.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarios } from '../scenarios/catalog.js';
import { clients } from '../scenarios/clients.js';
import { faultNames } from '../sim/faults.js';
import { allInvariants, safetyInvariants } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import { runCli } from '../test/cli-io.js';

const run = runCli;

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fencesim-cli-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function readReport(dir: string): Promise<{ text: string; json: Record<string, any> }> {
  const text = await readFile(join(dir, 'report.json'), 'utf8');
  return { text, json: JSON.parse(text) };
}

describe('bad usage exits 2 with a message naming the argument', () => {
  const cases: [string, string[], string[]][] = [
    ['unknown command', ['gat'], ['unknown command "gat"', 'did you mean gate']],
    ['unknown option', ['gate', '--interleaving', '5'], ['--interleaving', 'did you mean --interleavings']],
    ['missing value', ['gate', '--seed'], ['--seed needs a value']],
    ['missing value before another option', ['gate', '--scenario', '--seed', '1'], ['--scenario needs a value']],
    ['fractional interleavings', ['gate', '--interleavings', '1.5'], ['--interleavings', '"1.5"', 'integers only']],
    ['negative interleavings', ['gate', '--interleavings', '-3'], ['--interleavings', 'negative', 'integers only']],
    ['zero interleavings', ['gate', '--interleavings', '0'], ['--interleavings', 'minimum 1']],
    ['non-numeric interleavings', ['gate', '--interleavings', 'abc'], ['--interleavings', '"abc"', 'integers only']],
    ['exponent interleavings', ['gate', '--interleavings', '1e5'], ['--interleavings', 'exponent', 'integers only']],
    ['malformed seed', ['gate', '--seed', '12x'], ['--seed', 'unexpected character "x"']],
    ['seed too large', ['gate', '--seed', '4294967296'], ['--seed', 'too large']],
    ['unknown scenario', ['gate', '--scenario', 'nope'], ['--scenario', '"nope"', 'read-race', 'swarm']],
    ['misspelt scenario', ['gate', '--scenario', 'read-rce'], ['unknown scenario "read-rce"; did you mean read-race?']],
    ['misspelt client', ['replay', '--seed', '1', '--scenario', 'read-race', '--client', 'naive-overwrit'], ['unknown client "naive-overwrit"; did you mean naive-overwrite?']],
    ['unknown client', ['gate', '--client', 'nope'], ['--client', '"nope"', 'reference', 'naive-overwrite']],
    ['negative max-failures', ['gate', '--max-failures', '-1'], ['--max-failures', 'negative']],
    ['fractional max-failures', ['gate', '--max-failures', '0.5'], ['--max-failures', 'integers only']],
    ['duplicate option', ['gate', '--seed', '1', '--seed', '2'], ['--seed is given twice']],
    ['stray argument', ['gate', 'swarm'], ['unexpected argument "swarm"']],
    ['replay without scenario', ['replay', '--seed', '1', '--client', 'reference'], ['missing required option --scenario']],
    ['replay with a malformed seed', ['replay', '--seed', '0x', '--scenario', 'swarm', '--client', 'reference'], ['--seed', 'no hex digits']],
    ['bench with zero repetitions', ['bench', '--repetitions', '0'], ['--repetitions', 'minimum 1']],
    ['flag given a value', ['bench', '--json=yes'], ['--json takes no value']],
    ['help for an unknown command', ['help', 'nope'], ['unknown command "nope"']],
    ['self-check ratio above 100', ['gate', '--self-check-ratio', '101'], ['--self-check-ratio', 'above 100']],
    ['fractional self-check ratio', ['gate', '--self-check-ratio', '0.5'], ['--self-check-ratio', 'integers only']],
    ['no-shrink given a value', ['gate', '--no-shrink=1'], ['--no-shrink takes no value']],
    ['shrink without an interleaving', ['shrink', '--scenario', 'swarm'], ['missing required option --seed', '--file']],
    ['shrink with an unknown invariant', ['shrink', '--seed', '1', '--scenario', 'swarm', '--client', 'reference', '--invariant', 'nope'], ['--invariant', 'unknown invariant "nope"', 'version_regression']],
    ['shrink with a zero budget', ['shrink', '--seed', '1', '--scenario', 'swarm', '--client', 'reference', '--budget-ms', '0'], ['--budget-ms', 'minimum 1']],
    ['replay with an empty file name', ['replay', '--file='], ['--file: the file name is empty']],
  ];
  it.each(cases)('%s', async (_name, argv, fragments) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    for (const fragment of fragments) expect(result.stderr).toContain(fragment);
  });

  it('an --out that cannot be created names --out', async () => {
    const result = await run(['gate', '--interleavings', '1', '--seed', '1', '--out', join('/dev/null', 'x')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--out');
  });
});

describe('help', () => {
  it('no arguments prints the usage on stderr and exits 2', async () => {
    const result = await run([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('fencesim gate [--interleavings N]');
  });

  it.each([['help'], ['--help'], ['-h']])('%s prints the usage and exits 0', async (flag) => {
    const result = await run([flag]);
    expect(result.code).toBe(0);
    for (const command of ['gate', 'replay', 'shrink', 'list', 'bench']) expect(result.stdout).toContain(`fencesim ${command}`);
    expect(result.stdout).toContain('4 nondeterminism');
  });

  it('gate --help prints only the gate usage and runs nothing', async () => {
    const result = await run(['gate', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--max-failures K');
    expect(result.stdout).not.toContain('fencesim bench');
  });
});

describe('gate', () => {
  const reportKeys = [
    'schema', 'runSpec', 'interleavings', 'passed', 'outcome', 'reasons', 'counters', 'liveness', 'metrics', 'thresholds',
    'coverage', 'faults', 'sometimes', 'totals', 'distributions', 'checkers', 'freshness', 'failures', 'indexer', 'observability', 'eras', 'determinism', 'accumulator', 'integrity', 'timing',
  ];

  it('reference on the default scenario (era-both: --protocol both) passes and writes report.json with the schema and every safety counter', async () => {
    const out = join(scratch, 'reference-a', 'nested');
    const result = await run(['gate', '--interleavings', '300', '--seed', '1', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('fencesim gate: run spec');
    expect(result.stdout).toContain('reproduce this run: npx fencesim gate --seed 1 --interleavings 300 --scenario era-both --client reference');
    expect(result.stdout).toContain('gate PASSED');
    const { json } = await readReport(out);
    expect(Object.keys(json)).toEqual(reportKeys);
    expect(json.schema).toBe('fencesim.report.v1');
    expect(json.runSpec).toEqual({ seed: 1, interleavings: 300, scenario: 'era-both', client: 'reference', maxFailures: 20 });
    expect(Object.keys(json.counters)).toEqual([...safetyInvariants]);
    expect(Object.keys(json.faults)).toEqual([...faultNames]);
    expect(Object.keys(json.totals)).toEqual(['events', 'steps', 'reads', 'staleReceipts', 'audits', 'rejections', 'accepts', 'virtualMs']);
    expect(Object.keys(json.timing)).toEqual(['wallMs', 'interleavingsPerSecond', 'eventsPerSecond', 'peakRssBytes', 'selfCheckMs', 'shrinkMs', 'sha256']);
    expect(json.integrity.fencesimVersion).toBe(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
    expect(json.integrity.contentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(json.determinism).toEqual({ selfCheckRatioPercent: 1, checked: 3, nondeterministic_interleavings: 0, mismatches: [] });
    expect(json.coverage.total).toBe(json.coverage.edges.length);
  });

  it.each([
    ['swarm', 'reference'],
    ['close-race', 'naive-no-close-fence'],
  ])('two identical runs of %s against %s write byte-identical reports apart from timing', async (scenario, client) => {
    const first = join(scratch, `same-${client}-1`);
    const second = join(scratch, `same-${client}-2`);
    const argv = ['gate', '--interleavings', '300', '--seed', '1', '--client', client, '--scenario', scenario];
    await run([...argv, '--out', first]);
    await run([...argv, '--out', second], { nowMs: (() => { let t = 0; return () => (t += 2); })(), peakRssBytes: () => 5 });
    const a = await readReport(first);
    const b = await readReport(second);
    expect(a.json.timing).not.toEqual(b.json.timing);
    const beforeTiming = (text: string): string => text.slice(0, text.indexOf('"timing"'));
    expect(beforeTiming(a.text)).toBe(beforeTiming(b.text));
    expect(beforeTiming(a.text).length).toBeGreaterThan(1_000);
  });

  it('naive-overwrite on read-race fails, and its first failure replays to the same invariant', async () => {
    const out = join(scratch, 'naive');
    const result = await run(['gate', '--client', 'naive-overwrite', '--scenario', 'read-race', '--interleavings', '200', '--seed', '3', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('gate FAILED');
    const { json } = await readReport(out);
    expect(json.passed).toBe(false);
    expect(json.counters.version_regression).toBeGreaterThan(0);
    const failure = json.failures[0];
    expect(failure.seed).toBe(deriveSeed(3, failure.index));
    expect(result.stdout).toContain(failure.replay);
    const [npx, tool, ...argv] = failure.replay.split(' ');
    expect([npx, tool]).toEqual(['npx', 'fencesim']);
    const replay = await run(argv);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(`verdict: VIOLATION ${failure.invariant} at ${failure.timeMs} ms on ${failure.uri}`);
    expect(replay.stdout).toContain(`detail: ${failure.detail}`);
  });

  it('prints a shrink command for each failure shown after the first (shrunk already), which shrinks it to the same invariant', async () => {
    const out = join(scratch, 'naive-shrink');
    const result = await run(['gate', '--client', 'naive-overwrite', '--scenario', 'read-race', '--interleavings', '200', '--seed', '3', '--out', out]);
    expect(result.code).toBe(1);
    const { json } = await readReport(out);
    const second = json.failures[1];
    expect(second, 'the run records more than one failure').toBeDefined();
    const command = `npx fencesim shrink --seed ${second.seed} --scenario read-race --client naive-overwrite --invariant ${second.invariant} --out shrunk-${second.seed}.json`;
    expect(result.stdout).toContain(`    shrink it: ${command}`);
    expect(result.stdout).not.toContain(`shrink --seed ${json.failures[0].seed} `);
    const file = join(scratch, `shrunk-${second.seed}.json`);
    const shrink = await run([...command.split(' ').slice(2, -1), file]);
    expect(shrink.code).toBe(1);
    expect(shrink.stdout).toContain(`!! ${second.invariant}`);
    expect(shrink.stdout).toContain(`replay it: npx fencesim replay --file ${file}`);
  });

  it('without --seed the CLI chooses one, prints it in the run spec and the reproduce line', async () => {
    const result = await run(['gate', '--interleavings', '3', '--out', join(scratch, 'random')], { randomSeed: () => 987654 });
    expect(result.stdout).toMatch(/seed +987654 \(chosen at random/);
    expect(result.stdout).toContain('reproduce this run: npx fencesim gate --seed 987654 --interleavings 3');
  });

  it('progress: a live line on a terminal, about ten plain lines elsewhere', async () => {
    const argv = ['gate', '--interleavings', '40', '--seed', '2', '--out', join(scratch, 'progress')];
    const plain = await run(argv);
    const plainLines = plain.stderr.split('\n').filter((line) => line.startsWith('progress: '));
    expect(plainLines.length).toBeGreaterThanOrEqual(9);
    expect(plainLines.length).toBeLessThanOrEqual(11);
    expect(plainLines.at(-1)).toContain('100% (40/40 interleavings');
    const tty = await run(argv, { stderrIsTty: true });
    expect(tty.stderr).toContain('\r');
    expect(tty.stderr).toContain('/s');
    expect(tty.stderr).not.toContain('progress: ');
    expect(tty.stderr.endsWith('\r\x1b[K')).toBe(true);
  });
});

describe('replay', () => {
  it('a passing interleaving prints header, timeline and "no violation", exit 0', async () => {
    const seed = deriveSeed(1, 0);
    const result = await run(['replay', '--seed', String(seed), '--scenario', 'swarm', '--client', 'reference']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`seed        ${seed}`);
    expect(result.stdout).toMatch(/fault plan +\{/);
    expect(result.stdout).toContain('timeline:\n');
    expect(result.stdout.trimEnd().endsWith('verdict: no violation')).toBe(true);
  });
});

describe('list', () => {
  it('mentions every scenario, client, fault and invariant', async () => {
    const result = await run(['list']);
    expect(result.code).toBe(0);
    for (const scenario of scenarios) expect(result.stdout).toContain(scenario.name);
    for (const client of clients) expect(result.stdout).toContain(client.name);
    for (const fault of faultNames) expect(result.stdout).toContain(fault);
    for (const invariant of allInvariants) expect(result.stdout).toContain(invariant);
  });
});

describe('bench', () => {
  it('--json prints one JSON object with the medians', async () => {
    const result = await run(['bench', '--interleavings', '10', '--repetitions', '3', '--json']);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.schema).toBe('fencesim.bench.v1');
    expect(json.samples).toHaveLength(3);
    expect(json.medianInterleavingsPerSecond).toBeGreaterThan(0);
    expect(json.eventsPerInterleaving).toBeGreaterThan(0);
  });
});
