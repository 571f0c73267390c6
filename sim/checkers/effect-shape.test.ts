/**
 * effect_malformed (sim/checkers/effect-shape.ts): an effect without the fields of its type, of no known type or not
 * an object is a violation; every documented effect shape passes.
 */
import { describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { Oracle } from '../oracle.js';
import { invariantIndex } from '../invariants.js';
import { truth } from '../../test/oracle-steps.js';
import { effectShapeProblem } from './effect-shape.js';

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
