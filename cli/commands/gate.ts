/**
 * `fencesim gate`: resolve every default once, print the run spec (with the seed, chosen here when none
 * was given), run the interleavings with progress on stderr, write DIR/report.json and print the summary.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ClientUnderTest } from '../../core/types.js';
import {
  buildReport,
  type Report,
  type ReportDeterminism,
  type ReportExtras,
  type ReportShrinkSkipped,
  type ReportShard,
  type ReportShrunk,
  type ReportTiming,
} from '../../reports/json.js';
import type { StrategyResult } from '../../reports/html.js';
import { scenarioForProtocol, type ProtocolClientKind } from '../protocol.js';
import { findClient } from '../../scenarios/clients.js';
import type { Scenario } from '../../scenarios/scenario.js';
import { selfCheck, selfCheckIndices } from '../../sim/determinism.js';
import { coverageOf, exitCodeOf, gateExitCodes, replayCommand, verdictOf, type GateAccumulator, type RunSpec } from '../../sim/gate.js';
import { formatSeed } from '../../sim/prng.js';
import { gateRerunCommand, gateRunDefaults, noShrinkSkipped } from '../../sim/run-spec.js';
import { shardRange } from '../../sim/shard.js';
import { runInterleaving } from '../../sim/world.js';
import { indexerEveryOf, indexerInterleavingsFor, indexerNameOf } from '../../indexer/gate-part.js';
import { indexerNames } from '../../indexer/indexers.js';
import { parseOptions, UsageError, type ParsedOptions } from '../args.js';
import { columns, perSecond } from '../format.js';
import type { Io } from '../io.js';
import { claimOutDir } from '../out-dir.js';
import { createProgress } from '../progress.js';
import { InterleavingCrash, runGateChecked } from '../run-gate.js';
import type { PoolRun } from '../pool.js';
import { shrinkLimitsDefault, shrinkWithBudget, writeReplayFile } from '../shrinking.js';
import { summaryLines } from '../summary.js';
import { loadStrategies, writeAllReports } from '../write-reports.js';
import type { ModuleGate } from '../module-gate.js';
import { isModulePath, takeClientModule } from '../client-module.js';
import { ModuleContractError } from '../../adapters/mcp-sdk/module/contract.js';
import { applicabilityOf, notApplicableRows, reducerClaims, reportApplicability, type ReportApplicability } from '../../sim/applicability.js';

export const gateOptions = {
  interleavings: 'count',
  seed: 'seed',
  scenario: 'scenario',
  client: 'client',
  out: 'path',
  'max-failures': 'nonNegative',
  workers: 'workers',
  'no-shrink': 'flag',
  'self-check-ratio': 'percent',
  shard: 'shard',
  'strategies-json': 'file',
  transport: 'transport',
  indexer: 'word',
  protocol: 'protocol',
} as const;

export const gateDefaults = {
  interleavings: 100_000,
  scenario: 'swarm',
  client: 'reference',
  out: './fencesim-report',
  maxFailures: gateRunDefaults.maxFailures,
  selfCheckRatioPercent: gateRunDefaults.selfCheckRatioPercent,
};

/** Exit codes of the gate: passed, failed, crashed, nondeterministic (the self-check failed; it wins over 1): sim/verdict.ts. */
export const gateExitPassed = gateExitCodes.passed;
export const gateExitFailed = gateExitCodes.failed;
export const gateExitNondeterministic = gateExitCodes.nondeterministic;

interface GateSetup {
  spec: RunSpec;
  scenario: Scenario;
  client: ClientUnderTest<any>;
  outDir: string;
  seedChosen: boolean;
  workers: number;
  shrink: boolean;
  selfCheckRatioPercent: number;
  /** `--shard i/n`: the slice of interleavings this run covers; null for the whole run. */
  shard: ReportShard | null;
  /** `--strategies-json FILE`: strategy benchmark rows for the HTML report. */
  strategies: StrategyResult[] | undefined;
  /** `--client ./x.mjs` naming a module client (null: a registry client or a reducer module). */
  module: ModuleGate | null;
  /** A reducer module's faults that do not apply to it (spec rows; empty for registry clients). */
  applicabilityRows: string[][];
  /** report.json's applicability section (null for registry clients). */
  applicability: ReportApplicability | null;
}

