/**
 * Time for the SDK adapter: a `Clock` the cache schedules its core timers through.
 *
 * - `systemClock` is real time. It is the only place in `adapters/` that reads the wall clock or calls
 *   `setTimeout`.
 * - `VirtualClock` is virtual time on one deterministic queue ordered by (deadline, sequence). Timers of
 *   the cache, message deliveries of the virtual link and delays of the simulated server all go through
 *   it, so one `advanceTo` drives the whole world. It fires the events of one instant in order, then lets
 *   the promise microtasks they started run to completion (one `setImmediate` turn: Node drains every
 *   microtask before the check phase) before the next instant. It never reads a clock.
 */
import { EventQueue } from '../../../sim/queue.js';

export type TimerHandle = number;

export interface Clock {
  /** Milliseconds: epoch time for `systemClock`, virtual time for `VirtualClock`. */
  nowMs(): number;
  /** Calls `fire` once at or after `deadlineMs` (a deadline in the past fires as soon as possible). */
  setTimer(deadlineMs: number, fire: () => void): TimerHandle;
  /** Cancels a timer that has not fired yet; unknown or fired handles are ignored. */
  clearTimer(handle: TimerHandle): void;
}

/** Node clamps longer setTimeout delays to 1 ms; longer timers are re-armed in steps of this size. */
export const SET_TIMEOUT_MS_MAX = 2_147_483_647;

class SystemClock implements Clock {
  private nextHandle = 1;
  private readonly timers = new Map<TimerHandle, ReturnType<typeof setTimeout>>();

  nowMs(): number {
    return Date.now();
  }

  setTimer(deadlineMs: number, fire: () => void): TimerHandle {
    const handle = this.nextHandle++;
    this.arm(handle, deadlineMs, fire);
    return handle;
  }

  clearTimer(handle: TimerHandle): void {
    const timer = this.timers.get(handle);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(handle);
  }

  private arm(handle: TimerHandle, deadlineMs: number, fire: () => void): void {
    const delayMs = Math.max(0, Math.min(SET_TIMEOUT_MS_MAX, deadlineMs - Date.now()));
    const timer = setTimeout(() => {
      if (Date.now() < deadlineMs) {
        this.arm(handle, deadlineMs, fire);
        return;
      }
      this.timers.delete(handle);
      fire();
    }, delayMs);
    this.timers.set(handle, timer);
  }
}

/** Real time (Date.now / setTimeout). */
export const systemClock: Clock = new SystemClock();

/** Lets every pending promise microtask run (one turn of the event loop's check phase). */
export function drainMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Lets every pending promise job run, without a turn of the event loop: Node runs process.nextTick callbacks
 * only once V8's microtask queue is empty, so this resolves after every promise job queued before the call
 * and every job those queue in turn. (A client's own process.nextTick callbacks may run after it; the SDK
 * queues none.) About a quarter of the cost of `drainMicrotasks`.
 */
export function drainPromiseJobs(): Promise<void> {
  return new Promise(resolveOnNextTick);
}

/** The executor of `drainPromiseJobs`, shared (one closure less per event). */
function resolveOnNextTick(resolve: () => void): void {
  process.nextTick(resolve);
}

interface VirtualEvent {
  timeMs: number;
  sequence: number;
  handle: TimerHandle;
  fire: () => void;
}

/** What a module world does around each event (see `VirtualClockOptions.eventHooks`). */
export interface VirtualEventHooks {
  /**
   * Runs before each event. Returns true when it ran client code (a client timer that fell due): that code's
   * promise jobs then settle, as an event of its own, before the event fires, so that nothing the timer
   * started is taken for a reaction to the event.
   */
  before(): boolean;
  settled(): void;
  /**
   * Asked at the end of each instant: take the event-loop turn now? Absent: every instant. The promise jobs
   * are drained after each event anyway; the turn only lets macrotasks run (the client's setImmediate
   * callbacks, and whatever escaped onto real timers or I/O, which the determinism self-check then sees).
   */
  turnDue?(): boolean;
}

export interface VirtualClockOptions {
  /** Virtual time at construction (default 0). */
  startMs?: number;
  /** Bound on the events one `advanceTo`/`runUntilIdle`/`runUntil` call may run (default 1,000,000). */
  eventsPerCallMax?: number;
  /**
   * Module clients: `before` runs before each event, `settled` after it once the microtasks it started have
   * settled (one `drainPromiseJobs` per event, so what a client does is attributed to the event it reacts
   * to), and one `setImmediate` turn ends each instant for which `turnDue` (if given) says so. Unset: one
   * drain per instant.
   */
  eventHooks?: VirtualEventHooks;
}

/**
 * Virtual time you advance by hand. Same calls in the same order give the same sequence of fired
 * events: ties at one deadline fire in scheduling order.
 */
export class VirtualClock implements Clock {
  private now: number;
  private nextHandle = 1;
  /** The simulator's one scheduler heap (sim/queue.ts): ordered by (deadline, scheduling order). */
  private readonly queue = new EventQueue<VirtualEvent>();
  /** Handles scheduled and neither fired nor cleared. */
  private readonly live = new Set<TimerHandle>();
  private readonly eventsPerCallMax: number;
  private readonly eventHooks: VirtualEventHooks | undefined;
  /** Events fired since construction. */
  eventsFired = 0;

