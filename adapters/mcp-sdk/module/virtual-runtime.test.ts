/**
 * The virtual runtime's wake-ups: each client timer asks the world for one wake-up at the fake clock's own
 * deadline for it, and clearing the timer cancels that wake-up (an SDK request timeout cleared by its response
 * must not wake the world 60 s later for nothing).
 */
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualRuntime } from './virtual-runtime.js';

interface Recorder {
  wakes: { handle: number; deadlineMs: number }[];
  unwoken: number[];
  runtime: VirtualRuntime;
}

let current: VirtualRuntime | null = null;

function recorder(): Recorder {
  const wakes: Recorder['wakes'] = [];
  const unwoken: number[] = [];
  const runtime = new VirtualRuntime(1, {
    wake: (deadlineMs) => {
      wakes.push({ handle: wakes.length + 1, deadlineMs });
      return wakes.length;
    },
    unwake: (handle) => unwoken.push(handle),
    timerFiring: () => undefined,
    currentToken: () => 0,
  });
  runtime.install();
  current = runtime;
  return { wakes, unwoken, runtime };
}

afterEach(() => {
  current?.uninstall();
  current = null;
});

describe('virtual runtime wake-ups', () => {
  it('clearTimeout and clearInterval cancel the wake-up of that timer, and only that one', () => {
    const { wakes, unwoken } = recorder();
    const kept = setTimeout(() => undefined, 500);
    const cleared = setTimeout(() => undefined, 60_000);
    const interval = setInterval(() => undefined, 1_000);
    expect(wakes.map((wake) => wake.deadlineMs)).toEqual([500, 60_000, 1_000]);
    clearTimeout(cleared);
    clearInterval(interval);
    expect(unwoken).toEqual([2, 3]);
    clearTimeout(kept);
    clearTimeout(kept); // twice: the second finds no wake-up
    expect(unwoken).toEqual([2, 3, 1]);
  });

  it('a fired timer has no wake-up left to cancel; an interval re-arms one per period until cleared inside its callback', () => {
    const { wakes, unwoken, runtime } = recorder();
    const timer = setTimeout(() => undefined, 100);
    runtime.sync(100);
    clearTimeout(timer);
    expect(unwoken).toEqual([]);
    let ticks = 0;
    const interval = setInterval(() => {
      ticks++;
      if (ticks === 2) clearInterval(interval);
    }, 50);
    runtime.sync(150);
    runtime.sync(200);
    runtime.sync(400);
    expect(ticks).toBe(2);
    expect(wakes.slice(1).map((wake) => wake.deadlineMs)).toEqual([150, 200]);
    expect(unwoken).toEqual([3]);
  });

  it("a 0 ms timer armed while a timer fires wakes the world at the fake clock's deadline for it (1 ms later), not at once", () => {
    const { wakes, runtime } = recorder();
    setTimeout(() => setTimeout(() => undefined, 0), 10);
    runtime.sync(10);
    expect(wakes.map((wake) => wake.deadlineMs)).toEqual([10, 11]);
  });
});

describe('virtual runtime setImmediate', () => {
  it('knows while a callback armed with the global setImmediate is pending: until it ran or was cleared', async () => {
    const { runtime } = recorder();
    const ran: unknown[] = [];
    expect(runtime.immediatesPending).toBe(false);
    setImmediate(function (this: unknown, value: string) {
      ran.push(value, this !== undefined);
    }, 'argument');
    expect(runtime.immediatesPending).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['argument', true]); // its arguments, and the Immediate as `this`
    expect(runtime.immediatesPending).toBe(false);
    const cleared = setImmediate(() => ran.push('cleared'));
    expect(runtime.immediatesPending).toBe(true);
    clearImmediate(cleared);
    expect(runtime.immediatesPending).toBe(false);
    const promised = promisify(setImmediate)(); // util.promisify(setImmediate) is followed too
    expect(runtime.immediatesPending).toBe(true);
    await promised;
    expect(runtime.immediatesPending).toBe(false);
    expect(ran).toEqual(['argument', true]);
  });

  it('a non-function is refused as Node refuses it, and uninstall puts the real functions back', () => {
    const real = globalThis.setImmediate;
    const { runtime } = recorder();
    expect(globalThis.setImmediate).not.toBe(real);
    expect(() => setImmediate('not a function' as never)).toThrow(TypeError);
    runtime.uninstall();
    current = null;
    expect(globalThis.setImmediate).toBe(real);
  });
});
