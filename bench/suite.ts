/**
 * The project's benchmark suite (`npm run bench`): prints the machine and the run spec, then
 *   a. the full model on one thread: `read-race` and `swarm` with the reference client (sim/gate.ts runRange),
 *      median interleavings/s and events/s over repetitions after a warm-up, events per interleaving, peak RSS;
 *   b. the same-model comparison: the read-race peer model on fencesim's queue + chooser (bench/peer-model.ts)
 *      against fast-check's scheduler (bench/fastcheck-peer.ts), at 1 resource (11 events) and 5 (55 events),
 *      plus the negative controls (fence removed) of both;
 *   c. micro-benchmarks of the core's hot operations (bench/micro.ts).
 * Everything runs on this thread. `--json` prints one JSON object instead of the tables; progress goes to
 * stderr either way. Timing uses `performance.now()` (allowed in bench/, never in core/ or sim/).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';

import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { replayCommand, runRange, type RunSpec } from '../sim/gate.js';
import { deriveSeed, parseSeed } from '../sim/prng.js';
import { DEFAULT_SEED, runFastCheckPeer, unfencedControlFailsAt } from './fastcheck-peer.js';
import { OPERATIONS_PER_SAMPLE, runMicro, type MicroRow } from './micro.js';
import { peerModelStaleReceipts, peerModelUnfencedControl, runPeerModel, type PeerModelResult } from './peer-model.js';

interface SuiteOptions {
  seed: number;
  interleavings: number;
  warmupInterleavings: number;
  repetitions: number;
  client: string;
  scenarios: string[];
  peerInterleavings: number;
  /**
   * Interleavings per fencesim peer-model repetition. Larger than `peerInterleavings` so that one timed
   * sample lasts about as long as a fast-check one (fencesim is an order of magnitude faster): a sample of
   * a few ms mostly measures whether the OS preempted it.
   */
  peerFencesimInterleavings: number;
  peerResources: number[];
  microTimeMs: number;
  json: boolean;
}

const USAGE =
  'usage: node dist-bench/bench/suite.js [--interleavings N] [--peer-interleavings N] [--peer-fencesim-interleavings N] [--repetitions N] [--seed N] [--micro-time-ms N] [--json]';

class UsageError extends Error {}

const NUMERIC_FLAGS = ['--interleavings', '--peer-interleavings', '--peer-fencesim-interleavings', '--repetitions', '--seed', '--micro-time-ms'];

function parseArguments(argv: readonly string[]): SuiteOptions {
  const options: SuiteOptions = {
    seed: DEFAULT_SEED,
    interleavings: 5_000,
    warmupInterleavings: 1_000,
    repetitions: 5,
    client: 'reference',
    scenarios: ['read-race', 'swarm'],
    peerInterleavings: 20_000,
    peerFencesimInterleavings: 100_000,
    peerResources: [1, 5],
    microTimeMs: 300,
    json: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--json') {
      options.json = true;
      continue;
    }
    const equals = argument.indexOf('=');
    const flag = equals < 0 ? argument : argument.slice(0, equals);
    if (!NUMERIC_FLAGS.includes(flag)) throw new UsageError(`unknown argument ${argument}\n${USAGE}`);
    const text = equals < 0 ? argv[++index] : argument.slice(equals + 1);
    if (flag === '--seed') {
      const parsed = parseSeed(text ?? '');
      if (!parsed.ok) throw new UsageError(`--seed: ${parsed.reason}\n${USAGE}`);
      options.seed = parsed.seed;
      continue;
    }
    const value = Number(text);
    if (text === undefined || !(Number.isInteger(value) && value >= 1)) {
      throw new UsageError(`${flag} needs a positive integer, got ${text ?? '(nothing)'}\n${USAGE}`);
    }
    switch (flag) {
      case '--interleavings': options.interleavings = value; break;
      case '--peer-interleavings': options.peerInterleavings = value; break;
      case '--peer-fencesim-interleavings': options.peerFencesimInterleavings = value; break;
      case '--repetitions': options.repetitions = value; break;
      case '--micro-time-ms': options.microTimeMs = value; break;
      default: throw new UsageError(`unknown argument ${argument}\n${USAGE}`);
    }
  }
  options.warmupInterleavings = Math.min(options.warmupInterleavings, options.interleavings);
  return options;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024; // maxRSS is in KiB
}

