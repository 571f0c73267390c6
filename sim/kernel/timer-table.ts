/**
 * The armed timers of a driver: the deadline of the latest arming of each `{kind, uri}` timer. Re-arming
 * replaces (as clearTimeout + setTimeout would), so a queued firing whose deadline is not the latest is
 * stale. Keyed structurally (URI, then kind index) rather than by a built string: no string is made per
 * arming or firing on the simulator's hot path.
 */
import { timerKinds, type TimerId } from '../../core/types.js';

const NOT_ARMED = -1;

export class TimerTable {
  /** URI -> deadlines by kind, in `timerKinds` order (-1: not armed). */
  private readonly rows = new Map<string, number[]>();

  /** Records `deadlineMs` (>= 0) as the latest arming of `timer`. */
  arm(timer: TimerId, deadlineMs: number): void {
    let row = this.rows.get(timer.uri);
    if (row === undefined) {
      row = [];
      for (let index = 0; index < timerKinds.length; index++) row.push(NOT_ARMED);
      this.rows.set(timer.uri, row);
    }
    row[timerKinds.indexOf(timer.kind)] = deadlineMs;
  }

  /** True when `deadlineMs` is the latest arming of `timer`; it is then disarmed (a timer fires once). */
  takeIfLatest(timer: TimerId, deadlineMs: number): boolean {
    const row = this.rows.get(timer.uri);
    if (row === undefined) return false;
    const index = timerKinds.indexOf(timer.kind);
    if (row[index] !== deadlineMs) return false;
    row[index] = NOT_ARMED;
    return true;
  }

  clear(): void {
    this.rows.clear();
  }
}