  constructor(options: VirtualClockOptions = {}) {
    this.now = options.startMs ?? 0;
    this.eventsPerCallMax = options.eventsPerCallMax ?? 1_000_000;
    this.eventHooks = options.eventHooks;
  }

  nowMs(): number {
    return this.now;
  }

  setTimer(deadlineMs: number, fire: () => void): TimerHandle {
    if (!Number.isFinite(deadlineMs)) throw new RangeError(`VirtualClock.setTimer: deadline must be finite, got ${deadlineMs}`);
    const handle = this.nextHandle++;
    this.live.add(handle);
    this.queue.push({ timeMs: Math.max(deadlineMs, this.now), sequence: 0, handle, fire });
    return handle;
  }

  clearTimer(handle: TimerHandle): void {
    this.live.delete(handle);
  }

  /** Schedules `fire` after `delayMs` of virtual time. */
  schedule(delayMs: number, fire: () => void): TimerHandle {
    return this.setTimer(this.now + Math.max(0, delayMs), fire);
  }

  /** A promise resolved after `delayMs` of virtual time (for simulated servers). */
  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.schedule(delayMs, resolve));
  }

  /** Deadline of the next pending event, or Infinity. */
  nextDeadlineMs(): number {
    this.skipCancelled();
    return this.queue.peekTimeMs();
  }

  /** Events scheduled and neither fired nor cleared. */
  get pending(): number {
    return this.live.size;
  }

  /**
   * Runs every event due at or before `targetMs`, then sets the time to `targetMs`. With `stop`, asked
   * after each instant: once it returns true, the remaining events stay pending and the time stays put.
   */
  async advanceTo(targetMs: number, stop?: () => boolean): Promise<void> {
    await drainMicrotasks();
    const stopped = await this.runInstants(() => this.nextDeadlineMs() <= targetMs, 'advanceTo', targetMs, stop);
    if (!stopped && targetMs > this.now) this.now = targetMs;
  }

  advanceBy(deltaMs: number): Promise<void> {
    return this.advanceTo(this.now + deltaMs);
  }

  /**
   * Runs events until none is pending. Periodic timers (the cache's reconciliation) never let the
   * queue empty, so give `untilMs` as a bound there.
   */
  async runUntilIdle(untilMs = Infinity): Promise<void> {
    await drainMicrotasks();
    await this.runInstants(() => this.nextDeadlineMs() <= untilMs, 'runUntilIdle');
  }

  /** Runs events until `promise` settles (or time would pass `untilMs`); returns its value. */
  async runUntil<T>(promise: Promise<T>, untilMs = Infinity): Promise<T> {
    let settled = false;
    const watched = promise.then(
      (value) => {
        settled = true;
        return value;
      },
      (error: unknown) => {
        settled = true;
        throw error;
      },
    );
    watched.catch(() => undefined);
    await drainMicrotasks();
    await this.runInstants(() => {
      if (settled) return false;
      if (this.nextDeadlineMs() > untilMs) throw new Error(`VirtualClock.runUntil: still pending at ${untilMs} ms of virtual time (now ${this.now} ms)`);
      return true;
    }, 'runUntil');
    return watched;
  }

  private guard(events: number, where: string, targetMs?: number): void {
    if (events > this.eventsPerCallMax) {
      throw new Error(`VirtualClock.${where}${targetMs === undefined ? '' : `(${targetMs})`}: more than ${this.eventsPerCallMax} events in one call (a timer loop?) at ${this.now} ms`);
    }
  }

  /**
   * Fires instant after instant while `more()` says so. At each instant, every event due then fires in
   * (deadline, sequence) order, each followed by its promise-job drain when there are event hooks; then the
   * microtasks they started settle once (a stdio transport likewise parses every line of one chunk before any
   * promise continuation runs). `stop`, asked after each instant, ends the run early: returns true then.
   * (One async frame for the whole run instead of an async call per instant.)
   */
  private async runInstants(more: () => boolean, where: string, targetMs?: number, stop?: () => boolean): Promise<boolean> {
    let events = 0;
    const hooks = this.eventHooks;
    while (more()) {
      const instantMs = this.nextDeadlineMs();
      this.now = instantMs;
      while (this.nextDeadlineMs() === instantMs) {
        const event = this.queue.pop()!;
        this.live.delete(event.handle);
        this.eventsFired++;
        events++;
        if (hooks?.before() === true) {
          await drainPromiseJobs();
          hooks.settled();
        }
        event.fire();
        if (hooks === undefined) continue;
        await drainPromiseJobs();
        hooks.settled();
      }
      // An event-loop turn (every instant unless `turnDue` says otherwise): whatever escaped onto real
      // macrotasks (a real timer, I/O) still runs, and shows up in the determinism self-check, instead of
      // waiting for the end of the run. A turn costs a few µs, as much as the rest of an event's harness work.
      if (hooks?.turnDue === undefined || hooks.turnDue()) await drainMicrotasks();
      // One promise-job hop between two instants, where an awaited call per instant used to return: the
      // order of everything stays exactly as it was (a job queued by the last look runs before the next instant).
      await undefined;
      this.guard(events, where, targetMs);
      if (stop?.() === true) return true;
    }
    return false;
  }

  private skipCancelled(): void {
    const queue = this.queue;
    while (queue.size > 0 && !this.live.has(queue.peek()!.handle)) queue.pop();
  }
}
