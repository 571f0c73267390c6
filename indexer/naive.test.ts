import { describe, expect, test } from 'vitest';
import { firstFailure, shrinkCaught } from './catch.js';
import { indexerConfig, naiveIndexers } from './indexers.js';
import { runIndexerInterleaving } from './runner.js';

const rootSeed = 42;

describe('every naive indexer is caught within 2,000 interleavings, replays, and shrinks to a short timeline', () => {
  for (const name of Object.keys(naiveIndexers)) {
    test(`${name}: ${naiveIndexers[name]!.meaning}`, () => {
      const config = indexerConfig(name)!;
      const caught = firstFailure(rootSeed, 2_000, config, true);
      expect(caught, `${name} was not caught`).not.toBeNull();
      const again = runIndexerInterleaving(caught!.seed, config, { stopAt: caught!.stopAt });
      expect(caught!.failing(again), 'the failing seed reproduces').toBe(true);
      const shrunk = shrinkCaught(config, caught!);
      expect(caught!.failing(shrunk.result), 'the shrunk replay still fails').toBe(true);
      expect(shrunk.decisions).toBeLessThanOrEqual(shrunk.decisionsBefore);
      expect(shrunk.timeline.length, shrunk.timeline.join('\n')).toBeLessThanOrEqual(30);
    });
  }
});
