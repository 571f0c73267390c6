import { describe, expect, it } from 'vitest';
import { Era2026Availability } from './availability-era2026.js';
import type { WatchChecker } from './era2026-watch.js';

/** Resource 0 always watched on connection 1, no listen ever ends. */
const watched = { isWatched: () => true, isEra: () => true, resourcesOf: () => [] } as unknown as WatchChecker;

describe('Era2026Availability: a black-box renewal can only shorten the window a serve is owed in', () => {
  it('an accept sets the window to half the TTL from receipt', () => {
    const availability = new Era2026Availability(watched, 1);
    availability.onAccepted(0, 4_841, 3_851);
    expect(availability.windowEndMs(0, 1, 3_800)).toBe(3_851 + 4_841 / 2);
  });

  it('a renewal whose window ends earlier is taken (client-v2, era2026-broken-stream seed 3491793660)', () => {
    const availability = new Era2026Availability(watched, 1);
    availability.onAccepted(0, 4_841, 3_851);
    availability.onRenewed(0, 493, 4_084);
    expect(availability.windowEndMs(0, 1, 3_800)).toBe(4_084 + 493 / 2);
  });

  it('a renewal whose window ends later changes nothing; one without a TTL leaves no obligation', () => {
    const availability = new Era2026Availability(watched, 1);
    availability.onAccepted(0, 4_841, 3_851);
    availability.onRenewed(0, 20_000, 4_084);
    expect(availability.windowEndMs(0, 1, 3_800)).toBe(3_851 + 4_841 / 2);
    availability.onRenewed(0, -1, 4_100);
    expect(availability.windowEndMs(0, 1, 3_800)).toBe(-1);
  });
});
