/**
 * `fencesim bench --strategies`: the strategy benchmark (see cli/strategy-bench.ts for what is measured
 * and how), cells spread over worker threads, printed as an aligned table or, with --json, as the
 * StrategyResult[] rows that `gate --strategies-json` and `report --strategies` put into report.html.
 */
import { availableParallelism } from 'node:os';
import { strategies, strategyFaultPhaseMs } from '../../scenarios/strategies.js';
import { convergenceBucketCount, convergenceBucketMs } from '../../sim/gate.js';
import { duration, grouped } from '../format.js';
import type { Io } from '../io.js';
import { runJobsOnWorkers, workerScript } from '../pool.js';
import { createProgress } from '../progress.js';
import { runStrategyCell, strategyBenchDefaults, strategyCells, type StrategyRow } from '../strategy-bench.js';
import type { LoadedClient } from '../client-module.js';
import { clientStrategyCells, runClientStrategyCell } from '../module-strategy.js';

export interface StrategyBenchOptions {
  interleavings?: number;
  workers?: number;
  json?: boolean;
  /** `--client PATH`: a client module run as one more strategy (cli/module-strategy.ts). */
  client?: LoadedClient;
}

/** One cell of the run: a reducer strategy's (index into strategyCells()) or the client module's. */
type Job = { cell: number; seed: number; interleavings: number; client?: string; clientCell?: number };

export async function strategyBenchCommand(options: StrategyBenchOptions, io: Io): Promise<number> {
  const interleavings = options.interleavings ?? strategyBenchDefaults.interleavings;
  const workers = options.workers ?? Math.max(1, Math.min(8, availableParallelism()));
  const seed = strategyBenchDefaults.seed;
  const jobs = benchJobs(seed, interleavings, options.client);
  const cells = jobs;
  if (options.json !== true) {
    io.stdout(`fencesim bench --strategies: ${strategies.length + (options.client ? 1 : 0)} strategies, ${cells.length} strategy x condition cells, ${grouped(interleavings)} interleavings each (seed ${seed}), ${workers} worker${workers === 1 ? '' : 's'}\n`);
  }
  const progress = createProgress(io, cells.length * interleavings, 'interleavings');
  const startMs = io.nowMs();
  let rows: StrategyRow[];
  try {
    const onDone = (cellsDone: number): void => progress.update(cellsDone * interleavings);
    rows = workers > 1 ? await runOnWorkers(jobs, workers, onDone) : await runHere(jobs, options.client, onDone);
  } finally {
    progress.finish();
  }
  const wallMs = io.nowMs() - startMs;
  io.stdout(options.json === true ? `${JSON.stringify(rows, null, 2)}\n` : `${strategyTable(rows).join('\n')}\n${notes(rows, wallMs).join('\n')}\n`);
  return 0;
}

/** The reducer strategies' cells, then the client module's (its row last). */
function benchJobs(seed: number, interleavings: number, client: LoadedClient | undefined): Job[] {
  const jobs: Job[] = strategyCells().map((_, cell) => ({ cell, seed, interleavings }));
  if (client !== undefined) clientStrategyCells(client).forEach((_, clientCell) => jobs.push({ cell: jobs.length, seed, interleavings, client: client.path, clientCell }));
  return jobs;
}

