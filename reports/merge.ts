/**
 * Merging shard reports (`fencesim merge`): the shards' accumulators are restored from their reports'
 * `accumulator` sections, merged in interleaving order, and the verdict, metrics, coverage, distributions
 * and failures are rebuilt from the merged accumulator, so the result is identical, apart from `timing`,
 * to the report of one unsharded run. The determinism self-check merges too (every shard checked the
 * sampled indexes of its own slice), and the first failure keeps the shrink result of the shard that ran it.
 *
 * Refused, naming the reports: different run specs (seed, interleavings, scenario, client, maxFailures,
 * transport, self-check ratio), the same shard twice, overlapping slices, and, unless partial merges are allowed,
 * missing slices. A partial merge fails the gate with a reason naming what is missing.
 */
import { findScenario } from '../scenarios/catalog.js';
import { judgedScenario } from '../sim/applicability.js';
import { coverageOf, GateAccumulator, verdictOf } from '../sim/gate.js';
import type { ShardRange } from '../sim/shard.js';
import { accumulatorFromSection } from './accumulator-json.js';
import { buildReport, runSpecOf, type Report, type ReportDeterminism, type ReportShrunk, type ReportTiming } from './json.js';

export interface MergeInput {
  /** How messages name this report (its path). */
  name: string;
  report: Report;
}

export interface MergeOutput {
  report: Report;
  /** The input whose first failure is the merged first failure, when it carries a shrunk replay file. */
  shrunkFrom: { input: MergeInput; file: string } | null;
  /** Interleaving ranges no input covered (only with allowPartial). */
  missing: ShardRange[];
}

export type MergeResult = { ok: true; output: MergeOutput } | { ok: false; reason: string };

const specFields = ['seed', 'interleavings', 'scenario', 'client', 'maxFailures', 'transport', 'indexer'] as const;

export function mergeReports(inputs: readonly MergeInput[], allowPartial: boolean): MergeResult {
  if (inputs.length === 0) return fail('no reports to merge');
  const spec = runSpecOf(inputs[0]!.report.runSpec);
  const mismatch = specMismatch(inputs);
  if (mismatch !== null) return fail(mismatch);
  const ordered = [...inputs].sort((a, b) => rangeOf(a.report).start - rangeOf(b.report).start);
  const overlap = overlapOf(ordered);
  if (overlap !== null) return fail(overlap);
  const missing = gapsOf(ordered, spec.interleavings);
  if (missing.length > 0 && !allowPartial) return fail(`${missingText(inputs, missing)}; merge them too, or pass --allow-partial to merge what is here (the merged gate then fails)`);
  const catalogued = findScenario(spec.scenario);
  if (catalogued === undefined) return fail(`${inputs[0]!.name}: unknown scenario ${JSON.stringify(spec.scenario)} (written by another fencesim version?)`);
  // A client loaded by path ran the scenario as it applies to its claims: judge the merge the same way.
  const applicability = inputs[0]!.report.applicability;
  const scenario = judgedScenario(catalogued, applicability);
  const merged = new GateAccumulator(spec);
  for (const input of ordered) {
    const restored = accumulatorFromSection(spec, (input.report as { accumulator?: unknown }).accumulator);
    if (!restored.ok) return fail(`${input.name}: ${restored.reason}`);
    const range = rangeOf(input.report);
    if (restored.accumulator.interleavings !== range.end - range.start) {
      return fail(`${input.name}: its accumulator holds ${restored.accumulator.interleavings} interleavings, but its slice ${range.start}..${range.end - 1} has ${range.end - range.start}`);
    }
    merged.merge(restored.accumulator);
  }
  const first = merged.failures[0];
  const source = first === undefined ? undefined : ordered.find((input) => input.report.failures[0]?.index === first.index);
  const shrunk = source?.report.failures[0]?.shrunk;
  const determinism = determinismOf(ordered);
  const partialReason = missing.length > 0 ? `partial merge: ${missingText(inputs, missing)}; ${merged.interleavings} of ${spec.interleavings} interleavings merged` : undefined;
  const verdict = verdictOf(merged, scenario, partialReason === undefined ? { determinism } : { determinism, partialReason });
  const report = buildReport(merged, verdict, coverageOf(merged), timingOf(ordered), {
    determinism,
    ...(shrunk === undefined ? {} : { shrunk }),
    ...(applicability === undefined ? {} : { applicability }),
  });
  const shrunkFrom = source !== undefined && shrunk !== undefined && !('skipped' in shrunk) ? { input: source, file: (shrunk as ReportShrunk).file } : null;
  return { ok: true, output: { report, shrunkFrom, missing } };
}

/** The first run-spec field on which two reports disagree (the self-check ratio counts as one). */
function specMismatch(inputs: readonly MergeInput[]): string | null {
  const head = inputs[0]!;
  for (const input of inputs.slice(1)) {
    for (const field of specFields) {
      const a = head.report.runSpec[field] ?? (field === 'transport' ? 'pure' : undefined);
      const b = input.report.runSpec[field] ?? (field === 'transport' ? 'pure' : undefined);
      if (a !== b) return `the reports are of different runs: ${head.name} has ${field} ${JSON.stringify(a)}, ${input.name} has ${field} ${JSON.stringify(b)}`;
    }
    const a = head.report.determinism?.selfCheckRatioPercent;
    const b = input.report.determinism?.selfCheckRatioPercent;
    if (a !== b) return `the reports are of different runs: ${head.name} has --self-check-ratio ${a}, ${input.name} has ${b}`;
  }
  return null;
}

