/**
 * A release gate inside a test runner: `gateTest` registers one test per chunk of interleavings, each
 * running its chunk and failing on any safety violation with the replay commands in the message.
 *
 *   import { test } from 'vitest';
 *   import { gateTest } from 'fencesim';
 *   gateTest({ test, seed: 42, interleavings: 20_000, scenario: 'swarm', client: myClient });
 *
 * The runner's `test` function is passed in, so the package does not depend on vitest (jest's and
 * node:test's `test(name, fn, timeout)` fit too). Vitest's `--shard i/n` splits test FILES, not the tests
 * of one file: to spread a gate over vitest shards, split it over files with `part` (file k of K calls
 * gateTest with `part: 'k/K'`, the same slicing as `fencesim gate --shard`). Metrics (read amplification,
 * convergence, revocation latency) need the whole run and are left to `fencesim gate`; a test chunk
 * asserts safety only.
 */
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import type { Scenario } from '../scenarios/scenario.js';
import { replayCommand, runRange, type GateAccumulator, type RunSpec } from '../sim/gate.js';
import { safetyInvariants } from '../sim/oracle.js';
import { parseSeed } from '../sim/prng.js';
import { parseShard, shardRange } from '../sim/shard.js';

/** A test runner's registration function: vitest's `test`/`it` (name, fn, timeout in ms). */
export type TestRegistrar = (name: string, fn: () => void, timeoutMs?: number) => unknown;

export interface GateTestOptions {
  test: TestRegistrar;
  /** Root seed (uint32, or its decimal / 0x-hex text); interleaving i uses deriveSeed(seed, i) as in the gate. */
  seed: number | string;
  /** Interleavings of the whole gate (all parts together). */
  interleavings: number;
  /** A scenario name or object (default swarm). */
  scenario?: string | Scenario;
  /** A client name or your own client (default reference). */
  client?: string | ClientUnderTest<any>;
  /** Interleavings per registered test (default 1,000). */
  chunk?: number;
  /** This file's part of the gate, 'k/K' or { index, count } (default: all of it). */
  part?: string | { index: number; count: number };
  /** Failures listed per failing chunk (default 5). */
  maxFailures?: number;
  /** Per-test timeout (default 120,000 ms). */
  timeoutMs?: number;
}

export interface GateTestChunk {
  name: string;
  start: number;
  end: number;
}

/** Registers the gate's tests and returns the chunks it registered. Throws on bad options (at collection). */
export function gateTest(options: GateTestOptions): GateTestChunk[] {
  const scenario = resolve('scenario', options.scenario ?? 'swarm', findScenario);
  const client = resolve('client', options.client ?? 'reference', findClient);
  const seed = seedOf(options.seed);
  const interleavings = positive('interleavings', options.interleavings);
  const chunk = positive('chunk', options.chunk ?? 1_000);
  const range = rangeOf(options.part, interleavings);
  const spec: RunSpec = { seed, interleavings, scenario: scenario.name, client: client.name, maxFailures: options.maxFailures ?? 5 };
  const chunks: GateTestChunk[] = [];
  for (let start = range.start; start < range.end; start += chunk) {
    const end = Math.min(range.end, start + chunk);
    const name = `fencesim gate ${scenario.name} / ${client.name}, seed ${seed}: interleavings ${start}..${end - 1} of ${interleavings}`;
    chunks.push({ name, start, end });
    options.test(name, () => assertSafe(runRange(spec, scenario, client, start, end), start, end), options.timeoutMs ?? 120_000);
  }
  return chunks;
}

/** Throws when the chunk violated a safety invariant: the counts, then one replay command per failure. */
export function assertSafe(accumulator: GateAccumulator, start: number, end: number): void {
  const violated = safetyInvariants
    .map((name, index) => ({ name, count: accumulator.violationCounts[index]!, interleavings: accumulator.failingInterleavings[index]! }))
    .filter((entry) => entry.count > 0);
  if (violated.length === 0) return;
  const spec = accumulator.spec;
  const failures = accumulator.failures.filter((failure) => (safetyInvariants as readonly string[]).includes(failure.invariant));
  const lines = [
    `fencesim gate: safety violated in interleavings ${start}..${end - 1} of ${spec.scenario} against ${spec.client} (root seed ${spec.seed})`,
    ...violated.map((entry) => `  ${entry.name}: ${entry.count} violations in ${entry.interleavings} interleavings`),
    'replay:',
    ...failures.map((failure) => `  ${replayCommand(failure.seed, spec.scenario, spec.client)}    # ${failure.invariant} at ${failure.timeMs} ms on ${failure.uri}: ${failure.detail}`),
  ];
  throw new Error(lines.join('\n'));
}

function resolve<T extends { name: string }>(what: string, value: string | T, find: (name: string) => T | undefined): T {
  if (typeof value !== 'string') return value;
  const found = find(value);
  if (found === undefined) throw new Error(`gateTest: unknown ${what} ${JSON.stringify(value)} (see npx fencesim list)`);
  return found;
}

function seedOf(seed: number | string): number {
  const parsed = parseSeed(String(seed));
  if (!parsed.ok) throw new Error(`gateTest: seed: ${parsed.reason}`);
  return parsed.seed;
}

function positive(what: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`gateTest: ${what} must be a positive integer, got ${value}`);
  return value;
}

function rangeOf(part: GateTestOptions['part'], interleavings: number): { start: number; end: number } {
  if (part === undefined) return { start: 0, end: interleavings };
  const parsed = typeof part === 'string' ? parseShard(part) : parseShard(`${part.index}/${part.count}`);
  if (!parsed.ok) throw new Error(`gateTest: part: ${parsed.reason}`);
  return shardRange(interleavings, parsed.index, parsed.count);
}
