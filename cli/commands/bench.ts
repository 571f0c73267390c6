/**
 * `fencesim bench`: time one scenario on this thread. Every repetition runs the same interleavings
 * (fixed seed), so repetitions differ only in timing; one warm-up repetition is run and discarded first.
 */
import { scenarioForProtocol } from '../protocol.js';
import { findClient } from '../../scenarios/clients.js';
import { runRange, type RunSpec } from '../../sim/gate.js';
import { parseOptions, UsageError, type ParsedOptions } from '../args.js';
import { strategyBenchCommand } from './bench-strategies.js';
import { takeClientModule } from '../client-module.js';
import { grouped, mebibytes, perSecond } from '../format.js';
import type { Io } from '../io.js';

export const benchOptions = {
  scenario: 'scenario',
  interleavings: 'count',
  repetitions: 'count',
  client: 'client',
  json: 'flag',
  strategies: 'flag',
  workers: 'workers',
  protocol: 'protocol',
} as const;

export const benchDefaults = { scenario: 'read-race', client: 'reference', interleavings: 5_000, repetitions: 5, seed: 1 };

interface Sample {
  wallMs: number;
  interleavingsPerSecond: number;
  eventsPerSecond: number;
}

export interface BenchResult {
  schema: 'fencesim.bench.v1';
  scenario: string;
  client: string;
  seed: number;
  interleavings: number;
  repetitions: number;
  medianInterleavingsPerSecond: number;
  medianEventsPerSecond: number;
  eventsPerInterleaving: number;
  peakRssBytes: number;
  samples: Sample[];
}

export async function benchCommand(argv: readonly string[], io: Io): Promise<number> {
  // --strategies --client PATH: a client module joins the strategies as one more row (cli/module-strategy.ts).
  const taken = argv.includes('--strategies') ? await takeClientModule(argv, 'bench') : { argv: [...argv], loaded: null };
  const options = parseOptions('bench', taken.argv, benchOptions);
  if (options.strategies === true) {
    for (const option of ['scenario', 'client', 'repetitions'] as const) {
      if (options[option] !== undefined) throw new UsageError(`--${option} does not apply to --strategies, which runs its own scenario and clients${option === 'client' ? ' (a client module path adds its row: --client ./my-client.mjs)' : ''}`, 'bench');
    }
    return strategyBenchCommand({ interleavings: options.interleavings, workers: options.workers, json: options.json, client: taken.loaded ?? undefined }, io);
  }
  if (options.workers !== undefined) throw new UsageError('--workers applies only to --strategies (fencesim bench times one thread)', 'bench');
  const result = runBench(options, io);
  io.stdout(options.json === true ? `${JSON.stringify(result)}\n` : benchText(result));
  return 0;
}

function runBench(options: ParsedOptions<typeof benchOptions>, io: Io): BenchResult {
  const scenario = scenarioForProtocol(options.scenario, options.protocol, benchDefaults.scenario, undefined, 'bench');
  const client = options.client ?? findClient(benchDefaults.client)!;
  const repetitions = options.repetitions ?? benchDefaults.repetitions;
  const spec: RunSpec = {
    seed: benchDefaults.seed,
    interleavings: options.interleavings ?? benchDefaults.interleavings,
    scenario: scenario.name,
    client: client.name,
    maxFailures: 0,
  };
  const samples: Sample[] = [];
  let events = 0;
  for (let repetition = 0; repetition <= repetitions; repetition++) {
    const startMs = io.nowMs();
    events = runRange(spec, scenario, client, 0, spec.interleavings).events;
    const wallMs = io.nowMs() - startMs;
    if (repetition === 0) continue; // warm-up
    samples.push({ wallMs: round1(wallMs), interleavingsPerSecond: Math.round(perSecond(spec.interleavings, wallMs)), eventsPerSecond: Math.round(perSecond(events, wallMs)) });
  }
  return {
    schema: 'fencesim.bench.v1',
    scenario: scenario.name,
    client: client.name,
    seed: spec.seed,
    interleavings: spec.interleavings,
    repetitions,
    medianInterleavingsPerSecond: median(samples.map((sample) => sample.interleavingsPerSecond)),
    medianEventsPerSecond: median(samples.map((sample) => sample.eventsPerSecond)),
    eventsPerInterleaving: round1(events / spec.interleavings),
    peakRssBytes: io.peakRssBytes(),
    samples,
  };
}

function benchText(result: BenchResult): string {
  const lines = [
    `fencesim bench: ${result.scenario} against ${result.client}, ${grouped(result.interleavings)} interleavings (seed ${result.seed}) x ${result.repetitions} repetitions after 1 warm-up`,
    ...result.samples.map((sample, index) => `  repetition ${index + 1}: ${sample.wallMs} ms, ${grouped(sample.interleavingsPerSecond)} interleavings/s, ${grouped(sample.eventsPerSecond)} events/s`),
    `median interleavings/s: ${grouped(result.medianInterleavingsPerSecond)}`,
    `median events/s: ${grouped(result.medianEventsPerSecond)}`,
    `events per interleaving: ${result.eventsPerInterleaving}`,
    `peak RSS: ${mebibytes(result.peakRssBytes)} (${result.peakRssBytes} bytes)`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Median of a non-empty list; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
