/**
 * Deterministic execution of a module client's async code during one interleaving: `@sinonjs/fake-timers`
 * replaces setTimeout/setInterval, Date and performance.now, and Math.random is the seeded PRNG. The fake
 * clock follows the world's `VirtualClock`: every world event first brings the fake time up to virtual now
 * (`sync`), and every client timer asks the world for a wake-up event at its deadline (`wake`), so client
 * timers fire in virtual-time order among the world's events, each with its own microtask drain.
 *
 * Only one interleaving may run at a time in a thread (the globals are shared): `install` refuses a second.
 * setImmediate, process.nextTick and queueMicrotask stay real: the harness drains promise jobs with them.
 * The global setImmediate is followed, though: while a callback the client armed with it is pending, the
 * world takes its event-loop turn at the end of the instant (`immediatesPending`), so such callbacks run
 * where they always did; otherwise the world takes a turn only every few instants (module-world.ts).
 */
import { promisify } from 'node:util';
import { withGlobal, type Clock as InstalledClock } from '@sinonjs/fake-timers';
import { createPrng } from '../../../sim/prng.js';

export interface RuntimeHooks {
  /** A client timer is due at `deadlineMs` (virtual): schedule a wake-up event then; returns its handle. */
  wake(deadlineMs: number): number;
  /** The client cleared the timer of that wake-up (so it never wakes the world for nothing). */
  unwake(handle: number): void;
  /** A client timer callback starts (the harness attributes what it causes). */
  timerFiring(token: number): void;
  /** The token of whatever the client is reacting to now (recorded with each timer it arms). */
  currentToken(): number;
}

type TimerFn = (...args: unknown[]) => unknown;

/** What `sync` reads of @sinonjs/fake-timers' clock (pinned 15.5.0): its timer heap and its queue of fake jobs. */
type FakeClockInternals = InstalledClock & { jobs?: unknown[] };

let installed: VirtualRuntime | null = null;

export class VirtualRuntime {
  private clock: InstalledClock | null = null;
  private realRandom: (() => number) | null = null;
  private realImmediate: { set: typeof setImmediate; clear: typeof clearImmediate } | null = null;
  /** The global setImmediate callbacks armed during the run that have neither run nor been cleared. */
  private readonly immediates = new Set<unknown>();

  constructor(
    private readonly seed: number,
    private readonly hooks: RuntimeHooks,
  ) {}

