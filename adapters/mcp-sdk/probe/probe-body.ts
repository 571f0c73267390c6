/**
 * The phases of a probe run once the cache exists: initialize (named as such when it fails or is never
 * answered), the resources capability check (a tool-only server ends the run with its own verdict, and no
 * resources/* request is sent to it), the listing walk, the core's own discovery, subscribe, observe (calling
 * the server's update toggle or the user's `--trigger` tool on a schedule), unsubscribe, quiet.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../transport/clock.js';
import type { FencedResourceCache } from '../cache/fenced-cache.js';
import type { ProbeRecorder } from './probe-checks.js';
import type { ProbeOptions, ProbeReport } from './probe-types.js';
import type { ProcessGroupTransport } from './process-group-transport.js';
import { walkListing } from './listing-walk.js';
import { triggerEveryMsDefault } from './trigger.js';

export interface ProbeContext {
  cache: FencedResourceCache;
  options: ProbeOptions;
  report: ProbeReport;
  recorder: ProbeRecorder;
  at: () => number;
  stopped: () => boolean;
  transport: () => ProcessGroupTransport | null;
  requestTimeoutMs: number;
}

/** A probe that ends early with a verdict of its own (not an error of the probe). */
export class ProbeVerdict extends Error {
  constructor(
    readonly outcome: 'no-resources',
    message: string,
  ) {
    super(message);
  }
}

const TOGGLE_TOOL = 'toggle-subscriber-updates';
/** While observing, `get()` each subscribed URI this often (what a consumer would be served). */
const SERVE_EVERY_MS = 100;

export async function probeBody(context: ProbeContext): Promise<void> {
  const { cache, options, report, recorder } = context;
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => systemClock.setTimer(systemClock.nowMs() + ms, resolve));
  const until = async (done: () => boolean, msMax: number): Promise<void> => {
    const deadline = context.at() + msMax;
    while (!done() && context.at() < deadline && !context.stopped()) await sleep(25);
  };
  await initialize(context);
  const client = cache.client!;
  const declared = client.getServerCapabilities();
  if (declared?.resources === undefined) {
    const names = Object.keys(declared ?? {});
    throw new ProbeVerdict('no-resources', `the server declares no resources capability (it declares: ${names.length === 0 ? 'nothing' : names.join(', ')}); nothing to probe`);
  }
  const listed = await walkListing(client, report.listing, options.pagesMax ?? 100, context.requestTimeoutMs);
  cache.discover();

  const tools = declared.tools !== undefined ? await client.listTools(undefined, { timeout: context.requestTimeoutMs }).catch(() => null) : null;
  const toolNames = tools?.tools.map((tool) => tool.name) ?? [];
  report.toggleTool.listed = toolNames.includes(TOGGLE_TOOL);
  const trigger = options.trigger;
  if (trigger !== undefined) {
    report.trigger = { tool: trigger.tool, everyMs: trigger.everyMs ?? triggerEveryMsDefault, listed: toolNames.includes(trigger.tool), calls: 0, errors: 0, lastError: null };
    if (!report.trigger.listed) throw new Error(`--trigger: the server lists no tool ${trigger.tool} (it lists: ${toolNames.slice(0, 20).join(', ') || 'no tools'})`);
  }

  const uris = options.uris ?? listed.slice(0, options.subscribeCount ?? 2);
  report.spec.uris = uris;
  recorder.watch(uris);
  for (const uri of uris) cache.subscribe(uri);
  // As long as the SDK waits for the answer: behind a flood of notifications the ACK is late, not missing.
  await until(() => uris.every((uri) => recorder.isSubscribeAcked(uri)), context.requestTimeoutMs);
  if (report.toggleTool.listed) await callToggle(context);
  const observeEnd = context.at() + options.durationMs;
  let nextTriggerAt = context.at();
  while (context.at() < observeEnd && !context.stopped()) {
    if (trigger !== undefined && context.at() >= nextTriggerAt) {
      nextTriggerAt = context.at() + report.trigger!.everyMs;
      await callTrigger(context);
    }
    for (const uri of uris) recorder.serve(uri, cache.get(uri), context.at());
    await sleep(Math.min(SERVE_EVERY_MS, Math.max(0, observeEnd - context.at())));
  }
  report.health = cache.health();

  for (const uri of uris) cache.unsubscribe(uri);
  await until(() => uris.every((uri) => recorder.isClosed(uri)), context.requestTimeoutMs);
  await sleep(options.quietMs ?? 6_000);
  if (report.toggleTool.listed && cache.connected) await callToggle(context).catch(() => undefined);
}

async function initialize(context: ProbeContext): Promise<void> {
  const { cache, report } = context;
  const connectStart = context.at();
  try {
    await cache.start();
  } catch (error) {
    throw new Error(describeInitializeFailure(error, context.requestTimeoutMs, context.transport()));
  }
  report.server.connectMs = context.at() - connectStart;
  const client = cache.client!;
  const version = client.getServerVersion();
  report.server.name = version?.name ?? null;
  report.server.version = version?.version ?? null;
  report.server.capabilities = client.getServerCapabilities() ?? null;
  const caps = cache.serverCapabilities?.resources;
  report.server.coreCapabilities = { subscribe: caps?.subscribe === true, listChanged: caps?.listChanged === true, snapshotId: false };
}

/** Why initialize failed, naming initialize and what the process did. */
export function describeInitializeFailure(error: unknown, timeoutMs: number, transport: ProcessGroupTransport | null): string {
  const process = transport?.report();
  if (process?.spawnError != null) return `the server could not be started: ${process.spawnError}`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return `the server did not answer initialize within ${timeoutMs} ms`;
  const exited = process !== undefined && (process.exitCode !== null || process.exitSignal !== null);
  if (exited) return `the server exited during initialize (${process.exitSignal !== null ? `signal ${process.exitSignal}` : `code ${process.exitCode}`})`;
  return `initialize failed: ${error instanceof Error ? error.message : String(error)}`;
}

async function callToggle(context: ProbeContext): Promise<void> {
  await context.cache.client!.callTool({ name: TOGGLE_TOOL, arguments: {} }, undefined, { timeout: context.requestTimeoutMs });
  context.report.toggleTool.calls++;
}

async function callTrigger(context: ProbeContext): Promise<void> {
  const record = context.report.trigger!;
  const trigger = context.options.trigger!;
  record.calls++;
  try {
    const result = await context.cache.client!.callTool({ name: trigger.tool, arguments: trigger.arguments }, undefined, { timeout: context.requestTimeoutMs });
    if (result.isError === true) {
      record.errors++;
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content.find((item): item is { type: 'text'; text: string } => (item as { type?: unknown }).type === 'text');
      record.lastError = (text?.text ?? 'isError with no text').slice(0, 300);
    }
  } catch (error) {
    record.errors++;
    record.lastError = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  }
}
