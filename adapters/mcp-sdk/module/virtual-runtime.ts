/**
 * Deterministic execution of a module client's async code during one interleaving: `@sinonjs/fake-timers`
 * replaces setTimeout/setInterval, Date and performance.now, and Math.random is the seeded PRNG. The fake
 * clock follows the world's `VirtualClock`: every world event first brings the fake time up to virtual now
 * (`sync`), and every client timer asks the world for a wake-up event at its deadline (`wake`), so client
 * timers fire in virtual-time order among the world's events, each with its own microtask drain.
 *
 * Only one interleaving may run at a time in a thread (the globals are shared): `install` refuses a second.
 * setImmediate, process.nextTick and queueMicrotask stay real: the harness drains promise jobs with them.
 */
import { withGlobal, type Clock as InstalledClock } from '@sinonjs/fake-timers';
import { createPrng } from '../../../sim/prng.js';

export interface RuntimeHooks {
  /** A client timer is due at `deadlineMs` (virtual): schedule a wake-up event then. */
  wake(deadlineMs: number): void;
  /** A client timer callback starts (the harness attributes what it causes). */
  timerFiring(token: number): void;
  /** The token of whatever the client is reacting to now (recorded with each timer it arms). */
  currentToken(): number;
}

type TimerFn = (...args: unknown[]) => unknown;

let installed: VirtualRuntime | null = null;

export class VirtualRuntime {
  private clock: InstalledClock | null = null;
  private realRandom: (() => number) | null = null;

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
    const hooks = this.hooks;
    const deadlineOf = (timer: unknown, delayMs: number | undefined): number => {
      const id = typeof timer === 'object' && timer !== null ? (timer as { id?: number }).id : (timer as number);
      const callAt = (clock as unknown as { timers?: Record<string, { callAt: number }> }).timers?.[String(id)]?.callAt;
      return callAt ?? clock.now + Math.max(0, Number(delayMs) || 0);
    };
    (globalThis as Record<string, unknown>).setTimeout = (fn: TimerFn, delayMs?: number, ...args: unknown[]) => {
      const token = hooks.currentToken();
      const timer = fakeSetTimeout(function (this: unknown, ...callArgs: unknown[]) {
        hooks.timerFiring(token);
        return typeof fn === 'function' ? fn.apply(this, callArgs) : undefined;
      }, delayMs, ...args);
      hooks.wake(deadlineOf(timer, delayMs));
      return timer;
    };
    (globalThis as Record<string, unknown>).setInterval = (fn: TimerFn, delayMs?: number, ...args: unknown[]) => {
      const token = hooks.currentToken();
      let timer: unknown = null;
      timer = fakeSetInterval(function (this: unknown, ...callArgs: unknown[]) {
        hooks.timerFiring(token);
        const value = typeof fn === 'function' ? fn.apply(this, callArgs) : undefined;
        hooks.wake(deadlineOf(timer, delayMs));
        return value;
      }, delayMs, ...args);
      hooks.wake(deadlineOf(timer, delayMs));
      return timer;
    };
  }

  /** Brings the fake time up to `nowMs` (firing client timers due by then). */
  sync(nowMs: number): void {
    const clock = this.clock;
    if (clock !== null && nowMs > clock.now) clock.tick(nowMs - clock.now);
  }

  uninstall(): void {
    if (installed !== this) return;
    this.clock?.uninstall();
    this.clock = null;
    if (this.realRandom !== null) Math.random = this.realRandom;
    installed = null;
  }
}
