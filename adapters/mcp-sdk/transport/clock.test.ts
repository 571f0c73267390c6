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

  it('a promise job queued by settled after the last event of an instant runs before the next instant (turn or not)', async () => {
    for (const turnDue of [() => true, () => false]) {
      const log: string[] = [];
      let events = 0;
      const clock = new VirtualClock({
        eventHooks: {
          before: () => false,
          settled: () => void Promise.resolve().then(() => log.push(`job after event ${events}`)),
          turnDue,
        },
      });
      clock.setTimer(1, () => log.push(`event ${++events}`));
      clock.setTimer(2, () => log.push(`event ${++events}`));
      await clock.advanceTo(2);
      expect(log).toEqual(['event 1', 'job after event 1', 'event 2', 'job after event 2']);
    }
  });

  it('stop ends the run after an instant; an event that throws, or too many events, rejects the call', async () => {
    const fired: number[] = [];
    const clock = new VirtualClock({ eventsPerCallMax: 3, eventHooks: { before: () => false, settled: () => undefined } });
    for (const timeMs of [1, 2, 3]) clock.setTimer(timeMs, () => fired.push(timeMs));
    await clock.advanceTo(10, () => fired.length >= 2);
    expect(fired).toEqual([1, 2]);
    expect(clock.nowMs()).toBe(2);
    clock.setTimer(4, () => {
      throw new Error('event failed');
    });
    await expect(clock.advanceTo(10)).rejects.toThrow('event failed');
    for (let index = 0; index < 5; index++) clock.setTimer(20, () => undefined);
    await expect(clock.advanceTo(30)).rejects.toThrow('more than 3 events in one call');
  });
});
