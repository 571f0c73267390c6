/**
 * Part a of the bench suite: the full model on one thread (sim/gate.ts runRange), median interleavings/s,
 * events/s and events per CPU-second over repetitions after a warm-up; a crash becomes the row.
 */
import { performance } from 'node:perf_hooks';

import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { replayCommand, runRange, type RunSpec } from '../sim/gate.js';
import { deriveSeed } from '../sim/prng.js';
import { median } from './median.js';
import type { SuiteOptions } from './suite-options.js';
import { progress } from './suite-progress.js';

export interface FullRow {
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

export interface FullCrash {
  message: string;
  index: number;
  seed: number;
  replay: string;
}

/** Measures one scenario; a crash does not stop the suite, it becomes the row (and exit code 1). */
export function runFull(options: SuiteOptions, scenarioName: string): FullRow {
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
