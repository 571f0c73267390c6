/**
 * The gate's split by protocol era: over an `era-both` run each era's block adds up to the whole (interleavings,
 * events, faults fired, violations and checks), 2026-07-28 faults fire only in the 2026 block, and two halves
 * merged equal the run in one piece (so workers and shards keep the split exact).
 */
import { describe, expect, it } from 'vitest';
import { findScenario } from '../scenarios/catalog.js';
import { referenceClient } from '../core/reducer.js';
import { eraFiguresOf, protocolEraNames } from './era-figures.js';
import { era2026Faults, faultNames } from './faults.js';
import { runRange, type RunSpec } from './gate.js';
import { allInvariants } from './invariants.js';

const interleavings = 24;
const spec: RunSpec = { seed: 7, interleavings, scenario: 'era-both', client: 'reference', maxFailures: 5 };
const scenario = findScenario('era-both')!;

describe('figures by protocol era', () => {
  const whole = runRange(spec, scenario, referenceClient, 0, interleavings);
  const eras = protocolEraNames.map((era) => eraFiguresOf(whole.eraFigures, era));

  it('each era ran some interleavings and the blocks add up to the whole run', () => {
    expect(eras.every((era) => era.scalars.interleavings > 0)).toBe(true);
    expect(eras[0]!.scalars.interleavings + eras[1]!.scalars.interleavings).toBe(whole.interleavings);
    expect(eras[0]!.scalars.events + eras[1]!.scalars.events).toBe(whole.events);
    faultNames.forEach((name, index) => expect((eras[0]!.faultsFired[name] ?? 0) + (eras[1]!.faultsFired[name] ?? 0), name).toBe(whole.faultCounts[index]));
    allInvariants.forEach((name, index) => {
      expect(eras[0]!.invariants[name]!.checked + eras[1]!.invariants[name]!.checked, name).toBe(whole.checks[index]);
      expect(eras[0]!.invariants[name]!.violated + eras[1]!.invariants[name]!.violated, name).toBe(whole.violationCounts[index]);
    });
  });

  it('2026-07-28 faults and checks of the 2026 serving invariants fall in the 2026 block only', () => {
    for (const fault of era2026Faults) expect(eras[0]!.faultsFired[fault] ?? 0, fault).toBe(0);
    expect(Object.keys(eras[1]!.faultsFired).some((fault) => era2026Faults.includes(fault as never))).toBe(true);
    for (const name of ['read_your_notification', 'ttl_staleness', 'monotonic_reads', 'scope_isolation'] as const) expect(eras[0]!.invariants[name]!.checked, name).toBe(0);
    expect(eras[1]!.invariants.monotonic_reads!.checked).toBeGreaterThan(0);
  });

  it('two halves merged give the same split as the run in one piece', () => {
    const first = runRange(spec, scenario, referenceClient, 0, interleavings / 2);
    first.merge(runRange(spec, scenario, referenceClient, interleavings / 2, interleavings));
    expect(Array.from(first.eraFigures)).toEqual(Array.from(whole.eraFigures));
  });
});
