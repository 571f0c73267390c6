/**
 * Session family (SPEC §3.4, §6): `old_session_effect` and the session half of `accept_when_not_active`.
 * A read, accept or outbox entry whose root cause is an ended session's notification is an old-session
 * effect; an answer to a request of a session that has ended must not be accepted; and a request sent on a
 * session the client was already told had ended (its Disconnected step, or the Connected of a newer one) is one
 * too: that connection is gone, and the client knows it (reducer clients on the pure transport).
 */
import { causeOldNotification } from '../causes.js';
import type { StepTruth } from './step-truth.js';
import type { ViolationSink } from './sink.js';

export class SessionChecker {
  /** The latest session generation the client was told had ended (-1: none). */
  private toldEnded = -1;

  constructor(private readonly sink: ViolationSink) {}

  /** The client is stepped with the end of session `generation` (or of every one up to it: a new connection's Connected). */
  onToldEnded(generation: number): void {
    if (generation > this.toldEnded) this.toldEnded = generation;
  }

  /** A request the client sent on session `generation`: a violation when it was told that session had ended. */
  judgeRequest(generation: number, uri: string, method: string, timeMs: number): void {
    if (generation > this.toldEnded) return;
    this.sink.violate('old_session_effect', timeMs, uri, `sent ${method}${uri === '' ? '' : ` for ${uri}`} on session ${generation}, which it had been told had ended`);
  }

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
