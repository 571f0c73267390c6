/**
 * The parts of `fencesim gate` that differ for a module client (`--client ./x.mjs` whose default export is
 * a module client): the scenario as it applies to the claimed features, the run (this thread or workers,
 * which rebuild the client from the path in the run spec), the self-check, and the shrink step.
 */
import { featuresOf, type ModuleClient } from '../adapters/mcp-sdk/module/contract.js';
import { moduleApplicability, moduleSelfCheck, runModuleRange } from '../adapters/mcp-sdk/module/module-gate.js';
import { join } from 'node:path';
import { notApplicableRows, reportApplicability, type ReportApplicability } from '../sim/applicability.js';
import { shrinkModuleFailure } from '../adapters/mcp-sdk/module/module-shrink.js';
import type { ReportDeterminism, ReportShrinkSkipped, ReportShrunk } from '../reports/json.js';
import { replaySchema, serializeReplay } from '../sim/replay-file.js';
import type { InvariantName } from '../sim/oracle.js';
import { writeFileAtomic } from '../reports/atomic-file.js';
import { UsageError } from './args.js';
import { shrinkLimitsDefault } from './shrinking.js';
import type { Scenario } from '../scenarios/scenario.js';
import type { Failure, GateAccumulator, RunSpec } from '../sim/gate.js';
import type { ShardRange } from '../sim/shard.js';
import type { Io } from './io.js';
import { runAsyncGate } from './run-sdk-gate.js';

export interface ModuleGate {
  /** The scenario as it applies to the client (unclaimed features' faults off). */
  scenario: Scenario;
  /** Set when the scenario does not apply at all: the message to print. */
  notApplicable: string | null;
  /** Rows for the printed run spec. */
  specRows: string[][];
  /** report.json's applicability section. */
  applicability: ReportApplicability;
  run(onProgress: (done: number) => void, workers: number, range: ShardRange): Promise<GateAccumulator>;
  selfCheck(indices: readonly number[], ratioPercent: number): Promise<ReportDeterminism>;
  shrink(failure: Failure, determinism: ReportDeterminism, io: Io, outDir: string): Promise<ReportShrunk | ReportShrinkSkipped>;
}

export function moduleGateParts(client: ModuleClient, scenario: Scenario, spec: RunSpec): ModuleGate {
  const applicability = moduleApplicability(scenario, client);
  const features = featuresOf(client);
  const claimed = Object.entries(features)
    .filter(([, on]) => on)
    .map(([name]) => name);
  const specRows = [
    ['module client', `${client.name}: claims ${claimed.join(', ') || 'nothing'}; judged as a black box (wire + get)`],
    ['transport', 'your client over a real SDK Server per connection, on virtual time (fake timers, seeded Math.random)'],
    ...notApplicableRows(applicability),
  ];
  return {
    scenario: applicability.scenario,
    notApplicable: applicability.scenarioNotApplicable === null ? null : `fencesim gate: not applicable to ${spec.client}: ${applicability.scenarioNotApplicable}`,
    specRows,
    applicability: reportApplicability('module', { catalogs: features.catalogs, crashRecovery: features.crashRecovery }, applicability),
    run: (onProgress, workers, range) =>
      runAsyncGate(spec, (start, end, progress) => runModuleRange(spec, scenario, client, start, end, progress), () => undefined, onProgress, workers, range),
    selfCheck: (indices, ratioPercent) => moduleSelfCheck(spec.seed, scenario, client, indices, ratioPercent),
    shrink: (failure, determinism, io, outDir) => shrinkModule(spec, scenario, client, failure, determinism, io, outDir),
  };
}

/** Module failures are shrunk with fewer replays than pure ones (each is a full async run). */
export const moduleShrinkAttemptsMax = 400;

async function shrinkModule(
  spec: RunSpec,
  scenario: Scenario,
  client: ModuleClient,
  failure: Failure,
  determinism: ReportDeterminism,
  io: Io,
  outDir: string,
): Promise<ReportShrunk | ReportShrinkSkipped> {
  if (determinism.nondeterministic_interleavings > 0) return { skipped: 'not shrunk: the determinism self-check failed, so a replay would not be trustworthy' };
  const invariant = failure.invariant as InvariantName;
  const startMs = io.nowMs();
  const applicable = moduleApplicability(scenario, client).scenario;
  const shrunk = await shrinkModuleFailure(failure.seed, applicable, client, invariant, {
    attemptsMax: moduleShrinkAttemptsMax,
    shouldStop: () => io.nowMs() - startMs > shrinkLimitsDefault.budgetMs,
  });
  if (!shrunk.reproduced) return { skipped: `not shrunk: replaying seed ${failure.seed} did not reproduce ${invariant}` };
  const file = `shrunk-${failure.seed}.json`;
  const text = serializeReplay({ schema: replaySchema, runSpec: { seed: failure.seed, scenario: spec.scenario, client: spec.client }, invariant, decisions: shrunk.decisions });
  try {
    await writeFileAtomic(join(outDir, file), text);
  } catch (error) {
    throw new UsageError(`--out: cannot write the replay file ${JSON.stringify(join(outDir, file))}: ${error instanceof Error ? error.message : String(error)}`, 'gate');
  }
  return {
    file,
    invariant,
    decisions: shrunk.decisions.length,
    decisionsBefore: shrunk.decisionsBefore,
    replays: shrunk.attempts,
    complete: shrunk.complete,
    stoppedBy: shrunk.stoppedBy,
    timelineLines: shrunk.timeline.lines.length,
    hiddenLines: shrunk.timeline.hidden,
    timeline: shrunk.timeline.lines,
  };
}