export async function gateCommand(argv: readonly string[], io: Io): Promise<number> {
  const taken = await takeClientModule(argv, 'gate');
  const options = parseOptions('gate', taken.argv, gateOptions);
  const setup = resolveGate(options, io, taken.loaded?.kind === 'module' ? 'module' : 'reducer');
  if (taken.loaded !== null) {
    setup.spec.client = taken.loaded.path;
    if (taken.loaded.kind === 'reducer') {
      setup.client = taken.loaded.reducer;
      const claims = reducerClaims(taken.loaded.reducer);
      const applicability = applicabilityOf(setup.scenario, claims);
      setup.scenario = applicability.scenario;
      setup.applicabilityRows = notApplicableRows(applicability);
      setup.applicability = reportApplicability('reducer', claims, applicability);
      if (applicability.scenarioNotApplicable !== null) {
        io.stdout(`fencesim gate: not applicable to ${setup.spec.client}: ${applicability.scenarioNotApplicable}\nnothing to gate: not applicable is not a failure (exit 0)\n`);
        return gateExitPassed;
      }
    } else {
      // Loaded only for a module client: it brings the MCP SDK and fake timers (about 1.5 s of CPU to load).
      setup.module = (await import('../module-gate.js')).moduleGateParts(taken.loaded.module, setup.scenario, setup.spec);
      setup.scenario = setup.module.scenario;
      setup.applicability = setup.module.applicability;
    }
    if (setup.module?.notApplicable) {
      io.stdout(`${setup.module.notApplicable}\nnothing to gate: not applicable is not a failure (exit 0)\n`);
      return gateExitPassed;
    }
  }
  if (options['strategies-json'] !== undefined) setup.strategies = await loadStrategies(options['strategies-json'], 'strategies-json', 'gate');
  const claim = await claimOutDir(setup.outDir, 'out', 'gate', setup.spec, reproduceGateCommand(setup), io);
  try {
    const code = await runClaimed(setup, io);
    if (code !== null) await claim.complete();
    return code ?? exitCodeOf('crashed');
  } finally {
    claim.abandon();
  }
}

/** The gate once its --out is claimed (cli/out-dir.ts); null when the simulator crashed and no report was written. */
async function runClaimed(setup: GateSetup, io: Io): Promise<number | null> {
  io.stdout(`${runSpecBlock(setup).join('\n')}\n`);
  const startMs = io.nowMs();
  const run = await runWithProgress(setup, io);
  if (run === null) return null;
  const accumulator = run.accumulator;
  const selfCheckStartMs = io.nowMs();
  // On workers the self-check ran inside the pool (its time there is the workers' summed time on it).
  const determinism = run.selfCheck?.check ?? (await runSelfCheck(setup));
  const shrinkStartMs = io.nowMs();
  const shrunk = await shrinkFirstFailure(setup, accumulator, determinism, io);
  // The wall time is everything the user waited for: the run, the self-check and the shrink.
  const wallMs = io.nowMs() - startMs;
  const selfCheckMs = run.selfCheck?.ms ?? shrinkStartMs - selfCheckStartMs;
  const timing = { ...timingOf(accumulator, wallMs, io), selfCheckMs: Math.round(selfCheckMs), shrinkMs: Math.round(io.nowMs() - shrinkStartMs) };
  const extras: ReportExtras = shrunk === null ? { determinism } : { determinism, shrunk };
  if (setup.shard !== null) extras.shard = setup.shard;
  const report = reportOf(setup, accumulator, timing, extras);
  const [path, ...rendered] = await writeOrExplain(setup.outDir, report, setup.strategies, io);
  io.stdout(`${summaryLines(report, path!).join('\n')}\nrendered: ${rendered.join(', ')}\n`);
  return gateExitCode(report);
}

/** The exit code of a report: the one its verdict decided (sim/gate-verdict.ts verdictOf). */
export function gateExitCode(report: Report): number {
  return exitCodeOf(report.outcome);
}

/** Re-runs the sampled interleavings twice in this process, the first traced (see sim/determinism.ts). */
async function runSelfCheck(setup: GateSetup): Promise<ReportDeterminism> {
  const indices = selfCheckSampleOf(setup);
  if (setup.module !== null) return setup.module.selfCheck(indices, setup.selfCheckRatioPercent);
  if (setup.spec.transport === 'sdk') {
    return (await import('../../adapters/mcp-sdk/sim/sdk-gate.js')).sdkSelfCheck(setup.spec.seed, setup.scenario, setup.client, indices, setup.selfCheckRatioPercent);
  }
  return selfCheck(setup.spec.seed, setup.scenario, setup.client, indices, setup.selfCheckRatioPercent);
}

/** The self-check's sampled indices within this run's range. */
function selfCheckSampleOf(setup: GateSetup): number[] {
  const range = rangeOf(setup);
  return selfCheckIndices(setup.spec.interleavings, setup.selfCheckRatioPercent).filter((index) => index >= range.start && index < range.end);
}

