/**
 * What an indexer interleaving schedules before its first event: the plan's source changes, the start, a read
 * of every resource every `readPeriodMs`, the heal phase, and the planned faults' times (chooser draws, in
 * this order, so a run replays from its decisions).
 */
import { faultPhaseMs, healPhaseMs } from './sim-plan.js';
import type { SimPort } from './sim-port.js';

export const readPeriodMs = 2_000;

export function scheduleRun(world: SimPort): void {
  world.plan.changes.forEach((_, index) => world.at(world.plan.changes[index]!.atMs, { kind: 'change', index }));
  world.at(0, { kind: 'input', epoch: 0, input: { type: 'Started', nowMs: 0 } });
  for (let timeMs = readPeriodMs; timeMs <= faultPhaseMs + healPhaseMs; timeMs += readPeriodMs) world.at(timeMs, { kind: 'read' });
  world.at(faultPhaseMs, { kind: 'heal' });
  if (world.plan.faults['indexer-crash']) {
    const crashes = 1 + world.chooser.draw('faults', 'crash.count', 3);
    for (let index = 0; index < crashes; index++) world.at(1_000 + world.chooser.draw('faults', 'crash.at', 880) * 100, { kind: 'crash' });
  }
  if (world.plan.faults['store-restart']) world.at(3_000 + world.chooser.draw('faults', 'store-restart.at', 80) * 1_000, { kind: 'store-restart' });
  if (world.plan.faults['store-data-loss']) world.at(3_000 + world.chooser.draw('faults', 'data-loss.at', 80) * 1_000, { kind: 'data-loss' });
  if (world.plan.faults['model-upgrade']) {
    world.at(world.plan.upgradeAtMs, { kind: 'upgrade', model: 'fake-b' });
    if (world.plan.faults['model-upgrade-duplicate']) world.at(world.plan.upgradeAtMs + 1_500, { kind: 'upgrade', model: 'fake-b' });
    if (world.plan.faults['model-rollback']) world.at(world.plan.upgradeAtMs + 5_000 + world.chooser.draw('faults', 'rollback.at', 40) * 1_000, { kind: 'rollback' });
  }
}
