// PRNG benchmark: which seedrandom algorithm should back sim/prng.ts?
//
// The simulator creates ~4 PRNG instances per interleaving (workload, server, network, faults) from an
// integer seed and draws ~100-2000 integers from each, so both seeding cost and per-draw cost matter.
// For every seedrandom algorithm this measures, with tinybench, the median of:
//   seed   - creating one instance from a numeric seed (timed in batches of SEEDS_PER_SAMPLE)
//   draw   - one `int32()` draw reduced to [0, DRAW_BOUND) (timed in batches of DRAWS_PER_SAMPLE)
//   run    - one simulated interleaving: 4 instances + 500 draws each
// and the same three numbers for the project's wrapper, `createPrng` + `nextBelow` from sim/prng.ts.
//
// Run after building:  npm run bench:build && node dist-bench/bench/prng.bench.js [--only=<name>] [--time-ms=<n>]
// Without --only, each candidate runs in its own child process. The candidates share the helper
// functions below, so in one process V8's call sites turn polymorphic and later candidates measure
// 3-5x slower than they are; the simulator uses a single algorithm, so one process each is the fair
// measurement.
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

import seedrandom from 'seedrandom';
import { Bench } from 'tinybench';

import { createPrng } from '../sim/prng.js';

const SEEDS_PER_SAMPLE = 100;
const DRAWS_PER_SAMPLE = 1000;
const DRAW_BOUND = 1000;
const RUN_INSTANCES = 4;
const RUN_DRAWS_PER_INSTANCE = 500;
const TIME_MS_DEFAULT = 500;

/** The part of a seedrandom generator the benchmark uses. */
interface Int32Source {
  int32(): number;
}

/**
 * seedrandom's typings declare string seeds only, but every algorithm also takes a number, and the
 * xor-family and tychei take an integer seed on a faster path (no string mixing). ARC4 and alea turn
 * the number into a string internally.
 */
type NumericSeeded = (seed: number) => Int32Source;

export interface PrngCandidate {
  name: string;
  create: NumericSeeded;
}

export const prngCandidates: readonly PrngCandidate[] = [
  { name: 'arc4', create: seedrandom as unknown as NumericSeeded },
  { name: 'alea', create: seedrandom.alea as unknown as NumericSeeded },
  { name: 'xor128', create: seedrandom.xor128 as unknown as NumericSeeded },
  { name: 'xorwow', create: seedrandom.xorwow as unknown as NumericSeeded },
  { name: 'xorshift7', create: seedrandom.xorshift7 as unknown as NumericSeeded },
  { name: 'tychei', create: seedrandom.tychei as unknown as NumericSeeded },
  { name: 'xor4096', create: seedrandom.xor4096 as unknown as NumericSeeded },
];

/** The name under which the project's own wrapper is measured. */
export const WRAPPER_NAME = 'createPrng';

export const benchNames: readonly string[] = [...prngCandidates.map((candidate) => candidate.name), WRAPPER_NAME];

export interface PrngBenchRow {
  candidate: string;
  seedNsMedian: number;
  drawNsMedian: number;
  runUsMedian: number;
}

/** Written by every task so V8 cannot drop the work. */
let sink = 0;
const keptInstances: unknown[] = new Array(SEEDS_PER_SAMPLE);
const keptPrngs: unknown[] = new Array(SEEDS_PER_SAMPLE);

/** Runs the named candidates (all by default) in this process. */
export async function runPrngBench(names: readonly string[] = benchNames, timeMs = TIME_MS_DEFAULT): Promise<PrngBenchRow[]> {
  const rows: PrngBenchRow[] = [];
  for (const name of names) {
    const candidate = prngCandidates.find((entry) => entry.name === name);
    if (candidate !== undefined) rows.push(await benchCandidate(candidate, timeMs));
    else if (name === WRAPPER_NAME) rows.push(await benchWrapper(timeMs));
    else throw new Error(`prng bench: unknown candidate "${name}" (known: ${benchNames.join(', ')})`);
  }
  return rows;
}

/** Runs each candidate in a child process running this file, so no candidate sees another's types. */
function runPrngBenchIsolated(entryFile: string, timeMs: number): PrngBenchRow[] {
  return benchNames.map((name) => {
    const output = execFileSync(
      process.execPath,
      [...process.execArgv, entryFile, `--only=${name}`, `--time-ms=${timeMs}`, '--json'],
      { encoding: 'utf8' },
    );
    const rows = JSON.parse(output) as PrngBenchRow[];
    const row = rows[0];
    if (row === undefined) throw new Error(`prng bench: child for "${name}" printed no row`);
    return row;
  });
}