function progress(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

// -- a. full model ------------------------------------------------------------------------------

interface FullRow {
  scenario: string;
  client: string;
  interleavingsPerSecondMedian: number;
  eventsPerSecondMedian: number;
  eventsPerInterleaving: number;
  /** events / (user + system CPU seconds of this process): less sensitive than wall time to other load. */
  eventsPerCpuSecondMedian: number;
  violations: number;
  /** Every repetition produced the same totals (events, steps, accepts, stale receipts, virtual ms). */
  deterministic: boolean;
  /** The run threw (a programmer error in core/sim): the first crashing interleaving, found by re-running one at a time. */
  crash: FullCrash | null;
}

interface FullCrash {
  message: string;
  index: number;
  seed: number;
  replay: string;
}

/** Measures one scenario; a crash does not stop the suite, it becomes the row (and exit code 1). */
function runFull(options: SuiteOptions, scenarioName: string): FullRow {
  const scenario = findScenario(scenarioName);
  const client = findClient(options.client);
  if (scenario === undefined) throw new Error(`unknown scenario ${scenarioName}`);
  if (client === undefined) throw new Error(`unknown client ${options.client}`);
  const spec: RunSpec = { seed: options.seed, interleavings: options.interleavings, scenario: scenarioName, client: options.client, maxFailures: 10 };
  try {
    return measureFull(options, spec, scenario, client);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    progress(`a. ${scenarioName}: CRASHED (${message}); locating the first crashing interleaving`);
    let index = -1;
    for (let candidate = 0; candidate < Math.max(options.interleavings, options.warmupInterleavings) && index < 0; candidate++) {
      try {
        runRange(spec, scenario, client, candidate, candidate + 1);
      } catch {
        index = candidate;
      }
    }
    const seed = index < 0 ? -1 : deriveSeed(options.seed, index);
    const crash: FullCrash = { message, index, seed, replay: index < 0 ? '(not reproduced one at a time)' : replayCommand(seed, scenarioName, options.client) };
    return {
      scenario: scenarioName,
      client: options.client,
      interleavingsPerSecondMedian: 0,
      eventsPerSecondMedian: 0,
      eventsPerInterleaving: 0,
      eventsPerCpuSecondMedian: 0,
      violations: 0,
      deterministic: false,
      crash,
    };
  }
}

function measureFull(options: SuiteOptions, spec: RunSpec, scenario: Scenario, client: ClientUnderTest<unknown>): FullRow {
  const scenarioName = scenario.name;
  progress(`a. ${scenarioName}: warm-up ${options.warmupInterleavings} interleavings`);
  runRange(spec, scenario, client, 0, options.warmupInterleavings);
  const interleavingsPerSecond: number[] = [];
  const eventsPerSecond: number[] = [];
  const eventsPerCpuSecond: number[] = [];
  const fingerprints = new Set<string>();
  let violations = 0;
  let eventsPerInterleaving = 0;
  for (let repetition = 0; repetition < options.repetitions; repetition++) {
    const startMs = performance.now();
    const startCpu = process.cpuUsage();
    const accumulator = runRange(spec, scenario, client, 0, options.interleavings);
    const cpu = process.cpuUsage(startCpu);
    const seconds = (performance.now() - startMs) / 1_000;
    eventsPerCpuSecond.push(accumulator.events / ((cpu.user + cpu.system) / 1e6));
    interleavingsPerSecond.push(accumulator.interleavings / seconds);
    eventsPerSecond.push(accumulator.events / seconds);
    fingerprints.add([accumulator.events, accumulator.steps, accumulator.accepts, accumulator.staleReceipts, accumulator.virtualMs].join(','));
    eventsPerInterleaving = accumulator.events / accumulator.interleavings;
    violations = accumulator.violationCounts.reduce((sum, count) => sum + count, 0);
    progress(`a. ${scenarioName}: repetition ${repetition + 1}/${options.repetitions} ${(seconds * 1_000).toFixed(0)} ms`);
  }
  return {
    scenario: scenarioName,
    client: options.client,
    interleavingsPerSecondMedian: median(interleavingsPerSecond),
    eventsPerSecondMedian: median(eventsPerSecond),
    eventsPerInterleaving,
    eventsPerCpuSecondMedian: median(eventsPerCpuSecond),
    violations,
    deterministic: fingerprints.size === 1,
    crash: null,
  };
}

// -- b. same-model comparison ---------------------------------------------------------------------

interface PeerRow {
  resources: number;
  eventsPerInterleaving: number;
  fencesimInterleavingsPerSecond: number;
  fencesimEventsPerSecond: number;
  fastCheckInterleavingsPerSecond: number;
  fastCheckEventsPerSecond: number;
  /** fencesim / fast-check medians (interleavings/s; events/s gives the same ratio). */
  ratio: number;
  /** Range of the per-repetition ratios (the harnesses alternate repetition by repetition). */
  pairedRatioMin: number;
  pairedRatioMax: number;
}

interface PeerControls {
  interleavings: number;
  fencesimUnfencedCaught: number;
  fencesimUnfencedFirstCaughtIndex: number;
  fencesimStaleReceiptsPerInterleaving: number;
  fastCheckUnfencedFailsAtRun: number | null;
}

type PeerHarness = 'fencesim' | 'fast-check';
const CHILD_FLAG = '--child=';

/**
 * One repetition of one harness (warm-up, then one timed run) in a fresh child process, so neither
 * harness pays for the other's heap (fast-check leaves a large one behind, which made the fencesim model's
 * GC measurably slower in the same process) or JIT state.
 */
function runPeerChild(harness: PeerHarness, resources: number, interleavings: number, seed: number): PeerModelResult {
  const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), `${CHILD_FLAG}${harness}:${resources}:${interleavings}:${seed}`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output) as PeerModelResult;
}