/** A shard's slice, or the whole run for an unsharded report. */
function rangeOf(report: Report): ShardRange {
  const shard = report.runSpec.shard;
  return shard === undefined ? { start: 0, end: report.runSpec.interleavings } : { start: shard.start, end: shard.end };
}

function sliceText(input: MergeInput): string {
  const shard = input.report.runSpec.shard;
  const range = rangeOf(input.report);
  const what = shard === undefined ? 'the whole run' : `shard ${shard.index}/${shard.count}`;
  return `${input.name} (${what}, interleavings ${range.start}..${range.end - 1})`;
}

/** Inputs sorted by start: each is checked against the one reaching furthest before it. */
function overlapOf(ordered: readonly MergeInput[]): string | null {
  let furthest: MergeInput | null = null;
  for (const input of ordered) {
    const b = rangeOf(input.report);
    if (furthest !== null) {
      const a = rangeOf(furthest.report);
      if (a.start === b.start && a.end === b.end) return `duplicate shard: ${sliceText(furthest)} and ${sliceText(input)} cover the same interleavings`;
      if (b.start < a.end && b.end > b.start) return `overlapping shards: ${sliceText(furthest)} and ${sliceText(input)} share interleavings ${b.start}..${Math.min(a.end, b.end) - 1}`;
    }
    if (furthest === null || b.end > rangeOf(furthest.report).end) furthest = input;
  }
  return null;
}

function gapsOf(ordered: readonly MergeInput[], interleavings: number): ShardRange[] {
  const gaps: ShardRange[] = [];
  let covered = 0;
  for (const input of ordered) {
    const range = rangeOf(input.report);
    if (range.start > covered) gaps.push({ start: covered, end: range.start });
    covered = Math.max(covered, range.end);
  }
  if (covered < interleavings) gaps.push({ start: covered, end: interleavings });
  return gaps;
}

/** "missing shards 2/4 and 4/4 (interleavings 250..499, 750..999)" when the inputs share one shard count. */
function missingText(inputs: readonly MergeInput[], missing: readonly ShardRange[]): string {
  const ranges = missing.map((range) => `${range.start}..${range.end - 1}`).join(', ');
  const counts = new Set(inputs.map((input) => input.report.runSpec.shard?.count ?? 0));
  const count = [...counts][0]!;
  if (counts.size !== 1 || count === 0) return `interleavings ${ranges} are in no report`;
  const interleavings = inputs[0]!.report.runSpec.interleavings;
  const present = new Set(inputs.map((input) => input.report.runSpec.shard!.index));
  const indexes: string[] = [];
  for (let index = 1; index <= count; index++) {
    const start = Math.floor(((index - 1) * interleavings) / count);
    const end = Math.floor((index * interleavings) / count);
    if (!present.has(index) && end > start) indexes.push(`${index}/${count}`);
  }
  const list = indexes.length <= 20 ? indexes.join(', ') : `${indexes.slice(0, 20).join(', ')} and ${indexes.length - 20} more`;
  return `missing shard${indexes.length === 1 ? '' : 's'} ${list} (interleavings ${ranges})`;
}

/** Every shard checked the sampled indexes inside its own slice: their union is the unsharded check. */
function determinismOf(ordered: readonly MergeInput[]): ReportDeterminism {
  const checks = ordered.map((input) => input.report.determinism);
  const mismatches = checks.flatMap((check) => check?.mismatches ?? []).sort((a, b) => a.index - b.index);
  return {
    selfCheckRatioPercent: checks[0]?.selfCheckRatioPercent ?? 0,
    checked: checks.reduce((sum, check) => sum + (check?.checked ?? 0), 0),
    nondeterministic_interleavings: checks.reduce((sum, check) => sum + (check?.nondeterministic_interleavings ?? 0), 0),
    mismatches,
  };
}

/** Timing of the merge: the shards' wall times summed (compute spent, not elapsed), peak RSS the largest. */
function timingOf(ordered: readonly MergeInput[]): ReportTiming {
  const sum = (pick: (timing: ReportTiming) => number | undefined): number => ordered.reduce((total, input) => total + (pick(input.report.timing) ?? 0), 0);
  const wallMs = sum((timing) => timing.wallMs);
  const rate = (count: number): number => (wallMs > 0 ? Math.round((count * 1_000) / wallMs) : 0);
  const interleavings = ordered.reduce((total, input) => total + input.report.interleavings, 0);
  return {
    wallMs,
    interleavingsPerSecond: rate(interleavings),
    eventsPerSecond: rate(ordered.reduce((total, input) => total + input.report.totals.events, 0)),
    peakRssBytes: Math.max(...ordered.map((input) => input.report.timing.peakRssBytes)),
    selfCheckMs: sum((timing) => timing.selfCheckMs),
    shrinkMs: sum((timing) => timing.shrinkMs),
  };
}

function fail(reason: string): MergeResult {
  return { ok: false, reason };
}
