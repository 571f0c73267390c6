/**
 * Read amplification (SPEC §6 `read_amplification`): reads issued because of current-session update
 * notifications per distinct notified change, less the ones the server answered with a failure (read-error: a
 * transient error, or an answer broken by construction): the server made those necessary, not the client (each
 * failed read's news must be read again: notified_unread). Also counts every resources/read, so reports can show
 * how many reads a client spends in all.
 */
import { causeNotification } from '../causes.js';

/** A read's key: its session and request id (ids are unique within a session). */
const readKey = (session: number, requestId: number): number => session * 0x1_0000_0000 + requestId;

export class AmplificationChecker {
  notificationReads = 0;
  totalReads = 0;
  notifiedChanges = 0;
  /** Notification reads the server answered with a failure (already taken out of notificationReads). */
  failedNotificationReads = 0;
  private readonly notified: Set<number>[];
  /** Notification reads not answered yet. */
  private readonly unanswered = new Set<number>();

  constructor(resourceCount: number) {
    this.notified = Array.from({ length: resourceCount }, () => new Set<number>());
  }

  /** A resources/read was sent (request `requestId` on `session`) in a step whose root cause is `cause`. */
  onRead(cause: number, session: number, requestId: number): void {
    this.totalReads++;
    if (cause !== causeNotification) return;
    this.notificationReads++;
    this.unanswered.add(readKey(session, requestId));
  }

  /** The answer to read `requestId` of `session` reached the client; `failed`: the server failed it. */
  onReadAnswered(session: number, requestId: number, failed: boolean): void {
    if (this.unanswered.size === 0 || !this.unanswered.delete(readKey(session, requestId)) || !failed) return;
    this.notificationReads--;
    this.failedNotificationReads++;
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
