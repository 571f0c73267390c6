/**
 * `fencesim gate`: resolve every default once, print the run spec (with the seed, chosen here when none
 * was given), run the interleavings with progress on stderr, write DIR/report.json and print the summary.
 */
import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { ClientUnderTest } from '../../core/types.js';
import { buildReport, writeReport, type Report, type ReportTiming } from '../../reports/json.js';
import { findScenario } from '../../scenarios/catalog.js';
import { findClient } from '../../scenarios/clients.js';
import type { Scenario } from '../../scenarios/scenario.js';
import { coverageOf, replayCommand, verdictOf, type GateAccumulator, type RunSpec } from '../../sim/gate.js';
import { formatSeed } from '../../sim/prng.js';
import { parseOptions, UsageError, type ParsedOptions } from '../args.js';
import { columns, perSecond } from '../format.js';
import type { Io } from '../io.js';
import { createProgress } from '../progress.js';
import { InterleavingCrash, runGate } from '../run-gate.js';
import { summaryLines } from '../summary.js';

export const gateOptions = {
  interleavings: 'count',
  seed: 'seed',
  scenario: 'scenario',
  client: 'client',
  out: 'path',
  'max-failures': 'nonNegative',
  workers: 'count',
} as const;

export const gateDefaults = {
  interleavings: 100_000,
  scenario: 'swarm',
  client: 'reference',
  out: './fencesim-report',
  maxFailures: 20,
};

interface GateSetup {
  spec: RunSpec;
  scenario: Scenario;
  client: ClientUnderTest<any>;
  outDir: string;
  seedChosen: boolean;
  workers: number;
}

export async function gateCommand(argv: readonly string[], io: Io): Promise<number> {
  const setup = resolveGate(parseOptions('gate', argv, gateOptions), io);
  await prepareOutDir(setup.outDir);
  io.stdout(`${runSpecBlock(setup).join('\n')}\n`);
  const startMs = io.nowMs();
  const accumulator = await runWithProgress(setup, io);
  if (accumulator === null) return 3;
  const report = reportOf(setup, accumulator, timingOf(accumulator, io.nowMs() - startMs, io));
  const path = await writeOrExplain(setup.outDir, report);
  io.stdout(`${summaryLines(report, path).join('\n')}\n`);
  return report.passed ? 0 : 1;
}

function resolveGate(options: ParsedOptions<typeof gateOptions>, io: Io): GateSetup {
  const scenario = options.scenario ?? findScenario(gateDefaults.scenario)!;
  const client = options.client ?? findClient(gateDefaults.client)!;
  const seed = options.seed ?? io.randomSeed();
  const spec: RunSpec = {
    seed,
    interleavings: options.interleavings ?? gateDefaults.interleavings,
    scenario: scenario.name,
    client: client.name,
    maxFailures: options['max-failures'] ?? gateDefaults.maxFailures,
  };
  const workers = options.workers ?? defaultWorkers();
  return { spec, scenario, client, outDir: options.out ?? gateDefaults.out, seedChosen: options.seed === undefined, workers };
}

export function reproduceGateCommand(spec: RunSpec): string {
  return `npx fencesim gate --seed ${formatSeed(spec.seed)} --interleavings ${spec.interleavings} --scenario ${spec.scenario} --client ${spec.client}`;
}

function runSpecBlock(setup: GateSetup): string[] {
  const spec = setup.spec;
  const seedNote = setup.seedChosen ? ' (chosen at random: no --seed given)' : '';
  const rows = [
    ['seed', `${formatSeed(spec.seed)}${seedNote}`],
    ['interleavings', String(spec.interleavings)],
    ['scenario', spec.scenario],
    ['client', spec.client],
    ['max failures', String(spec.maxFailures)],
    ['out', setup.outDir],
    ['workers', `${setup.workers} (results do not depend on it)`],
  ];
  return ['fencesim gate: run spec', ...columns(rows), `reproduce this run: ${reproduceGateCommand(spec)}`];
}

async function prepareOutDir(outDir: string): Promise<void> {
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    throw new UsageError(`--out: cannot create directory ${JSON.stringify(outDir)}: ${messageOf(error)}`, 'gate');
  }
}

async function writeOrExplain(outDir: string, report: Report): Promise<string> {
  try {
    return await writeReport(outDir, report);
  } catch (error) {
    throw new UsageError(`--out: cannot write the report into ${JSON.stringify(outDir)}: ${messageOf(error)}`, 'gate');
  }
}

/** Runs the gate; on a simulator crash prints the crashing seed and returns null. */
async function runWithProgress(setup: GateSetup, io: Io): Promise<GateAccumulator | null> {
  const progress = createProgress(io, setup.spec.interleavings, 'interleavings');
  try {
    return await runGate(setup.spec, setup.scenario, setup.client, (done) => progress.update(done), setup.workers);
  } catch (error) {
    if (!(error instanceof InterleavingCrash)) throw error;
    io.stderr(crashText(setup, error));
    return null;
  } finally {
    progress.finish();
  }
}

function crashText(setup: GateSetup, crash: InterleavingCrash): string {
  const stack = crash.error instanceof Error && crash.error.stack !== undefined ? crash.error.stack : String(crash.error);
  return [
    `fencesim gate: internal error: ${crash.message}`,
    `replay it: ${replayCommand(crash.seed, setup.spec.scenario, setup.spec.client)}`,
    stack,
    '',
  ].join('\n');
}

function reportOf(setup: GateSetup, accumulator: GateAccumulator, timing: ReportTiming): Report {
  const verdict = verdictOf(accumulator, setup.scenario);
  return buildReport(accumulator, verdict, coverageOf(accumulator), timing);
}

function timingOf(accumulator: GateAccumulator, wallMs: number, io: Io): ReportTiming {
  return {
    wallMs: Math.round(wallMs),
    interleavingsPerSecond: Math.round(perSecond(accumulator.interleavings, wallMs)),
    eventsPerSecond: Math.round(perSecond(accumulator.events, wallMs)),
    peakRssBytes: io.peakRssBytes(),
  };
}

/** One worker per core by default; the results are identical for any count. */
function defaultWorkers(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
