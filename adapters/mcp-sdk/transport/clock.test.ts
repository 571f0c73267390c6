/**
 * The virtual clock's event hooks (module clients): what a client timer that falls due starts settles before
 * the event that made the clock reach its instant fires, so it is never taken for a reaction to that event.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock.js';

/** Three promise hops, like a client's `await` chain before it sends. */
async function hops(log: string[], what: string): Promise<void> {
  for (let hop = 0; hop < 3; hop++) await Promise.resolve();
  log.push(what);
}

describe('virtual clock event hooks', () => {
  it('a before hook that ran client code (returns true) settles it, as an event of its own, before the event fires', async () => {
    const log: string[] = [];
    let timerDue = true;
    const clock = new VirtualClock({
      eventHooks: {
        before: () => {
          if (!timerDue) return false;
          timerDue = false;
          void hops(log, 'timer work');
          return true;
        },
        settled: () => log.push('settled'),
      },
    });
    clock.setTimer(10, () => {
      log.push('event');
      void hops(log, 'event work');
    });
    await clock.advanceTo(10);
    expect(log).toEqual(['timer work', 'settled', 'event', 'event work', 'settled']);
  });

  it('a before hook that ran nothing (returns false) adds no settle of its own', async () => {
    const log: string[] = [];
    const clock = new VirtualClock({ eventHooks: { before: () => false, settled: () => log.push('settled') } });
    clock.setTimer(5, () => log.push('first'));
    clock.setTimer(5, () => log.push('second'));
    await clock.advanceTo(5);
    expect(log).toEqual(['first', 'settled', 'second', 'settled']);
  });
});
