/**
 * Module client vs the SDK floor vs the pure path, same scenario, one thread, one run
 * (`npm run bench:build && node dist-bench/bench/module-floor.js [--client PATH] [--scenario NAME]
 * [--interleavings N] [--repetitions R] [--only module|floor|floor-stdio|pure] [--stdio] [--json]`).
 *
 * - module: the module client (default examples/fixed-kb/client.mjs) through the module world, as `gate --client`.
 * - floor: the SDK Client and Server alone exchanging the same messages over the SDK's InMemoryTransport, no
 *   harness: every link of every module interleaving is recorded once (the wire tap), then replayed per
 *   connection (connect + initialize, the client's requests in wire order answered with the recorded results,
 *   the server's notifications, close). It is what the SDK itself costs for that traffic.
 * - floor-stdio (with --stdio): the same replay, each message also framed as the SDK's stdio transports do it (serializeMessage,
 *   then deserializeMessage: JSON text, JSON.parse and JSONRPCMessageSchema), without the pipe. InMemoryTransport
 *   hands the sender's object to the receiver; a deployed client's transport (stdio, HTTP) pays this framing per
 *   message, and the module path pays part of it (its link serializes and validates what the client sends, and
 *   copies what the server sends). Shown beside the floor, not instead of it: the ratio is against the floor.
 * - pure: the reference reducer client on the pure transport (sim/gate.ts runRange).
 * Rows are the median interleavings per CPU second (user + system of this process, robust to other load) and
 * per wall second over the repetitions, run alternately. Timing uses performance.now() and process.cpuUsage()
 * (allowed in bench/).
 */
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  EmptyResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  McpError,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  ResourceUpdatedNotificationSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { ModuleClient } from '../adapters/mcp-sdk/module/contract.js';
import { moduleApplicability } from '../adapters/mcp-sdk/module/module-gate.js';
import { runModuleInterleaving } from '../adapters/mcp-sdk/module/module-world.js';
import { unusedJsonSchemaValidator } from '../adapters/mcp-sdk/sim/sdk-sim-link.js';
import type { LinkDirection } from '../adapters/mcp-sdk/transport/virtual-transport.js';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import type { Scenario } from '../scenarios/scenario.js';
import { runRange } from '../sim/gate.js';
import { deriveSeed } from '../sim/prng.js';
import { median } from './median.js';

interface Options {
  client: string;
  scenario: string;
  interleavings: number;
  repetitions: number;
  seed: number;
  json: boolean;
  /** Time only this path (for profiling one of them with --cpu-prof); the others still run once to warm up. */
  only: PathName | null;
  /** Also run the floor with stdio framing (off by default: a third transport class in the process changes how the SDK's code is compiled for all paths). */
  stdio: boolean;
}

type PathName = 'module' | 'floor' | 'floor-stdio' | 'pure';
const pathNames: readonly PathName[] = ['module', 'floor', 'floor-stdio', 'pure'];

type Wire = { direction: LinkDirection; message: JSONRPCMessage };
/** One interleaving's traffic: per connection (session generation), its messages in send order. */
type Recording = Wire[][];

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { client: './examples/fixed-kb/client.mjs', scenario: 'read-race', interleavings: 200, repetitions: 5, seed: 1, json: false, only: null, stdio: false };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index]!;
    if (flag === '--json' || flag === '--stdio') {
      if (flag === '--json') options.json = true;
      else options.stdio = true;
      continue;
    }
    const value = argv[++index];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--client') options.client = value;
    else if (flag === '--only') {
      if (!pathNames.includes(value as PathName)) throw new Error(`--only needs one of ${pathNames.join(', ')}, got ${value}`);
      options.only = value as PathName;
    }
    else if (flag === '--scenario') options.scenario = value;
    else if (flag === '--interleavings' || flag === '--repetitions' || flag === '--seed') {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 1) throw new Error(`${flag} needs a positive integer, got ${value}`);
      if (flag === '--interleavings') options.interleavings = number;
      else if (flag === '--repetitions') options.repetitions = number;
      else options.seed = number;
    } else throw new Error(`unknown argument ${flag} (--client PATH --scenario NAME --interleavings N --repetitions R --seed S --only module|floor|floor-stdio|pure --stdio --json)`);
  }
  return options;
}

