/**
 * Requests the server does not offer (SPEC §3.5): `request_not_offered`. On a 2025-11-25 connection whose
 * server did not declare `resources.subscribe` the client polls, so it sends neither resources/subscribe
 * nor resources/unsubscribe; a 2026-07-28 connection has no such methods at all (a watch is a
 * subscriptions/listen, cancelled by notifications/cancelled), and a 2025-11-25 one has no listen to cancel
 * (ListenCancelled). Judged on the world's own record of what the
 * server declared and which era the connection speaks, never on what the client believes it negotiated.
 * Only step clients (SPEC §4, sim/kernel/reducer-driver.ts) are judged, as for answer_unrecorded.
 *
 * And `bound_unkeepable`: no staleness bound is published (StalenessBoundPublished, a promise to read the resource at
 * least that often) on a connection whose server declared no resources capability, where no read can be sent.
 *
 * And the converse, `subscribe_unsent` (SPEC §3.2, §3.5: a client polls only without the capability): a subscribe
 * command handed to the client while it is connected (it was handed Connected for the current session, and no
 * Disconnected or crash since) to a 2025-11-25 server that declared `resources.subscribe` sends resources/subscribe
 * for that URI in the same step. The workload commands a subscribe only for a resource it does not want already.
 *
 * And `request_record_untrue` (core/effects.ts RequestSent): a request's record says what it is: a resources/read
 * carries its reason (a string) and its read ordinal (a positive integer), and its subject is a string where it has one
 * (core/effects.ts: the subject is optional; a read without one is sent without credentials, and the world sends it
 * so: a naive client that never names a subject records its reads truly); no other method carries any of the three
 * (they are "reads only"), and only resources/list carries a cursor. A read whose reason is
 * 'tombstone-check' or 'reappeared' checks a tombstone: the client's own last move of that URI (its Transitioned
 * effects, in step order) left it TOMBSTONE_PENDING (unknown after a crash until its next move: not judged).
 */
import type { ClientEffect } from '../../core/types.js';
import type { CheckingSink } from './sink.js';

export class OfferedRequestChecker {
  /** Per URI: the state the client's last Transitioned effect moved it to (judged only for step clients). */
  private readonly states = new Map<string, string>();
  judgesReasons = false;

  constructor(private readonly sink: CheckingSink) {}

  onTransitioned(uri: string, to: string): void {
    if (this.judgesReasons) this.states.set(uri, to);
  }

  onCrash(): void {
    this.states.clear();
  }

  /** A RequestSent, in its step's effect order: a tombstone's read is sent for a URI the client holds TOMBSTONE_PENDING. */
  judgeReason(effect: Extract<ClientEffect, { type: 'RequestSent' }>, timeMs: number): void {
    if (!this.judgesReasons || (effect.reason !== 'tombstone-check' && effect.reason !== 'reappeared')) return;
    const state = this.states.get(effect.uri);
    if (state === undefined) return;
    this.sink.checked('request_record_untrue');
    if (state !== 'TOMBSTONE_PENDING') this.sink.violate('request_record_untrue', timeMs, effect.uri, `RequestSent #${effect.requestId} records a read for reason ${effect.reason} of ${effect.uri}, which the client holds ${state}, not TOMBSTONE_PENDING`);
  }

