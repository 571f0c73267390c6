/**
 * Interleavings a default gate (100,000 of era-both) once failed on the reference client, each kept as the seed the
 * gate printed. Each must pass now and still reach the case that failed, so the test cannot pass by missing it.
 */
import { describe, expect, it } from 'vitest';

import { referenceClient } from '../core/reducer.js';
import { findScenario } from '../scenarios/catalog.js';
import { runInterleaving } from './world.js';

const eraBoth = findScenario('era-both')!;

describe('gate regressions: the reference client on era-both', () => {
  // Seeds of the gate (root 1, indexes 57 and 69) since the swarms draw malformed-list-page (before: 1486192455, 1665134472).
  it.each([3253286061, 1640748059])(
    'seed %i: a late not-found to a read abandoned when its listen ended, issued after the accepted read, stops serving (served_not_found)',
    (seed) => {
      const result = runInterleaving(seed, eraBoth, referenceClient, { trace: true, record: false });
      const timeline = result.timeline!.join('\n');
      // Reached: a read was abandoned by its listen's end and its late answer was a not-found.
      expect(timeline).toMatch(/error -32002 Resource not found.*late answer to abandoned read ordinal/);
      expect(result.oracle.violations.map((violation) => violation.invariant)).toEqual([]);
    },
  );
});
