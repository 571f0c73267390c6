/**
 * What every human-facing report shows, derived once from a `Report` (report.json) so the Markdown, JUnit
 * and HTML renderers cannot disagree: the verdict line, the reproduce command, the failing invariants with
 * their recorded replays, the metric rows formatted against their gates, the "sometimes" rows, the totals.
 * Pure functions of the report; no clock, no I/O.
 */
import { checkerRows } from './checkers.js';
import { replayCommand, sometimesMinimumInterleavings } from '../sim/gate.js';
import { shrinkStopText } from '../sim/shrink.js';
import type { MetricReport } from '../sim/gate.js';
import { gateRerunCommand, noShrinkSkipped } from '../sim/run-spec.js';
import { invariantExplanations, invariantIndex, livenessInvariants, safetyInvariants, type InvariantName, type LivenessInvariant } from '../sim/oracle.js';
import type { Histogram, Report, ReportDeterminism, ReportFailure, ReportNondeterminism, ReportShrunk } from './json.js';

export type { Histogram } from './json.js';

export type DistributionName = 'convergenceMs' | 'revocationMs';

/** The command that reruns the report's gate run (sim/run-spec.ts gateRerunCommand, as the CLI printed it). */
export function gateCommand(report: Pick<Report, 'runSpec' | 'determinism' | 'failures'>): string {
  const shrunk = report.failures[0]?.shrunk;
  const noShrink = shrunk !== undefined && 'skipped' in shrunk && shrunk.skipped === noShrinkSkipped;
  return gateRerunCommand(report.runSpec, { shard: report.runSpec.shard ?? null, selfCheckRatioPercent: report.determinism?.selfCheckRatioPercent, ...(noShrink ? { shrink: false } : {}) });
}

export function verdictWord(report: Report): 'PASSED' | 'FAILED' {
  return report.passed ? 'PASSED' : 'FAILED';
}

/** Options shared by the text renderers. */
export interface RenderOptions {
  /** Directory of report.json, to print the shrunk replay file's path; without it the bare file name is shown. */
  reportDir?: string;
}

/** "1,000 interleavings of read-race against reference, seed 11" (plain text, no markup). */
export function runDescription(report: Report): string {
  const spec = report.runSpec;
  return `${grouped(report.interleavings)} interleavings of ${spec.scenario} against ${spec.client}, seed ${spec.seed}`;
}

/**
 * `report.distributions[name]` when the simulator wrote it and it has the expected shape, else undefined.
 * Read through `unknown` so this compiles whether or not the `Report` type declares `distributions` yet.
 */
export function histogramOf(report: Report, name: DistributionName): Histogram | undefined {
  const distributions = (report as unknown as { distributions?: unknown }).distributions;
  if (typeof distributions !== 'object' || distributions === null) return undefined;
  const candidate = (distributions as Record<string, unknown>)[name];
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const { bucketMs, counts, overflow } = candidate as Record<string, unknown>;
  if (typeof bucketMs !== 'number' || !(bucketMs > 0) || !Array.isArray(counts)) return undefined;
  if (!counts.every((count) => typeof count === 'number' && count >= 0)) return undefined;
  return { bucketMs, counts: counts as number[], overflow: typeof overflow === 'number' && overflow > 0 ? overflow : 0 };
}

/**
 * The determinism self-check, or undefined when the report predates it. `checked` 0 means it was off.
 * Read defensively: an older report.json of the same schema has no `determinism`.
 */
export function determinismOf(report: Report): ReportDeterminism | undefined {
  const determinism = (report as { determinism?: ReportDeterminism }).determinism;
  return determinism === undefined || determinism === null ? undefined : determinism;
}

/** One line on the self-check: "30 sampled interleavings (1 %) ran twice more: all identical". */
export function determinismText(determinism: ReportDeterminism): string {
  if (determinism.checked === 0) return 'off (--self-check-ratio 0)';
  const verdict = determinism.nondeterministic_interleavings === 0 ? 'all identical' : `${grouped(determinism.nondeterministic_interleavings)} NONDETERMINISTIC`;
  return `${grouped(determinism.checked)} sampled interleavings (${determinism.selfCheckRatioPercent} %) ran twice more: ${verdict}`;
}

/** What differed between the two runs of one seed, in one line. */
export function mismatchText(mismatch: ReportNondeterminism): string {
  const hashes = `trace hash ${hex(mismatch.firstTraceHash)} then ${hex(mismatch.secondTraceHash)}`;
  if (mismatch.line === 0) return `interleaving ${mismatch.index}, seed ${mismatch.seed}: ${hashes}; the timelines agree line by line (the difference is in effects a timeline does not show)`;
  return `interleaving ${mismatch.index}, seed ${mismatch.seed}: ${hashes}; first difference at timeline line ${mismatch.line}: "${mismatch.first.trim()}" then "${mismatch.second.trim()}"`;
}

