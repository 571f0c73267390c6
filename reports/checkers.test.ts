/**
 * report.json's `checkers`: per family, the interleavings that failed are given per invariant, never summed over
 * the family (one interleaving can fail two of its invariants), and the row says so.
 */
import { describe, expect, it } from 'vitest';
import { GateAccumulator } from '../sim/gate.js';
import { invariantIndex } from '../sim/oracle.js';
import { checkerRows, checkersOf } from './checkers.js';

const grouped = (value: number): string => value.toLocaleString('en-US');

describe('checkersOf', () => {
  const accumulator = new GateAccumulator({ seed: 1, interleavings: 10, scenario: 'swarm', client: 'reference', maxFailures: 20 });
  // The same 3 interleavings failing both convergence invariants, 2 failing uri_confusion.
  accumulator.violationCounts[invariantIndex.convergence_60s] = 7;
  accumulator.failingInterleavings[invariantIndex.convergence_60s] = 3;
  accumulator.violationCounts[invariantIndex.healed_convergence] = 3;
  accumulator.failingInterleavings[invariantIndex.healed_convergence] = 3;
  accumulator.violationCounts[invariantIndex.uri_confusion] = 5;
  accumulator.failingInterleavings[invariantIndex.uri_confusion] = 2;
  const checkers = checkersOf(accumulator);

  it('keeps the failing interleavings per invariant, only those with violations', () => {
    expect(checkers.convergence!.violated).toBe(10);
    expect(checkers.convergence!.failingInterleavingsByInvariant).toEqual({ convergence_60s: 3, healed_convergence: 3 });
    expect(checkers.uris!.failingInterleavingsByInvariant).toEqual({ uri_confusion: 2 });
    expect(checkers.sessions!.failingInterleavingsByInvariant).toEqual({});
  });

  it('says "in N interleavings" for one failing invariant and lists them for several, never their sum', () => {
    const rows = new Map(checkerRows(checkers, undefined, grouped));
    expect(rows.get('checker uris')).toBe('checked 0, violated 5 in 2 interleavings');
    expect(rows.get('checker convergence')).toBe('checked 0, violated 10 (interleavings failing each: convergence_60s 3, healed_convergence 3)');
    expect(rows.get('checker sessions')).toBe('checked 0, violated 0');
  });
});
