/**
 * Side-by-side CPU comparison of two builds of fencesim on the default gate's scenario, for a shared, noisy machine:
 * each round runs the same interleavings in both builds at once, one process each (one per core), so both see the same
 * load; the figure is each process's own CPU time (user + system), and the answer is the median of the per-round
 * ratios. Measured here on 2026-12-04 (3,000 era-both interleavings): one build, run three times one after the other,
 * took 5.0, 6.6 and 5.5 CPU-s; side by side against itself, the median ratio was 0.966 (4 rounds) and 0.970 (2 rounds).
 *
 *   node --import tsx scripts/perf-ab.mts DIR_A DIR_B [--interleavings N] [--rounds R] [--scenario NAME] [--seed S]
 *
 * DIR_A and DIR_B are checkouts with `dist/` built (`npx tsc -p tsconfig.build.json`); for the previous commit:
 * `git worktree add /tmp/base HEAD~1 && ln -s $PWD/node_modules /tmp/base/ && (cd /tmp/base && npx tsc -p tsconfig.build.json)`.
 * Each process first runs 300 interleavings to warm up (not timed), then interleavings 300 .. 300+N of the scenario
 * against the reference client (sim/gate.ts runRange, the client part only: what the gate's client workers run).
 * Prints each round, the medians and the median ratio B / A (below 1: B is faster). Exit 2 on bad arguments.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from '../bench/median.js';

const warmup = 300;

interface Options {
  dirs: string[];
  interleavings: number;
  rounds: number;
  scenario: string;
  seed: number;
}

/** In the child process: warm up, then print the CPU ms of N interleavings of `root`'s build. */
async function child(root: string, scenario: string, seed: number, interleavings: number): Promise<void> {
  const load = (path: string): Promise<any> => import(pathToFileURL(resolve(root, path)).href);
  const { runRange } = await load('dist/sim/gate.js');
  const { findScenario } = await load('dist/scenarios/catalog.js');
  const { findClient } = await load('dist/scenarios/clients.js');
  const spec = { seed, interleavings: warmup + interleavings, scenario, client: 'reference', maxFailures: 20, transport: 'pure' };
  const found = findScenario(scenario);
  if (found === undefined) throw new Error(`${root}: no scenario ${scenario}`);
  runRange(spec, found, findClient('reference'), 0, warmup, undefined, 'client');
  const start = process.cpuUsage();
  runRange(spec, found, findClient('reference'), warmup, warmup + interleavings, undefined, 'client');
  const used = process.cpuUsage(start);
  process.stdout.write(`${(used.user + used.system) / 1000}\n`);
}

function runChild(root: string, options: Options): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, options.scenario, String(options.seed), String(options.interleavings)];
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 ? resolvePromise(Number(out.trim())) : reject(new Error(`${root}: exit ${code}`))));
  });
}

function parse(argv: readonly string[]): Options {
  const options: Options = { dirs: [], interleavings: 3000, rounds: 5, scenario: 'era-both', seed: 7 };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index]!;
    if (!flag.startsWith('--')) {
      options.dirs.push(flag);
      continue;
    }
    const value = argv[++index];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--scenario') options.scenario = value;
    else if (flag === '--interleavings' || flag === '--rounds' || flag === '--seed') {
      const number = Number(value);
      const least = flag === '--seed' ? 0 : 1;
      if (!Number.isInteger(number) || number < least) throw new Error(`${flag} needs an integer of at least ${least}, got ${value}`);
      if (flag === '--interleavings') options.interleavings = number;
      else if (flag === '--rounds') options.rounds = number;
      else options.seed = number;
    } else throw new Error(`unknown option ${flag} (DIR_A DIR_B [--interleavings N] [--rounds R] [--scenario NAME] [--seed S])`);
  }
  if (options.dirs.length !== 2) throw new Error('give two build directories: DIR_A DIR_B');
  return options;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1]!, argv[2]!, Number(argv[3]), Number(argv[4]));
  const options = parse(argv);
  const [a, b] = options.dirs as [string, string];
  const times = { a: [] as number[], b: [] as number[] };
  const ratios: number[] = [];
  console.log(`${options.scenario}, interleavings ${warmup}..${warmup + options.interleavings} (seed ${options.seed}), ${options.rounds} rounds, A and B side by side; CPU ms of each process`);
  for (let round = 1; round <= options.rounds; round++) {
    const [ms1, ms2] = await Promise.all([runChild(a, options), runChild(b, options)]);
    times.a.push(ms1);
    times.b.push(ms2);
    ratios.push(ms2 / ms1);
    console.log(`round ${round}: A ${ms1.toFixed(0)} ms, B ${ms2.toFixed(0)} ms, B/A ${(ms2 / ms1).toFixed(3)}`);
  }
  const perInterleaving = (ms: number): string => (ms / options.interleavings).toFixed(3);
  console.log(`median: A ${median(times.a).toFixed(0)} ms (${perInterleaving(median(times.a))} ms per interleaving), B ${median(times.b).toFixed(0)} ms (${perInterleaving(median(times.b))}); median B/A ${median(ratios).toFixed(3)}`);
}

main().catch((error: unknown) => {
  console.error(`perf-ab: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