export function mismatchReplay(report: Report, mismatch: ReportNondeterminism): string {
  return replayCommand(mismatch.seed, report.runSpec.scenario, report.runSpec.client);
}

/** A 32-bit hash for people: 0x0000abcd. */
export function hex(value: number): string {
  return `0x${(value >>> 0).toString(16).padStart(8, '0')}`;
}

export type ShrinkView = { kind: 'shrunk'; failure: ReportFailure; shrunk: ReportShrunk } | { kind: 'skipped'; failure: ReportFailure; reason: string };

/** The first failure's shrink result, when the gate shrank it (or said why it did not). */
export function shrinkOf(report: Report): ShrinkView | undefined {
  const failure = report.failures[0];
  const shrunk = failure?.shrunk;
  if (failure === undefined || shrunk === undefined || shrunk === null) return undefined;
  if ('skipped' in shrunk) return { kind: 'skipped', failure, reason: shrunk.skipped };
  return { kind: 'shrunk', failure, shrunk };
}

/**
 * Transition coverage applies to clients that report the reference transition table's edges (the
 * reference core does; a naive or user-written client that keeps no such table reports none).
 */
export function usesReferenceTable(report: Report): boolean {
  return report.coverage.hit > 0;
}

export function noTableText(report: Report): string {
  return `client ${report.runSpec.client} reported no transition of the reference subscription table (it does not use it), so its ${report.coverage.total} edges are not listed as unreached`;
}

/** The command that replays the minimal failing run from its replay file. */
export function shrunkReplayCommand(shrunk: ReportShrunk, options: RenderOptions = {}): string {
  const dir = options.reportDir;
  const path = dir === undefined || dir === '' ? shrunk.file : `${dir.replace(/\/+$/, '')}/${shrunk.file}`;
  return `npx fencesim replay --file ${path}`;
}

/** "511 → 452 decisions in 1,669 replays, complete (1-minimal)" */
export function shrinkSummaryText(shrunk: ReportShrunk): string {
  const state = shrunk.complete ? 'complete (1-minimal)' : `INCOMPLETE (stopped by ${shrinkStopText(shrunk.stoppedBy)})`;
  return `${grouped(shrunk.decisionsBefore)} → ${grouped(shrunk.decisions)} decisions in ${grouped(shrunk.replays)} replays, ${state}`;
}

/** "28 lines up to the violation; 23 lines about other resources hidden" */
export function shrunkTimelineText(shrunk: ReportShrunk): string {
  return `${grouped(shrunk.timelineLines)} lines up to the violation${shrunk.hiddenLines > 0 ? `; ${grouped(shrunk.hiddenLines)} lines about other resources hidden` : ''}`;
}

export function histogramTotal(histogram: Histogram): number {
  let total = histogram.overflow;
  for (const count of histogram.counts) total += count;
  return total;
}

export interface InvariantFinding {
  name: InvariantName;
  kind: 'safety' | 'liveness';
  /** Safety: violations counted. Liveness: interleavings that did not converge. */
  count: number;
  explanation: string;
  /** The recorded failing interleavings whose first violation is this invariant (report.json keeps up to maxFailures). */
  failures: ReportFailure[];
}

/** "1 violation", "35 violations", "224 interleavings did not converge". */
export function findingCountText(finding: InvariantFinding): string {
  if (finding.kind === 'safety') return `${grouped(finding.count)} violation${finding.count === 1 ? '' : 's'}`;
  return `${grouped(finding.count)} interleaving${finding.count === 1 ? '' : 's'} did not converge`;
}

/** Safety invariants with a non-zero counter, then liveness invariants with failing interleavings, oracle order. */
export function failingInvariants(report: Report): InvariantFinding[] {
  const findings: InvariantFinding[] = [];
  const add = (name: InvariantName, kind: 'safety' | 'liveness', count: number): void => {
    if (count > 0) findings.push({ name, kind, count, explanation: explanationOf(name), failures: failuresOf(report, name) });
  };
  for (const name of safetyNames(report)) add(name, 'safety', report.counters[name] ?? 0);
  for (const name of Object.keys(report.liveness) as InvariantName[]) add(name, 'liveness', report.liveness[name] ?? 0);
  return findings;
}

/** The safety counters in report order (the oracle's order), falling back to the oracle's list. */
export function safetyNames(report: Report): InvariantName[] {
  const names = Object.keys(report.counters);
  return (names.length > 0 ? names : [...safetyInvariants]) as InvariantName[];
}

/**
 * The safety invariants this run never checked (report.json accumulator.checks 0: the inputs or faults they judge
 * never occurred, e.g. malformed inputs in a run without the malformed-input fault). Their 0 is no evidence.
 */
