/**
 * The learned-duplicates rule (duplicates.ts): on a server not seen to duplicate, a pulse inside the debounce
 * window of a leading read gets a read of its own; once notification reads keep bringing back the content
 * already accepted, pulses inside the window are coalesced into the read, `pulseCredits` of them per read, and
 * the pulse beyond the credits gets a read at once. Batches of reads move the credits.
 */
import { describe, expect, it } from 'vitest';
import { creditBatchReads, duplicateEvidenceMin, learnFromNotificationRead, pulseCreditsMax, pulseRaceMs, serverDuplicates } from './duplicates.js';
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

/** A pulse, its read answered with `text` 20 ms later, then a second pulse at `secondAtMs` after the first (default 100 ms: inside the 300 ms window): reads the second pulse sent. */
function pulsePair(state: CoreState, nowMs: number, text: string, secondAtMs = 100): { state: CoreState; secondReads: number } {
  let run = runInputs(state, [updated(nowMs, 1, uri)]);
  const read = readsSent(run.effects)[0]!;
  run = runInputs(run.state, [responded(nowMs + 20, 1, read.requestId, contentOutcome(uri, text))]);
  const second = runInputs(run.state, [updated(nowMs + secondAtMs, 1, uri)]);
  let settled = second.state;
  const follow = readsSent(second.effects)[0];
  if (follow !== undefined) settled = runInputs(settled, [responded(nowMs + 120, 1, follow.requestId, contentOutcome(uri, text))]).state;
  return { state: settled, secondReads: readsSent(second.effects).length };
}

describe('learned duplicates: learning', () => {
  it('a server never seen to duplicate: a pulse inside the window is read; duplicates learned from unchanged re-reads: coalesced', () => {
    let { state, nowMs } = active();
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(false);
    // Each pair: the leading read brings news (v2, v3, ...), the second pulse's read brings the same content back.
    const secondReads: number[] = [];
    for (let pair = 0; pair < 8; pair++) {
      const result = pulsePair(state, nowMs, `v${pair + 2}`);
      state = result.state;
      secondReads.push(result.secondReads);
      nowMs += 2_000;
    }
    expect(duplicateEvidenceMin).toBe(3);
    expect(secondReads).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(true);
    // Three unchanged reads of six: one copy per news, so one pulse credit per read.
    expect(state.volatile.pulseCredits).toBe(1);
  });

  it('a second pulse right after the answer (a burst of writes racing the read) teaches nothing, however often', () => {
    let { state, nowMs } = active();
    // The second pulse 10 ms after the answer, within pulseRaceMs: it may announce the change the read already carried.
    expect(30 - 20).toBeLessThan(pulseRaceMs);
    const secondReads: number[] = [];
    for (let pair = 0; pair < 12; pair++) {
      const result = pulsePair(state, nowMs, `v${pair + 2}`, 30);
      state = result.state;
      secondReads.push(result.secondReads);
      nowMs += 2_000;
    }
    expect(secondReads.every((reads) => reads === 1)).toBe(true);
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(false);
  });

  it('second pulses that always bring news never make the server a duplicator', () => {
    let { state, nowMs } = active();
    for (let pair = 0; pair < 10; pair++) {
      let run = runInputs(state, [updated(nowMs, 1, uri)]);
      run = runInputs(run.state, [responded(nowMs + 20, 1, readsSent(run.effects)[0]!.requestId, contentOutcome(uri, `a${pair}`))]);
      const second = runInputs(run.state, [updated(nowMs + 100, 1, uri)]);
      expect(readsSent(second.effects)).toHaveLength(1);
      state = runInputs(second.state, [responded(nowMs + 120, 1, readsSent(second.effects)[0]!.requestId, contentOutcome(uri, `b${pair}`))]).state;
      nowMs += 2_000;
    }
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(false);
  });
});

