/**
 * gateTest: a gate inside vitest, one test per chunk. The reference's chunks are registered (and run) as
 * real vitest tests below; a naive client's chunk fails with the counts and the replay commands.
 */
import { describe, expect, it, test } from 'vitest';
import { deriveSeed } from '../sim/prng.js';
import { gateTest, type GateTestChunk } from './vitest-gate.js';
import { naiveOverwrite } from '../scenarios/naive.js';

describe('gateTest: the reference on read-race, 300 interleavings in chunks of 100', () => {
  const chunks = gateTest({ test, seed: 42, interleavings: 300, scenario: 'read-race', client: 'reference', chunk: 100 });
  it('registered three chunks covering every interleaving once', () => {
    expect(chunks.map((chunk) => [chunk.start, chunk.end])).toEqual([
      [0, 100],
      [100, 200],
      [200, 300],
    ]);
  });
});

/** Registers into a list instead of vitest, so a failing chunk can be run and its error inspected. */
function collect(options: Omit<Parameters<typeof gateTest>[0], 'test'>): { chunks: GateTestChunk[]; bodies: (() => void)[] } {
  const bodies: (() => void)[] = [];
  const chunks = gateTest({ ...options, test: (_name, fn) => void bodies.push(fn) });
  return { chunks, bodies };
}

describe('gateTest', () => {
  it('a chunk of naive-overwrite on read-race fails with the violation counts and replay commands', () => {
    const { bodies } = collect({ seed: 3, interleavings: 60, scenario: 'read-race', client: 'naive-overwrite', chunk: 60, maxFailures: 2 });
    expect(bodies).toHaveLength(1);
    let message = '';
    try {
      bodies[0]!();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^fencesim gate: safety violated in interleavings 0\.\.59 of read-race against naive-overwrite \(root seed 3\)/);
    expect(message).toMatch(/version_regression: \d+ violations in \d+ interleavings/);
    const replays = message.split('\n').filter((line) => line.includes('npx fencesim replay'));
    expect(replays).toHaveLength(2);
    const seed = Number(/--seed (\d+)/.exec(replays[0]!)![1]);
    expect(Array.from({ length: 60 }, (_, index) => deriveSeed(3, index))).toContain(seed);
  });

  it("part 'k/K' takes the same slice as gate --shard k/K, so files can split a gate for vitest --shard", () => {
    expect(collect({ seed: 1, interleavings: 10, chunk: 2, part: '2/3' }).chunks.map((chunk) => [chunk.start, chunk.end])).toEqual([
      [3, 5],
      [5, 6],
    ]);
    expect(collect({ seed: 1, interleavings: 10, chunk: 100, part: { index: 3, count: 3 } }).chunks.map((chunk) => [chunk.start, chunk.end])).toEqual([[6, 10]]);
  });

  it.each([
    [{ seed: 1, interleavings: 10, scenario: 'nope' }, 'unknown scenario "nope"'],
    [{ seed: 1, interleavings: 10, client: 'nope' }, 'unknown client "nope"'],
    [{ seed: 'x1', interleavings: 10 }, 'seed:'],
    [{ seed: 1, interleavings: 0 }, 'interleavings must be a positive integer'],
    [{ seed: 1, interleavings: 10, part: '4/3' }, 'part: "4/3" has shard index 4'],
  ])('bad options throw at collection: %j', (options, fragment) => {
    expect(() => collect(options)).toThrow(fragment);
  });
});

describe('gateTest with your own client', () => {
  it('a module path runs the module client, and its replay commands name the path (they work when pasted)', async () => {
    const bodies: (() => void | Promise<void>)[] = [];
    gateTest({ test: (_name, fn) => void bodies.push(fn), seed: 3, interleavings: 10, scenario: 'read-race', client: './examples/naive-kb/client.mjs', chunk: 10, maxFailures: 1 });
    const message = await Promise.resolve()
      .then(() => bodies[0]!())
      .then(
        () => '',
        (error: Error) => error.message,
      );
    expect(message).toContain('against ./examples/naive-kb/client.mjs');
    expect(message).toMatch(/npx fencesim replay --seed \d+ --scenario read-race --client \.\/examples\/naive-kb\/client\.mjs/);
  }, 120_000);

  it('a reducer object the CLI cannot load gets an in-code replay, not an unpasteable --client NAME', () => {
    const { bodies } = collect({ seed: 3, interleavings: 60, scenario: 'read-race', client: { ...naiveOverwrite, name: 'mine' }, chunk: 60, maxFailures: 1 });
    let message = '';
    try {
      bodies[0]!();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('the CLI cannot load a client object');
    expect(message).not.toContain('--client mine');
    expect(message).toMatch(/runInterleaving\(\d+, findScenario\('read-race'\), yourClient/);
  });
});
