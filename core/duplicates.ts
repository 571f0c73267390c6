/**
 * Freshness (issue 10): does this server deliver duplicate `updated` pulses, and how many? A 2025-11-25
 * `updated` carries only the URI, so a duplicate and a real change that arrive close together look the same.
 * On a server seen to duplicate, the reference coalesces pulses that arrive within `debounceMs` of a read into
 * that read, a few per read ("pulse credits"); elsewhere every pulse is news. It learns both from what its
 * notification reads bring back:
 *
 * - A notification-triggered read whose accepted content has the digest already accepted brought no news:
 *   the pulse that caused it was a duplicate (or announced a change an earlier read had already seen).
 * - The server duplicates once at least `duplicateEvidenceMin` such reads were seen that were not sent within
 *   `pulseRaceMs` of an answer to a read of their URI, and all no-news reads are at least a third of all
 *   notification reads accepted. A server that never duplicates makes no-news reads only when a burst of writes
 *   races a read, and then the read is a follow-up sent at the answer, or its pulse arrives right after it:
 *   counting those too, a minimum of 3 let 4-8 % of the strategy benchmark's runs on a server that never
 *   duplicates learn it (and then hide real changes), and even 6 let the reference leave a notified deletion
 *   unread in about 0.1 % of malformed-list-page and reconnect interleavings (notified_unread, 5 and 3 in 3,000
 *   at seed 5). Without them, 3 is enough: 0 in those runs, and reads per change and stale serves within 0.02
 *   and 0.1 points of before in every condition of `bench --strategies` (300 interleavings per condition).
 * - From then on the same counts, in batches of `creditBatchReads` reads, set how many pulses a read covers
 *   (`pulseCredits`, at least 1): more when more than `creditRaiseUnchangedPercent` % of the batch brought no
 *   news (too many copies got reads of their own), fewer when under `creditLowerUnchangedPercent` %.
 *   Stays learned until the volatile state is lost (a crash: the client learns again).
 *
 * On a server not (yet) seen to duplicate every pulse gets a read: at once when none is in flight, else one
 * follow-up when the read in flight settles (SPEC §3.3 coalescing).
 */
import type { Draft } from './state.js';

export const duplicateEvidenceMin = 3;

/**
 * A read sent less than this long after an answer to a read of its URI teaches nothing about duplicates: its
 * pulse may announce a change that answer already carried (transports reorder a notification and a response
 * sent close together, and a follow-up read is sent at the very answer), so a server that never duplicates looks like one that does after a burst of writes racing a
 * read. Copies of a pulse arrive up to 300 ms after it (sim/plan.ts duplicateDelayMsMax): most still teach.
 * 30 ms (the simulator's one-way latencies differ by at most 24 ms): with 50, learning came later and the strategy
 * benchmark's reads per change at 300 % duplicates / 30 % drops rose from 1.14 to 1.22 (40 interleavings); with 30,
 * 1.18, and 0 notified_unread in 3,000 malformed-list-page and reconnect interleavings either way.
 */
export const pulseRaceMs = 30;

/** Was a read sent at `sentAtMs` too close to the previous answer (`answeredAtMs`, -1: none) to teach anything? */
export function raceWithAnswer(sentAtMs: number, answeredAtMs: number): boolean {
  return answeredAtMs >= 0 && sentAtMs - answeredAtMs < pulseRaceMs;
}

/** Reads per batch of the pulse-credit rule, and its bounds. */
export const creditBatchReads = 32;
export const pulseCreditsMax = 6;

/**
 * The pulse-credit rule's band, measured with `bench --strategies` (seed 1, 60 interleavings per condition) at
 * a fixed number of credits k: the share of notification reads that brought no news, and the oracle's reads
 * per notified change in brackets:
 *
 * | dup / drop | k = 1 | k = 2 | k = 3 | k = 4 |
 * |---|--:|--:|--:|--:|
 * | 100 / 0 | 13 % (0.90) | 8 % (0.78) | 4 % (0.72) | 2 % (0.68) |
 * | 200 / 0 | 38 % (1.26) | 24 % (0.99) | 12 % (0.83) | 9 % (0.77) |
 * | 300 / 0 | 49 % (1.53) | 36 % (1.19) | 27 % (1.03) | 19 % (0.90) |
 * | 300 / 30 | 45 % (1.64) | 33 % (1.29) | 24 % (1.10) | 17 % (0.97) |
 *
 * Fewer credits serve fresher content (a real change whose pulse lands in a window waits for the pulse beyond
 * the credits). The band 20-29 % settles at k = 1, 2, 3 for 100, 200, 300 % duplicates: the fewest credits
 * whose reads per change stay under the 1.2.
 */
export const creditRaiseUnchangedPercent = 29;
export const creditLowerUnchangedPercent = 20;

/** Has this client seen the server duplicate `updated` pulses? */
export function serverDuplicates(d: Draft): boolean {
  return d.v.pulseCredits > 0;
}

/**
 * A pulse inside the debounce window of a read, on a server seen to duplicate: 'coalesce' while a read is in
 * flight (a copy of the pulse that caused it, or a change it may still see) and for the first `pulseCredits`
 * pulses after it; the pulse beyond them gets a read of its own at once ('read'), which opens a new window.
 */
export function pulseInWindow(d: Draft, uri: string): 'coalesce' | 'read' {
  const tracking = d.uriState(uri);
  if (tracking.inFlight > 0) return 'coalesce';
  const windowMs = d.timerDeadline('debounce', uri);
  const pulses = (tracking.creditWindowMs === windowMs ? tracking.creditPulses : 0) + 1;
  if (pulses > d.v.pulseCredits) return 'read';
  d.setCreditPulses(uri, windowMs, pulses);
  return 'coalesce';
}

/**
 * A notification-triggered read was accepted; `unchanged`: its content is the digest accepted before it; `raced`:
 * it was sent within pulseRaceMs of an answer (raceWithAnswer). Every read counts toward the shares (and the credit
 * band, calibrated so: table above), but only unraced no-news reads count as the evidence that the server duplicates.
 */
export function learnFromNotificationRead(d: Draft, unchanged: boolean, raced: boolean): void {
  const volatile = d.mutableVolatile();
  volatile.notificationReads += 1;
  if (unchanged) volatile.unchangedReads += 1;
  if (unchanged && !raced) volatile.clearUnchangedReads += 1;
  const { notificationReads: reads, unchangedReads: unchangedCount, pulseCredits } = volatile;
  if (pulseCredits === 0) {
    if (volatile.clearUnchangedReads < duplicateEvidenceMin || unchangedCount * 3 < reads) return;
    // Learned: a read per news, so each read that brought news came with unchanged / news copies on average.
    volatile.pulseCredits = Math.min(pulseCreditsMax, Math.max(1, Math.round(unchangedCount / (reads - unchangedCount))));
  } else {
    if (reads < creditBatchReads) return;
    if (unchangedCount * 100 > creditRaiseUnchangedPercent * reads) volatile.pulseCredits = Math.min(pulseCreditsMax, pulseCredits + 1);
    else if (unchangedCount * 100 < creditLowerUnchangedPercent * reads) volatile.pulseCredits = Math.max(1, pulseCredits - 1);
  }
  volatile.notificationReads = 0;
  volatile.unchangedReads = 0;
  volatile.clearUnchangedReads = 0;
}
