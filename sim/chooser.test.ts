import { describe, expect, it } from 'vitest';

import { Chooser, ReplayDivergence, type Decision, type Stream } from './chooser.js';

/** A fixed script of draws over every stream and every draw method. */
function script(chooser: Chooser): number[] {
  const values: number[] = [];
  const streams: Stream[] = ['workload', 'server', 'network', 'faults'];
  for (let round = 0; round < 25; round++) {
    const stream = streams[round % streams.length]!;
    values.push(chooser.draw(stream, `draw ${round}`, 1_000));
    values.push(chooser.between(stream, `between ${round}`, 10, 20));
    values.push(chooser.chance(stream, `chance ${round}`, 1, 3) ? 1 : 0);
  }
  return values;
}

function caught(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

describe('Chooser: seeded', () => {
  it('draws are deterministic per seed', () => {
    for (const seed of [0, 1, 42, 0xffffffff]) {
      expect(script(Chooser.seeded(seed, false))).toEqual(script(Chooser.seeded(seed, false)));
    }
  });

  it('different seeds give different draws', () => {
    expect(script(Chooser.seeded(1, false))).not.toEqual(script(Chooser.seeded(2, false)));
  });

  it('recording does not change the draws', () => {
    expect(script(Chooser.seeded(7, true))).toEqual(script(Chooser.seeded(7, false)));
    expect(Chooser.seeded(7, false).log).toBeNull();
  });

  it('streams are independent: more draws from one stream do not shift another', () => {
    const quiet = Chooser.seeded(9, false);
    const busy = Chooser.seeded(9, false);
    for (let index = 0; index < 17; index++) busy.draw('workload', 'extra workload draw', 100);
    const quietNetwork = Array.from({ length: 20 }, () => quiet.draw('network', 'latency', 1_000));
    const busyNetwork = Array.from({ length: 20 }, () => busy.draw('network', 'latency', 1_000));
    expect(busyNetwork).toEqual(quietNetwork);
  });

  it('every value is in range and every decision is logged with its label and range', () => {
    const chooser = Chooser.seeded(3, true);
    for (let index = 0; index < 200; index++) expect(chooser.draw('faults', 'x', 7)).toBeLessThan(7);
    expect(chooser.between('network', 'b', 5, 5)).toBe(5);
    expect(chooser.consumed).toBe(201);
    expect(chooser.log!.length).toBe(201);
    expect(chooser.log![0]!.label).toBe('x');
    expect(chooser.log![0]!.range).toBe(7);
    expect(chooser.log![200]).toEqual({ label: 'b', value: 0, range: 1 });
  });
});

describe('Chooser: replay', () => {
  it('replaying a recorded log reproduces the same values and the same log', () => {
    const recorder = Chooser.seeded(1234, true);
    const values = script(recorder);
    const log = recorder.log!;
    for (const strict of [true, false]) {
      const replayer = Chooser.replaying(log, strict);
      expect(script(replayer)).toEqual(values);
      expect(replayer.log).toEqual(log);
      expect(replayer.consumed).toBe(log.length);
    }
  });

  it('strict replay throws ReplayDivergence naming the index and both labels on a label mismatch', () => {
    const decisions: Decision[] = [
      { label: 'latency', value: 3, range: 10 },
      { label: 'drop notification?', value: 1, range: 4 },
    ];
    const chooser = Chooser.replaying(decisions, true);
    expect(chooser.draw('network', 'latency', 10)).toBe(3);
    const error = caught(() => chooser.draw('faults', 'duplicate?', 4));
    expect(error).toBeInstanceOf(ReplayDivergence);
    const divergence = error as ReplayDivergence;
    expect(divergence.index).toBe(1);
    expect(divergence.expectedLabel).toBe('drop notification?');
    expect(divergence.actualLabel).toBe('duplicate?');
    expect(divergence.message).toContain('decision 1');
    expect(divergence.message).toContain('"drop notification?"');
    expect(divergence.message).toContain('"duplicate?"');
  });

  it('strict replay throws ReplayDivergence at the end of the decisions', () => {
    const chooser = Chooser.replaying([{ label: 'a', value: 0, range: 2 }], true);
    chooser.draw('workload', 'a', 2);
    const error = caught(() => chooser.draw('workload', 'one too many', 2));
    expect(error).toBeInstanceOf(ReplayDivergence);
    const divergence = error as ReplayDivergence;
    expect(divergence.index).toBe(1);
    expect(divergence.expectedLabel).toBe('(end of decisions)');
    expect(divergence.actualLabel).toBe('one too many');
    expect(divergence.message).toContain('decision 1');
    expect(divergence.message).toContain('one too many');
  });

  it('lenient replay returns 0 past the end and for out-of-range values, and stays aligned by label', () => {
    const chooser = Chooser.replaying(
      [
        { label: 'a', value: 5, range: 10 },
        { label: 'b', value: 9, range: 10 },
        { label: 'c', value: 2, range: 10 },
        { label: 'd', value: 3, range: 10 },
        { label: 'e', value: 4, range: 10 },
      ],
      false,
    );
    expect(chooser.draw('workload', 'a', 10)).toBe(5);
    expect(chooser.draw('workload', 'b', 4)).toBe(0); // 9 is out of range for [0, 4)
    expect(chooser.draw('workload', 'new', 10)).toBe(0); // a label the recording does not have next: 0, nothing consumed
    expect(chooser.draw('workload', 'c', 10)).toBe(2); // ... so c is still next
    expect(chooser.draw('workload', 'e', 10)).toBe(4); // d's activity is gone: skipped to e
    expect(chooser.draw('workload', 'past the end', 10)).toBe(0);
    expect(chooser.between('network', 'past the end', 7, 9)).toBe(7);
    expect(chooser.log!.map((decision) => decision.value)).toEqual([5, 0, 0, 2, 4, 0, 0]);
  });

  it('chance with a 0 draw is false, and with the top draw is true', () => {
    for (const [numerator, denominator] of [
      [1, 2],
      [1, 8],
      [3, 4],
      [15, 16],
    ] as const) {
      const zero = Chooser.replaying([{ label: 'p', value: 0, range: denominator }], true);
      expect(zero.chance('faults', 'p', numerator, denominator)).toBe(false);
      const top = Chooser.replaying([{ label: 'p', value: denominator - 1, range: denominator }], true);
      expect(top.chance('faults', 'p', numerator, denominator)).toBe(true);
    }
  });

  it('chance with a zero numerator is false and consumes no decision', () => {
    const chooser = Chooser.replaying([], true);
    expect(chooser.chance('faults', 'never', 0, 4)).toBe(false);
    expect(chooser.consumed).toBe(0);
  });
});

describe('Chooser: chance', () => {
  it('an impossible or certain outcome is not a choice: nothing is drawn or recorded', () => {
    const chooser = Chooser.seeded(7, true);
    expect(chooser.chance('faults', 'never', 0, 4)).toBe(false);
    expect(chooser.chance('faults', 'always', 1, 1)).toBe(true);
    expect(chooser.chance('faults', 'always', 5, 4)).toBe(true);
    expect(chooser.consumed).toBe(0);
    expect(chooser.log).toEqual([]);
    chooser.chance('faults', 'maybe', 1, 4);
    expect(chooser.log!.map((decision) => decision.label)).toEqual(['maybe']);
  });
});