/**
 * Shrinks the first recorded failure and writes DIR/shrunk-<seed>.json; null when nothing failed. The
 * replay budget decides, so the result is the same on every run (the wall-clock safety net aside).
 */
async function shrinkFirstFailure(setup: GateSetup, accumulator: GateAccumulator, determinism: ReportDeterminism, io: Io): Promise<ReportShrunk | ReportShrinkSkipped | null> {
  const failure = accumulator.failures[0];
  if (failure === undefined) return null;
  if (!setup.shrink) return { skipped: noShrinkSkipped };
  if (setup.module !== null) return setup.module.shrink(failure, determinism, io, setup.outDir);
  if (setup.spec.transport === 'sdk') return { skipped: `not shrunk: the shrinker replays on the pure transport only; replay it over the SDK with: ${failure.replay}` };
  if (determinism.nondeterministic_interleavings > 0) return { skipped: 'not shrunk: the determinism self-check failed, so a replay would not be trustworthy' };
  const recorded = runInterleaving(failure.seed, setup.scenario, setup.client, { trace: false, record: true });
  const shrunk = shrinkWithBudget(failure.seed, setup.scenario, setup.client, recorded.decisions!, failure.invariant, shrinkLimitsDefault, io);
  if (!shrunk.result.reproduced) return { skipped: `not shrunk: replaying seed ${failure.seed} did not reproduce ${failure.invariant}` };
  const file = `shrunk-${failure.seed}.json`;
  await writeReplayFile('gate', 'out', join(setup.outDir, file), shrunk);
  return {
    file,
    invariant: failure.invariant,
    decisions: shrunk.result.decisions.length,
    decisionsBefore: shrunk.result.decisionsBefore,
    replays: shrunk.result.attempts,
    complete: shrunk.result.complete,
    stoppedBy: shrunk.result.stoppedBy,
    timelineLines: shrunk.timeline.lines.length,
    hiddenLines: shrunk.timeline.hidden,
    timeline: shrunk.timeline.lines,
  };
}

function resolveGate(options: ParsedOptions<typeof gateOptions>, io: Io, clientKind: ProtocolClientKind): GateSetup {
  const scenario = scenarioForProtocol(options.scenario, options.protocol, gateDefaults.scenario, options.transport, 'gate', clientKind);
  const client = options.client ?? findClient(gateDefaults.client)!;
  const seed = options.seed ?? io.randomSeed();
  const spec: RunSpec = {
    seed,
    interleavings: options.interleavings ?? gateDefaults.interleavings,
    scenario: scenario.name,
    client: client.name,
    maxFailures: options['max-failures'] ?? gateDefaults.maxFailures,
  };
  if (options.transport === 'sdk') spec.transport = 'sdk';
  if (options.indexer !== undefined) spec.indexer = indexerOption(options.indexer);
  const workers = options.workers ?? defaultWorkers();
  const shard = options.shard === undefined ? null : { ...options.shard, ...shardRange(spec.interleavings, options.shard.index, options.shard.count) };
  if (shard !== null && shard.count > spec.interleavings) {
    throw new UsageError(`--shard ${shard.index}/${shard.count}: more shards than interleavings (${spec.interleavings}); use at most ${spec.interleavings} shards`, 'gate');
  }
  return {
    spec,
    scenario,
    client,
    outDir: options.out ?? gateDefaults.out,
    seedChosen: options.seed === undefined,
    workers,
    shrink: options['no-shrink'] !== true,
    selfCheckRatioPercent: options['self-check-ratio'] ?? gateDefaults.selfCheckRatioPercent,
    shard,
    strategies: undefined,
    module: null,
    applicabilityRows: [],
    applicability: null,
  };
}

/** The interleavings this run covers: its shard, or all of them. */
function rangeOf(setup: GateSetup): { start: number; end: number } {
  return setup.shard ?? { start: 0, end: setup.spec.interleavings };
}

/** The command that reruns this gate run: every option that changes its report (sim/run-spec.ts). */
export function reproduceGateCommand(setup: Pick<GateSetup, 'spec' | 'shard' | 'selfCheckRatioPercent' | 'shrink'>): string {
  return gateRerunCommand(setup.spec, { shard: setup.shard, selfCheckRatioPercent: setup.selfCheckRatioPercent, shrink: setup.shrink });
}

