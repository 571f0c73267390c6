/**
 * Shrinking one failing interleaving for the CLI (`fencesim shrink` and the gate's first failure): the
 * budget is counted in replays (deterministic); the wall-clock limit (read here, never in sim/) is only a
 * generous safety net, reported as not reproducible when it is hit. The minimal run is presented up to the violation, focused on the violation's resources, and
 * written as a replay file.
 */
import { writeFileAtomic } from '../reports/atomic-file.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import type { Decision } from '../sim/chooser.js';
import type { InvariantName, Violation } from '../sim/oracle.js';
import { replaySchema, serializeReplay } from '../sim/replay-file.js';
import { defaultShrinkAttemptsMax, replayLenient, replayStrict, shrink, shrinkStopText, type ShrinkResult } from '../sim/shrink.js';
import { violationTimeline, type FocusedTimeline } from '../sim/timeline-focus.js';
import { UsageError } from './args.js';
import type { Io } from './io.js';

/** The wall-clock safety net: far above what the replay budget takes, so it decides only on a stalled machine. */
export const shrinkBudgetMsDefault = 300_000;

export interface ShrinkLimits {
  /** The wall-clock safety net (a stop by it is reported as not reproducible). */
  budgetMs: number;
  /** The replay budget: the limit that decides. */
  attemptsMax: number;
}

export const shrinkLimitsDefault: ShrinkLimits = { budgetMs: shrinkBudgetMsDefault, attemptsMax: defaultShrinkAttemptsMax };

export interface ShrunkFailure {
  seed: number;
  scenario: Scenario;
  client: ClientUnderTest<any>;
  invariant: InvariantName;
  result: ShrinkResult;
  wallMs: number;
  /** Timeline lines up to the violation: the original run, and the minimal run (all resources). */
  linesBefore: number;
  linesAfter: number;
  /** The minimal run up to the violation, focused on the violation's resources. */
  timeline: FocusedTimeline;
  violation: Violation | null;
}

/** Shrinks `decisions` (a run that violates `invariant`) within the limits. */
export function shrinkWithBudget(
  seed: number,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  decisions: readonly Decision[],
  invariant: InvariantName,
  limits: ShrinkLimits,
  io: Io,
): ShrunkFailure {
  const startMs = io.nowMs();
  const result = shrink(seed, scenario, client, decisions, invariant, {
    attemptsMax: limits.attemptsMax,
    shouldStop: () => io.nowMs() - startMs > limits.budgetMs,
  });
  const wallMs = io.nowMs() - startMs;
  const before = replayLenient(seed, scenario, client, decisions, invariant, true);
  const after = replayStrict(seed, scenario, client, result.decisions, invariant, true);
  const violation = after.oracle.violations.find((entry) => entry.invariant === invariant) ?? null;
  const uris = after.plan.workload.resources.map((resource) => resource.uri);
  const timeline = violationTimeline(after.timelineEntries ?? [], invariant, violation?.uri ?? '', uris);
  return {
    seed,
    scenario,
    client,
    invariant,
    result,
    wallMs,
    linesBefore: (before.timeline ?? []).length,
    linesAfter: (after.timeline ?? []).length,
    timeline,
    violation,
  };
}

export function replayFileText(shrunk: ShrunkFailure): string {
  return serializeReplay({
    schema: replaySchema,
    runSpec: { seed: shrunk.seed, scenario: shrunk.scenario.name, client: shrunk.client.name },
    invariant: shrunk.invariant,
    decisions: shrunk.result.decisions,
  });
}

export async function writeReplayFile(command: string, option: string, path: string, shrunk: ShrunkFailure): Promise<void> {
  try {
    await writeFileAtomic(path, replayFileText(shrunk));
  } catch (error) {
    throw new UsageError(`--${option}: cannot write the replay file ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`, command);
  }
}

/** The lines `fencesim shrink` and the gate print about a shrink. */
export function shrinkSummaryLines(shrunk: ShrunkFailure): string[] {
  const result = shrunk.result;
  const ending = result.complete
    ? 'complete: removing any one decision, or zeroing any one, makes the violation disappear'
    : `INCOMPLETE: stopped by ${shrinkStopText(result.stoppedBy)}, so it may not be minimal`;
  return [
    `shrunk ${shrunk.invariant} in ${Math.round(shrunk.wallMs)} ms with ${result.attempts} replays (${ending})`,
    `  decisions up to the violation: ${result.decisionsBefore} → ${result.decisions.length} (${result.canonical.length} before the trailing zeros)`,
    `  timeline lines up to the violation: ${shrunk.linesBefore} → ${shrunk.linesAfter} (${shrunk.timeline.lines.length} shown below, ${shrunk.timeline.hidden} about other resources hidden)`,
  ];
}