  install(): void {
    if (installed !== null) throw new Error('module clients: one interleaving at a time per thread (the fake clock is global)');
    installed = this;
    const clock = withGlobal(globalThis).install({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
    this.clock = clock;
    const prng = createPrng(this.seed);
    this.realRandom = Math.random;
    Math.random = () => prng.nextUint32() / 0x1_0000_0000;
    const fakeSetTimeout = globalThis.setTimeout as unknown as (fn: TimerFn, delayMs?: number, ...args: unknown[]) => unknown;
    const fakeSetInterval = globalThis.setInterval as unknown as (fn: TimerFn, delayMs?: number, ...args: unknown[]) => unknown;
    const fakeClearTimeout = globalThis.clearTimeout as unknown as (timer: unknown) => void;
    const fakeClearInterval = globalThis.clearInterval as unknown as (timer: unknown) => void;
    const hooks = this.hooks;
    /** Per fake timer id: the world's pending wake-up event for it. */
    const wakes = new Map<number, number>();
    /**
     * A fake timer's id: Node-style timer objects give it as their primitive value. Its wake-up is at the
     * fake clock's own deadline for it (a 0 ms timer armed during a tick is due 1 ms later).
     */
    const idOf = (timer: unknown): number => Number(timer);
    const wake = (id: number, delayMs: number | undefined): void => {
      const callAt = (clock as unknown as { timers?: Map<number, { callAt: number }> }).timers?.get(id)?.callAt;
      wakes.set(id, hooks.wake(callAt ?? clock.now + Math.max(0, Number(delayMs) || 0)));
    };
    const unwake = (timer: unknown): void => {
      const id = idOf(timer);
      const handle = wakes.get(id);
      if (handle === undefined) return;
      wakes.delete(id);
      hooks.unwake(handle);
    };
    (globalThis as Record<string, unknown>).setTimeout = (fn: TimerFn, delayMs?: number, ...args: unknown[]) => {
      const token = hooks.currentToken();
      let id = 0; // the timer's id, read once (a fake timer never fires before setTimeout returned)
      const timer = fakeSetTimeout(function (this: unknown, ...callArgs: unknown[]) {
        wakes.delete(id);
        hooks.timerFiring(token);
        return typeof fn === 'function' ? fn.apply(this, callArgs) : undefined;
      }, delayMs, ...args);
      id = idOf(timer);
      wake(id, delayMs);
      return timer;
    };
    (globalThis as Record<string, unknown>).setInterval = (fn: TimerFn, delayMs?: number, ...args: unknown[]) => {
      const token = hooks.currentToken();
      let id = 0;
      const timer = fakeSetInterval(function (this: unknown, ...callArgs: unknown[]) {
        hooks.timerFiring(token);
        const value = typeof fn === 'function' ? fn.apply(this, callArgs) : undefined;
        if (wakes.has(id)) wake(id, delayMs);
        return value;
      }, delayMs, ...args);
      id = idOf(timer);
      wake(id, delayMs);
      return timer;
    };
    (globalThis as Record<string, unknown>).clearTimeout = (timer: unknown) => {
      unwake(timer);
      fakeClearTimeout(timer);
    };
    (globalThis as Record<string, unknown>).clearInterval = (timer: unknown) => {
      unwake(timer);
      fakeClearInterval(timer);
    };
    this.followImmediates();
  }

  /** Whether a setImmediate callback armed during the run is still pending. */
  get immediatesPending(): boolean {
    return this.immediates.size > 0;
  }

  /** Wraps the global setImmediate/clearImmediate to know which callbacks armed with them are pending. */
  private followImmediates(): void {
    const set = globalThis.setImmediate;
    const clear = globalThis.clearImmediate;
    this.realImmediate = { set, clear };
    const immediates = this.immediates;
    const followed = (fn: TimerFn, ...args: unknown[]): unknown => {
      if (typeof fn !== 'function') return (set as unknown as (fn: unknown) => unknown)(fn); // Node's own error
      const immediate: unknown = set(function (this: unknown, ...callArgs: unknown[]) {
        immediates.delete(immediate);
        fn.apply(this, callArgs);
      }, ...args);
      immediates.add(immediate);
      return immediate;
    };
    (followed as unknown as Record<symbol, unknown>)[promisify.custom] = (value?: unknown) => new Promise((resolve) => followed(resolve, value));
    (globalThis as Record<string, unknown>).setImmediate = followed;
    (globalThis as Record<string, unknown>).clearImmediate = (immediate: unknown) => {
      immediates.delete(immediate);
      clear(immediate as Parameters<typeof clearImmediate>[0]);
    };
  }

  /**
   * Brings the fake time up to `nowMs` (firing client timers due by then). With no fake timer due by then and
   * no fake job queued, a tick would only move `now` (integral ms keep its nanos), so it is set directly: most
   * world events have no client timer due, and a tick costs a few µs each. Returns whether it ticked (so a
   * client timer may have run).
   */
  sync(nowMs: number): boolean {
    const clock = this.clock as FakeClockInternals | null;
    if (clock === null || nowMs <= clock.now) return false;
    const heap = clock.timerHeap;
    if (heap !== undefined && (clock.jobs === undefined || clock.jobs.length === 0)) {
      const first = heap.peek();
      if (first === undefined || (first.callAt ?? -Infinity) > nowMs) {
        clock.now = nowMs;
        return false;
      }
    }
    clock.tick(nowMs - clock.now);
    return true;
  }

  uninstall(): void {
    if (installed !== this) return;
    this.clock?.uninstall();
    this.clock = null;
    if (this.realRandom !== null) Math.random = this.realRandom;
    if (this.realImmediate !== null) {
      globalThis.setImmediate = this.realImmediate.set;
      globalThis.clearImmediate = this.realImmediate.clear;
      this.realImmediate = null;
    }
    this.immediates.clear();
    installed = null;
  }
}