async function runChild(argument: string): Promise<void> {
  const [harness, resourcesText, interleavingsText, seedText] = argument.slice(CHILD_FLAG.length).split(':');
  const resources = Number(resourcesText);
  const interleavings = Number(interleavingsText);
  const seed = Number(seedText);
  let result: PeerModelResult;
  if (harness === 'fencesim') result = runPeerModel({ interleavings, repetitions: 1, resources, rootSeed: seed });
  else if (harness === 'fast-check') result = await runFastCheckPeer({ numRuns: interleavings, repetitions: 1, resources, seed });
  else throw new Error(`unknown child harness ${harness ?? '(none)'}`);
  console.log(JSON.stringify(result));
}

/**
 * The two harnesses alternate repetition by repetition (fencesim, fast-check, fencesim, ...), so a change
 * in machine load during the run hits both alike; each repetition runs in its own child process.
 */
function runPeers(options: SuiteOptions): PeerRow[] {
  const rows: PeerRow[] = [];
  for (const resources of options.peerResources) {
    const fencesim: number[] = [];
    const fastCheck: number[] = [];
    const paired: number[] = [];
    let eventsPerInterleaving = 0;
    for (let repetition = 0; repetition < options.repetitions; repetition++) {
      const ours = runPeerChild('fencesim', resources, options.peerFencesimInterleavings, options.seed);
      const theirs = runPeerChild('fast-check', resources, options.peerInterleavings, options.seed);
      if (ours.eventsPerInterleaving !== theirs.eventsPerInterleaving) {
        throw new Error(`peer models differ: ${ours.eventsPerInterleaving} vs ${theirs.eventsPerInterleaving} events per interleaving`);
      }
      eventsPerInterleaving = ours.eventsPerInterleaving;
      fencesim.push(ours.interleavingsPerSecondMedian);
      fastCheck.push(theirs.interleavingsPerSecondMedian);
      paired.push(ours.interleavingsPerSecondMedian / theirs.interleavingsPerSecondMedian);
      progress(
        `b. ${resources} resource(s): repetition ${repetition + 1}/${options.repetitions}: fencesim ${integer(ours.interleavingsPerSecondMedian)} il/s, ` +
          `fast-check ${integer(theirs.interleavingsPerSecondMedian)} il/s`,
      );
    }
    const fencesimMedian = median(fencesim);
    const fastCheckMedian = median(fastCheck);
    rows.push({
      resources,
      eventsPerInterleaving,
      fencesimInterleavingsPerSecond: fencesimMedian,
      fencesimEventsPerSecond: fencesimMedian * eventsPerInterleaving,
      fastCheckInterleavingsPerSecond: fastCheckMedian,
      fastCheckEventsPerSecond: fastCheckMedian * eventsPerInterleaving,
      ratio: fencesimMedian / fastCheckMedian,
      pairedRatioMin: Math.min(...paired),
      pairedRatioMax: Math.max(...paired),
    });
  }
  return rows;
}