async function runHere(jobs: readonly Job[], client: LoadedClient | undefined, onDone: (cells: number) => void): Promise<StrategyRow[]> {
  const cells = strategyCells();
  const rows: StrategyRow[] = [];
  for (const job of jobs) {
    rows.push(job.clientCell === undefined ? runStrategyCell(cells[job.cell]!, job.seed, job.interleavings) : await runClientStrategyCell(client!, job.clientCell, job.seed, job.interleavings));
    onDone(rows.length);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return rows;
}

type Reply = { ok: true; cell: number; row: StrategyRow } | { ok: false; cell: number; message: string };

/** Cells go to whichever worker is free; rows come back in cell order. */
async function runOnWorkers(jobs: readonly Job[], workerCount: number, onDone: (cells: number) => void): Promise<StrategyRow[]> {
  const rows: StrategyRow[] = new Array(jobs.length);
  let done = 0;
  await runJobsOnWorkers(workerScript('strategy-worker'), jobs, workerCount, (reply: Reply) => {
    if (!reply.ok) throw new Error(`strategy benchmark cell ${reply.cell} threw: ${reply.message}`);
    rows[reply.cell] = reply.row;
    onDone(++done);
  });
  return rows;
}

const overflowMs = convergenceBucketCount * convergenceBucketMs;

function latency(ms: number): string {
  return ms >= overflowMs ? '>= 60 s' : ms >= 10_000 ? `${(ms / 1_000).toFixed(1)} s` : `${grouped(ms)} ms`;
}

const headers = ['strategy', 'condition', 'reads/change', 'all reads/change', 'conv p50', 'conv p99', 'stale served', 'non-notif reads/res-min', 'safety viol.'];

/** The rows as an aligned table: text columns left-aligned, numbers right-aligned, a rule under the header. */
export function strategyTable(rows: readonly StrategyRow[]): string[] {
  const cells = rows.map((row) => [
    row.strategy,
    row.condition,
    row.readsPerChange.toFixed(2),
    row.totalReadsPerChange.toFixed(2),
    latency(row.convergenceP50Ms),
    latency(row.convergenceP99Ms),
    `${row.staleServedPercent.toFixed(1)} %`,
    row.reconciliationReadsPerMinute.toFixed(2),
    grouped(row.safetyViolations),
  ]);
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((cell) => cell[column]!.length)));
  const line = (cell: string[]): string => cell.map((text, column) => (column < 2 ? text.padEnd(widths[column]!) : text.padStart(widths[column]!))).join('  ').trimEnd();
  const lines = [line(headers), widths.map((width) => '-'.repeat(width)).join('  ')];
  let previous = '';
  for (let index = 0; index < cells.length; index++) {
    if (previous !== '' && rows[index]!.strategy !== previous) lines.push('');
    previous = rows[index]!.strategy;
    lines.push(line(cells[index]!));
  }
  return lines;
}

/**
 * What the safety violations column is made of, per strategy over its cells, largest first (`fencesim list` says what
 * each invariant means): the naive strategies break the rules they are named for, and the pollers never subscribe
 * although the server declares subscribe, which subscribe_unsent and server_subscription_missing count.
 */
function violationNotes(rows: readonly StrategyRow[]): string[] {
  const byStrategy = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const counts = byStrategy.get(row.strategy) ?? new Map<string, number>();
    for (const [invariant, count] of Object.entries(row.safetyViolationsByInvariant)) counts.set(invariant, (counts.get(invariant) ?? 0) + count);
    byStrategy.set(row.strategy, counts);
  }
  const lines = [...byStrategy]
    .filter(([, counts]) => counts.size > 0)
    .map(([strategy, counts]) => `  ${strategy}: ${[...counts].sort((a, b) => b[1] - a[1]).map(([invariant, count]) => `${invariant} ${grouped(count)}`).join(', ')}`);
  if (lines.length === 0) return ['safety viol.: safety invariants violated, summed over the interleavings: none.'];
  return ['safety viol.: safety invariants violated, summed over the interleavings, by strategy and invariant (fencesim list explains each):', ...lines];
}

function notes(rows: readonly StrategyRow[], wallMs: number): string[] {
  return [
    '',
    'reads/change: subscription strategies: notification-triggered reads per distinct notified change (read_amplification);',
    '  pollers: all reads per change to a subscribed resource. all reads/change: every read, whatever triggered it.',
    'conv p50/p99: change to accepted content (100 ms buckets, upper edge; ">= 60 s" includes never).',
    'stale served: share of content served (every 1-3 s per resource) whose truth version was behind the server\'s at serve time.',
    `non-notif reads/res-min: initial, reconciliation, poll and lease-revalidation reads per subscribed resource-minute (virtual time: ${strategyFaultPhaseMs / 1_000} s of changes, then 65 s of quiet).`,
    ...violationNotes(rows),
    `wall time ${duration(wallMs)}.`,
  ];
}
