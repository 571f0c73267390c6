/**
 * A report cannot lie: every report.json read back (`fencesim report`, `fencesim merge`) is checked before
 * anything is rendered or merged, and the first contradiction is named:
 *
 * 1. it was written by this fencesim version (`integrity.fencesimVersion`) and its timing is finite and
 *    not negative;
 * 2. its raw accumulator obeys the laws every gate run obeys (accumulator-laws.ts);
 * 3. its verdict, reasons, counters, liveness, metrics, thresholds, coverage, faults, sometimes, totals,
 *    distributions and failures are exactly what this version computes from that accumulator and run spec
 *    (a partial merge may only add its own "partial merge" reason, which fails the gate);
 * 4. its content and timing digests match (integrity.ts), which catches edits to what cannot be
 *    recomputed (the shrunk timeline, failure details, the determinism self-check's text).
 *
 * What no check on the file alone can catch: a forger who writes a self-consistent accumulator (say, no
 * violations at all) and recomputes the unkeyed digests. The run spec in the report is the remedy: the
 * same `fencesim gate --seed ...` command reproduces the run byte for byte.
 */
import { judgedScenario } from '../sim/applicability.js';
import { findScenario } from '../scenarios/catalog.js';
import { coverageOf, verdictOf } from '../sim/gate.js';
import { accumulatorFromSection } from './accumulator-json.js';
import { accumulatorLawProblem, determinismProblem } from './accumulator-laws.js';
import { contentSha256, timingSha256 } from './integrity.js';
import { buildReport, runSpecOf, serializeFields, type Report, type ReportExtras } from './json.js';
import { fencesimVersion } from './version.js';

/** The fields recomputed from the accumulator, compared in this order. */
const recomputedFields = ['interleavings', 'passed', 'outcome', 'counters', 'liveness', 'metrics', 'thresholds', 'coverage', 'faults', 'sometimes', 'totals', 'distributions', 'failures', 'indexer', 'observability', 'eras'] as const;

const timingFields = ['wallMs', 'interleavingsPerSecond', 'eventsPerSecond', 'peakRssBytes', 'selfCheckMs', 'shrinkMs'] as const;

const partialReasonPrefix = 'partial merge: ';

/** The first contradiction in `report` (a parsed report.json), prefixed with `name`; null when it holds. */
export function reportProblem(report: Report, name: string): string | null {
  const problem = versionProblem(report) ?? timingProblem(report) ?? recomputedProblem(report) ?? digestProblem(report);
  return problem === null ? null : `${name}: ${problem}`;
}

function versionProblem(report: Report): string | null {
  const integrity = report.integrity;
  if (integrity === undefined) return 'integrity is missing: this report was not written by this fencesim (or was written before reports were bound to their code); re-run the gate';
  if (typeof integrity !== 'object' || integrity === null || typeof integrity.fencesimVersion !== 'string' || typeof integrity.contentSha256 !== 'string') {
    return 'integrity is not an object with fencesimVersion and contentSha256 strings';
  }
  if (integrity.fencesimVersion !== fencesimVersion) {
    return `integrity.fencesimVersion is ${JSON.stringify(integrity.fencesimVersion)} but this is fencesim ${fencesimVersion}: its verdict cannot be checked by this version; use fencesim ${integrity.fencesimVersion} or re-run the gate`;
  }
  return null;
}

function timingProblem(report: Report): string | null {
  for (const field of timingFields) {
    const value = report.timing[field];
    if (value === undefined && (field === 'selfCheckMs' || field === 'shrinkMs')) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `timing.${field} is ${JSON.stringify(value)}, not a non-negative number`;
  }
  return null;
}

