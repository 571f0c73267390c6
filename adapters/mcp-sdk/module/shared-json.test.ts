/**
 * SharedJson writes exactly JSON.stringify's text, for any JSON-like value and across a sequence of
 * copy-on-write versions of one value (where it reuses the text of unchanged members); and cacheModule's
 * ledger, persisted through it, recovers the same client as a ledger persisted as an object.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../../../core/reducer.js';
import { findScenario } from '../../../scenarios/catalog.js';
import { faultIndex } from '../../../sim/faults.js';
import { cacheModule } from './cache-module.js';
import { moduleApplicability } from './module-gate.js';
import { runModuleInterleaving } from './module-world.js';
import { SharedJson } from './shared-json.js';

/** JSON-like values with what JSON.stringify treats specially: undefined members, -0, NaN, odd keys and strings. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant(-0)),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 5 })),
})).node;

/** A copy-on-write change: the path to one member is copied, everything else is shared with `before`. */
function changed(before: unknown, path: readonly string[], replacement: unknown): unknown {
  if (path.length === 0 || typeof before !== 'object' || before === null || Array.isArray(before)) return replacement;
  const [key, ...rest] = path;
  const record = before as Record<string, unknown>;
  return { ...record, [key!]: changed(record[key!], rest, replacement) };
}

describe('SharedJson', () => {
  it('writes what JSON.stringify writes, for any JSON-like value', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(new SharedJson().write(input)).toBe(JSON.stringify(input) ?? 'null');
      }),
      { numRuns: 500 },
    );
  });

  it('writes what JSON.stringify writes for every version of copy-on-write data, reusing unchanged members', () => {
    const step = fc.record({ path: fc.array(fc.constantFrom('a', 'b', 'c', 'records', 'x'), { maxLength: 3 }), replacement: value });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b', 'c', 'records'), value), fc.array(step, { maxLength: 12 }), (first, steps) => {
        const json = new SharedJson();
        let current: unknown = { records: { r1: { n: 1, inner: { k: [1, 2] } }, r2: { n: 2, inner: { k: [] } } }, ...first };
        expect(json.write(current)).toBe(JSON.stringify(current));
        for (const { path, replacement } of steps) {
          current = changed(current, path, replacement);
          expect(json.write(current)).toBe(JSON.stringify(current) ?? 'null');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reuses the text of a member that is the same object as at the last write (so data changed in place is not for it)', () => {
    const json = new SharedJson();
    const records = { r1: { n: 1, tags: ['a'] }, r2: { n: 2, tags: ['b'] } };
    const revoked = {};
    expect(json.write({ version: 1, records, revoked })).toBe(JSON.stringify({ version: 1, records, revoked }));
    records.r1.n = 99; // changed in place: the shared member keeps its old text
    expect(json.write({ version: 2, records, revoked })).toBe('{"version":2,"records":{"r1":{"n":1,"tags":["a"]},"r2":{"n":2,"tags":["b"]}},"revoked":{}}');
    expect(json.write({ version: 3, records: { ...records, r1: { ...records.r1 } }, revoked })).toContain('"r1":{"n":99,'); // a copy is written anew
  });
});

describe('cacheModule persists the reference core ledger as its JSON text (written when a crash loads it)', () => {
  it('a crashed and recovered FencedResourceCache runs exactly as with the ledger persisted as an object', async () => {
    const scenario = findScenario('client-crash')!;
    const viaText = cacheModule();
    const viaObject = cacheModule({ client: { ...referenceClient }, name: 'fenced-cache' }); // another reducer object: the plain path
    let crashes = 0;
    for (const seed of [1, 2, 3, 4]) {
      const text = await runModuleInterleaving(seed, moduleApplicability(scenario, viaText).scenario, viaText, { trace: true, record: false });
      const object = await runModuleInterleaving(seed, moduleApplicability(scenario, viaObject).scenario, viaObject, { trace: true, record: false });
      crashes += text.faultCounts[faultIndex['client-crash']]!;
      expect(text.traceHash).toBe(object.traceHash);
      expect(text.timeline).toEqual(object.timeline);
      expect(text.oracle.violations).toEqual(object.oracle.violations);
    }
    expect(crashes).toBeGreaterThan(0);
  }, 120_000);
});