  /** `resourcesOffered`, `subscribeOffered`, `era2026`: what the server of the current connection really declared, and its era (flags, no object per step). */
  judgeRequests(effects: readonly ClientEffect[], resourcesOffered: boolean, subscribeOffered: boolean, era2026: boolean, timeMs: number): void {
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type === 'StalenessBoundPublished') this.sink.checked('bound_unkeepable'); // every bound is judged
      if (effect.type === 'StalenessBoundPublished' && !resourcesOffered) {
        this.sink.violate('bound_unkeepable', timeMs, effect.uri, `published a ${effect.mode} staleness bound of ${effect.boundMs} ms for ${effect.uri}, but the server did not declare the resources capability: no read can keep it`);
        continue;
      }
      if (effect.type === 'ListenCancelled' && !era2026) {
        this.sink.checked('request_not_offered');
        this.sink.violate('request_not_offered', timeMs, effect.uri, `cancelled a listen (request ${effect.requestId}) of ${effect.uri}, but the connection speaks 2025-11-25, which has no subscriptions/listen`);
        continue;
      }
      if (effect.type !== 'RequestSent') continue;
      this.judgeRecord(effect, timeMs);
      if (!resourcesOffered) {
        // Every request the reference vocabulary sends is resources/* or subscriptions/listen (of resources).
        this.sink.checked('request_not_offered');
        this.sink.violate('request_not_offered', timeMs, effect.uri, `sent ${effect.method}${effect.uri === '' ? '' : ` for ${effect.uri}`}, but the server did not declare the resources capability`);
        continue;
      }
      if (effect.method !== 'resources/subscribe' && effect.method !== 'resources/unsubscribe') continue;
      this.sink.checked('request_not_offered');
      if (subscribeOffered && !era2026) continue;
      const why = era2026 ? 'the connection speaks 2026-07-28, which has no such method' : 'the server did not declare resources.subscribe';
      this.sink.violate('request_not_offered', timeMs, effect.uri, `sent ${effect.method} for ${effect.uri}, but ${why}`);
    }
  }

  private judgeRecord(effect: Extract<ClientEffect, { type: 'RequestSent' }>, timeMs: number): void {
    this.sink.checked('request_record_untrue');
    const read = effect.method === 'resources/read';
    const fields = effect as { reason?: unknown; readOrdinal?: unknown; subject?: unknown; cursor?: unknown };
    let wrong: string | null = null;
    if (read && (typeof fields.reason !== 'string' || (fields.subject !== undefined && typeof fields.subject !== 'string') || !Number.isInteger(fields.readOrdinal) || (fields.readOrdinal as number) < 1)) {
      wrong = `a read without its reason, ordinal or subject (reason ${JSON.stringify(fields.reason)}, readOrdinal ${JSON.stringify(fields.readOrdinal)}, subject ${JSON.stringify(fields.subject)})`;
    } else if (!read && ('reason' in effect || 'readOrdinal' in effect || 'subject' in effect)) {
      wrong = `${effect.method} carrying a read's fields (reason, readOrdinal or subject)`;
    } else if (effect.method !== 'resources/list' && 'cursor' in effect) {
      wrong = `${effect.method} carrying a list cursor`;
    }
    if (wrong !== null) this.sink.violate('request_record_untrue', timeMs, effect.uri, `RequestSent #${effect.requestId} records ${wrong}`);
  }

  /**
   * A subscribe or discover command reached a client that has been told, at every connection of the run, that the
   * server declares no resources capability (and at least once since it last restarted: capabilities are volatile, a
   * restarted client does not know the server until it connects): it must refuse it (a CapabilityMissing rejection), so the application
   * learns its watch or listing cannot work, rather than take it silently (as if it could poll or list).
   */
  judgeRefusal(command: 'SubscribeCommanded' | 'DiscoverCommanded', uri: string, effects: readonly ClientEffect[], timeMs: number): void {
    this.sink.checked('command_not_refused');
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type === 'ProtocolRejected' && effect.rejection.kind === 'CapabilityMissing') return;
    }
    this.sink.violate('command_not_refused', timeMs, uri, `${command} was not refused, but the server declared no resources capability`);
  }

  /** A subscribe command for `uri` was answered with `effects` on a live connection (`subscribeOffered`, `era2026`: as above). */
  judgeSubscribeCommand(uri: string, effects: readonly ClientEffect[], subscribeOffered: boolean, era2026: boolean, timeMs: number): void {
    if (!subscribeOffered || era2026) return;
    this.sink.checked('subscribe_unsent');
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type === 'RequestSent' && effect.method === 'resources/subscribe') return;
    }
    this.sink.violate('subscribe_unsent', timeMs, uri, `commanded to subscribe ${uri} on a connection whose server declared resources.subscribe, and sent no resources/subscribe in that step`);
  }
}
