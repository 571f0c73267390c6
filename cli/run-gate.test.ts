import { describe, expect, it } from 'vitest';
import { buildReport, serializeReport, type ReportTiming } from '../reports/json.js';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { coverageOf, runRange, verdictOf, type GateAccumulator, type RunSpec } from '../sim/gate.js';
import { deriveSeed } from '../sim/prng.js';
import type { ClientUnderTest } from '../core/types.js';
import { chunkSize, InterleavingCrash, runGate, runGateChecked } from './run-gate.js';
import { chunkRanges } from './pool.js';
import { mergeSelfChecks, selfCheck, selfCheckIndices, type DeterminismMismatch } from '../sim/determinism.js';
import { runSdkGate } from './run-sdk-gate.js';

const timing: ReportTiming = { wallMs: 0, interleavingsPerSecond: 0, eventsPerSecond: 0, peakRssBytes: 0 };

function reportText(accumulator: GateAccumulator, scenarioName: string): string {
  const scenario = findScenario(scenarioName)!;
  return serializeReport(buildReport(accumulator, verdictOf(accumulator, scenario), coverageOf(accumulator), timing));
}

describe('run-gate: chunked runs', () => {
  it('chunk sizes give about a hundred chunks, at least one interleaving and at most a thousand each', () => {
    expect(chunkSize(1)).toBe(1);
    expect(chunkSize(300)).toBe(3);
    expect(chunkSize(100_000)).toBe(1_000);
    expect(chunkSize(10_000_000)).toBe(1_000);
  });

  it('a chunked run reports exactly what one unsharded runRange reports, failures included', async () => {
    const spec: RunSpec = { seed: 11, interleavings: 150, scenario: 'read-race', client: 'naive-overwrite', maxFailures: 7 };
    const scenario = findScenario(spec.scenario)!;
    const client = findClient(spec.client)!;
    const progress: number[] = [];
    const chunked = await runGate(spec, scenario, client, (done) => progress.push(done));
    const whole = runRange(spec, scenario, client, 0, spec.interleavings);
    expect(chunked.failures).toHaveLength(7);
    expect(reportText(chunked, spec.scenario)).toBe(reportText(whole, spec.scenario));
    expect(progress.at(-1)).toBe(150);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });
});

/** The reference client, except that it throws on the first step of interleavings whose first jitter is 0 mod 5. */
function crashingClient(): ClientUnderTest<{ inner: unknown; first: boolean }> {
  const reference = findClient('reference')!;
  return {
    name: 'crashing',
    description: 'throws on some seeds',
    init: (config) => ({ inner: reference.init(config), first: true }),
    step: (state, input) => {
      if (state.first && input.jitter % 5 === 0) throw new Error('boom');
      const result = reference.step(state.inner, input);
      return { state: { inner: result.state, first: false }, effects: result.effects };
    },
  };
}

