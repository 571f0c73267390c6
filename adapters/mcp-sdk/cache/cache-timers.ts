/**
 * The fenced cache's timers: a `TimerArmed` effect arms (or re-arms, replacing) the core's timer on the
 * cache's `Clock`; its firing is handed back to the cache as `fire(timer, deadlineMs)`. Cleared when a
 * session ends (the core forgets its volatile timers) and when the cache stops.
 */
import { timerName, type TimerId } from '../../../core/types.js';
import type { Clock, TimerHandle } from '../transport/clock.js';

export class CacheTimers {
  private readonly handles = new Map<string, TimerHandle>();

  constructor(
    private readonly clock: Clock,
    private readonly fire: (timer: TimerId, deadlineMs: number) => void,
  ) {}

  arm(timer: TimerId, deadlineMs: number): void {
    const timerKey = timerName(timer);
    const previous = this.handles.get(timerKey);
    if (previous !== undefined) this.clock.clearTimer(previous);
    const handle = this.clock.setTimer(deadlineMs, () => {
      if (this.handles.get(timerKey) === handle) this.handles.delete(timerKey);
      this.fire(timer, deadlineMs);
    });
    this.handles.set(timerKey, handle);
  }

  clear(): void {
    for (const handle of this.handles.values()) this.clock.clearTimer(handle);
    this.handles.clear();
  }
}
