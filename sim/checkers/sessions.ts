/**
 * Session family (SPEC §3.4, §6): `old_session_effect` and the session half of `accept_when_not_active`.
 * A read, accept or outbox entry whose root cause is an ended session's notification is an old-session
 * effect; an answer to a request of a session that has ended must not be accepted.
 */
import { causeOldNotification } from '../causes.js';
import type { StepTruth } from './step-truth.js';
import type { ViolationSink } from './sink.js';

export class SessionChecker {
  constructor(private readonly sink: ViolationSink) {}

  /** The step answers a request of a session that is not the current one. */
  sessionEnded(truth: StepTruth): boolean {
    return truth.requestSession >= 0 && truth.requestSession !== truth.currentSession;
  }

  /** The step's root cause is an ended session's notification (a read, accept or outbox entry from it is a violation). */
  causedByOldSession(truth: StepTruth): boolean {
    return truth.cause === causeOldNotification;
  }

  violateCause(truth: StepTruth, uri: string, detail: string): void {
    this.sink.violate('old_session_effect', truth.timeMs, uri, detail);
  }
}