function recomputedProblem(report: Report): string | null {
  const spec = runSpecOf(report.runSpec);
  const catalogued = findScenario(spec.scenario);
  if (catalogued === undefined) return `runSpec.scenario ${JSON.stringify(spec.scenario)} is not a scenario of this fencesim`;
  const scenario = judgedScenario(catalogued, report.applicability);
  const restored = accumulatorFromSection(spec, report.accumulator);
  if (!restored.ok) return restored.reason;
  const accumulator = restored.accumulator;
  const range = report.runSpec.shard ?? { start: 0, end: spec.interleavings };
  const partial = report.runSpec.shard === undefined && accumulator.interleavings < spec.interleavings;
  const law = accumulatorLawProblem(accumulator, range, partial) ?? determinismProblem(report.determinism, spec, range, partial);
  if (law !== null) return law;
  const shrunk = report.failures[0]?.shrunk;
  const extras: ReportExtras = { determinism: report.determinism };
  if (shrunk !== undefined) extras.shrunk = shrunk;
  if (report.runSpec.shard !== undefined) extras.shard = report.runSpec.shard;
  if (report.applicability !== undefined) extras.applicability = report.applicability;
  // A partial merge's own reason names its input files: taken as given (reasonsProblem checks its place and prefix).
  const partialReason = partial ? (report.reasons.at(-1) ?? partialReasonPrefix) : undefined;
  const evidence = { determinism: report.determinism, ...(partialReason === undefined ? {} : { partialReason }) };
  const rebuilt = buildReport(accumulator, verdictOf(accumulator, scenario, evidence), coverageOf(accumulator), report.timing, extras);
  for (const field of recomputedFields) {
    const difference = firstDifference(report[field], rebuilt[field], field);
    if (difference !== null) return `${difference}, recomputed from its accumulator (the report was edited, or is not what the gate wrote)`;
  }
  return reasonsProblem(report.reasons, rebuilt.reasons, partial);
}

/** The recomputed reasons, in order; a partial merge ends with exactly one reason of its own (its verdict took it as given). */
function reasonsProblem(given: readonly string[], expected: readonly string[], partial: boolean): string | null {
  if (partial && given.at(-1)?.startsWith(partialReasonPrefix) !== true) {
    return `reasons must end with one "${partialReasonPrefix}..." reason: the report covers fewer interleavings than its run spec`;
  }
  const difference = firstDifference(given.slice(0, expected.length), expected, 'reasons');
  if (difference !== null) return `${difference}, recomputed from its accumulator`;
  if (given.length !== expected.length) {
    return partial
      ? `reasons must end with one "${partialReasonPrefix}..." reason: the report covers fewer interleavings than its run spec`
      : `reasons has ${given.length} entries but its accumulator gives ${expected.length}`;
  }
  return null;
}

function digestProblem(report: Report): string | null {
  const content = contentSha256(report, serializeFields);
  if (report.integrity!.contentSha256 !== content) {
    return `integrity.contentSha256 does not match the content (${content}): the report was edited after it was written`;
  }
  if (report.timing.sha256 !== timingSha256(report.timing, content)) return 'timing.sha256 does not match the timing and content: the timing was edited after it was written';
  return null;
}

/** "counters.version_regression is 0 but should be 5", for the first place two JSON values differ. */
export function firstDifference(given: unknown, expected: unknown, path: string): string | null {
  if (Object.is(given, expected)) return null;
  if (Array.isArray(expected) && Array.isArray(given)) {
    if (given.length !== expected.length) return `${path} has ${given.length} entries but should have ${expected.length}`;
    for (let index = 0; index < expected.length; index++) {
      const difference = firstDifference(given[index], expected[index], `${path}[${index}]`);
      if (difference !== null) return difference;
    }
    return null;
  }
  if (isRecord(expected) && isRecord(given)) {
    for (const key of Object.keys(expected)) {
      const difference = firstDifference(given[key], expected[key], `${path}.${key}`);
      if (difference !== null) return difference;
    }
    const unexpected = Object.keys(given).find((key) => !(key in expected) && given[key] !== undefined);
    return unexpected === undefined ? null : `${path}.${unexpected} should not be there`;
  }
  return `${path} is ${shown(given)} but should be ${shown(expected)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
