import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';

import { EventQueue, type Scheduled } from './queue.js';

interface Item extends Scheduled {
  /** Insertion number as the test counts it (independent of the queue's own sequence). */
  id: number;
}

function item(timeMs: number, id: number): Item {
  return { timeMs, sequence: -1, id };
}

function drain(queue: EventQueue<Item>): Item[] {
  const popped: Item[] = [];
  for (let item = queue.pop(); item !== undefined; item = queue.pop()) popped.push(item);
  return popped;
}

/** The reference order: by time, then by insertion (a stable sort keeps insertion order on ties). */
function referenceOrder(items: readonly Item[]): number[] {
  return [...items].sort((a, b) => a.timeMs - b.timeMs).map((entry) => entry.id);
}

/** Small time ranges so that ties are frequent. */
const timesArbitrary = fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 });

describe('EventQueue', () => {
  test.prop([timesArbitrary])('pops in (timeMs, insertion) order for random pushes', (times) => {
    const queue = new EventQueue<Item>();
    const items = times.map((timeMs, id) => item(timeMs, id));
    for (const entry of items) queue.push(entry);
    expect(queue.size).toBe(items.length);
    expect(drain(queue).map((entry) => entry.id)).toEqual(referenceOrder(items));
    expect(queue.size).toBe(0);
  });

  test.prop([fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant('pop' as const)), { maxLength: 300 })])(
    'interleaved pushes and pops match a sorted reference list',
    (commands) => {
      const queue = new EventQueue<Item>();
      const model: Item[] = [];
      let nextId = 0;
      for (const command of commands) {
        if (command === 'pop') {
          const expected = model.length === 0 ? undefined : model.reduce((best, entry) => (entry.timeMs < best.timeMs || (entry.timeMs === best.timeMs && entry.id < best.id) ? entry : best));
          if (expected !== undefined) model.splice(model.indexOf(expected), 1);
          expect(queue.peekTimeMs()).toBe(expected === undefined ? Infinity : expected.timeMs);
          expect(queue.pop()?.id).toBe(expected?.id);
        } else {
          const entry = item(command, nextId++);
          model.push(entry);
          queue.push(entry);
        }
        expect(queue.size).toBe(model.length);
      }
      expect(drain(queue).map((entry) => entry.id)).toEqual(referenceOrder(model));
    },
  );

  it('ties in time keep insertion order', () => {
    const queue = new EventQueue<Item>();
    for (let id = 0; id < 10; id++) queue.push(item(5, id));
    queue.push(item(1, 10));
    expect(drain(queue).map((entry) => entry.id)).toEqual([10, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('an empty queue pops undefined and peeks Infinity', () => {
    const queue = new EventQueue<Item>();
    expect(queue.pop()).toBeUndefined();
    expect(queue.peekTimeMs()).toBe(Infinity);
  });

  it('clear empties the queue and restarts the sequence', () => {
    const queue = new EventQueue<Item>();
    queue.push(item(3, 0));
    queue.push(item(2, 1));
    queue.clear();
    expect(queue.size).toBe(0);
    expect(queue.pop()).toBeUndefined();
    const again = item(7, 2);
    queue.push(again);
    expect(again.sequence).toBe(0);
  });
});
