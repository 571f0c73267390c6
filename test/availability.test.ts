/**
 * Availability (sim/checkers/availability.ts, `refused_fresh`) in the default gate (era-both) and the 2026
 * gate (era2026-swarm): a client that never serves is caught with a seed that replays and shrinks to at most
 * 30 timeline lines, and the reference passes the same interleavings having been asked (checked) to serve
 * fresh content many times — on 2026-07-28 connections too (availability-era2026.ts).
 */
import { describe, expect, it } from 'vitest';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { runRange, type RunSpec } from '../sim/gate.js';
import { invariantIndex } from '../sim/invariants.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { plantedTimelineLinesMax } from './planted-search.js';
import { measurementLine, shrinkFailure } from './shrink-check.js';

const rootSeed = 0x5eed_0a11;
const interleavings = 100;
const scenario = findScenario('era-both')!;
const era2026Swarm = findScenario('era2026-swarm')!;
const refusedFresh = invariantIndex.refused_fresh;

function spec(client: string, scenarioName = scenario.name): RunSpec {
  return { seed: rootSeed, interleavings, scenario: scenarioName, client, maxFailures: 1 };
}

describe('availability: refusing fresh, authorized content fails the default gate', () => {
  it('the reference passes it, judged on many serves', () => {
    const reference = findClient('reference')!;
    const run = runRange(spec(reference.name), scenario, reference, 0, interleavings);
    expect(run.violationCounts[refusedFresh]).toBe(0);
    expect(run.checks[refusedFresh]).toBeGreaterThan(20);
  });

  it('naive-never-serve is caught with a replaying seed that shrinks to <= 30 lines', () => {
    const naive = findClient('naive-never-serve')!;
    const run = runRange(spec(naive.name), scenario, naive, 0, interleavings);
    const failure = run.failures[0];
    expect(failure, 'naive-never-serve passed the default gate').toBeDefined();
    expect(failure!.invariant).toBe('refused_fresh');
    expect(failure!.replay).toContain(`--seed ${failure!.seed} --scenario era-both --client naive-never-serve`);
    const replayed = runInterleaving(failure!.seed, scenario, naive, { trace: true, record: false });
    expect(replayed.oracle.violations[0]).toMatchObject({ invariant: failure!.invariant, timeMs: failure!.timeMs, uri: failure!.uri });
    const measurement = shrinkFailure(naive.name, failure!.seed, scenario, naive, 'refused_fresh');
    console.log(measurementLine(measurement));
    expect(measurement.complete, `the shrink did not complete within ${measurement.attempts} replays`).toBe(true);
    expect(measurement.linesFocused).toBeLessThanOrEqual(plantedTimelineLinesMax);
    expect(measurement.focused.some((line) => line.trimStart().startsWith('!! refused_fresh:'))).toBe(true);
  });
});

describe('availability on 2026-07-28 connections: a watched entry within its TTL must be served', () => {
  it('the reference passes era2026-swarm, judged on many serves of 2026 connections', () => {
    const reference = findClient('reference')!;
    const run = runRange(spec(reference.name, era2026Swarm.name), era2026Swarm, reference, 0, interleavings * 3);
    expect(run.violationCounts[refusedFresh]).toBe(0);
    let judged2026 = 0;
    for (let index = 0; index < interleavings * 3; index++) judged2026 += runInterleaving(deriveSeed(rootSeed, index), era2026Swarm, reference, { trace: false, record: false }).oracle.availability.servesJudgedEra2026;
    expect(judged2026).toBeGreaterThan(20);
    expect(run.checks[refusedFresh]).toBeGreaterThanOrEqual(judged2026);
  });

  it('naive-never-serve is caught on a 2026 connection with a replaying seed that shrinks to <= 30 lines', () => {
    const naive = findClient('naive-never-serve')!;
    const run = runRange(spec(naive.name, era2026Swarm.name), era2026Swarm, naive, 0, interleavings * 3);
    const failure = run.failures[0];
    expect(failure, 'naive-never-serve passed era2026-swarm').toBeDefined();
    expect(failure!.invariant).toBe('refused_fresh');
    const replayed = runInterleaving(failure!.seed, era2026Swarm, naive, { trace: true, record: false });
    expect(replayed.oracle.availability.servesJudgedEra2026).toBeGreaterThan(0);
    expect(replayed.oracle.violations[0]).toMatchObject({ invariant: 'refused_fresh', timeMs: failure!.timeMs, uri: failure!.uri });
    expect(replayed.oracle.violations[0]!.detail).toContain('watched');
    const measurement = shrinkFailure(naive.name, failure!.seed, era2026Swarm, naive, 'refused_fresh');
    console.log(measurementLine(measurement));
    expect(measurement.complete, `the shrink did not complete within ${measurement.attempts} replays`).toBe(true);
    expect(measurement.linesFocused).toBeLessThanOrEqual(plantedTimelineLinesMax);
    expect(measurement.focused.some((line) => line.trimStart().startsWith('!! refused_fresh:'))).toBe(true);
  });
});
