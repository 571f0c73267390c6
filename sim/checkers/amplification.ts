/**
 * Read amplification (SPEC §6 `read_amplification`): reads issued because of current-session update
 * notifications per distinct notified change, less the ones the server answered with a failure (read-error: a
 * transient error, or an answer broken by construction): the server made those necessary, not the client (each
 * failed read's news must be read again: notified_unread). Also counts every resources/read, so reports can show
 * how many reads a client spends in all.
 */
import { causeNotification } from '../causes.js';

export class AmplificationChecker {
  notificationReads = 0;
  totalReads = 0;
  notifiedChanges = 0;
  private readonly notified: Set<number>[];

  constructor(resourceCount: number) {
    this.notified = Array.from({ length: resourceCount }, () => new Set<number>());
  }

  /** A resources/read was sent in a step whose root cause is `cause`. */
  onRead(cause: number): void {
    this.totalReads++;
    if (cause === causeNotification) this.notificationReads++;
  }

  /**
   * The server failed a read sent in a step whose root cause is `cause` (its answer, delivered once on the current
   * session, carries that cause: sim/actors/serving.ts serveRequest): a notification read no longer counts.
   */
  onReadFailed(cause: number): void {
    if (cause === causeNotification) this.notificationReads--;
  }

  /** An update notification for (resource, version) reached the client. */
  onNotified(resource: number, version: number, current: boolean): void {
    if (!current || resource < 0) return;
    const seen = this.notified[resource]!;
    if (!seen.has(version)) {
      seen.add(version);
      this.notifiedChanges++;
    }
  }
}
