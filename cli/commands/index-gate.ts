/**
 * `fencesim index-gate`: the downstream indexer's own gate (until it joins `fencesim gate`): N seeded
 * interleavings of the indexer simulation against the reference or a naive indexer, the invariants (each
 * 0), the metric gates and the sometimes-counters; writes DIR/index-report.json; prints one replay command
 * per failure. `--replay S` re-runs one interleaving by its own seed and prints its timeline.
 * Exit 0 passed, 1 failed (or the replayed interleaving violates an invariant), 2 bad usage.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { shrinkCaught } from '../../indexer/catch.js';
import { indexerConfig, indexerNames } from '../../indexer/indexers.js';
import { formatSeed } from '../../indexer/kernel-imports.js';
import { runIndexerGate, runIndexerInterleaving, type IndexerGateReport } from '../../indexer/runner.js';
import { violates } from '../../indexer/shrink.js';
import { parseOptions, UsageError } from '../args.js';
import { columns, grouped } from '../format.js';
import type { Io } from '../io.js';

export const indexGateOptions = {
  interleavings: 'count', seed: 'seed', indexer: 'word', out: 'path', 'max-failures': 'nonNegative', 'no-shrink': 'flag', replay: 'seed',
} as const;

export async function indexGateCommand(argv: readonly string[], io: Io): Promise<number> {
  const options = parseOptions('index-gate', argv, indexGateOptions);
  const indexer = options.indexer ?? 'reference';
  const config = indexerConfig(indexer);
  if (config === null) throw new UsageError(`--indexer: unknown indexer ${JSON.stringify(indexer)} (indexers: ${indexerNames.join(', ')})`, 'index-gate');
  if (options.replay !== undefined) return replayOne(options.replay, indexer, io);
  const seed = options.seed ?? io.randomSeed();
  const interleavings = options.interleavings ?? 2_000;
  const out = options.out ?? './fencesim-index-report';
  io.stdout(`fencesim index-gate: seed ${formatSeed(seed)}, ${grouped(interleavings)} interleavings, indexer ${indexer}\n`);
  io.stdout(`reproduce: fencesim index-gate --seed ${formatSeed(seed)} --interleavings ${interleavings} --indexer ${indexer}\n`);
  const startMs = io.nowMs();
  const report = runIndexerGate(seed, interleavings, indexer, config, options['max-failures'] ?? 20, (done) => io.stderr(`  ${grouped(done)} / ${grouped(interleavings)}\n`));
  const wallMs = io.nowMs() - startMs;
  io.stdout(`${summaryLines(report, wallMs).join('\n')}\n`);
  const first = report.failures[0];
  if (first !== undefined && options['no-shrink'] !== true) {
    const shrunk = shrinkCaught(config, { index: first.index, seed: first.seed, failure: first.invariant, uri: first.uri, failing: violates(first.invariant), stopAt: first.invariant });
    io.stdout(`first failure shrunk from ${shrunk.decisionsBefore} to ${shrunk.decisions} decisions (${shrunk.attempts} replays):\n${shrunk.timeline.join('\n')}\n`);
  }
  await mkdir(out, { recursive: true });
  const path = join(out, 'index-report.json');
  await writeFile(path, JSON.stringify({ schema: 'fencesim.index-report.v1', ...report, timing: { wallMs: Math.round(wallMs) } }, null, 2) + '\n');
  io.stdout(`wrote ${path}\n`);
  return report.passed ? 0 : 1;
}

function summaryLines(report: IndexerGateReport, wallMs: number): string[] {
  const rows: string[][] = [];
  for (const invariant in report.counts) {
    const count = report.counts[invariant]!;
    rows.push([invariant, `${grouped(count.violated)} violated of ${grouped(count.checked)} checked`, count.violated === 0 ? 'ok' : 'FAIL']);
  }
  for (const metric of report.metricResults) rows.push([metric.name, `${metric.value.toFixed(4)} (gate ${metric.gate})`, metric.passed ? 'ok' : 'FAIL']);
  rows.push(['faults', report.faultsNeverFired.length === 0 ? 'every fault fired' : `never fired: ${report.faultsNeverFired.join(', ')}`, report.faultsNeverFired.length === 0 ? 'ok' : 'FAIL']);
  const lines = ['', ...columns(rows)];
  lines.push(`${grouped(report.interleavings)} interleavings, ${grouped(report.events)} events in ${(wallMs / 1000).toFixed(1)} s (${Math.round((report.interleavings / wallMs) * 1000)} interleavings/s)`);
  lines.push(`verdict: ${report.passed ? 'PASSED' : 'FAILED'}`);
  for (const failure of report.failures.slice(0, 5)) {
    lines.push(`  ${failure.invariant} at ${failure.timeMs} ms on ${failure.uri}: ${failure.detail}`);
    lines.push(`    replay: npx fencesim index-gate --indexer ${report.indexer} --replay ${formatSeed(failure.seed)}`);
  }
  return lines;
}

function replayOne(seed: number, indexer: string, io: Io): number {
  const result = runIndexerInterleaving(seed, indexerConfig(indexer)!, { trace: true });
  const plan = result.plan;
  const faults = Object.keys(plan.faults).filter((fault) => plan.faults[fault as keyof typeof plan.faults]);
  io.stdout(`fencesim index-gate --replay ${formatSeed(seed)} --indexer ${indexer}\nstore profile ${plan.storeProfile}; faults: ${faults.join(', ') || 'none'}\n`);
  io.stdout(`timeline:\n${result.timeline!.join('\n')}\n`);
  const first = result.violations[0];
  io.stdout(first === undefined ? 'verdict: no violation\n' : `verdict: VIOLATION ${first.invariant} at ${first.timeMs} ms on ${first.uri}: ${first.detail}\n`);
  return first === undefined ? 0 : 1;
}
