import { describe, expect, test } from 'vitest';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { runRange, verdictOf, type RunSpec } from '../sim/gate.js';
import { indexerSectionOf } from '../reports/indexer-section.js';
import { indexerInvariants } from './checkers/registry.js';
import { addIndexerRun, emptyIndexerFigures, failuresOf, indexerTotalsOf, mergeIndexerFigures } from './gate-figures.js';
import { indexerDue, indexerSeedOf, runIndexerAt } from './gate-part.js';
import { indexerConfig } from './indexers.js';
import { deriveSeed } from './kernel-imports.js';
import { runIndexerGate, runIndexerInterleaving } from './runner.js';

describe('the indexer part of the gate', () => {
  test("the accumulator's figures hold exactly what the indexer gate computes", () => {
    const config = indexerConfig('naive-arrival-order')!;
    const figures = emptyIndexerFigures();
    for (let index = 0; index < 40; index++) addIndexerRun(figures, index, runIndexerInterleaving(deriveSeed(3, index), config));
    const expected = runIndexerGate(3, 40, 'naive-arrival-order', config);
    const totals = indexerTotalsOf(figures);
    expect(totals.interleavings).toBe(40);
    expect(totals.events).toBe(expected.events);
    expect(totals.counts).toEqual(expected.counts);
    expect(totals.metrics).toEqual(expected.metrics);
    // The slots also keep interleavings whose only failure is a metric event; the violations are the indexer gate's.
    const violating = failuresOf(figures).filter((slot) => slot.kind < indexerInvariants.length).map((slot) => slot.index);
    expect(violating).toEqual(expected.failures.map((failure) => failure.index).filter((index) => index <= violating[violating.length - 1]!));
  }, 60_000);

  test('figures of disjoint ranges merge into exactly the unsplit run, failures kept first by index', () => {
    const spec = { seed: 11, indexer: 'naive-arrival-order' };
    const whole = emptyIndexerFigures();
    for (let index = 0; index < 60; index++) runIndexerAt(whole, spec, index);
    const late = emptyIndexerFigures();
    const early = emptyIndexerFigures();
    for (let index = 30; index < 60; index++) runIndexerAt(late, spec, index);
    for (let index = 0; index < 30; index++) runIndexerAt(early, spec, index);
    mergeIndexerFigures(late, early);
    expect(Array.from(late)).toEqual(Array.from(whole));
    expect(failuresOf(whole).length).toBeGreaterThan(0);
  }, 60_000);

  test('the reference runs at one index in 100; --indexer NAME at every index, with its own seed stream', () => {
    expect([0, 1, 99, 100, 250].map((index) => indexerDue({ seed: 1 }, index))).toEqual([true, false, false, true, false]);
    expect(indexerDue({ seed: 1, indexer: 'naive-literal-band' }, 7)).toBe(true);
    expect(indexerSeedOf(5, 3)).not.toBe(deriveSeed(5, 3));
  });

  test('gate --indexer NAME: a naive indexer fails the verdict; each failure replays by its seed; the first is shrunk', () => {
    const spec: RunSpec = { seed: 5, interleavings: 60, scenario: 'swarm', client: 'reference', maxFailures: 20, indexer: 'naive-no-tombstone' };
    const scenario = findScenario('swarm')!;
    const accumulator = runRange(spec, scenario, findClient('reference')!, 0, 60);
    const verdict = verdictOf(accumulator, scenario);
    expect(verdict.passed).toBe(false);
    expect(verdict.reasons.some((reason) => reason.startsWith('indexer '))).toBe(true);
    const section = indexerSectionOf(spec, accumulator.indexerFigures)!;
    expect(section.interleavings).toBe(60);
    expect(section.passed).toBe(false);
    const first = section.failures[0]!;
    expect(first.replay).toContain('--indexer naive-no-tombstone --replay');
    const again = runIndexerInterleaving(first.seed, indexerConfig('naive-no-tombstone')!);
    expect(again.violations.some((found) => found.invariant === first.kind)).toBe(true);
    expect(section.shrunk!.timeline.length).toBeLessThanOrEqual(30);
  }, 120_000);
});
