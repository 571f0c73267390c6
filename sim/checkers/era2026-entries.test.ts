import { describe, expect, it } from 'vitest';
import { EntryRegistry } from './era2026-entries.js';
import { newStepTruth } from '../kernel/step-truth.js';

/** The registry after one hinted read of `v1` of resource 0, sent at `sentAtMs`, received `roundTripMs` later. */
function read(registry: EntryRegistry, sentAtMs: number, roundTripMs: number, ttlMs: number, renew: boolean): void {
  const truth = { ...newStepTruth(), timeMs: sentAtMs + roundTripMs, requestSentAtMs: sentAtMs };
  registry.onHint(sentAtMs, ttlMs, 'public', 'alice');
  if (renew) registry.onRenewed(0, 'v1', 1, truth);
  else registry.onAccepted(0, 'v1', 1, truth);
}

describe('EntryRegistry: an accept replaces the entry; a black-box renewal keeps both readings', () => {
  it('an accept (a reducer said it took the new read) is judged on that read alone', () => {
    const registry = new EntryRegistry(1);
    read(registry, 1_000, 20, 15_000, false);
    read(registry, 3_000, 10, 700, false);
    expect(registry.entryOf(0, 'v1')).toMatchObject({ sentAtMs: 3_000, ttlMs: 700, lapsesAtMs: 3_700 });
  });

  it('a renewal with a shorter ttlMs: serving judged on the longer entry, a drop excused from the shorter one', () => {
    const registry = new EntryRegistry(1);
    read(registry, 1_000, 20, 15_000, false);
    read(registry, 3_000, 10, 700, true);
    expect(registry.entryOf(0, 'v1')).toMatchObject({ sentAtMs: 1_000, ttlMs: 15_000, lapsesAtMs: 3_700 });
  });

  it('a renewal with a longer ttlMs is taken, and the first entry still lapses first', () => {
    const registry = new EntryRegistry(1);
    read(registry, 1_000, 20, 700, false);
    read(registry, 3_000, 10, 15_000, true);
    expect(registry.entryOf(0, 'v1')).toMatchObject({ sentAtMs: 3_000, ttlMs: 15_000, lapsesAtMs: 1_700 });
  });

  it('a renewal of content never accepted is an accept; no hint never lapses', () => {
    const registry = new EntryRegistry(1);
    read(registry, 1_000, 20, 700, true);
    expect(registry.entryOf(0, 'v1')).toMatchObject({ ttlMs: 700, lapsesAtMs: 1_700 });
    registry.onRenewed(0, 'v2', 2, { ...newStepTruth(), timeMs: 2_000, requestSentAtMs: 1_990 });
    expect(registry.entryOf(0, 'v2')).toMatchObject({ ttlMs: -1, lapsesAtMs: Infinity });
  });
});
