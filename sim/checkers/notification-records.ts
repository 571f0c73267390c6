/**
 * Notifications a client must account for (SPEC §3.5, §11): `notification_unrecorded`. "Notifications that arrive on
 * an older session's stream are audited and ignored": a resources/updated delivered on a session that has ended leaves,
 * in the step that handles it, an audit naming its resource (AuditWritten whose URI is that resource's) of the kind
 * that says so (OLD_SESSION_NOTIFICATION: not a mismatched listen, not an unsubscribed URI) or a protocol rejection. So does an updated of a URI no one subscribed (stray-notification: outside the catalog), which the client
 * ignores: an audit or a rejection of any URI, as the oracle has no resource to name; one whose uri is not a URI at all
 * (SPEC §11) a rejection.
 *
 * On 2026-07-28 (SPEC §13) an updated acts on watch state only when it carries the id of its URI's live, acknowledged
 * listen: one tagged with no id, with another listen's, before the ack, outside the listen's filter or after it ended
 * (`listenLive` false: no ack holding its resource was delivered on this connection for that id, or the listen ended
 * since) is ignored, so it too leaves an audit naming its resource or a rejection; and an ack honoring a URI its
 * listen did not ask for (listen-ack-wider) leaves an audit or a rejection (that URI is not watched by it). An audit
 * counts as the record only when it is one (core/effects.ts AuditWritten): a URI, the request id it concerns as a
 * non-negative safe integer (0: none), a detail.
 *
 * Judged on the world's own message (the session it was sent on, the resource it really concerns), never on what the
 * client says about its subscriptions. Only step clients (SPEC §4, sim/kernel/reducer-driver.ts) are judged, as for
 * answer_unrecorded: their effects are the vocabulary that has audits.
 */
import type { ClientEffect } from '../../core/types.js';
import type { NotificationMessage } from '../kernel/events.js';
import type { CheckingSink } from './sink.js';

export class NotificationRecordChecker {
  constructor(
    private readonly sink: CheckingSink,
    private readonly resourceOf: (uri: string) => number,
  ) {}

  /**
   * A step handled `message`, an updated delivered on a session that is not the current one (`current` false), a stray
   * one, or (2026-07-28) one whose tag names no live acknowledged listen of its resource (`listenLive` false, judged
   * before the step).
   */
  judgeStep(effects: readonly ClientEffect[], message: NotificationMessage, current: boolean, listenLive: boolean, timeMs: number): void {
    if (message.listChanged) return;
    if (message.listen !== undefined && message.listen.method === 'notifications/subscriptions/acknowledged') {
      this.judgeAck(effects, message, current, timeMs);
      return;
    }
    if (message.listen !== undefined && message.listen.method !== 'notifications/resources/updated') return;
    const untagged = message.listen !== undefined && !listenLive;
    if (current && message.resource >= 0 && !untagged) return;
    this.sink.checked('notification_unrecorded');
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type === 'ProtocolRejected') return;
      if (message.malformed) continue;
      if (!isAuditRecord(effect) || (!current && effect.kind !== 'OLD_SESSION_NOTIFICATION')) continue;
      if (message.resource < 0 || this.resourceOf(effect.uri) === message.resource) return;
    }
    const why = message.malformed ? 'an updated whose uri is not a URI' : !current ? "an updated on an ended session's stream" : message.resource < 0 ? 'an updated of a URI no one subscribed' : `an updated tagged ${message.listen!.subscriptionId ?? 'with no id'}, no live acknowledged listen of it`;
    const wanted = message.malformed ? 'no rejection' : current ? 'no audit naming it and no rejection' : 'no OLD_SESSION_NOTIFICATION audit naming it and no rejection';
    this.sink.violate('notification_unrecorded', timeMs, message.uri, `${why} (${message.uri}) left ${wanted}`);
  }

  /** An ack on the current connection that honors a URI its listen did not ask for (listen-ack-wider): that URI is ignored, and recorded. */
  private judgeAck(effects: readonly ClientEffect[], message: NotificationMessage, current: boolean, timeMs: number): void {
    const requested = message.listen!.requested;
    if (!current || requested === undefined) return;
    const extra = message.listen!.honored.filter((uri) => !requested.includes(uri));
    if (extra.length === 0) return;
    this.sink.checked('notification_unrecorded');
    if (effects.some((effect) => isAuditRecord(effect) || effect.type === 'ProtocolRejected')) return;
    this.sink.violate('notification_unrecorded', timeMs, extra[0]!, `an ack of listen ${message.listen!.subscriptionId ?? 'with no id'} honoring ${extra[0]} it did not ask for left no audit and no rejection`);
  }
}

/** An audit that is a record (core/effects.ts AuditWritten): a URI, the request id it concerns (0: none) and a detail. */
function isAuditRecord(effect: ClientEffect): effect is Extract<ClientEffect, { type: 'AuditWritten' }> {
  if (effect.type !== 'AuditWritten') return false;
  const requestId: unknown = effect.requestId; // a client's effect: not trusted to have the shape its type says
  return typeof effect.uri === 'string' && typeof requestId === 'number' && Number.isSafeInteger(requestId) && requestId >= 0 && typeof effect.detail === 'string';
}
