/**
 * The faulty channel from the client's outbox to the indexer: an entry is dropped (and remembered as lost),
 * delivered after a latency, reordered, delayed or duplicated, each a chooser draw while its fault is on.
 */
import type { SimPort } from './sim-port.js';
import type { ChangeEntry, IndexerInput } from './types.js';

/** Sends one outbox entry over the channel. */
export function sendOutboxEntry(world: SimPort, entry: ChangeEntry): void {
  const input: IndexerInput = { type: 'ChangeArrived', nowMs: 0, entry };
  if (world.fault('outbox-drop') && world.chooser.chance('network', 'outbox.drop', 1, 6)) {
    world.fired('outbox-drop');
    world.line(`outbox entry ${entry.uri} v${entry.sequence} dropped`);
    const list = world.lost.get(entry.uri) ?? [];
    list.push({ sequence: entry.sequence, droppedAtMs: world.nowMs });
    world.lost.set(entry.uri, list);
    return;
  }
  world.at(world.nowMs + channelDelayMs(world), { kind: 'input', epoch: -1, input });
  if (world.fault('outbox-duplicate') && world.chooser.chance('network', 'outbox.duplicate', 1, 4)) {
    world.fired('outbox-duplicate');
    world.at(world.nowMs + channelDelayMs(world) + 200, { kind: 'input', epoch: -1, input });
  }
}

function channelDelayMs(world: SimPort): number {
  let delayMs = 5 + world.chooser.draw('network', 'outbox.latency', 40);
  if (world.fault('outbox-reorder') && world.chooser.chance('network', 'outbox.reorder', 1, 4)) {
    world.fired('outbox-reorder');
    delayMs += 500 + world.chooser.draw('network', 'outbox.reorder-ms', 25) * 100;
  }
  if (world.fault('outbox-delay') && world.chooser.chance('network', 'outbox.delay', 1, 6)) {
    world.fired('outbox-delay');
    delayMs += 4_000 + world.chooser.draw('network', 'outbox.delay-ms', 40) * 100;
  }
  return delayMs;
}
