/**
 * The determinism self-check: a planted nondeterministic client (the reference client plus a module-level
 * counter that adds an extra TimerArmed on every other call it ever gets) is caught; the reference client
 * is not; the gate reports it under `nondeterministic_interleavings`, fails, and exits 4.
 */
import { describe, expect, it } from 'vitest';
import { gateExitCode } from '../cli/commands/gate.js';
import { summaryLines } from '../cli/summary.js';
import { referenceClient } from '../core/reducer.js';
import type { ClientUnderTest } from '../core/types.js';
import { buildReport, type ReportTiming } from '../reports/json.js';
import { findScenario } from '../scenarios/catalog.js';
import { firstDivergence, selfCheck, selfCheckIndices } from '../sim/determinism.js';
import { coverageOf, runRange, verdictOf, type RunSpec } from '../sim/gate.js';
import { runInterleaving } from '../sim/world.js';
import { plantedClient } from './planting.js';

/**
 * Module-level state that survives from one run to the next: the leak the self-check exists to find. On
 * every other call the client arms an extra timer whose delay also comes from the counter. (The delay
 * matters: each extra timer fires as one more call, so a run makes about twice its base number of calls,
 * an even number, and "every other call" alone would start the next run at the same parity and repeat it.)
 */
let plantedCalls = 0;
const plantedNondeterministic: ClientUnderTest<unknown> = {
  name: 'planted-nondeterministic',
  description: 'the reference client plus an extra TimerArmed on every other step it ever takes (a module-level counter)',
  init: (config) => referenceClient.init(config),
  step: (state, input) => {
    const result = referenceClient.step(state as never, input);
    plantedCalls++;
    if (plantedCalls % 2 === 0) return result;
    const deadlineMs = input.nowMs + 1 + (plantedCalls % 7);
    return { state: result.state, effects: [...result.effects, { type: 'TimerArmed', timer: { kind: 'reconcile', uri: 'planted:leak' }, deadlineMs }] };
  },
};

/** Writes into the state it is handed (bumps the ledger's request id in place) before stepping it: deterministic, not pure. */
const plantedImpure: ClientUnderTest<any> = {
  name: 'planted-impure',
  description: 'the reference client, but each step first writes into the state it was handed',
  init: (config) => referenceClient.init(config),
  step: (state, input) => {
    (state as { ledger: { outboxSequence: number } }).ledger.outboxSequence += 0;
    return referenceClient.step(state as never, input);
  },
};

const scenario = findScenario('read-race')!;
const rootSeed = 77;
const timing: ReportTiming = { wallMs: 0, interleavingsPerSecond: 0, eventsPerSecond: 0, peakRssBytes: 0 };