describe('run-gate: a simulator crash', () => {
  it('names the first interleaving that throws, with its seed', async () => {
    const spec: RunSpec = { seed: 5, interleavings: 60, scenario: 'read-race', client: 'crashing', maxFailures: 1 };
    const scenario = findScenario(spec.scenario)!;
    const client = crashingClient();
    const crash = await runGate(spec, scenario, client, () => {}).then(
      () => null,
      (error: unknown) => error,
    );
    expect(crash).toBeInstanceOf(InterleavingCrash);
    const { index, seed } = crash as InterleavingCrash;
    expect(seed).toBe(deriveSeed(spec.seed, index));
    expect(() => runRange(spec, scenario, client, index, index + 1)).toThrow('boom');
    expect(() => runRange(spec, scenario, client, 0, index)).not.toThrow();
  });

  it('over the SDK transport too: the same error type, with the index and seed (no message parsing)', async () => {
    const spec: RunSpec = { seed: 5, interleavings: 6, scenario: 'read-race', client: 'crashing', maxFailures: 1, transport: 'sdk' };
    const crash = await runSdkGate(spec, findScenario(spec.scenario)!, crashingClient(), () => {}, 1, { start: 0, end: 6 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(crash).toBeInstanceOf(InterleavingCrash);
    expect((crash as InterleavingCrash).seed).toBe(deriveSeed(spec.seed, (crash as InterleavingCrash).index));
  });

  it('refuses to send a client object workers cannot rebuild by name, saying what to do', async () => {
    const spec: RunSpec = { seed: 5, interleavings: 400, scenario: 'read-race', client: 'crashing', maxFailures: 1 };
    await expect(runGate(spec, findScenario(spec.scenario)!, crashingClient(), () => {}, 2)).rejects.toThrow(/client "crashing" is not the registry's: run it with one worker/);
  });
});

describe('run-gate: the indexer\'s part on threads of its own (cli/pool.ts)', () => {
  it('gives the report of one thread, at the default share and with an indexer under test at every index', async () => {
    for (const [interleavings, indexer] of [[420, undefined], [24, 'reference']] as const) {
      const spec: RunSpec = { seed: 31, interleavings, scenario: 'era-both', client: 'reference', maxFailures: 5 };
      if (indexer !== undefined) spec.indexer = indexer;
      const scenario = findScenario(spec.scenario)!;
      const client = findClient(spec.client)!;
      const pooled = await runGate(spec, scenario, client, () => {}, 2);
      const whole = runRange(spec, scenario, client, 0, interleavings);
      expect(whole.indexerFigures[0]).toBe(indexer === undefined ? 5 : 24); // indexer interleavings run
      expect(Array.from(pooled.indexerFigures)).toEqual(Array.from(whole.indexerFigures));
      expect(reportText(pooled, spec.scenario)).toBe(reportText(whole, spec.scenario));
      const clientOnly = runRange(spec, scenario, client, 0, interleavings, undefined, 'client');
      expect(clientOnly.indexerFigures[0]).toBe(0);
      clientOnly.merge(runRange(spec, scenario, client, 0, interleavings, undefined, 'indexer'));
      expect(reportText(clientOnly, spec.scenario)).toBe(reportText(whole, spec.scenario));
    }
  }, 240_000);
});

describe('run-gate: the determinism self-check on the workers', () => {
  it('each worker checks the sampled indices of its ranges: the same check and report as one thread', async () => {
    const spec: RunSpec = { seed: 23, interleavings: 400, scenario: 'read-race', client: 'reference', maxFailures: 3 };
    const scenario = findScenario(spec.scenario)!;
    const client = findClient(spec.client)!;
    const indices = selfCheckIndices(spec.interleavings, 5);
    const range = { start: 0, end: spec.interleavings };
    const pooled = await runGateChecked(spec, scenario, client, () => {}, { workers: 2, range, sample: { indices, ratioPercent: 5 } });
    expect(pooled.selfCheck).not.toBeNull();
    expect(pooled.selfCheck!.check).toEqual(selfCheck(spec.seed, scenario, client, indices, 5));
    expect(pooled.selfCheck!.check.checked).toBe(indices.length);
    expect(reportText(pooled.accumulator, spec.scenario)).toBe(reportText(runRange(spec, scenario, client, 0, spec.interleavings), spec.scenario));
    // On one thread the caller runs the self-check (cli/commands/gate.ts).
    expect((await runGateChecked(spec, scenario, client, () => {}, { workers: 1, range, sample: { indices, ratioPercent: 5 } })).selfCheck).toBeNull();
  });

  it('merging parts gives every mismatch once, in index order, and their count', () => {
    const mismatch = (index: number): DeterminismMismatch => ({ index, seed: index + 1, firstTraceHash: 1, secondTraceHash: 2, line: 3, first: 'a', second: 'b' });
    const part = (checked: number, indices: number[]) => ({ selfCheckRatioPercent: 1, checked, nondeterministic_interleavings: indices.length, mismatches: indices.map(mismatch) });
    const merged = mergeSelfChecks([part(3, [700, 900]), part(2, []), part(4, [100])], 1);
    expect(merged).toEqual({ selfCheckRatioPercent: 1, checked: 9, nondeterministic_interleavings: 3, mismatches: [mismatch(100), mismatch(700), mismatch(900)] });
    expect(mergeSelfChecks([], 2)).toEqual({ selfCheckRatioPercent: 2, checked: 0, nondeterministic_interleavings: 0, mismatches: [] });
  });
});

describe('run-gate: the ranges a pool hands out', () => {
  it('cover the run in order without gaps; the last workers-many chunks come in eighths', () => {
    const ranges = chunkRanges({ start: 0, end: 100_000 }, 1_000, 2);
    expect(ranges[0]).toEqual({ start: 0, end: 1_000 });
    expect(ranges.filter((range) => range.end - range.start === 1_000)).toHaveLength(98);
    expect(ranges.slice(98).every((range) => range.end - range.start === 125)).toBe(true);
    expect(ranges).toHaveLength(98 + 16);
    ranges.forEach((range, index) => expect(range.start).toBe(index === 0 ? 0 : ranges[index - 1]!.end));
    expect(ranges.at(-1)!.end).toBe(100_000);
    // A shard's slice, a chunk that does not divide it, a run smaller than the tail.
    for (const [range, chunk, workers] of [[{ start: 300, end: 1_234 }, 10, 3], [{ start: 0, end: 7 }, 3, 2], [{ start: 5, end: 6 }, 1, 4]] as const) {
      const parts = chunkRanges(range, chunk, workers);
      expect(parts[0]!.start).toBe(range.start);
      expect(parts.at(-1)!.end).toBe(range.end);
      parts.forEach((part, index) => {
        expect(part.end).toBeGreaterThan(part.start);
        expect(part.end - part.start).toBeLessThanOrEqual(chunk);
        if (index > 0) expect(part.start).toBe(parts[index - 1]!.end);
      });
    }
  });
});
