/**
 * Laws every gate accumulator obeys, whatever the scenario, client, seed or worker count: checked on every
 * report read back (verify.ts), so an accumulator edited to hide a violation is refused unless the edit is
 * consistent across every related field. Each law follows from GateAccumulator.add and merge (sim/gate-accumulator.ts):
 * one failure is recorded per interleaving with a violation, up to maxFailures, in interleaving order.
 */
import { replayCommand, type GateAccumulator, type RunSpec } from '../sim/gate.js';
import { selfCheckIndices } from '../sim/determinism.js';
import { allInvariants } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import type { ShardRange } from '../sim/shard.js';
import type { ReportDeterminism } from './json.js';

/** The first law `accumulator` breaks for interleavings `range` (a partial merge covers only part of it). */
export function accumulatorLawProblem(accumulator: GateAccumulator, range: ShardRange, partial: boolean): string | null {
  const size = range.end - range.start;
  if (partial ? accumulator.interleavings > size : accumulator.interleavings !== size) {
    return `accumulator.interleavings is ${accumulator.interleavings} but the report covers interleavings ${range.start}..${range.end - 1} (${size})`;
  }
  return invariantCountsProblem(accumulator) ?? failuresProblem(accumulator, range) ?? convergenceProblem(accumulator);
}

function invariantCountsProblem(accumulator: GateAccumulator): string | null {
  for (let index = 0; index < allInvariants.length; index++) {
    const name = allInvariants[index]!;
    const violations = accumulator.violationCounts[index]!;
    const failing = accumulator.failingInterleavings[index]!;
    if (failing > accumulator.interleavings) return `accumulator.failingInterleavings[${index}] (${name}) is ${failing}, more than the ${accumulator.interleavings} interleavings`;
    if (failing > violations || (violations > 0) !== (failing > 0)) {
      return `accumulator.violationCounts[${index}] (${name}) is ${violations} but accumulator.failingInterleavings[${index}] is ${failing}: every failing interleaving has at least one violation`;
    }
  }
  return null;
}

function failuresProblem(accumulator: GateAccumulator, range: ShardRange): string | null {
  const spec = accumulator.spec;
  const failures = accumulator.failures;
  const perInvariant = new Float64Array(allInvariants.length);
  for (let position = 0; position < failures.length; position++) {
    const failure = failures[position]!;
    const where = `accumulator.failures[${position}]`;
    if (!Number.isInteger(failure.index) || failure.index < range.start || failure.index >= range.end) return `${where}.index ${failure.index} is outside interleavings ${range.start}..${range.end - 1}`;
    if (position > 0 && failure.index <= failures[position - 1]!.index) return `${where}.index ${failure.index} is not after the previous failure's (failures are in interleaving order)`;
    if (failure.seed !== deriveSeed(spec.seed, failure.index)) return `${where}.seed ${failure.seed} is not the seed of interleaving ${failure.index} of root seed ${spec.seed}`;
    if (failure.scenario !== spec.scenario || failure.client !== spec.client) return `${where} is of ${failure.scenario}/${failure.client}, not of the run spec's ${spec.scenario}/${spec.client}`;
    const replay = replayCommand(failure.seed, spec.scenario, spec.client, spec.transport);
    if (failure.replay !== replay) return `${where}.replay is ${JSON.stringify(failure.replay)} but should be ${JSON.stringify(replay)}`;
    perInvariant[allInvariants.indexOf(failure.invariant)]! += 1;
  }
  let anyFailing = 0;
  for (let index = 0; index < allInvariants.length; index++) {
    const failing = accumulator.failingInterleavings[index]!;
    anyFailing = Math.max(anyFailing, failing);
    if (perInvariant[index]! > failing) {
      return `accumulator.failures records ${perInvariant[index]} failures of ${allInvariants[index]} but accumulator.failingInterleavings[${index}] is ${failing}`;
    }
  }
  if (failures.length < spec.maxFailures && anyFailing > failures.length) {
    return `accumulator.failures records ${failures.length} failing interleavings (below maxFailures ${spec.maxFailures}, so every one is recorded) but accumulator.failingInterleavings counts ${anyFailing}`;
  }
  return null;
}

function convergenceProblem(accumulator: GateAccumulator): string | null {
  if (accumulator.changesConverged > accumulator.changesTracked) {
    return `accumulator.changesConverged is ${accumulator.changesConverged}, more than accumulator.changesTracked ${accumulator.changesTracked}`;
  }
  return null;
}

/** The self-check sample is a pure function of the run spec; its mismatches are the nondeterministic ones. */
export function determinismProblem(determinism: ReportDeterminism | undefined, spec: RunSpec, range: ShardRange, partial: boolean): string | null {
  if (determinism === undefined) return 'determinism is missing';
  if (determinism.nondeterministic_interleavings !== determinism.mismatches.length) {
    return `determinism.nondeterministic_interleavings is ${determinism.nondeterministic_interleavings} but determinism.mismatches lists ${determinism.mismatches.length}`;
  }
  const sampled = new Set(selfCheckIndices(spec.interleavings, determinism.selfCheckRatioPercent).filter((index) => index >= range.start && index < range.end));
  if (partial ? determinism.checked > sampled.size : determinism.checked !== sampled.size) {
    return `determinism.checked is ${determinism.checked} but --self-check-ratio ${determinism.selfCheckRatioPercent} samples ${sampled.size} interleavings of ${range.start}..${range.end - 1}`;
  }
  for (const mismatch of determinism.mismatches) {
    if (!sampled.has(mismatch.index) || mismatch.seed !== deriveSeed(spec.seed, mismatch.index)) {
      return `determinism.mismatches names interleaving ${mismatch.index} (seed ${mismatch.seed}), which the self-check of this run does not sample`;
    }
  }
  return null;
}
