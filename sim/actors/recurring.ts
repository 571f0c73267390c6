/**
 * Recurring world processes (a resource's mutations, serving, discovery, completeness tasks): the next
 * event after a drawn interval, or none. The draw 0 ends the process (`Chooser.interval`), so the
 * simplest schedule is the one with the fewest events.
 */
import { causeWorkload } from '../oracle.js';
import type { Kind } from '../kernel/events.js';
import type { WorldHost } from '../kernel/host.js';

export function scheduleNext(world: WorldHost, label: string, intervalMsMin: number, intervalMsMax: number, kind: Kind, a: number): void {
  const delayMs = world.chooser.interval('workload', label, intervalMsMin, intervalMsMax);
  if (delayMs >= 0) world.schedule(world.nowMs + delayMs, kind, causeWorkload, a, null);
}
