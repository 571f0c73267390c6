#!/usr/bin/env node
/**
 * Side-by-side CPU comparison of two builds of fencesim on the default gate's scenario, for a shared, noisy machine:
 * each round runs the same interleavings in both builds at once, one process each (one per core), so both see the same
 * load; the figure is each process's own CPU time (user + system), and the answer is the median of the per-round
 * ratios. Run one after the other, the same build varied by 15-20 % between runs here; side by side, within 3-4 %.
 *
 *   node scripts/perf-ab.mjs DIR_A DIR_B [--interleavings N] [--rounds R] [--scenario NAME] [--seed S]
 *
 * DIR_A and DIR_B are checkouts with `dist/` built (`npx tsc -p tsconfig.build.json`); for the previous commit:
 * `git worktree add /tmp/base HEAD~1 && ln -s $PWD/node_modules /tmp/base/ && (cd /tmp/base && npx tsc -p tsconfig.build.json)`.
 * Each process first runs 300 interleavings to warm up (not timed), then interleavings 300 .. 300+N of the scenario
 * against the reference client (sim/gate.ts runRange, the client part only: what the gate's client workers run).
 * Prints each round, the medians and the median ratio B / A (below 1: B is faster).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const warmup = 300;

async function child(root, scenario, seed, interleavings) {
  const url = (path) => pathToFileURL(resolve(root, path)).href;
  const { runRange } = await import(url('dist/sim/gate.js'));
  const { findScenario } = await import(url('dist/scenarios/catalog.js'));
  const { findClient } = await import(url('dist/scenarios/clients.js'));
  const spec = { seed, interleavings: warmup + interleavings, scenario, client: 'reference', maxFailures: 20, transport: 'pure' };
  const found = findScenario(scenario);
  if (found === undefined) throw new Error(`${root}: no scenario ${scenario}`);
  runRange(spec, found, findClient('reference'), 0, warmup, undefined, 'client');
  const start = process.cpuUsage();
  runRange(spec, found, findClient('reference'), warmup, warmup + interleavings, undefined, 'client');
  const used = process.cpuUsage(start);
  process.stdout.write(`${(used.user + used.system) / 1000}\n`);
}

function runChild(root, options) {
  return new Promise((resolvePromise, reject) => {
    const args = [new URL(import.meta.url).pathname, '--child', root, options.scenario, String(options.seed), String(options.interleavings)];
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 ? resolvePromise(Number(out.trim())) : reject(new Error(`${root}: exit ${code}`))));
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function parse(argv) {
  const options = { dirs: [], interleavings: 3000, rounds: 5, scenario: 'era-both', seed: 7 };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    if (!flag.startsWith('--')) {
      options.dirs.push(flag);
      continue;
    }
    const value = argv[++index];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--scenario') options.scenario = value;
    else if (flag === '--interleavings' || flag === '--rounds' || flag === '--seed') {
      const number = Number(value);
      if (!Number.isInteger(number) || number < (flag === '--seed' ? 0 : 1)) throw new Error(`${flag} needs a ${flag === '--seed' ? 'non-negative' : 'positive'} integer, got ${value}`);
      options[flag.slice(2)] = number;
    } else throw new Error(`unknown option ${flag} (DIR_A DIR_B [--interleavings N] [--rounds R] [--scenario NAME] [--seed S])`);
  }
  if (options.dirs.length !== 2) throw new Error('give two build directories: DIR_A DIR_B');
  return options;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], argv[2], Number(argv[3]), Number(argv[4]));
  const options = parse(argv);
  const [a, b] = options.dirs;
  const times = { a: [], b: [] };
  const ratios = [];
  console.log(`${options.scenario}, interleavings ${warmup}..${warmup + options.interleavings} (seed ${options.seed}), ${options.rounds} rounds, A and B side by side; CPU ms of each process`);
  for (let round = 1; round <= options.rounds; round++) {
    const [ms1, ms2] = await Promise.all([runChild(a, options), runChild(b, options)]);
    times.a.push(ms1);
    times.b.push(ms2);
    ratios.push(ms2 / ms1);
    console.log(`round ${round}: A ${ms1.toFixed(0)} ms, B ${ms2.toFixed(0)} ms, B/A ${(ms2 / ms1).toFixed(3)}`);
  }
  console.log(`median: A ${median(times.a).toFixed(0)} ms (${(median(times.a) / options.interleavings).toFixed(3)} ms per interleaving), B ${median(times.b).toFixed(0)} ms (${(median(times.b) / options.interleavings).toFixed(3)}); median B/A ${median(ratios).toFixed(3)}`);
}

main().catch((error) => {
  console.error(`perf-ab: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
