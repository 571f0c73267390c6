/**
 * The gate summary printed after a run, rendered from the JSON report only (like every other report),
 * so what a person reads and what CI archives cannot disagree.
 */
import { dirname, join } from 'node:path';
import { hex, livenessFailureText, metricRows, mismatchReplay, noTableText, notMeasured, usesReferenceTable, runDescription, timingText, totalsRows, uncheckedSafetyNames, verdictWord } from '../reports/digest.js';
import type { Report, ReportFailure } from '../reports/json.js';
import { indexerSummaryLines } from '../reports/indexer-render.js';
import { shrinkCommand } from '../sim/run-spec.js';
import { shrinkStopText } from '../sim/shrink.js';
import { columns, grouped } from './format.js';

/** Failures shown in full on the terminal; report.json holds up to --max-failures. */
export const failuresShown = 3;

export function summaryLines(report: Report, reportPath: string): string[] {
  return [
    '',
    ...headline(report),
    ...safetySection(report),
    ...livenessSection(report),
    ...metricsSection(report),
    ...sometimesSection(report),
    ...coverageSection(report),
    ...totalsSection(report),
    ...failuresSection(report, reportPath),
    ...indexerSummaryLines(report),
    ...determinismSection(report),
    `report: ${reportPath}`,
    timingLine(report),
    `gate ${report.passed ? 'PASSED' : 'FAILED'}`,
  ];
}

function headline(report: Report): string[] {
  const spec = report.runSpec;
  const shard = spec.shard === undefined ? '' : `, shard ${spec.shard.index}/${spec.shard.count} (interleavings ${spec.shard.start}..${spec.shard.end - 1} of ${grouped(spec.interleavings)})`;
  const first = `${verdictWord(report)}: ${runDescription(report)}${shard}`;
  return [first, ...report.reasons.map((reason) => `  - ${reason}`)];
}

function safetySection(report: Report): string[] {
  const unchecked = new Set<string>(uncheckedSafetyNames(report));
  const rows = Object.entries(report.counters).map(([name, count]) => [name, grouped(count), count > 0 ? 'FAIL' : unchecked.has(name) ? 'ok (never checked in this run)' : 'ok']);
  return ['safety counters (each must be 0):', ...columns(rows)];
}

function livenessSection(report: Report): string[] {
  const rows = Object.entries(report.liveness).map(([name, count]) => [name, `${grouped(count)} interleavings ${livenessFailureText(name)}`]);
  return ['liveness (interleavings failing each):', ...columns(rows)];
}

function metricsSection(report: Report): string[] {
  const rows = metricRows(report).map((row) => [row.name, row.sampled ? String(report.metrics[row.name]!.value) : notMeasured, `gate ${row.plainGate}`, row.result, `(${row.measured})`]);
  return ['metrics:', ...columns(rows)];
}

function sometimesSection(report: Report): string[] {
  const entries = Object.entries(report.sometimes);
  const rows = entries.map(([name, entry]) => [name, grouped(entry.fired), entry.required ? (entry.fired > 0 ? 'required, fired' : 'required, NEVER FIRED') : '']);
  const body = rows.length === 0 ? ['  (no fault fired and none is required)'] : columns(rows);
  return ['sometimes (faults that fired):', ...body];
}

function coverageSection(report: Report): string[] {
  const coverage = report.coverage;
  if (!usesReferenceTable(report)) return [`transition coverage: not applicable (${noTableText(report)})`];
  const unreached = coverage.unreached.map((edge) => `  unreached: ${edge}`);
  return [`transition coverage: ${coverage.hit}/${coverage.total} edges hit`, ...unreached];
}

function totalsSection(report: Report): string[] {
  return ['totals:', ...columns(totalsRows(report))];
}

function failuresSection(report: Report, reportPath: string): string[] {
  const failures = report.failures;
  if (failures.length === 0) return ['failures: none'];
  const shown = failures.slice(0, failuresShown);
  const lines = [`failures (first ${shown.length} of ${failures.length} recorded; all recorded ones are in report.json):`];
  for (const failure of shown) {
    lines.push(`  ${failure.replay}`);
    lines.push(`    ${failure.invariant} at ${failure.timeMs} ms on ${failure.uri}: ${failure.detail}`);
    // The first failure is shrunk already (below); the others can be, on the pure transport (shrink has no --transport).
    if (failure.shrunk === undefined && report.runSpec.transport !== 'sdk') {
      lines.push(`    shrink it: ${shrinkCommand(failure.seed, failure.scenario, failure.client, failure.invariant)}`);
    }
  }
  return [...lines, ...shrunkSection(failures[0]!, reportPath)];
}

/** The first failure's minimal replay: how it was shrunk, where it is, and its timeline. */
function shrunkSection(failure: ReportFailure, reportPath: string): string[] {
  const shrunk = failure.shrunk;
  if (shrunk === undefined) return [];
  if ('skipped' in shrunk) return [`first failure ${shrunk.skipped}`];
  const file = join(dirname(reportPath), shrunk.file);
  const state = shrunk.complete ? 'complete (1-minimal)' : `INCOMPLETE (stopped by ${shrinkStopText(shrunk.stoppedBy)})`;
  return [
    `first failure shrunk: ${shrunk.decisionsBefore} → ${shrunk.decisions} decisions in ${grouped(shrunk.replays)} replays, ${state}`,
    `  replay it: npx fencesim replay --file ${file}`,
    `  minimal timeline (${shrunk.timelineLines} lines up to the violation${shrunk.hiddenLines > 0 ? `; ${shrunk.hiddenLines} lines about other resources hidden` : ''}):`,
    ...shrunk.timeline.map((line) => `  ${line}`),
  ];
}

function determinismSection(report: Report): string[] {
  const determinism = report.determinism;
  if (determinism.checked === 0) return ['determinism self-check: off'];
  const verdict = determinism.nondeterministic_interleavings === 0 ? 'all identical' : `${determinism.nondeterministic_interleavings} NONDETERMINISTIC`;
  const lines = [`determinism self-check: ${determinism.checked} interleavings (${determinism.selfCheckRatioPercent} %) run twice more: ${verdict}`];
  for (const mismatch of determinism.mismatches.slice(0, failuresShown)) {
    lines.push(`  interleaving ${mismatch.index}, seed ${mismatch.seed}: trace hash ${hex(mismatch.firstTraceHash)} then ${hex(mismatch.secondTraceHash)}`);
    if (mismatch.line === 0) {
      lines.push('    the timelines agree line by line: the difference is in effects a timeline does not show (armed timers, derived entries)');
    } else {
      lines.push(`    first difference at timeline line ${mismatch.line}:`, `      first run:  ${mismatch.first.trim()}`, `      second run: ${mismatch.second.trim()}`);
    }
    lines.push(`    replay it: ${mismatchReplay(report, mismatch)}`);
  }
  return lines;
}

function timingLine(report: Report): string {
  return `timing: ${timingText(report)}`;
}
