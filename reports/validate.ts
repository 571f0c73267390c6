/**
 * Reading a report.json back (`fencesim report`, `fencesim merge`): parse it and check its shape against
 * schema `fencesim.report.v1`, naming the first field that is wrong. The shape check accepts reports written
 * before a field was added (`determinism`, `distributions`, `accumulator`, `integrity`), and the renderers cope
 * without them; `fencesim report` and `merge` then refuse any report that verify.ts cannot check against its
 * own accumulator and digest, which such reports cannot pass.
 */
import { shardRange } from '../sim/shard.js';
import { reportSchema, type Report } from './json.js';

export type ParsedReport = { ok: true; report: Report } | { ok: false; reason: string };

type Check = (value: unknown, where: string) => string | null;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const number: Check = (value, where) => (typeof value === 'number' && Number.isFinite(value) ? null : `${where} is not a number`);
const count: Check = (value, where) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? null : `${where} is not a non-negative integer`);
const string: Check = (value, where) => (typeof value === 'string' ? null : `${where} is not a string`);
const boolean: Check = (value, where) => (typeof value === 'boolean' ? null : `${where} is not true or false`);

function object(fields: Record<string, Check>, optional: readonly string[] = []): Check {
  return (value, where) => {
    if (!isObject(value)) return `${where} is missing or not an object`;
    for (const [field, check] of Object.entries(fields)) {
      if (value[field] === undefined && optional.includes(field)) continue;
      if (value[field] === undefined) return `${where}.${field} is missing`;
      const problem = check(value[field], `${where}.${field}`);
      if (problem !== null) return problem;
    }
    return null;
  };
}

function arrayOf(item: Check): Check {
  return (value, where) => {
    if (!Array.isArray(value)) return `${where} is missing or not an array`;
    for (let index = 0; index < value.length; index++) {
      const problem = item(value[index], `${where}[${index}]`);
      if (problem !== null) return problem;
    }
    return null;
  };
}

function recordOf(item: Check): Check {
  return (value, where) => {
    if (!isObject(value)) return `${where} is missing or not an object`;
    for (const [key, entry] of Object.entries(value)) {
      const problem = item(entry, `${where}.${key}`);
      if (problem !== null) return problem;
    }
    return null;
  };
}

const comparator: Check = (value, where) => (value === '<' || value === '>=' ? null : `${where} is not "<" or ">="`);
const threshold = object({ comparator, value: number });
const histogram = object({ bucketMs: number, counts: arrayOf(number), overflow: number });

/** Shard index/count and the range they imply for N interleavings (see ReportShard). */
const shard: Check = (value, where) => {
  const problem = object({ index: count, count: count, start: count, end: count })(value, where);
  if (problem !== null) return problem;
  const { index, count: shards } = value as { index: number; count: number };
  if (shards < 1 || index < 1 || index > shards) return `${where} is shard ${index}/${shards}, which does not exist`;
  return null;
};

const transport: Check = (value, where) => (value === 'pure' || value === 'sdk' ? null : `${where} is not "pure" or "sdk"`);
const runSpec = object({ seed: count, interleavings: count, scenario: string, client: string, maxFailures: count, transport, shard }, ['transport', 'shard']);

const failure = object({ index: count, seed: count, scenario: string, client: string, invariant: string, timeMs: number, uri: string, detail: string, replay: string });

const determinism = object({
  selfCheckRatioPercent: count,
  checked: count,
  nondeterministic_interleavings: count,
  mismatches: arrayOf(object({ index: count, seed: count, firstTraceHash: number, secondTraceHash: number, line: count, first: string, second: string })),
});

const reportShape = object(
  {
    schema: string,
    runSpec,
    interleavings: count,
    passed: boolean,
    reasons: arrayOf(string),
    counters: recordOf(number),
    liveness: recordOf(number),
    metrics: recordOf(object({ value: number, threshold, passed: boolean, numerator: number, denominator: number })),
    thresholds: recordOf(threshold),
    coverage: object({ hit: count, total: count, edges: arrayOf(object({ edge: string, hits: number })), unreached: arrayOf(string) }),
    faults: recordOf(number),
    sometimes: recordOf(object({ fired: number, required: boolean })),
    totals: recordOf(number),
    distributions: object({ convergenceMs: histogram, revocationMs: histogram }),
    failures: arrayOf(failure),
    determinism,
    accumulator: (value, where) => (isObject(value) ? null : `${where} is not an object`),
    timing: object({ wallMs: number, interleavingsPerSecond: number, eventsPerSecond: number, peakRssBytes: number }),
  },
  ['determinism', 'distributions', 'accumulator'],
);

/** Parses report.json text; `name` (the file's path) starts every message. */
export function parseReport(text: string, name: string): ParsedReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `${name} is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (isObject(value) && value.schema !== reportSchema) {
    return { ok: false, reason: `${name} has schema ${JSON.stringify(value.schema)}, expected "${reportSchema}"` };
  }
  const problem = reportShape(value, 'report');
  if (problem !== null) return { ok: false, reason: `${name}: ${problem}` };
  const report = value as Report;
  if (report.runSpec.shard !== undefined) {
    const { index, count: shards, start, end } = report.runSpec.shard;
    const expected = shardRange(report.runSpec.interleavings, index, shards);
    if (start !== expected.start || end !== expected.end) {
      return { ok: false, reason: `${name}: runSpec.shard ${index}/${shards} says interleavings ${start}..${end} but of ${report.runSpec.interleavings} it is ${expected.start}..${expected.end}` };
    }
    if (report.interleavings !== end - start) return { ok: false, reason: `${name}: shard ${index}/${shards} covers ${end - start} interleavings but the report counts ${report.interleavings}` };
  }
  return { ok: true, report };
}