function runSpecBlock(setup: GateSetup): string[] {
  const spec = setup.spec;
  const seedNote = setup.seedChosen ? ' (chosen at random: no --seed given)' : '';
  const rows = [
    ['seed', `${formatSeed(spec.seed)}${seedNote}`],
    ['interleavings', String(spec.interleavings)],
    ['scenario', spec.scenario],
    ['client', spec.client],
    ...(setup.module === null ? [] : setup.module.specRows),
    ...setup.applicabilityRows,
    ...(spec.transport === 'sdk' ? [['transport', 'sdk (JSON-RPC between a real SDK Client and Server on virtual time)']] : []),
    ['indexer', indexerRow(spec)],
    ['max failures', String(spec.maxFailures)],
    ...(setup.shard === null ? [] : [['shard', `${setup.shard.index}/${setup.shard.count}: interleavings ${setup.shard.start}..${setup.shard.end - 1} (${setup.shard.end - setup.shard.start} of ${spec.interleavings})`]]),
    ['out', setup.outDir],
    ['workers', `${setup.workers} (results do not depend on it)`],
    ['shrink', setup.shrink ? 'the first failure, within a budget counted in replays' : 'off (--no-shrink)'],
    ['self-check', setup.selfCheckRatioPercent === 0 ? 'off' : `${setup.selfCheckRatioPercent} % of the interleavings, run twice`],
  ];
  return ['fencesim gate: run spec', ...columns(rows), `reproduce this run: ${reproduceGateCommand(setup)}`];
}

/** report.json, then summary.md, junit.xml and report.html; returns their paths in that order. */
async function writeOrExplain(outDir: string, report: Report, strategies: StrategyResult[] | undefined, io: Io): Promise<string[]> {
  try {
    return await writeAllReports(outDir, report, strategies === undefined ? {} : { strategies }, io);
  } catch (error) {
    throw new UsageError(`--out: cannot write the report into ${JSON.stringify(outDir)}: ${messageOf(error)}`, 'gate');
  }
}

/** Runs the gate; on a simulator crash prints the crashing seed and returns null. */
async function runWithProgress(setup: GateSetup, io: Io): Promise<PoolRun | null> {
  const range = rangeOf(setup);
  const progress = createProgress(io, range.end - range.start, 'interleavings');
  const onProgress = (done: number): void => progress.update(done);
  try {
    if (setup.module !== null) return { accumulator: await setup.module.run(onProgress, setup.workers, range), selfCheck: null };
    if (setup.spec.transport === 'sdk') return { accumulator: await (await import('../run-sdk-gate.js')).runSdkGate(setup.spec, setup.scenario, setup.client, onProgress, setup.workers, range), selfCheck: null };
    // The pure transport: the workers run the determinism self-check of their ranges too (cli/pool.ts).
    const sample = { indices: selfCheckSampleOf(setup), ratioPercent: setup.selfCheckRatioPercent };
    return await runGateChecked(setup.spec, setup.scenario, setup.client, onProgress, { workers: setup.workers, range, sample });
  } catch (error) {
    if (!(error instanceof InterleavingCrash)) throw error;
    if (error.error instanceof ModuleContractError) throw new UsageError(`--client ${setup.spec.client}: not a client module: ${error.error.message}`, 'gate');
    io.stderr(crashText(setup, error));
    return null;
  } finally {
    progress.finish();
  }
}

function crashText(setup: GateSetup, crash: InterleavingCrash): string {
  const stack = crash.error instanceof Error && crash.error.stack !== undefined ? crash.error.stack : String(crash.error);
  // A client loaded by path is the user's code: what it threw is its own, not fencesim's.
  const what = isModulePath(setup.spec.client) ? `the client under test (${setup.spec.client})` : 'internal error';
  return [
    `fencesim gate: ${what}: ${crash.message}`,
    `replay it: ${replayCommand(crash.seed, setup.spec.scenario, setup.spec.client, setup.spec.transport)}`,
    stack,
    '',
  ].join('\n');
}

function reportOf(setup: GateSetup, accumulator: GateAccumulator, timing: ReportTiming, extras: ReportExtras): Report {
  const verdict = verdictOf(accumulator, setup.scenario, extras.determinism === undefined ? {} : { determinism: extras.determinism });
  return buildReport(accumulator, verdict, coverageOf(accumulator), timing, setup.applicability === null ? extras : { ...extras, applicability: setup.applicability });
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

/** `--indexer NAME`: one of the indexers (exit 2 otherwise); it then runs at every interleaving index. */
function indexerOption(name: string): string {
  if (!indexerNames.includes(name)) throw new UsageError(`--indexer: unknown indexer ${JSON.stringify(name)} (indexers: ${indexerNames.join(', ')})`, 'gate');
  return name;
}

function indexerRow(spec: RunSpec): string {
  if (spec.transport === 'sdk') return 'not run on the sdk transport (run the pure gate or fencesim index-gate)';
  const count = indexerInterleavingsFor(spec, spec.interleavings);
  return `${indexerNameOf(spec)}: ${count} indexer interleavings (one every ${indexerEveryOf(spec)} interleavings)`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
