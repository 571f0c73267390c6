/**
 * The overhead of observation (issue 16), a benchmark script, not a test:
 *   `npm run bench:build && node dist-bench/bench/cache-metrics.js [--rounds 7]`
 *
 * Measured side by side in one process, rounds interleaved, medians reported:
 *   a. `FencedResourceCache.get()` (a serve: one core step, the fold, the instruments) with no meter provider
 *      (the OpenTelemetry API's no-op) and with the SDK's MeterProvider and a reader (real aggregation);
 *   b. update cycles through the SDK world (store change -> notification -> debounced read -> accept),
 *      the same two ways;
 *   c. the fold alone against the reference core's step, over the same recorded steps.
 * Timing uses `performance.now()` (allowed in bench/).
 */
import { performance } from 'node:perf_hooks';
import { MeterProvider, PeriodicExportingMetricReader, InMemoryMetricExporter, AggregationTemporality } from '@opentelemetry/sdk-metrics';
import { referenceClient } from '../core/reducer.js';
import { defaultClientConfig, type ClientEffect, type ClientInput } from '../core/types.js';
import { foldStep } from '../observe/fold.js';
import { initialObserveState } from '../observe/state.js';
import { cacheBeside, createSdkWorld } from '../adapters/mcp-sdk/observe/sim-support.js';
import type { FencedResourceCache } from '../adapters/mcp-sdk/cache/fenced-cache.js';

const uris = Array.from({ length: 8 }, (_, index) => `mem://bench/r${index}`);
const getsPerSample = 50_000;
const cyclesPerSample = 300;

type Mode = 'no meter provider' | 'SDK meter provider';
const modes: Mode[] = ['no meter provider', 'SDK meter provider'];

function meterProviderFor(mode: Mode): MeterProvider | undefined {
  if (mode === 'no meter provider') return undefined;
  return new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 })] });
}

async function readyCache(mode: Mode, seed: number): Promise<{ cache: FencedResourceCache; world: ReturnType<typeof createSdkWorld> }> {
  const world = createSdkWorld({ seed });
  for (const uri of uris) world.store.set(uri, `${uri} v0`);
  const meterProvider = meterProviderFor(mode);
  const cache = cacheBeside(world, { seed, observe: meterProvider === undefined ? {} : { meterProvider } });
  await world.clock.runUntil(cache.start());
  for (const uri of uris) cache.subscribe(uri);
  await world.clock.advanceBy(200);
  return { cache, world };
}

async function getsPerSecond(mode: Mode): Promise<number> {
  const { cache } = await readyCache(mode, 1);
  const startMs = performance.now();
  for (let index = 0; index < getsPerSample; index++) cache.get(uris[index & 7]!);
  const elapsedMs = performance.now() - startMs;
  await cache.close();
  return (getsPerSample / elapsedMs) * 1_000;
}

async function cyclesPerSecond(mode: Mode): Promise<number> {
  const { cache, world } = await readyCache(mode, 2);
  const startMs = performance.now();
  for (let index = 0; index < cyclesPerSample; index++) {
    world.store.set(uris[index & 7]!, `v${index}`);
    await world.clock.advanceBy(400);
  }
  const elapsedMs = performance.now() - startMs;
  await cache.close();
  return (cyclesPerSample / elapsedMs) * 1_000;
}

/** Records the steps of an update-heavy run, then times the core's step and the fold over them. */
async function foldVersusCore(): Promise<{ coreStepsPerSecond: number; foldStepsPerSecond: number; steps: number }> {
  const { cache, world } = await readyCache('no meter provider', 3);
  const steps: Array<{ input: ClientInput; effects: readonly ClientEffect[] }> = [];
  cache.onStep((input, effects) => steps.push({ input, effects }));
  for (let index = 0; index < 200; index++) {
    world.store.set(uris[index & 7]!, `v${index}`);
    await world.clock.advanceBy(400);
    cache.get(uris[index & 7]!);
  }
  await cache.close();
  const inputs = steps.map((entry) => entry.input);
  const repeat = 50;
  let startMs = performance.now();
  for (let round = 0; round < repeat; round++) {
    let state = referenceClient.init(defaultClientConfig);
    for (const input of inputs) state = referenceClient.step(state, input).state;
  }
  const coreMs = performance.now() - startMs;
  startMs = performance.now();
  for (let round = 0; round < repeat; round++) {
    let state = initialObserveState();
    for (const entry of steps) state = foldStep(state, entry.input, entry.effects).state;
  }
  const foldMs = performance.now() - startMs;
  return { coreStepsPerSecond: ((steps.length * repeat) / coreMs) * 1_000, foldStepsPerSecond: ((steps.length * repeat) / foldMs) * 1_000, steps: steps.length };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

async function main(): Promise<void> {
  const roundsIndex = process.argv.indexOf('--rounds');
  const rounds = roundsIndex < 0 ? 7 : Number(process.argv[roundsIndex + 1]);
  if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`--rounds must be a positive integer, got ${process.argv[roundsIndex + 1]}`);
  const gets: Record<Mode, number[]> = { 'no meter provider': [], 'SDK meter provider': [] };
  const cycles: Record<Mode, number[]> = { 'no meter provider': [], 'SDK meter provider': [] };
  for (let round = 0; round < rounds + 1; round++) {
    for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) {
      const get = await getsPerSecond(mode);
      const cycle = await cyclesPerSecond(mode);
      if (round === 0) continue; // warm-up
      gets[mode].push(get);
      cycles[mode].push(cycle);
    }
  }
  const fold = await foldVersusCore();
  const row = (label: string, values: Record<Mode, number[]>): string => {
    const without = median(values['no meter provider']);
    const withProvider = median(values['SDK meter provider']);
    return `${label.padEnd(34)} ${without.toFixed(0).padStart(10)} ${withProvider.toFixed(0).padStart(12)}   ${(withProvider / without).toFixed(2)}`;
  };
  console.log(`FencedResourceCache ops/s, median of ${rounds} rounds (node ${process.version})`);
  console.log(`${''.padEnd(34)} ${'no provider'.padStart(10)} ${'SDK provider'.padStart(12)}   ratio`);
  console.log(row('get() (serve)', gets));
  console.log(row('update cycle (SDK world)', cycles));
  console.log(`fold alone: ${fold.foldStepsPerSecond.toFixed(0)} steps/s; reference core step: ${fold.coreStepsPerSecond.toFixed(0)} steps/s (${fold.steps} recorded steps)`);
}

await main();
