/**
 * report.json's `accumulator` section: every field a GateAccumulator holds, as plain JSON (typed arrays as
 * number arrays, failures as objects), so shard reports merge into exactly the unsharded result
 * (`fencesim merge`: restore each, GateAccumulator.merge, rebuild the verdict). Generic over the
 * accumulator's own fields, like cli/accumulator-data.ts, so a new field travels without changes here; a
 * section whose fields do not match this version's accumulator is refused, never guessed at.
 */
import { GateAccumulator, type Failure, type RunSpec } from '../sim/gate.js';
import { allInvariants } from '../sim/oracle.js';

export type AccumulatorSection = Record<string, number | number[] | Failure[]>;

export function accumulatorSection(accumulator: GateAccumulator): AccumulatorSection {
  const section: AccumulatorSection = {};
  for (const [key, value] of Object.entries(accumulator)) {
    if (key === 'spec') continue;
    if (typeof value === 'number') section[key] = value;
    else if (ArrayBuffer.isView(value)) section[key] = Array.from(value as unknown as ArrayLike<number>);
    else if (key === 'failures') section[key] = (value as Failure[]).map((failure) => ({ ...failure }));
    else throw new Error(`GateAccumulator.${key} has a type the report's accumulator section cannot carry`);
  }
  return section;
}

export type Restored = { ok: true; accumulator: GateAccumulator } | { ok: false; reason: string };

/** The accumulator a section was written from; `reason` names the first field that does not fit. */
export function accumulatorFromSection(spec: RunSpec, section: unknown): Restored {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) return fail('accumulator is missing or not an object (written by an older fencesim? re-run the gate)');
  const data = section as Record<string, unknown>;
  const accumulator = new GateAccumulator(spec);
  const target = accumulator as unknown as Record<string, unknown>;
  const expected = Object.keys(accumulator).filter((key) => key !== 'spec');
  for (const key of Object.keys(data)) {
    if (!expected.includes(key)) return fail(`accumulator.${key} is not a field of this fencesim's accumulator (written by another version?)`);
  }
  for (const key of expected) {
    const value = data[key];
    const current = target[key];
    if (value === undefined) return fail(`accumulator.${key} is missing (written by another fencesim version?)`);
    if (typeof current === 'number') {
      if (!isCount(value)) return fail(`accumulator.${key} is not a non-negative number`);
      target[key] = value;
    } else if (ArrayBuffer.isView(current)) {
      const array = current as unknown as Float64Array;
      if (!Array.isArray(value) || value.length !== array.length) return fail(`accumulator.${key} is not an array of ${array.length} numbers`);
      for (let index = 0; index < value.length; index++) {
        if (!isCount(value[index])) return fail(`accumulator.${key}[${index}] is not a non-negative number`);
        array[index] = value[index] as number;
      }
    } else if (key === 'failures') {
      const failures = failuresOf(value, spec);
      if (typeof failures === 'string') return fail(failures);
      accumulator.failures = failures;
    }
  }
  return { ok: true, accumulator };
}

function failuresOf(value: unknown, spec: RunSpec): Failure[] | string {
  if (!Array.isArray(value)) return 'accumulator.failures is not an array';
  if (value.length > spec.maxFailures) return `accumulator.failures holds ${value.length} failures, more than maxFailures ${spec.maxFailures}`;
  const failures: Failure[] = [];
  for (let index = 0; index < value.length; index++) {
    const item = value[index] as Record<string, unknown> | null;
    const where = `accumulator.failures[${index}]`;
    if (typeof item !== 'object' || item === null) return `${where} is not an object`;
    for (const field of ['index', 'seed', 'timeMs'] as const) if (!isCount(item[field])) return `${where}.${field} is not a non-negative number`;
    for (const field of ['scenario', 'client', 'invariant', 'uri', 'detail', 'replay'] as const) if (typeof item[field] !== 'string') return `${where}.${field} is not a string`;
    if (!(allInvariants as readonly string[]).includes(item.invariant as string)) return `${where}.invariant ${JSON.stringify(item.invariant)} is not an invariant`;
    failures.push({
      index: item.index as number,
      seed: item.seed as number,
      scenario: item.scenario as string,
      client: item.client as string,
      invariant: item.invariant as Failure['invariant'],
      timeMs: item.timeMs as number,
      uri: item.uri as string,
      detail: item.detail as string,
      replay: item.replay as string,
    });
  }
  return failures;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function fail(reason: string): Restored {
  return { ok: false, reason };
}