async function runPeerControls(options: SuiteOptions): Promise<PeerControls> {
  progress('b. negative controls (fence removed)');
  const interleavings = options.peerInterleavings;
  const control = peerModelUnfencedControl(interleavings, 1, options.seed);
  return {
    interleavings,
    fencesimUnfencedCaught: control.caught,
    fencesimUnfencedFirstCaughtIndex: control.firstCaughtIndex,
    fencesimStaleReceiptsPerInterleaving: peerModelStaleReceipts(interleavings, 1, options.seed) / interleavings,
    fastCheckUnfencedFailsAtRun: await unfencedControlFailsAt(interleavings, options.seed),
  };
}

// -- formatting ---------------------------------------------------------------------------------

function integer(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Aligned text table: first column left-aligned, the others right-aligned. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const render = (row: readonly string[]): string =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   ').trimEnd();
  return [render(header), widths.map((width) => '-'.repeat(width)).join('   '), ...rows.map(render)].join('\n');
}

function machine(): { cpus: number; cpuModel: string; node: string; v8: string; platform: string; totalMemoryGiB: number } {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform}/${process.arch}`,
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  };
}

interface SuiteReport {
  machine: ReturnType<typeof machine>;
  spec: Omit<SuiteOptions, 'json'> & { fastCheckVersion: string; microOperationsPerSample: number };
  full: FullRow[];
  peakRssMiBAfterFull: number;
  peers: PeerRow[];
  peerControls: PeerControls;
  micro: MicroRow[];
  peakRssMiB: number;
  wallSeconds: number;
  /** 1-minute load averages at the start and end: other processes on the machine skew wall-clock rates. */
  loadAverageStart: number;
  loadAverageEnd: number;
}

function printText(report: SuiteReport): void {
  const m = report.machine;
  const spec = report.spec;
  console.log('fencesim bench suite');
  console.log(`machine:  ${m.cpus} x ${m.cpuModel}, ${m.totalMemoryGiB} GiB RAM, node ${m.node} (V8 ${m.v8}), ${m.platform}`);
  const { fastCheckVersion, ...rest } = spec;
  console.log(`run spec: ${JSON.stringify(rest)}`);
  console.log(`          fast-check ${fastCheckVersion}; medians of ${spec.repetitions} repetitions after a warm-up; one thread`);
  console.log('');
  console.log(`a. full model (sim/gate.ts runRange), client ${spec.client}, ${integer(spec.interleavings)} interleavings per repetition`);
  console.log(
    table(
      ['scenario', 'interleavings/s', 'events/s', 'events/interleaving', 'events/CPU-s', 'violations', 'deterministic'],
      report.full.map((row) => row.crash !== null ? [row.scenario, 'CRASHED', '-', '-', '-', '-', '-'] : [
        row.scenario,
        integer(row.interleavingsPerSecondMedian),
        integer(row.eventsPerSecondMedian),
        row.eventsPerInterleaving.toFixed(1),
        integer(row.eventsPerCpuSecondMedian),
        integer(row.violations),
        row.deterministic ? 'yes' : 'NO',
      ]),
    ),
  );
  for (const row of report.full) {
    if (row.crash === null) continue;
    console.log(`${row.scenario} CRASHED at interleaving ${row.crash.index} (seed ${row.crash.seed}): ${row.crash.message}`);
    console.log(`  replay: ${row.crash.replay}`);
  }
  console.log(`peak RSS after (a): ${report.peakRssMiBAfterFull.toFixed(1)} MiB`);
  console.log('');
  console.log(
    `b. same model (read-race peer, bench/fastcheck-peer.ts header): fencesim queue + chooser vs fast-check scheduler, ` +
      `${integer(spec.peerFencesimInterleavings)} (fencesim) and ${integer(spec.peerInterleavings)} (fast-check) interleavings per repetition, alternating`,
  );
  console.log(
    table(
      ['resources', 'events/interleaving', 'fencesim il/s', 'fast-check il/s', 'fencesim events/s', 'fast-check events/s', 'fencesim/fast-check', 'per-repetition range'],
      report.peers.map((row) => [
        String(row.resources),
        String(row.eventsPerInterleaving),
        integer(row.fencesimInterleavingsPerSecond),
        integer(row.fastCheckInterleavingsPerSecond),
        integer(row.fencesimEventsPerSecond),
        integer(row.fastCheckEventsPerSecond),
        `${row.ratio.toFixed(1)}x`,
        `${row.pairedRatioMin.toFixed(1)}x-${row.pairedRatioMax.toFixed(1)}x`,
      ]),
    ),
  );
  const controls = report.peerControls;
  console.log(
    `negative control, fence removed, 1 resource: fencesim caught the regression in ${integer(controls.fencesimUnfencedCaught)} of ` +
      `${integer(controls.interleavings)} interleavings (${((100 * controls.fencesimUnfencedCaught) / controls.interleavings).toFixed(1)}%, ` +
      `first at index ${controls.fencesimUnfencedFirstCaughtIndex}); fast-check: ` +
      (controls.fastCheckUnfencedFailsAtRun === null ? 'NOT caught' : `caught at run ${controls.fastCheckUnfencedFailsAtRun}`),
  );
  console.log(`fenced fencesim peer model: ${controls.fencesimStaleReceiptsPerInterleaving.toFixed(2)} stale receipts per interleaving (the fence is exercised)`);
  console.log('');
  console.log(`c. micro-benchmarks (tinybench, ${spec.microTimeMs} ms per row, ${integer(OPERATIONS_PER_SAMPLE)} operations per sample)`);
  console.log(
    table(
      ['operation', 'median ns/op', 'samples'],
      report.micro.map((row) => [row.name, row.nsPerOperationMedian.toFixed(0), integer(row.samples)]),
    ),
  );
  console.log('');
  console.log(
    `peak RSS (whole suite): ${report.peakRssMiB.toFixed(1)} MiB; wall time ${report.wallSeconds.toFixed(1)} s; ` +
      `1-min load average ${report.loadAverageStart.toFixed(2)} at start, ${report.loadAverageEnd.toFixed(2)} at end (${report.machine.cpus} CPUs)`,
  );
}

async function main(): Promise<void> {
  const first = process.argv[2];
  if (first !== undefined && first.startsWith(CHILD_FLAG)) return runChild(first);
  const options = parseArguments(process.argv.slice(2));
  const suiteStartMs = performance.now();
  const loadAverageStart = os.loadavg()[0]!;
  const { json, ...specOptions } = options;
  const spec = { ...specOptions, fastCheckVersion: fc.__version, microOperationsPerSample: OPERATIONS_PER_SAMPLE };
  progress(`run spec ${JSON.stringify(spec)}`);
  const full = options.scenarios.map((scenario) => runFull(options, scenario));
  const peakRssMiBAfterFull = peakRssMiB();
  const peers = runPeers(options);
  const peerControls = await runPeerControls(options);
  progress('c. micro-benchmarks');
  const micro = await runMicro(options.microTimeMs);
  const report: SuiteReport = {
    machine: machine(),
    spec,
    full,
    peakRssMiBAfterFull,
    peers,
    peerControls,
    micro,
    peakRssMiB: peakRssMiB(),
    wallSeconds: (performance.now() - suiteStartMs) / 1_000,
    loadAverageStart,
    loadAverageEnd: os.loadavg()[0]!,
  };
  if (json) console.log(JSON.stringify(report));
  else printText(report);
  if (full.some((row) => row.crash !== null)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(error.message);
    process.exitCode = 2;
  } else {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  }
});
