/**
 * The event loop of a `VirtualClock` with event hooks (module clients), written as a chain of callbacks
 * instead of an async function. It queues the same promise jobs, ticks and event-loop turns, in the same
 * order, as the async loop it replaces: where that loop awaited a promise, one promise job is queued here at
 * the moment the awaited promise would have resolved. What goes is what each `await` allocated (a promise,
 * its resolvers, the await's closures and reaction: several hundred bytes per event, and a module
 * interleaving has hundreds of events; bench/module-floor.ts).
 *
 * Per event: `before`; when it ran client code, a drain of the promise jobs that started, then `settled`;
 * then the event fires, a drain, `settled`. A drain is a process.nextTick queued from a promise job: Node
 * runs it once V8's job queue is empty, and the loop goes on in a promise job queued from that tick.
 * Per instant: an event-loop turn (setImmediate) when `turnDue` says so, then one promise-job hop, then
 * `stop`. Whatever throws (a hook, an event, the bound of events per call) rejects the run.
 */
import type { VirtualEventHooks } from './clock.js';

/** What the loop needs of the clock. */
export interface InstantQueue {
  /** Deadline of the next pending event, or Infinity. */
  nextDeadlineMs(): number;
  /** Makes `instantMs` the virtual now. */
  enterInstant(instantMs: number): void;
  /** Removes the next pending event (counted as fired) and returns its callback. */
  takeEvent(): () => void;
  /** Throws when `events`, fired by this call, exceed the clock's bound. */
  guard(events: number): void;
}

/** A settled promise: `then` on it queues one promise job now, as an awaited promise that resolves now does. */
const resolvedPromise = Promise.resolve();

/**
 * Fires instant after instant while `more()` says so, with the hooks around every event; `stop`, asked after
 * each instant, ends the run early. Resolves with whether `stop` ended it.
 */
export function runHookedInstants(queue: InstantQueue, hooks: VirtualEventHooks, more: () => boolean, stop?: () => boolean): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => new HookedInstants(queue, hooks, more, stop, resolve, reject).nextInstant());
}

class HookedInstants {
  private events = 0;
  private instantMs = 0;
  /** The event taken, fired once its `before` settled. */
  private pending: (() => void) | null = null;

  // The continuations, allocated once per run: `tick*` run as process.nextTick callbacks, `after*` as promise jobs.
  private readonly tickAfterBefore = (): void => void resolvedPromise.then(this.afterBefore);
  private readonly tickAfterEvent = (): void => void resolvedPromise.then(this.afterEvent);
  private readonly immediateAfterTurn = (): void => void resolvedPromise.then(this.afterTurn);
  private readonly afterBefore = (): void => this.step(this.settleAndFire);
  private readonly afterEvent = (): void => this.step(this.settleAndContinue);
  private readonly afterTurn = (): void => void resolvedPromise.then(this.afterHop);
  private readonly afterHop = (): void => this.step(this.endInstant);
  private readonly settleAndFire = (): void => {
    this.hooks.settled();
    this.fire();
  };
  private readonly settleAndContinue = (): void => {
    this.hooks.settled();
    this.nextEvent();
  };
  private readonly endInstant = (): void => {
    this.queue.guard(this.events);
    if (this.stop?.() === true) this.resolve(true);
    else this.nextInstant();
  };

  constructor(
    private readonly queue: InstantQueue,
    private readonly hooks: VirtualEventHooks,
    private readonly more: () => boolean,
    private readonly stop: (() => boolean) | undefined,
    private readonly resolve: (stopped: boolean) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  /** Starts the next instant, or ends the run. */
  nextInstant(): void {
    try {
      if (!this.more()) {
        this.resolve(false);
        return;
      }
      this.instantMs = this.queue.nextDeadlineMs();
      this.queue.enterInstant(this.instantMs);
      this.nextEvent();
    } catch (error) {
      this.reject(error);
    }
  }

  /** Runs `body` (a continuation), rejecting the run with what it throws. */
  private step(body: () => void): void {
    try {
      body();
    } catch (error) {
      this.reject(error);
    }
  }

  /** Takes the next event of this instant (its `before` first), or ends the instant. */
  private nextEvent(): void {
    const queue = this.queue;
    if (queue.nextDeadlineMs() !== this.instantMs) {
      // An event-loop turn when due: whatever escaped onto real macrotasks (a real timer, I/O) still runs, and
      // shows up in the determinism self-check. Then one promise-job hop: a job queued by the last look runs
      // before the next instant.
      if (this.hooks.turnDue === undefined || this.hooks.turnDue()) setImmediate(this.immediateAfterTurn);
      else void resolvedPromise.then(this.afterHop);
      return;
    }
    this.pending = queue.takeEvent();
    this.events++;
    if (this.hooks.before()) process.nextTick(this.tickAfterBefore);
    else this.fire();
  }

  private fire(): void {
    const fire = this.pending!;
    this.pending = null;
    fire();
    process.nextTick(this.tickAfterEvent);
  }
}