describe('determinism self-check', () => {
  it('samples about ratio % of the interleavings, evenly, from index 0, the same way every time', () => {
    expect(selfCheckIndices(1_000, 1)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(selfCheckIndices(300, 1)).toEqual([0, 100, 200]);
    expect(selfCheckIndices(50, 1)).toEqual([0]);
    expect(selfCheckIndices(10, 100)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(selfCheckIndices(1_000, 0)).toEqual([]);
    expect(selfCheckIndices(10_000_000, 1)).toHaveLength(2_000);
  });

  it('the reference client gives the same trace hash twice for every sampled seed', () => {
    const check = selfCheck(rootSeed, scenario, referenceClient, selfCheckIndices(2_000, 1), 1);
    expect(check.checked).toBe(20);
    expect(check.nondeterministic_interleavings).toBe(0);
    expect(check.mismatches).toEqual([]);
  });

  it('catches the planted nondeterministic client, naming the seed and both runs\' first differing timeline line', () => {
    const check = selfCheck(rootSeed, scenario, plantedNondeterministic, selfCheckIndices(2_000, 1), 1);
    expect(check.nondeterministic_interleavings).toBeGreaterThan(0);
    const mismatch = check.mismatches[0]!;
    expect(mismatch.firstTraceHash).not.toBe(mismatch.secondTraceHash);
    expect(mismatch.line).toBeGreaterThan(0);
    expect(mismatch.first).not.toBe(mismatch.second);
    expect(`${mismatch.first}\n${mismatch.second}`).toContain('planted:leak');
  });

  it('a nondeterministic gate fails with its own counter, prints the evidence, and exits 4', () => {
    const spec: RunSpec = { seed: rootSeed, interleavings: 200, scenario: scenario.name, client: plantedNondeterministic.name, maxFailures: 5 };
    const accumulator = runRange(spec, scenario, plantedNondeterministic, 0, spec.interleavings);
    const determinism = selfCheck(rootSeed, scenario, plantedNondeterministic, selfCheckIndices(spec.interleavings, 5), 5);
    const report = buildReport(accumulator, verdictOf(accumulator, scenario, { determinism }), coverageOf(accumulator), timing, { determinism });
    expect(report.determinism.nondeterministic_interleavings).toBe(determinism.nondeterministic_interleavings);
    expect(report.determinism.nondeterministic_interleavings).toBeGreaterThan(0);
    expect(report.passed).toBe(false);
    expect(report.reasons.some((reason) => reason.startsWith('nondeterministic_interleavings:'))).toBe(true);
    expect(gateExitCode(report)).toBe(4);
    const summary = summaryLines(report, 'out/report.json').join('\n');
    const mismatch = determinism.mismatches[0]!;
    expect(summary).toContain(`seed ${mismatch.seed}`);
    expect(summary).toContain(`first run:  ${mismatch.first.trim()}`);
    expect(summary).toContain(`second run: ${mismatch.second.trim()}`);
  });

  it('a deterministic gate keeps its usual exit code', () => {
    const spec: RunSpec = { seed: rootSeed, interleavings: 100, scenario: scenario.name, client: referenceClient.name, maxFailures: 5 };
    const accumulator = runRange(spec, scenario, referenceClient, 0, spec.interleavings);
    const determinism = selfCheck(rootSeed, scenario, referenceClient, selfCheckIndices(spec.interleavings, 3), 3);
    const report = buildReport(accumulator, verdictOf(accumulator, scenario, { determinism }), coverageOf(accumulator), timing, { determinism });
    expect(report.determinism).toEqual({ selfCheckRatioPercent: 3, checked: 3, nondeterministic_interleavings: 0, mismatches: [] });
    expect(gateExitCode(report)).toBe(report.passed ? 0 : 1);
  });

  it('fails a step that writes into the state it is handed, naming the step, though every run of it is alike', () => {
    const seed = 5;
    expect(runInterleaving(seed, scenario, plantedImpure, { trace: false, record: false }).traceHash)
      .toBe(runInterleaving(seed, scenario, plantedImpure, { trace: false, record: false }).traceHash);
    const check = selfCheck(rootSeed, scenario, plantedImpure, [0], 100);
    expect(check.nondeterministic_interleavings).toBe(1);
    const mismatch = check.mismatches[0]!;
    expect(mismatch.secondTraceHash).toBe(0);
    expect(mismatch.line).toBe(1);
    expect(mismatch.second).toContain('its pure step threw on the deep-frozen state it was handed');
    expect(mismatch.second).toContain("read only property 'outboxSequence'");
  });

  it('fails a copy-on-write slip in the reference core (a ledger container taken as already copied), which no run of the gate sees', async () => {
    const planted = await plantedClient({
      name: 'cow-subscriptions-owned',
      description: 'the pure step takes the subscriptions table as its own copy from the start: it changes the caller\'s state',
      patches: [{ file: 'draft-ledger.ts', find: 'private subscriptionsOwned = false;', replace: 'private subscriptionsOwned = true;' }],
      scenarios: [],
      invariants: [],
    });
    const accumulator = runRange({ seed: rootSeed, interleavings: 20, scenario: scenario.name, client: planted.name, maxFailures: 1 }, scenario, planted, 0, 20);
    expect(accumulator.failures).toEqual([]);
    const check = selfCheck(rootSeed, scenario, planted, [0, 10], 10);
    expect(check.nondeterministic_interleavings).toBe(2);
    const mismatch = check.mismatches[0]!;
    expect(mismatch.second).toMatch(/\(SubscribeCommanded at 1 ms\): TypeError: Cannot add property demo:\/\/.*, object is not extensible$/);
    expect(mismatch.first.trim().startsWith(mismatch.second.slice(0, mismatch.second.indexOf(" -> ")))).toBe(true);
  });

  it('firstDivergence names the first differing line, or the end of the shorter timeline', () => {
    expect(firstDivergence(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual({ line: 2, first: 'b', second: 'x' });
    expect(firstDivergence(['a'], ['a', 'b'])).toEqual({ line: 2, first: '(end of timeline)', second: 'b' });
    expect(firstDivergence(['a'], ['a'])).toEqual({ line: 0, first: '', second: '' });
  });
});
