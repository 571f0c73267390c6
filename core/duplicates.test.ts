/**
 * The learned-duplicates rule (duplicates.ts): on a server not seen to duplicate, a pulse inside the debounce
 * window of a leading read gets a read of its own; once notification reads keep bringing back the content
 * already accepted, pulses inside the window are coalesced into the leading read — except that the
 * `latePulsesPerExtraRead`-th pulse arriving after the window's read was answered gets one extra read.
 */
import { describe, expect, it } from 'vitest';
import { latePulsesPerExtraRead, serverDuplicates } from './duplicates.js';
import { Draft, initialState, type CoreState } from './state.js';
import { ackOutcome, connected, contentOutcome, readsSent, responded, runInputs, subscribeCommanded, testConfig, updated } from './testing.js';

const uri = 'test://static/resource/1';

/** Subscribed and ACTIVE at `nowMs` with content "v1" accepted. */
function active(): { state: CoreState; nowMs: number } {
  let run = runInputs(initialState(testConfig()), [connected(0, 1), subscribeCommanded(0, uri)]);
  const subscribe = run.effects.find((effect) => effect.type === 'RequestSent' && effect.method === 'resources/subscribe')!;
  run = runInputs(run.state, [responded(10, 1, (subscribe as { requestId: number }).requestId, ackOutcome)]);
  const read = readsSent(run.effects)[0]!;
  run = runInputs(run.state, [responded(20, 1, read.requestId, contentOutcome(uri, 'v1'))]);
  return { state: run.state, nowMs: 1_000 };
}

/** A pulse, its read answered with `text`, then a second pulse 100 ms later (inside the 300 ms window): reads the second pulse sent. */
function pulsePair(state: CoreState, nowMs: number, text: string): { state: CoreState; secondReads: number } {
  let run = runInputs(state, [updated(nowMs, 1, uri)]);
  const read = readsSent(run.effects)[0]!;
  run = runInputs(run.state, [responded(nowMs + 20, 1, read.requestId, contentOutcome(uri, text))]);
  const second = runInputs(run.state, [updated(nowMs + 100, 1, uri)]);
  let settled = second.state;
  const follow = readsSent(second.effects)[0];
  if (follow !== undefined) settled = runInputs(settled, [responded(nowMs + 120, 1, follow.requestId, contentOutcome(uri, text))]).state;
  return { state: settled, secondReads: readsSent(second.effects).length };
}

describe('learned duplicates', () => {
  it('a server never seen to duplicate: a pulse inside the window is read; duplicates learned from unchanged re-reads: coalesced', () => {
    let { state, nowMs } = active();
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(false);
    // Each pair: the leading read brings news (v2, v3, ...), the second pulse's read brings the same content back.
    const secondReads: number[] = [];
    for (let pair = 0; pair < 5; pair++) {
      const result = pulsePair(state, nowMs, `v${pair + 2}`);
      state = result.state;
      secondReads.push(result.secondReads);
      nowMs += 2_000;
    }
    expect(secondReads).toEqual([1, 1, 1, 0, 0]);
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(true);
  });

  it('second pulses that always bring news never make the server a duplicator', () => {
    let { state, nowMs } = active();
    for (let pair = 0; pair < 6; pair++) {
      let run = runInputs(state, [updated(nowMs, 1, uri)]);
      run = runInputs(run.state, [responded(nowMs + 20, 1, readsSent(run.effects)[0]!.requestId, contentOutcome(uri, `a${pair}`))]);
      const second = runInputs(run.state, [updated(nowMs + 100, 1, uri)]);
      expect(readsSent(second.effects)).toHaveLength(1);
      state = runInputs(second.state, [responded(nowMs + 120, 1, readsSent(second.effects)[0]!.requestId, contentOutcome(uri, `b${pair}`))]).state;
      nowMs += 2_000;
    }
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(false);
  });

  /** A server learned to duplicate (five pairs whose second read brought the content back), ACTIVE at the returned time. */
  function learned(): { state: CoreState; nowMs: number } {
    let { state, nowMs } = active();
    for (let pair = 0; pair < 5; pair++) {
      state = pulsePair(state, nowMs, `v${pair + 2}`).state;
      nowMs += 2_000;
    }
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(true);
    return { state, nowMs };
  }

  /** Reads sent by each pulse of `pulsesAtMs` after a leading read at `nowMs`; every read is answered `answerAfterMs` after it was sent. The window is 300 ms. */
  function readsPerPulse(state: CoreState, nowMs: number, answerAfterMs: number, pulsesAtMs: readonly number[]): number[] {
    let run = runInputs(state, [updated(nowMs, 1, uri)]);
    let pending = readsSent(run.effects).map((read) => ({ requestId: read.requestId, dueMs: nowMs + answerAfterMs }));
    let current = run.state;
    const counts: number[] = [];
    for (const atMs of pulsesAtMs) {
      for (const read of pending.filter((entry) => entry.dueMs < atMs)) current = runInputs(current, [responded(read.dueMs, 1, read.requestId, contentOutcome(uri, 'w1'))]).state;
      pending = pending.filter((entry) => entry.dueMs >= atMs);
      run = runInputs(current, [updated(atMs, 1, uri)]);
      const sent = readsSent(run.effects);
      counts.push(sent.length);
      pending.push(...sent.map((read) => ({ requestId: read.requestId, dueMs: atMs + answerAfterMs })));
      current = run.state;
    }
    return counts;
  }

  it('on a duplicating server the third late pulse of a window gets one extra read, at once; pulses while the read is in flight never count', () => {
    expect(latePulsesPerExtraRead).toBe(3);
    const { state, nowMs } = learned();
    // Reads answered after 20 ms; late pulses at +60, +100, +140 (read), +180 and +220 (coalesced: one extra read per window).
    expect(readsPerPulse(state, nowMs, 20, [60, 100, 140, 180, 220].map((ms) => nowMs + ms))).toEqual([0, 0, 1, 0, 0]);
    // Reads answered after 100 ms: three pulses while the leading read is in flight, two late ones: all coalesced.
    expect(readsPerPulse(state, nowMs, 100, [10, 40, 70, 150, 200].map((ms) => nowMs + ms))).toEqual([0, 0, 0, 0, 0]);
    // Late pulses count per window: two in the first window, then a new leading read (+400) whose window has two more: no extra read.
    expect(readsPerPulse(state, nowMs, 20, [100, 200, 400, 450, 500].map((ms) => nowMs + ms))).toEqual([0, 0, 1, 0, 0]);
  });
});
