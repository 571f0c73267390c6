/**
 * Test support: shrink one failing interleaving the way `fencesim shrink` does (its budget counted in
 * replays, so the result is the same under any machine load; no wall-clock limit here), then check the result independently: it replays strictly to
 * the same invariant, and it is 1-minimal (every single deletion, and every single non-zero value set to 0,
 * replayed leniently, no longer violates the invariant).
 */
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import type { Decision } from '../sim/chooser.js';
import { invariantExplanations, livenessInvariants, type InvariantName } from '../sim/oracle.js';
import { defaultShrinkAttemptsMax, replayLenient, replayStrict, shrink, violates, type ShrinkResult } from '../sim/shrink.js';
import { violationMarker } from '../sim/timeline.js';
import { violationTimeline } from '../sim/timeline-focus.js';
import { runInterleaving } from '../sim/world.js';

export interface ShrinkMeasurement {
  label: string;
  scenario: string;
  seed: number;
  invariant: InvariantName;
  wallMs: number;
  decisionsBefore: number;
  decisionsAfter: number;
  canonicalAfter: number;
  /** Timeline lines up to the violation: the original run, the shrunk run, and the shrunk run focused on the violation's resources. */
  linesBefore: number;
  linesAfter: number;
  linesFocused: number;
  attempts: number;
  complete: boolean;
  result: ShrinkResult;
  timeline: string[];
  focused: string[];
}

export function shrinkFailure(label: string, seed: number, scenario: Scenario, client: ClientUnderTest<any>, invariant?: InvariantName): ShrinkMeasurement {
  const recorded = runInterleaving(seed, scenario, client, { trace: false, record: true });
  const target = invariant ?? recorded.oracle.violations[0]?.invariant;
  if (target === undefined) throw new Error(`${label}: seed ${seed} of ${scenario.name} does not fail`);
  const before = replayLenient(seed, scenario, client, recorded.decisions!, target, true);
  const startMs = performance.now();
  const result = shrink(seed, scenario, client, recorded.decisions!, target, { attemptsMax: defaultShrinkAttemptsMax });
  const wallMs = performance.now() - startMs;
  const after = replayStrict(seed, scenario, client, result.decisions, target, true);
  if (!violates(after, target)) throw new Error(`${label}: the shrunk decisions do not reproduce ${target} when replayed strictly`);
  const violation = after.oracle.violations.find((entry) => entry.invariant === target);
  const uris = after.plan.workload.resources.map((resource) => resource.uri);
  const focused = violationTimeline(after.timelineEntries!, target, violation?.uri ?? '', uris);
  return {
    label,
    scenario: scenario.name,
    seed,
    invariant: target,
    wallMs,
    decisionsBefore: result.decisionsBefore,
    decisionsAfter: result.decisions.length,
    canonicalAfter: result.canonical.length,
    linesBefore: before.timeline!.length,
    linesAfter: after.timeline!.length,
    linesFocused: focused.lines.length,
    attempts: result.attempts,
    complete: result.complete,
    result,
    timeline: after.timeline!,
    focused: focused.lines,
  };
}

/** Variants of the canonical decisions that still violate the invariant (empty when 1-minimal). */
export function oneMinimalityCounterexamples(
  seed: number,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  canonical: readonly Decision[],
  invariant: InvariantName,
): string[] {
  const failures: string[] = [];
  /** A move counters 1-minimality when the run still violates and what it consumed is simpler (shortlex on values). */
  const counters = (candidate: readonly Decision[]): boolean => {
    const run = replayLenient(seed, scenario, client, candidate, invariant);
    return violates(run, invariant) && shortlexSmaller(withoutTrailingZeros(run.decisions!), canonical);
  };
  for (let index = 0; index < canonical.length; index++) {
    const deleted = [...canonical.slice(0, index), ...canonical.slice(index + 1)];
    if (counters(deleted)) failures.push(`deleting decision ${index} (${canonical[index]!.label})`);
    if (canonical[index]!.value === 0) continue;
    const zeroed = canonical.map((decision, at) => (at === index ? { label: decision.label, value: 0, range: decision.range } : decision));
    if (counters(zeroed)) failures.push(`zeroing decision ${index} (${canonical[index]!.label})`);
  }
  return failures;
}

function withoutTrailingZeros(decisions: readonly Decision[]): Decision[] {
  let end = decisions.length;
  while (end > 0 && decisions[end - 1]!.value === 0) end--;
  return decisions.slice(0, end);
}

function shortlexSmaller(candidate: readonly Decision[], best: readonly Decision[]): boolean {
  if (candidate.length !== best.length) return candidate.length < best.length;
  const index = candidate.findIndex((decision, at) => decision.value !== best[at]!.value);
  return index >= 0 && candidate[index]!.value < best[index]!.value;
}

/** The timeline lines that carry the violation marker for `invariant`. */
export function breakingLines(timeline: readonly string[], invariant: InvariantName): string[] {
  return timeline.filter((line) => line.includes(`${violationMarker} ${invariant}`));
}

export function measurementLine(measurement: ShrinkMeasurement): string {
  return [
    measurement.label.padEnd(34),
    measurement.scenario.padEnd(16),
    `seed ${String(measurement.seed).padEnd(10)}`,
    measurement.invariant.padEnd(24),
    `${Math.round(measurement.wallMs)} ms`.padStart(8),
    `decisions ${measurement.decisionsBefore} -> ${measurement.decisionsAfter} (${measurement.canonicalAfter} canonical)`,
    `lines ${measurement.linesBefore} -> ${measurement.linesAfter} (${measurement.linesFocused} focused)`,
    `${measurement.attempts} replays`,
    measurement.complete ? 'complete' : 'INCOMPLETE',
  ].join('  ');
}

/** Shrunk timelines (up to the violation, focused) are meant to be read: aim < 30 lines for safety failures. */
export const focusedLinesMax = 30;
/** A liveness failure is only known at the end of the run, so its timeline is the whole run, folded. */
export const focusedLinesMaxLiveness = 40;

/**
 * What makes a shrunk timeline readable, as problems (empty when fine): short; the line that broke a
 * safety invariant is marked with its name; the invariant is explained in a sentence. (A liveness failure
 * has no breaking event: it is found at the end of the run, so only its explanation is required.)
 */
export function readabilityProblems(measurement: ShrinkMeasurement): string[] {
  const problems: string[] = [];
  const invariant = measurement.invariant;
  const liveness = (livenessInvariants as readonly string[]).includes(invariant);
  const limit = liveness ? focusedLinesMaxLiveness : focusedLinesMax;
  if (measurement.linesFocused >= limit) problems.push(`${measurement.linesFocused} lines (limit ${limit})`);
  const marked = breakingLines(measurement.focused, invariant).length;
  if (!liveness && marked !== 1) problems.push(`${marked} lines marked as breaking ${invariant} (expected 1)`);
  const explanation = measurement.focused.find((line) => line.trimStart().startsWith(`!! ${invariant}:`));
  if (explanation === undefined || !explanation.includes(invariantExplanations[invariant])) problems.push(`no "!! ${invariant}: ..." line explaining it`);
  return problems;
}