async function runModule(scenario: Scenario, client: ModuleClient, options: Options, record: Recording[] | null): Promise<void> {
  for (let index = 0; index < options.interleavings; index++) {
    const links: Recording = [];
    const tap = (generation: number, direction: LinkDirection, message: JSONRPCMessage): void => {
      (links[generation] ??= []).push({ direction, message: structuredClone(message) });
    };
    await runModuleInterleaving(deriveSeed(options.seed, index), scenario, client, { trace: false, record: false, ...(record ? { tap } : {}) });
    record?.push(links.filter((wire) => wire !== undefined));
  }
}

const requestSchemas = [ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema, ListResourcesRequestSchema] as const;
const resultSchemas: Record<string, typeof EmptyResultSchema | typeof ReadResourceResultSchema | typeof ListResourcesResultSchema> = {
  'resources/read': ReadResourceResultSchema,
  'resources/subscribe': EmptyResultSchema,
  'resources/unsubscribe': EmptyResultSchema,
  'resources/list': ListResourcesResultSchema,
};

/** One end of an InMemoryTransport pair whose every message is framed as the SDK's stdio transports frame it. */
function stdioFramed(inner: InMemoryTransport): Transport {
  const framed: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message, options) => inner.send(deserializeMessage(serializeMessage(message).slice(0, -1)), options),
  };
  inner.onmessage = (message, extra) => framed.onmessage?.(message, extra);
  inner.onclose = () => framed.onclose?.();
  inner.onerror = (error) => framed.onerror?.(error);
  return framed;
}

/** Replays one connection's traffic between a bare SDK Client and Server over InMemoryTransport (`framed`: with stdio framing). */
async function replayConnection(wire: readonly Wire[], framed: boolean): Promise<void> {
  const answers = new Map<string | number, Record<string, unknown>>();
  for (const { direction, message } of wire) if (direction === 'to-client' && 'id' in message && message.id !== undefined) answers.set(message.id, message as Record<string, unknown>);
  const server = new Server({ name: 'floor', version: '0.1.0' }, { capabilities: { resources: { subscribe: true, listChanged: true } }, jsonSchemaValidator: unusedJsonSchemaValidator });
  for (const schema of requestSchemas) {
    server.setRequestHandler(schema, (_request, extra) => {
      const answer = answers.get(extra.requestId ?? -1)!;
      const error = answer.error as { code: number; message: string; data?: unknown } | undefined;
      if (error !== undefined) throw new McpError(error.code, error.message, error.data);
      return answer.result as never;
    });
  }
  const client = new Client({ name: 'floor', version: '1.0.0' });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => undefined);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(framed ? stdioFramed(serverSide) : serverSide);
  await client.connect(framed ? stdioFramed(clientSide) : clientSide);
  for (const { direction, message } of wire) {
    const record = message as { id?: string | number; method?: string; params?: Record<string, unknown> };
    if (record.method === undefined || record.method === 'initialize' || record.method.startsWith('notifications/initialized')) continue;
    if (direction === 'to-server' && record.id !== undefined && answers.has(record.id)) {
      const schema = resultSchemas[record.method];
      if (schema !== undefined) await client.request({ method: record.method, params: record.params } as never, schema).catch(() => undefined);
    } else if (direction === 'to-client' && record.id === undefined) {
      await server.notification({ method: record.method, params: record.params } as never);
    }
  }
  await client.close();
}

async function runFloor(recordings: readonly Recording[], framed = false): Promise<void> {
  for (const recording of recordings) for (const wire of recording) await replayConnection(wire, framed);
}