export function uncheckedSafetyNames(report: Report): InvariantName[] {
  const checks = report.accumulator?.checks;
  if (!Array.isArray(checks)) return [];
  return safetyNames(report).filter((name) => checks[invariantIndex[name]] === 0);
}

/** The lead of an all-zero safety section: how many counters are 0, and which of them nothing checked. */
export function allSafetyZeroText(report: Report): string {
  const unchecked = uncheckedSafetyNames(report);
  const all = `All ${safetyNames(report).length} safety counters are 0`;
  return unchecked.length === 0 ? `${all}.` : `${all}; ${unchecked.length} of them were never checked in this run (nothing they judge occurred): ${unchecked.join(', ')}.`;
}

export function failuresOf(report: Report, invariant: string): ReportFailure[] {
  return report.failures.filter((failure) => failure.invariant === invariant);
}

export function explanationOf(name: string): string {
  return (invariantExplanations as Record<string, string>)[name] ?? '';
}

export function isLiveness(name: string): boolean {
  return (livenessInvariants as readonly string[]).includes(name);
}

/** What an interleaving failing each liveness invariant lacked (a Record, so a new invariant cannot go without its text). */
const livenessFailureTexts: Record<LivenessInvariant, string> = {
  convergence_60s: 'with a change not reflected within 60 s',
  healed_convergence: 'with a wanted resource not converged within its bound after the heal',
  healed_deletion: 'with a deleted resource not confirmed deleted within its bound after the heal',
  healed_catalog: 'without a catalog of the healed listing within its bound after the heal',
};

/** What an interleaving failing a liveness invariant lacked: "3 interleavings <text>". */
export function livenessFailureText(name: string): string {
  return livenessFailureTexts[name as LivenessInvariant] ?? livenessFailureTexts.convergence_60s;
}

export interface MetricRow {
  name: string;
  /** The value formatted with its unit, precise enough that it visibly sits on the right side of the gate; "not measured" without samples. */
  value: string;
  /** "< 1.2", "≥ 99.9 %", "< 30,000 ms" (`plainGate` spells ≥ as >=). */
  gate: string;
  plainGate: string;
  passed: boolean;
  /** False when the run produced no sample: the metric is "not measured", whatever its placeholder value. */
  sampled: boolean;
  /** "pass", "FAIL", "not measured" or "FAIL: not measured": the one result word every format shows. */
  result: string;
  /** What was measured: "40,446 notification reads / 74,290 notified changes". */
  measured: string;
  /** A caveat a reader needs, or ''. */
  note: string;
}

export const notMeasured = 'not measured';

/** A metric with no sample (denominator 0) is not measured; reports written before `measured` existed say so by their denominator. */
export function isMeasured(metric: MetricReport): boolean {
  return metric.measured ?? metric.denominator > 0;
}

export function metricRows(report: Report): MetricRow[] {
  return Object.entries(report.metrics).map(([name, metric]) => metricRow(report, name, metric));
}

function metricRow(report: Report, name: string, metric: MetricReport): MetricRow {
  const row = measuredRow(report, name, metric);
  const sampled = isMeasured(metric);
  const result = sampled ? (metric.passed ? 'pass' : 'FAIL') : metric.passed ? notMeasured : `FAIL: ${notMeasured}`;
  if (sampled) return { ...row, sampled, result };
  const why = metric.passed ? 'the scenario does not claim this metric, so the gate does not require it' : `scenario ${report.runSpec.scenario} claims this metric, so the gate fails`;
  return { ...row, value: notMeasured, sampled, result, note: `no sample in this run (${row.note === '' ? '0 samples' : row.note}): ${why}` };
}

function measuredRow(report: Report, name: string, metric: MetricReport): Omit<MetricRow, 'sampled' | 'result'> {
  const threshold = metric.threshold;
  const symbol = threshold.comparator === '>=' ? '≥' : threshold.comparator;
  if (name === 'convergence_60s') {
    const nonConverging = report.liveness[name] ?? 0;
    return {
      name,
      value: `${preciseNumber(metric.value * 100, threshold.value * 100, threshold.comparator, 2)} %`,
      gate: `${symbol} ${threshold.value * 100} %`,
      plainGate: `${threshold.comparator} ${threshold.value * 100} %`,
      passed: metric.passed,
      measured: `${grouped(metric.numerator)} of ${grouped(metric.denominator)} changes reflected within 60 s`,
      note: nonConverging > 0 ? `${grouped(nonConverging)} interleavings had a change not reflected within 60 s` : metric.denominator === 0 ? 'no change was tracked' : '',
    };
  }
  const p99Of = name === 'revocation_p99_ms' ? ['measured revocations', 'no revocation was measured'] : name === 'staleness_at_serve_p99_ms' ? ['serves on 2026-07-28 connections', 'no 2026-07-28 serve was measured'] : null;
  if (p99Of !== null) {
    return {
      name,
      value: `${grouped(metric.value)} ms`,
      gate: `${symbol} ${grouped(threshold.value)} ms`,
      plainGate: `${threshold.comparator} ${grouped(threshold.value)} ms`,
      passed: metric.passed,
      measured: `p99 of ${grouped(metric.denominator)} ${p99Of[0]}`,
      note: metric.denominator === 0 ? p99Of[1]! : '',
    };
  }
  const measured =
    name === 'read_amplification'
      ? `${grouped(metric.numerator)} notification reads / ${grouped(metric.denominator)} notified changes`
      : `${grouped(metric.numerator)} / ${grouped(metric.denominator)}`;
  return {
    name,
    value: preciseNumber(metric.value, threshold.value, threshold.comparator, 3),
    gate: `${symbol} ${threshold.value}`,
    plainGate: `${threshold.comparator} ${threshold.value}`,
    passed: metric.passed,
    measured,
    note: name === 'read_amplification' && metric.denominator === 0 ? 'no notified change' : '',
  };
}