describe('learned duplicates: a read covers the credits of its window', () => {
  /** A server learned to duplicate (six pairs whose second read brought the content back), ACTIVE at the returned time with `pulseCredits`. */
  function learned(pulseCredits = 1): { state: CoreState; nowMs: number } {
    let { state, nowMs } = active();
    for (let pair = 0; pair < 6; pair++) {
      state = pulsePair(state, nowMs, `v${pair + 2}`).state;
      nowMs += 2_000;
    }
    expect(serverDuplicates(new Draft(state, 0, 0))).toBe(true);
    return { state: { ...state, volatile: { ...state.volatile, pulseCredits } }, nowMs };
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

  it('on a duplicating server a read covers pulseCredits pulses of its window; the pulse beyond them is read at once and opens a window', () => {
    const one = learned(1);
    // Reads answered after 20 ms: +60 on credit, +100 beyond it (read, new window), +140 on its credit, +180 read, +220 on credit.
    expect(readsPerPulse(one.state, one.nowMs, 20, [60, 100, 140, 180, 220].map((ms) => one.nowMs + ms))).toEqual([0, 1, 0, 1, 0]);
    const two = learned(2);
    expect(readsPerPulse(two.state, two.nowMs, 20, [60, 100, 140, 180, 220, 260].map((ms) => two.nowMs + ms))).toEqual([0, 0, 1, 0, 0, 1]);
    // Pulses while a read is in flight never count: three during the leading read (answered after 100 ms), then one on credit, then a read.
    expect(readsPerPulse(one.state, one.nowMs, 100, [10, 40, 70, 150, 200].map((ms) => one.nowMs + ms))).toEqual([0, 0, 0, 0, 1]);
    // After the window (300 ms) a pulse is a leading read again, with fresh credits.
    expect(readsPerPulse(one.state, one.nowMs, 20, [100, 400, 450, 500].map((ms) => one.nowMs + ms))).toEqual([0, 1, 0, 1]);
  });
});

describe('learned duplicates: the credits follow the news', () => {
  /** `unchanged` of `reads` notification reads accepted on a state whose server duplicates with `pulseCredits`: the credits after. */
  function creditsAfter(pulseCredits: number, reads: number, unchanged: number): number {
    const { state } = active();
    const d = new Draft({ ...state, volatile: { ...state.volatile, pulseCredits } }, 0, 0);
    for (let read = 0; read < reads; read++) learnFromNotificationRead(d, read < unchanged, false);
    return d.commit().volatile.pulseCredits;
  }

  it('a batch of reads moves the credits: up when over 29 % brought no news, down when under 20 %, within 1..pulseCreditsMax', () => {
    expect(creditBatchReads).toBe(32);
    expect(creditsAfter(2, 32, 10)).toBe(3); // 31 %
    expect(creditsAfter(2, 32, 9)).toBe(2); // 28 %
    expect(creditsAfter(2, 32, 7)).toBe(2); // 22 %
    expect(creditsAfter(2, 32, 6)).toBe(1); // 19 %
    expect(creditsAfter(2, 31, 0)).toBe(2); // the batch is not complete
    expect(creditsAfter(1, 32, 0)).toBe(1);
    expect(creditsAfter(pulseCreditsMax, 32, 32)).toBe(pulseCreditsMax);
    // Two batches: each moves the credits once.
    expect(creditsAfter(2, 64, 64)).toBe(4);
  });

  it('the first credits are the unchanged reads per news read seen while learning, within 1..pulseCreditsMax', () => {
    // Evidence: three unchanged (unraced) of R reads, the third unchanged read last.
    const learnedWith = (reads: number, racedBefore = 0): number => {
      const { state } = active();
      const d = new Draft(state, 0, 0);
      for (let read = 0; read < racedBefore; read++) learnFromNotificationRead(d, true, true);
      for (let read = 0; read < reads; read++) learnFromNotificationRead(d, read >= reads - duplicateEvidenceMin, false);
      return d.commit().volatile.pulseCredits;
    };
    expect(learnedWith(10)).toBe(0); // 3 of 10: under a third, not learned
    expect(learnedWith(9)).toBe(1); // 3 of 9: half a copy per news, at least one credit
    expect(learnedWith(5)).toBe(2);
    expect(learnedWith(4)).toBe(3);
    expect(learnedWith(3)).toBe(pulseCreditsMax);
    // Raced no-news reads are no evidence, but they count in the shares (and so in the first credits).
    expect(learnedWith(2, 10)).toBe(0);
    expect(learnedWith(9, 3)).toBe(1); // 6 unchanged of 12 reads, 3 of them clear: one copy per news
    expect(learnedWith(10, 2)).toBe(1); // 5 unchanged of 12: five copies per seven news, one credit
  });
});