async function benchCandidate(candidate: PrngCandidate, timeMs: number): Promise<PrngBenchRow> {
  const create = candidate.create;
  let seedNext = 1;
  let drawSource: Int32Source = create(12345);
  const bench = new Bench({ time: timeMs, warmupTime: 100 });
  bench.add('seed', () => {
    for (let index = 0; index < SEEDS_PER_SAMPLE; index++) {
      keptInstances[index] = create(seedNext);
      seedNext = (seedNext + 1) | 0;
    }
  });
  bench.add(
    'draw',
    () => {
      let total = 0;
      for (let index = 0; index < DRAWS_PER_SAMPLE; index++) total += (drawSource.int32() >>> 0) % DRAW_BOUND;
      sink = (sink + total) | 0;
    },
    { beforeAll: () => { drawSource = create(12345); } },
  );
  bench.add('run', () => {
    let total = 0;
    for (let instance = 0; instance < RUN_INSTANCES; instance++) {
      const source = create(seedNext);
      seedNext = (seedNext + 1) | 0;
      for (let index = 0; index < RUN_DRAWS_PER_INSTANCE; index++) total += (source.int32() >>> 0) % DRAW_BOUND;
    }
    sink = (sink + total) | 0;
  });
  await bench.run();
  return toRow(candidate.name, bench);
}

/** The wrapper exercised through its own API, as the simulator will call it. */
async function benchWrapper(timeMs: number): Promise<PrngBenchRow> {
  let seedNext = 1;
  let drawPrng = createPrng(12345);
  const bench = new Bench({ time: timeMs, warmupTime: 100 });
  bench.add('seed', () => {
    for (let index = 0; index < SEEDS_PER_SAMPLE; index++) {
      keptPrngs[index] = createPrng(seedNext);
      seedNext = (seedNext + 1) >>> 0;
    }
  });
  bench.add(
    'draw',
    () => {
      let total = 0;
      for (let index = 0; index < DRAWS_PER_SAMPLE; index++) total += drawPrng.nextBelow(DRAW_BOUND);
      sink = (sink + total) | 0;
    },
    { beforeAll: () => { drawPrng = createPrng(12345); } },
  );
  bench.add('run', () => {
    let total = 0;
    for (let instance = 0; instance < RUN_INSTANCES; instance++) {
      const prng = createPrng(seedNext);
      seedNext = (seedNext + 1) >>> 0;
      for (let index = 0; index < RUN_DRAWS_PER_INSTANCE; index++) total += prng.nextBelow(DRAW_BOUND);
    }
    sink = (sink + total) | 0;
  });
  await bench.run();
  return toRow(WRAPPER_NAME, bench);
}

function toRow(candidate: string, bench: Bench): PrngBenchRow {
  return {
    candidate,
    seedNsMedian: (medianMs(bench, 'seed') * 1e6) / SEEDS_PER_SAMPLE,
    drawNsMedian: (medianMs(bench, 'draw') * 1e6) / DRAWS_PER_SAMPLE,
    runUsMedian: medianMs(bench, 'run') * 1e3,
  };
}

function medianMs(bench: Bench, taskName: string): number {
  const result = bench.getTask(taskName)?.result;
  if (result === undefined || !('latency' in result)) {
    throw new Error(`prng bench: task "${taskName}" has no latency result (state ${result?.state ?? 'missing'})`);
  }
  return result.latency.p50;
}

export function formatPrngBenchTable(rows: readonly PrngBenchRow[]): string {
  const header = ['candidate', 'seed ns (median)', 'draw ns (median)', `4 seeds + 4x${RUN_DRAWS_PER_INSTANCE} draws us (median)`];
  const body = rows.map((row) => [
    row.candidate,
    row.seedNsMedian.toFixed(0),
    row.drawNsMedian.toFixed(2),
    row.runUsMedian.toFixed(1),
  ]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((line) => line[column]?.length ?? 0)));
  const render = (line: readonly string[]): string =>
    line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  return [render(header), ...body.map(render)].join('\n');
}

interface BenchArguments {
  only: string | undefined;
  timeMs: number;
  json: boolean;
}

function parseArguments(argv: readonly string[]): BenchArguments {
  const parsed: BenchArguments = { only: undefined, timeMs: TIME_MS_DEFAULT, json: false };
  for (const argument of argv) {
    if (argument.startsWith('--only=')) parsed.only = argument.slice('--only='.length);
    else if (argument.startsWith('--time-ms=')) parsed.timeMs = Number(argument.slice('--time-ms='.length));
    else if (argument === '--json') parsed.json = true;
    else throw new Error(`prng bench: unknown argument "${argument}" (expected --only=<name>, --time-ms=<n>, --json)`);
  }
  if (!(Number.isInteger(parsed.timeMs) && parsed.timeMs > 0)) throw new Error('prng bench: --time-ms must be a positive integer');
  return parsed;
}

const entryPath = process.argv[1];
if (entryPath !== undefined && import.meta.url === pathToFileURL(entryPath).href) {
  const parsed = parseArguments(process.argv.slice(2));
  const rows =
    parsed.only === undefined
      ? runPrngBenchIsolated(fileURLToPath(import.meta.url), parsed.timeMs)
      : await runPrngBench([parsed.only], parsed.timeMs);
  if (parsed.json) {
    console.log(JSON.stringify(rows));
  } else {
    console.log(`prng bench: node ${process.version}, ${process.platform}/${process.arch}, time ${parsed.timeMs} ms per task`);
    console.log(formatPrngBenchTable(rows));
  }
}