/**
 * `value` with `digits` decimals (trailing zeros trimmed), or more when rounding would put it on the
 * other side of the gate (99.8996 % must not print as 99.90 % next to a gate of 99.9 %).
 */
export function preciseNumber(value: number, gate: number, comparator: '<' | '>=', digits: number): string {
  const passes = (x: number): boolean => (comparator === '<' ? x < gate : x >= gate);
  for (let places = digits; places <= 8; places++) {
    const text = trimZeros(value.toFixed(places));
    if (passes(Number(text)) === passes(value)) return text;
  }
  return String(value);
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

export type SometimesStatus = 'fired' | 'never fired' | 'not enforced' | 'not required';

export interface SometimesRow {
  fault: string;
  fired: number;
  required: boolean;
  /** fired: required and fired; never fired: required, enforced and missing (fails the gate);
   *  not enforced: required and missing in a run too small to enforce it; not required: fired anyway. */
  status: SometimesStatus;
  text: string;
}

/** Whether a run is large enough for the gate to enforce its "sometimes" expectations. */
export function sometimesEnforced(report: Report): boolean {
  return report.interleavings >= sometimesMinimumInterleavings;
}

export function sometimesRows(report: Report): SometimesRow[] {
  const enforced = sometimesEnforced(report);
  return Object.entries(report.sometimes).map(([fault, entry]) => {
    const status: SometimesStatus = !entry.required ? 'not required' : entry.fired > 0 ? 'fired' : enforced ? 'never fired' : 'not enforced';
    const texts: Record<SometimesStatus, string> = {
      fired: 'required, fired',
      'never fired': 'required, NEVER FIRED',
      'not enforced': `required, never fired (not enforced below ${grouped(sometimesMinimumInterleavings)} interleavings)`,
      'not required': 'fired (not required)',
    };
    return { fault, fired: entry.fired, required: entry.required, status, text: texts[status] };
  });
}

export function totalsRows(report: Report): [string, string][] {
  const totals = report.totals;
  return [
    ['events', grouped(totals.events)],
    ['client steps', grouped(totals.steps)],
    ['reads', grouped(totals.reads)],
    ['accepts', grouped(totals.accepts)],
    ['stale receipts', grouped(totals.staleReceipts)],
    ['audits', grouped(totals.audits)],
    ['rejections', grouped(totals.rejections)],
    ['virtual time', duration(totals.virtualMs)],
    ...checkerRows(report.checkers, report.freshness, grouped),
  ];
}

/** "3.0 s wall, 169 interleavings/s, 68,401 events/s, peak RSS 94.2 MiB, self-check 1.4 s, shrink 62 ms". */
export function timingText(report: Report): string {
  const timing = report.timing;
  const extra = `${timing.selfCheckMs ? `, self-check ${duration(timing.selfCheckMs)}` : ''}${timing.shrinkMs ? `, shrink ${duration(timing.shrinkMs)}` : ''}`;
  return `${duration(timing.wallMs)} wall, ${grouped(timing.interleavingsPerSecond)} interleavings/s, ${grouped(timing.eventsPerSecond)} events/s, peak RSS ${mebibytes(timing.peakRssBytes)}${extra}`;
}

/** Integer with thousands separators: 1234567 -> "1,234,567". */
export function grouped(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? '-' : '';
  return sign + Math.round(Math.abs(value)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A duration for people: "850 ms", "12.3 s", "4 min 05 s", "2 h 03 min". */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const wholeSeconds = Math.round(seconds);
  if (wholeSeconds < 3_600) return `${Math.floor(wholeSeconds / 60)} min ${String(wholeSeconds % 60).padStart(2, '0')} s`;
  const minutes = Math.round(wholeSeconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Bytes in MiB for people: "87.4 MiB". */
export function mebibytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}
