/**
 * The one scheduler heap of the project (the pure world's queue and the SDK adapter's VirtualClock): a
 * binary min-heap ordered by (timeMs, sequence). Ties in time are
 * broken by insertion order, so the order is total and deterministic; nondeterminism enters only through
 * the latencies the chooser draws.
 */
export interface Scheduled {
  timeMs: number;
  sequence: number;
}

export class EventQueue<E extends Scheduled> {
  private heap: E[] = [];
  private nextSequence = 0;

  get size(): number {
    return this.heap.length;
  }

  clear(): void {
    this.heap.length = 0;
    this.nextSequence = 0;
  }

  push(event: E): void {
    event.sequence = this.nextSequence++;
    const heap = this.heap;
    let index = heap.length;
    heap.push(event);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = heap[parent]!;
      if (!before(event, above)) break;
      heap[index] = above;
      index = parent;
    }
    heap[index] = event;
  }

  pop(): E | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (top === undefined) return undefined;
    const last = heap.pop()!;
    const length = heap.length;
    if (length > 0) {
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        if (left >= length) break;
        const right = left + 1;
        const child = right < length && before(heap[right]!, heap[left]!) ? right : left;
        if (!before(heap[child]!, last)) break;
        heap[index] = heap[child]!;
        index = child;
      }
      heap[index] = last;
    }
    return top;
  }

  /** The next event without removing it. */
  peek(): E | undefined {
    return this.heap[0];
  }

  peekTimeMs(): number {
    const top = this.heap[0];
    return top === undefined ? Infinity : top.timeMs;
  }
}

function before(a: Scheduled, b: Scheduled): boolean {
  return a.timeMs < b.timeMs || (a.timeMs === b.timeMs && a.sequence < b.sequence);
}
