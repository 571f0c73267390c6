/**
 * Unsubscribes after their ACK (SPEC §3.4): `unsubscribe_after_ack`. "Unsubscribe ACK → CLOSED": once the server's
 * success answer to an unsubscribe the client sent after the application last gave the resource up has reached the
 * client on its current session, the client sends no further resources/unsubscribe of that resource on that session
 * until the application wants it again and gives it up again. Retries are for a lost ACK (UNSUBSCRIBE_UNKNOWN), and an
 * ACK is the proof that nothing was lost; a client that ignores it retries forever, each retry a request the server
 * must answer.
 *
 * Judged on the world's own messages (the response answered an unsubscribe, with a result, on the session it was sent
 * on, sent after the latest unsubscribe command: close.ts stamps), never on what the client says about its
 * subscription. An ACK of an older close (sent before the latest unsubscribe command) proves nothing about the latest
 * one. Only step clients (SPEC §4, sim/kernel/reducer-driver.ts) are judged, as for answer_unrecorded.
 */
import type { ClientEffect } from '../../core/types.js';
import { ackNotObjectKind, type ResponseMessage } from '../kernel/events.js';
import type { CloseChecker } from './close.js';
import type { CheckingSink } from './sink.js';

const none = -1;

export class UnsubscribeAckChecker {
  /** Per resource: the session on which an ACK of its latest close reached the client, or -1. */
  private readonly ackedSession: Int32Array;

  constructor(
    private readonly sink: CheckingSink,
    private readonly close: CloseChecker,
    private readonly resourceOf: (uri: string) => number,
  ) {
    this.ackedSession = new Int32Array(close.tracked.length).fill(none);
  }

  /** The application subscribed or unsubscribed the resource: a new close, and new ACKs, to wait for. */
  onCommanded(resource: number): void {
    this.ackedSession[resource] = none;
  }

  /** One step: `response` its input (null: not a response), `currentSession` the world's session. */
  judgeStep(effects: readonly ClientEffect[], response: ResponseMessage | null, currentSession: number, timeMs: number): void {
    if (response !== null && response.method === 'resources/unsubscribe') this.onAnswer(response, currentSession);
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type !== 'RequestSent' || effect.method !== 'resources/unsubscribe') continue;
      this.sink.checked('unsubscribe_after_ack');
      const resource = this.resourceOf(effect.uri);
      if (resource < 0 || this.ackedSession[resource] !== currentSession) continue;
      this.sink.violate('unsubscribe_after_ack', timeMs, effect.uri, `sent resources/unsubscribe for ${effect.uri}, but the server's ACK of an unsubscribe sent after the latest unsubscribe command already reached the client on this session`);
    }
  }

  private onAnswer(response: ResponseMessage, currentSession: number): void {
    const resource = response.resource;
    // An answer whose result is not an object (malformed-ack) is no ACK: the client retries rightly.
    if (resource < 0 || response.outcome.type !== 'result' || response.malformed === ackNotObjectKind || response.requestSession !== currentSession) return;
    if (!this.close.sentSinceClose(resource, response.requestSentAtMs)) return;
    this.ackedSession[resource] = currentSession;
  }
}
