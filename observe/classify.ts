/**
 * Bounded attribute values from the effect stream: every function maps open input (free-text reasons,
 * unvalidated notification methods) onto a closed set listed in instruments.ts.
 */
import type { ClientEffect, ReadReason } from '../core/types.js';
import { rejectionKinds, type ackFilters, type notificationFates, type notificationKinds, type refusalReasons } from './instruments.js';

export type NotificationKind = (typeof notificationKinds)[number];
export type NotificationFate = (typeof notificationFates)[number];
export type RefusalReason = (typeof refusalReasons)[number];
export type AckFilter = (typeof ackFilters)[number];

/**
 * What a 2026-07-28 ack's step did: started the watch (the honored filter held the URI), cancelled the listen
 * and polled the URI (the filter left it out), or nothing (no listen waiting for it: an audit, or malformed).
 */
export function ackFilterOf(effects: readonly ClientEffect[]): AckFilter {
  let started = false;
  for (const effect of effects) {
    if (effect.type === 'ListenCancelled') return 'narrowed';
    if (effect.type === 'Transitioned' && effect.event === 'subscribe_acked') started = true;
  }
  return started ? 'honored' : 'ignored';
}

export function notificationKind(method: unknown): NotificationKind {
  if (method === 'notifications/resources/updated') return 'updated';
  if (method === 'notifications/resources/list_changed') return 'list_changed';
  return 'other';
}

/**
 * What a notification's step did: rejected as malformed, audited (old session, no open subscription),
 * acted on (a subscription moved, a request went out, a scan started, a timer other than a debounce
 * extension was armed), or coalesced into work already pending.
 */
export function notificationFate(effects: readonly ClientEffect[]): NotificationFate {
  let acted = false;
  for (const effect of effects) {
    switch (effect.type) {
      case 'ProtocolRejected':
        return 'rejected';
      case 'AuditWritten':
        if (effect.kind === 'OLD_SESSION_NOTIFICATION') return 'audited_old_session';
        if (effect.kind === 'UNSUBSCRIBED_NOTIFICATION') return 'audited_unsubscribed';
        break;
      case 'Transitioned':
      case 'RequestSent':
      case 'ScanStarted':
        acted = true;
        break;
      case 'TimerArmed':
        if (effect.timer.kind !== 'debounce') acted = true;
        break;
      default:
        break;
    }
  }
  return acted ? 'acted_on' : 'coalesced';
}

export function readReasonLabel(reason: ReadReason | undefined): string {
  if (reason === undefined) return 'initial';
  return reason === 'tombstone-check' ? 'tombstone_check' : reason;
}

/** The reference core's refusal texts (core/authorization.ts `serve`), by their fixed wording. */
export function classifyRefusal(reason: string): RefusalReason {
  if (reason.endsWith('lost access to this resource')) return 'revoked';
  if (reason.startsWith('nothing cached')) return 'not_cached';
  if (reason.startsWith('cached content was read for')) return 'other_subject';
  if (reason.includes('pending deletion')) return 'pending_deletion';
  if (reason.startsWith('authorization lease expired')) return 'lease_expired';
  return 'other';
}

const knownRejections = new Set<string>(rejectionKinds);

export function classifyRejection(kind: string): string {
  return knownRejections.has(kind) ? kind : 'Other';
}
