/**
 * Freshness (issue 10): does this server deliver duplicate `updated` pulses? A 2025-11-25 `updated` carries
 * only the URI, so a duplicate and a real change that arrive close together look the same. The reference
 * coalesces pulses that arrive within `debounceMs` of a leading read into that read (reads per change stay
 * low under duplicates), but a real change hidden that way waits for reconciliation. So it coalesces only
 * on servers seen to duplicate, and learns that from what its notification reads bring back:
 *
 * - A notification-triggered read whose accepted content has the digest already accepted brought no news:
 *   the pulse that caused it was a duplicate (or announced a change an earlier read had already seen).
 * - The server duplicates once at least `duplicateEvidenceMin` such reads were seen and they are at least a
 *   third of all notification reads accepted (a server that never duplicates makes them only by a rare race
 *   of a burst with a read in flight). Once learned it stays learned (coalescing hides the evidence), until
 *   the volatile state is lost (a crash: the client learns again).
 *
 * On a server not (yet) seen to duplicate every pulse gets a read: at once when none is in flight, else one
 * follow-up when the read in flight settles (SPEC §3.3 coalescing).
 */
import type { Draft } from './state.js';

export const duplicateEvidenceMin = 3;

/** Has this client seen the server duplicate `updated` pulses? */
export function serverDuplicates(d: Draft): boolean {
  const { notificationReads, unchangedReads } = d.v;
  return unchangedReads >= duplicateEvidenceMin && unchangedReads * 3 >= notificationReads;
}

/**
 * The late pulse of a debounce window that gets one extra read at once. A pulse is late when it arrives
 * inside the window with nothing in flight: after the window's read was answered, so it may announce a
 * change the server made after serving that read (a copy of the pulse that caused the read looks the same:
 * copies arrive up to a few hundred ms apart). Measured with `bench --strategies` (100 interleavings): reading
 * at the first late pulse costs up to 1.30 reads per change, at the second up to 1.21 (300 % duplicates,
 * 30 % drops), at the third at most 1.11, with stale serves 5.8-6.3 % where coalescing them all gave 6.9-7.4 %.
 */
export const latePulsesPerExtraRead = 3;

/**
 * A pulse inside the debounce window of a leading read, on a server seen to duplicate: 'coalesce' while a
 * read is in flight (a copy of the pulse that caused it, or a change it may still see) and for most late
 * pulses; the `latePulsesPerExtraRead`-th late pulse of the window gets one 'extra-read' at once.
 */
export function pulseInWindow(d: Draft, uri: string): 'coalesce' | 'extra-read' {
  const tracking = d.uriState(uri);
  if (tracking.inFlight > 0) return 'coalesce';
  const windowMs = d.timerDeadline('debounce', uri);
  const pulses = (tracking.lateWindowMs === windowMs ? tracking.latePulses : 0) + 1;
  d.setLatePulses(uri, windowMs, pulses);
  return pulses === latePulsesPerExtraRead ? 'extra-read' : 'coalesce';
}

/** A notification-triggered read was accepted; `unchanged`: its content is the digest accepted before it. */
export function learnFromNotificationRead(d: Draft, unchanged: boolean): void {
  if (serverDuplicates(d)) return;
  const volatile = d.mutableVolatile();
  volatile.notificationReads += 1;
  if (unchanged) volatile.unchangedReads += 1;
}
