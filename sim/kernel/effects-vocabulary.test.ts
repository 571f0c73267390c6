/**
 * assertKnownEffects (sim/kernel/effects.ts): a step client's effects are of the vocabulary; one without a known
 * `type` (an empty object, null, a misspelt type) stops the run with the client's name, as a malformed step result does.
 */
import { describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { assertKnownEffects } from './effects.js';

describe('assertKnownEffects', () => {
  it('passes effects of the vocabulary', () => {
    expect(() => assertKnownEffects('c', [{ type: 'ContentRefused', uri: 'u', subject: 's', reason: 'r' }, { type: 'TombstoneConfirmed', uri: 'u' }])).not.toThrow();
  });

  it('throws on an effect without a known type', () => {
    expect(() => assertKnownEffects('c', [{} as ClientEffect])).toThrow(/client c: effect 0 .*type missing/);
    expect(() => assertKnownEffects('c', [{ type: 'TombstoneConfirmed', uri: 'u' }, null as unknown as ClientEffect])).toThrow(/effect 1/);
    expect(() => assertKnownEffects('c', [{ type: 'ContentServd' } as unknown as ClientEffect])).toThrow(/"ContentServd"/);
    expect(() => assertKnownEffects('c', [{ type: 'toString' } as unknown as ClientEffect])).toThrow(/"toString"/);
  });
});