/** CPU ms (user + system) of this process while `run` ran: less sensitive than wall time to other load on the machine. */
async function timed(run: () => unknown, wallMs: number[]): Promise<number> {
  const startMs = performance.now();
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  wallMs.push(performance.now() - startMs);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const scenario = findScenario(options.scenario);
  if (scenario === undefined) throw new Error(`unknown scenario ${options.scenario}`);
  const module = ((await import(pathToFileURL(resolve(options.client)).href)) as { default: ModuleClient }).default;
  const applicable = moduleApplicability(scenario, module).scenario;
  const reference = findClient('reference')!;
  const spec = { seed: options.seed, interleavings: options.interleavings, scenario: scenario.name, client: 'reference', maxFailures: 20 };
  const recordings: Recording[] = [];
  await runModule(applicable, module, options, recordings); // records the traffic, and warms up
  await runFloor(recordings);
  if (options.stdio || options.only === 'floor-stdio') await runFloor(recordings, true);
  runRange(spec, scenario, reference, 0, options.interleavings);
  const runs: Record<PathName, () => unknown> = {
    module: () => runModule(applicable, module, options, null),
    floor: () => runFloor(recordings),
    'floor-stdio': () => runFloor(recordings, true),
    pure: () => runRange(spec, scenario, reference, 0, options.interleavings),
  };
  const timedPaths = options.only !== null ? [options.only] : pathNames.filter((path) => path !== 'floor-stdio' || options.stdio);
  const times: Record<PathName, number[]> = { module: [], floor: [], 'floor-stdio': [], pure: [] };
  const wall: Record<PathName, number[]> = { module: [], floor: [], 'floor-stdio': [], pure: [] };
  for (let repetition = 0; repetition < options.repetitions; repetition++) {
    for (const path of timedPaths) times[path].push(await timed(runs[path], wall[path]));
  }
  const perSecond = (ms: readonly number[]): number => (options.interleavings * 1000) / median(ms);
  const messages = recordings.reduce((sum, recording) => sum + recording.reduce((inner, wire) => inner + wire.length, 0), 0);
  const connections = recordings.reduce((sum, recording) => sum + recording.length, 0);
  const labels: Record<PathName, string> = {
    module: `module client (${module.name})`,
    floor: 'floor: SDK Client + Server over InMemoryTransport, same messages',
    'floor-stdio': 'floor with stdio framing (serializeMessage + deserializeMessage per message)',
    pure: 'pure reference',
  };
  const rows = timedPaths.map((path) => ({ path: labels[path], interleavingsPerCpuSecond: perSecond(times[path]), interleavingsPerWallSecond: perSecond(wall[path]) }));
  const moduleOverFloor = options.only === null ? perSecond(times.floor) / perSecond(times.module) : null;
  const moduleOverStdioFloor = options.only === null && options.stdio ? perSecond(times['floor-stdio']) / perSecond(times.module) : null;
  const result = { scenario: scenario.name, interleavings: options.interleavings, repetitions: options.repetitions, messagesPerInterleaving: messages / options.interleavings, connectionsPerInterleaving: connections / options.interleavings, moduleOverFloor, moduleOverStdioFloor, rows };
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  process.stdout.write(`${scenario.name}, ${options.interleavings} interleavings x ${options.repetitions} repetitions, one thread; ${result.messagesPerInterleaving.toFixed(1)} messages and ${result.connectionsPerInterleaving.toFixed(2)} connections per interleaving\n`);
  process.stdout.write('  il/CPU-s   il/wall-s  path (medians)\n');
  for (const line of rows) process.stdout.write(`${line.interleavingsPerCpuSecond.toFixed(1).padStart(10)}  ${line.interleavingsPerWallSecond.toFixed(1).padStart(10)}  ${line.path}\n`);
  const stdioNote = moduleOverStdioFloor === null ? '' : ` (${moduleOverStdioFloor.toFixed(2)}x the floor with stdio framing)`;
  if (moduleOverFloor !== null) process.stdout.write(`module takes ${moduleOverFloor.toFixed(2)}x the floor's CPU time per interleaving${stdioNote}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
