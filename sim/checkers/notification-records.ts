/**
 * Notifications a client must account for (SPEC §3.5, §11): `notification_unrecorded`. "Notifications that arrive on
 * an older session's stream are audited and ignored": a resources/updated delivered on a session that has ended leaves,
 * in the step that handles it, an audit naming its resource (AuditWritten whose URI is that resource's) of the kind
 * that says so (OLD_SESSION_NOTIFICATION: not a mismatched listen, not an unsubscribed URI) or a protocol rejection. So does an updated of a URI no one subscribed (stray-notification: outside the catalog), which the client
 * ignores: an audit or a rejection of any URI, as the oracle has no resource to name; one whose uri is not a URI at all
 * (SPEC §11) a rejection.
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

  /** A step handled `message`, an updated delivered on a session that is not the current one (`current` false) or a stray one. */
  judgeStep(effects: readonly ClientEffect[], message: NotificationMessage, current: boolean, timeMs: number): void {
    if (message.listChanged || (current && message.resource >= 0)) return;
    if (message.listen !== undefined && message.listen.method !== 'notifications/resources/updated') return;
    this.sink.checked('notification_unrecorded');
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type === 'ProtocolRejected') return;
      if (message.malformed) continue;
      if (effect.type !== 'AuditWritten' || (!current && effect.kind !== 'OLD_SESSION_NOTIFICATION')) continue;
      if (message.resource < 0 || this.resourceOf(effect.uri) === message.resource) return;
    }
    const why = message.malformed ? 'an updated whose uri is not a URI' : current ? 'an updated of a URI no one subscribed' : "an updated on an ended session's stream";
    const wanted = message.malformed ? 'no rejection' : current ? 'no audit naming it and no rejection' : 'no OLD_SESSION_NOTIFICATION audit naming it and no rejection';
    this.sink.violate('notification_unrecorded', timeMs, message.uri, `${why} (${message.uri}) left ${wanted}`);
  }
}
