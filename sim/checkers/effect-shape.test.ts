/**
 * effect_malformed (sim/checkers/effect-shape.ts): an effect without the fields of its type, of no known type or not
 * an object is a violation; every documented effect shape passes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ClientEffect } from '../../core/types.js';
import { Oracle } from '../oracle.js';
import { invariantIndex } from '../invariants.js';
import { truth } from '../../test/oracle-steps.js';
import { effectShapeProblem, effectShapes, hasEffectShape, type FieldShape } from './effect-shape.js';

const uri = 'test://static/resource/1';

const wellFormed: readonly ClientEffect[] = [
  { type: 'RequestSent', requestId: 3, sessionGeneration: 1, method: 'resources/read', uri, reason: 'poll', readOrdinal: 2, subject: 'alice' },
  { type: 'TimerArmed', timer: { kind: 'reconcile', uri }, deadlineMs: 25_000 },
  { type: 'StalenessBoundPublished', uri, boundMs: 8_000, mode: 'polling' },
  { type: 'SubscriptionClosed', uri, closeEpoch: 1, closeOrdinal: 4, outcome: 'ACKED' },
  { type: 'ContentRefused', uri, subject: 'alice', reason: 'nothing cached for this resource' },
  { type: 'ProtocolRejected', rejection: { kind: 'InvalidUri', detail: 'x' } },
  { type: 'OutboxEntryWritten', uri, sequence: 1, operation: 'upsert', digest: 'd', derivedEntries: ['e'], supersedes: [] },
  { type: 'CompletenessTaskDecided', task: 't', accepted: false, catalogStatus: 'NONE', reason: 'r' },
];

describe('effect shape: effect_malformed', () => {
  it('every documented shape passes', () => {
    for (const effect of wellFormed) expect(effectShapeProblem(effect), effect.type).toBeNull();
  });

  it('hasEffectShape (the per-type fast path) agrees with the table on every type, field by field', () => {
    const anyValue = fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 0 }));
    const valueFor = (shape: FieldShape): fc.Arbitrary<unknown> => {
      const right = shape === 's' ? fc.string() : shape === 'n' ? fc.integer() : shape === 'b' ? fc.boolean() : shape === 'a' ? fc.array(fc.string(), { maxLength: 2 }) : shape === 'o' ? fc.object({ maxDepth: 0 }) : fc.constantFrom(...shape);
      return fc.oneof({ arbitrary: right, weight: 6 }, { arbitrary: anyValue, weight: 1 }, { arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 'blob ', []), weight: 1 });
    };
    const effectOf = (type: string): fc.Arbitrary<unknown> => {
      const fields = Object.entries(effectShapes[type as ClientEffect['type']] ?? {});
      return fc.tuple(...fields.map(([, shape]) => fc.option(valueFor(shape), { freq: 8, nil: undefined })), fc.boolean()).map((values) => {
        const effect: Record<string, unknown> = { type };
        fields.forEach(([name], index) => {
          if (values[index] !== undefined) effect[name] = values[index];
        });
        return values[values.length - 1] === true ? effect : { ...effect, extra: 1 };
      });
    };
    const types = [...Object.keys(effectShapes), 'CacheWarmed'];
    const effect = fc.oneof(fc.constantFrom(...types).chain(effectOf), anyValue);
    for (const type of Object.keys(effectShapes)) {
      const wellTyped = fc.sample(effectOf(type), { numRuns: 200, seed: 7 }).filter((sample) => effectShapeProblem(sample) === null);
      expect(wellTyped.length, `${type}: well-formed samples drawn`).toBeGreaterThan(0);
    }
    fc.assert(fc.property(effect, (sample) => hasEffectShape(sample) === (effectShapeProblem(sample) === null)), { numRuns: 20_000, seed: 11 });
  });

  it('an empty record, an unknown type, a missing or mistyped field, a value outside its set, a non-object: each named', () => {
    expect(effectShapeProblem({})).toContain('unknown type undefined');
    expect(effectShapeProblem({ type: 'CacheWarmed', uri })).toContain('unknown type "CacheWarmed"');
    expect(effectShapeProblem({ type: 'StalenessBoundPublished', uri, mode: 'polling' })).toContain('boundMs is not a finite number');
    expect(effectShapeProblem({ type: 'StalenessBoundPublished', uri, boundMs: Number.NaN, mode: 'polling' })).toContain('boundMs is not a finite number');
    expect(effectShapeProblem({ type: 'StalenessBoundPublished', uri, boundMs: 8_000, mode: 'push' })).toContain('mode is not one of subscription, polling');
    expect(effectShapeProblem({ type: 'ContentRefused', uri, subject: 'alice' })).toContain('reason is not a string');
    expect(effectShapeProblem({ type: 'OutboxEntryWritten', uri, sequence: 1, operation: 'upsert', digest: 'd', derivedEntries: 'e', supersedes: [] })).toContain('derivedEntries is not an array');
    expect(effectShapeProblem({ type: 'CompletenessTaskDecided', task: 't', accepted: 'no', catalogStatus: 'NONE', reason: 'r' })).toContain('accepted is not a boolean');
    expect(effectShapeProblem({ type: 'ProtocolRejected', rejection: null })).toContain('rejection is not an object');
    expect(effectShapeProblem(null)).toContain('not an object (null)');
  });

  it('the oracle judges every effect a step client returns: a malformed one is an effect_malformed violation, well-formed ones none', () => {
    const oracle = new Oracle([uri], 1);
    oracle.judge([{} as ClientEffect], truth({ timeMs: 50 }));
    // Not judged until the world says the effects are the client's own (sim/world.ts: a step client; a module client's are synthesized).
    expect(oracle.checks[invariantIndex.effect_malformed]).toBe(0);
    oracle.effectShape.judges = true;
    oracle.judge(wellFormed, truth({ timeMs: 100 }));
    expect(oracle.checks[invariantIndex.effect_malformed]).toBe(wellFormed.length);
    const malformed = () => oracle.violations.filter((violation) => violation.invariant === 'effect_malformed');
    expect(malformed()).toEqual([]);
    oracle.judge([{} as ClientEffect], truth({ timeMs: 200 }));
    expect(malformed().map((violation) => violation.detail)).toEqual(['the client returned an effect of unknown type undefined']);
  });
});
