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
import type { ModuleClient } from '../adapters/mcp-sdk/module/contract.js';
import { isModulePath, loadClientModule } from './client-module.js';

/** A test runner's registration function: vitest's `test`/`it` (name, fn, timeout in ms). */
export type TestRegistrar = (name: string, fn: () => void | Promise<void>, timeoutMs?: number) => unknown;

export interface GateTestOptions {
  test: TestRegistrar;
  /** Root seed (uint32, or its decimal / 0x-hex text); interleaving i uses deriveSeed(seed, i) as in the gate. */
  seed: number | string;
  /** Interleavings of the whole gate (all parts together). */
  interleavings: number;
  /** A scenario name or object (default swarm). */
  scenario?: string | Scenario;
  /**
   * A client name, a path to a client module (`./my-client.mjs`, resolved against the working directory),
   * your own reducer, or your own module client (`{ name, features, start }`, see `fencesim/module`).
   * Default reference.
   */
  client?: string | ClientUnderTest<any> | ModuleClient;
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
  const given = options.client ?? 'reference';
  const path = typeof given === 'string' && isModulePath(given) ? given : null;
  const client: { name: string } = path !== null ? { name: path } : isModuleClient(given) ? given : resolve('client', given as string | ClientUnderTest<any>, findClient);
  const runChunk = chunkRunner(path ?? client, scenario);
  const seed = seedOf(options.seed);
  const interleavings = positive('interleavings', options.interleavings);
  const chunk = positive('chunk', options.chunk ?? 1_000);
  const range = rangeOf(options.part, interleavings);
  const spec: RunSpec = { seed, interleavings, scenario: scenario.name, client: path ?? client.name, maxFailures: options.maxFailures ?? 5 };
  const replayable = path !== null || findClient(client.name) === client;
  const chunks: GateTestChunk[] = [];
  for (let start = range.start; start < range.end; start += chunk) {
    const end = Math.min(range.end, start + chunk);
    const name = `fencesim gate ${scenario.name} / ${client.name}, seed ${seed}: interleavings ${start}..${end - 1} of ${interleavings}`;
    chunks.push({ name, start, end });
    const body = runChunk.sync !== null ? () => assertSafe(runChunk.sync!(spec, start, end), start, end, replayable) : async () => assertSafe(await runChunk.async!(spec, start, end), start, end, replayable);
    options.test(name, body, options.timeoutMs ?? 120_000);
  }
  return chunks;
}

/** Throws when the chunk violated a safety invariant: the counts, then one replay command per failure. */
export function assertSafe(accumulator: GateAccumulator, start: number, end: number, replayable = true): void {
  const violated = safetyInvariants
    .map((name, index) => ({ name, count: accumulator.violationCounts[index]!, interleavings: accumulator.failingInterleavings[index]! }))
    .filter((entry) => entry.count > 0);
  if (violated.length === 0) return;
  const spec = accumulator.spec;
  const failures = accumulator.failures.filter((failure) => (safetyInvariants as readonly string[]).includes(failure.invariant));
  const lines = [
    `fencesim gate: safety violated in interleavings ${start}..${end - 1} of ${spec.scenario} against ${spec.client} (root seed ${spec.seed})`,
    ...violated.map((entry) => `  ${entry.name}: ${entry.count} violations in ${entry.interleavings} interleavings`),
    replayable ? 'replay:' : `replay (the CLI cannot load a client object: export it as a module and pass --client ./path.mjs, or replay it in code):`,
    ...failures.map((failure) => `  ${replayable ? replayCommand(failure.seed, spec.scenario, spec.client) : `runInterleaving(${failure.seed}, findScenario('${spec.scenario}'), yourClient, { trace: true, record: false })`}    # ${failure.invariant} at ${failure.timeMs} ms on ${failure.uri}: ${failure.detail}`),
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

function isModuleClient(value: unknown): value is ModuleClient {
  return typeof value === 'object' && value !== null && typeof (value as { start?: unknown }).start === 'function' && typeof (value as { step?: unknown }).step !== 'function';
}

type Chunk<T> = (spec: RunSpec, start: number, end: number) => T;
/** Reducers run synchronously (a failing chunk throws); module clients run asynchronously. */
type ChunkRunner = { sync: Chunk<GateAccumulator> | null; async: Chunk<Promise<GateAccumulator>> | null };

/** How one chunk runs: a reducer on the pure transport, a module client (object or path) in the module world. */
function chunkRunner(client: string | { name: string }, scenario: Scenario): ChunkRunner {
  const moduleRange = async (module: ModuleClient, spec: RunSpec, start: number, end: number): Promise<GateAccumulator> =>
    (await import('../adapters/mcp-sdk/module/module-gate.js')).runModuleRange(spec, scenario, module, start, end); // loads the SDK only here
  if (typeof client === 'string') {
    const async: Chunk<Promise<GateAccumulator>> = async (spec, start, end) => {
      const loaded = await loadClientModule(client, 'gateTest');
      return loaded.kind === 'module' ? moduleRange(loaded.module, spec, start, end) : runRange(spec, scenario, loaded.reducer, start, end);
    };
    return { sync: null, async };
  }
  if (isModuleClient(client)) return { sync: null, async: (spec, start, end) => moduleRange(client, spec, start, end) };
  return { sync: (spec, start, end) => runRange(spec, scenario, client as ClientUnderTest<any>, start, end), async: null };
}
