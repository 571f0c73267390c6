/**
 * CacheObserver folds each step of the cache in place (observe/fold.ts foldStepOwned) while its state is its
 * own, and folds into a deep copy once `state` handed the state out: the same states as the pure fold, and a
 * state a caller holds never changes afterwards.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { actionsArbitrary } from '../../../core/arbitraries.js';
import { drive, jsonCopy } from '../../../core/testing.js';
import { foldStep } from '../../../observe/fold.js';
import { initialObserveState, type ObserveState } from '../../../observe/state.js';
import { CacheObserver } from './metrics.js';

describe('CacheObserver: in-place folding behind an unchanging state', () => {
  test.prop([actionsArbitrary, fc.nat({ max: 40 })], { numRuns: 100 })(
    'reading the state at any step gives the pure fold\'s state, and a state read once never changes',
    (actions, readEvery) => {
      const observer = new CacheObserver();
      let pure: ObserveState = initialObserveState();
      const held: { state: ObserveState; copy: ObserveState }[] = [];
      let step = 0;
      for (const traced of drive(actions).steps) {
        if (traced.input === null) continue;
        observer.step(traced.input, traced.effects);
        pure = foldStep(pure, traced.input, traced.effects).state;
        if (readEvery > 0 && step++ % readEvery === 0) {
          const state = observer.state;
          expect(state).toEqual(pure);
          held.push({ state, copy: jsonCopy(state) });
        }
      }
      expect(observer.state).toEqual(pure);
      for (const { state, copy } of held) expect(state).toEqual(copy);
    },
  );
});
