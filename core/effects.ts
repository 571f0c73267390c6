/**
 * The effects of a client step (SPEC §4): commands (send a request, arm a timer) or observable facts (a
 * version was accepted, a stale receipt was written), a discriminated union on `type`, plain JSON data.
 */
import type { SubscriptionState, TimerId, TransitionEvent } from './vocabulary.js';
import type { ContentEncoding, RequestMethod } from './wire.js';

export type ReadReason =
  | 'initial'
  | 'notification'
  | 'reconcile'
  | 'tombstone-check'
  | 'poll'
  | 'reappeared'
  | 'authorization'
  /** 2026-07-28: a serve found the entry past its `ttlMs` from receipt; re-fetch on demand. */
  | 'ttl';

export type CatalogStatus = 'SNAPSHOT_PROVEN' | 'SNAPSHOT_UNPROVEN';

export type ScanAbandonReason =
  | 'CURSOR_CYCLE'
  | 'CURSOR_INVALID'
  | 'EMPTY_CURSOR'
  | 'MALFORMED_PAGE'
  | 'DUPLICATE_URI'
  | 'PAGE_LIMIT'
  | 'LIST_ERROR'
  | 'SESSION_LOST';

export type AuditKind =
  | 'STALE_AFTER_CLOSE'
  | 'OLD_SESSION_NOTIFICATION'
  | 'UNKNOWN_RESPONSE'
  | 'UNSUBSCRIBED_NOTIFICATION'
  | 'NOTIFICATION_IN_TRANSIENT_STATE'
  /** 2026-07-28: a listen message that creates no watch state (unknown id, before the ack, outside the filter, after close). */
  | 'LISTEN_MISMATCH'
  /** 2026-07-28: a read passed the core's own deadline (a broken stream loses it); re-issued with a new id. */
  | 'READ_ABANDONED';

export type StaleReason = 'ORDINAL' | 'SESSION' | 'REVOKED';

export type RejectionKind =
  | 'InvalidUri'
  | 'MalformedNotification'
  | 'MalformedResponse'
  | 'UnknownNotification'
  | 'ContentUriMismatch'
  | 'ContentTooLarge'
  | 'MalformedListPage'
  /** A caller-filled field (workload command, feed event, connection, time) is not what the type says. */
  | 'MalformedInput'
  /** The server does not offer what the command needs (no `resources` capability). */
  | 'CapabilityMissing';

export interface Rejection {
  kind: RejectionKind;
  detail: string;
}

export type ClientEffect =
  | {
      type: 'RequestSent';
      requestId: number;
      sessionGeneration: number;
      method: RequestMethod;
      uri: string;
      /** Reads only: why the read was issued and its ordinal. */
      reason?: ReadReason;
      readOrdinal?: number;
      /** Reads: the principal whose credentials the read uses. */
      subject?: string;
      /** resources/list: the opaque cursor, sent back exactly as received (absent for the first page). */
      cursor?: string;
    }
  /** Arms the timer `timer`, replacing any earlier timer with the same kind and URI (only the latest fires). */
  | { type: 'TimerArmed'; timer: TimerId; deadlineMs: number }
  | {
      type: 'VersionAccepted';
      uri: string;
      /** The accepted content (what the cache now serves): the text, or the base64 characters of a blob. */
      text: string;
      /** Whether `text` is a text body or a base64 blob (MCP `text` / `blob`). */
      encoding: ContentEncoding;
      mimeType: string;
      digest: string;
      readOrdinal: number;
      /** The watermark the fence compared against (lastAcceptedOrdinal before this accept). */
      watermarkBefore: number;
      subscriptionGeneration: number;
      sessionGeneration: number;
    }
  | {
      type: 'StaleReceiptWritten';
      uri: string;
      requestId: number;
      readOrdinal: number;
      watermark: number;
      reason: StaleReason;
    }
  | { type: 'AuditWritten'; kind: AuditKind; uri: string; requestId: number; detail: string }
  | { type: 'TombstonePending'; uri: string; readOrdinal: number }
  | { type: 'TombstoneConfirmed'; uri: string }
  | {
      type: 'OutboxEntryWritten';
      uri: string;
      sequence: number;
      operation: 'upsert' | 'delete' | 'invalidate';
      digest: string;
      /** Derived index entries this entry writes (upsert) or invalidates (delete, invalidate). */
      derivedEntries: string[];
      /** Upsert: derived entries of the previous version it supersedes (invalidated by this entry). */
      supersedes: string[];
    }
  | { type: 'DerivedEntryWritten'; entryId: string; uri: string; digest: string; subject: string }
  | {
      type: 'CatalogPublished';
      scanId: number;
      status: CatalogStatus;
      uris: string[];
      digest: string;
      measuredAtMs: number;
      stalenessBoundMs: number;
      nextReviewAtMs: number;
      /** 2026-07-28 only: the most private `cacheScope` and the shortest `ttlMs` of every page the catalog rests on. */
      cacheScope?: 'public' | 'private';
      ttlMs?: number;
    }
  | { type: 'ScanStarted'; scanId: number; pass: 'A' | 'B' | 'SNAPSHOT' }
  | { type: 'ScanAbandoned'; scanId: number; reason: ScanAbandonReason; detail: string }
  | { type: 'CompletenessTaskDecided'; task: string; accepted: boolean; catalogStatus: CatalogStatus | 'NONE'; reason: string }
  | { type: 'ContentServed'; uri: string; subject: string; digest: string }
  | { type: 'ContentRefused'; uri: string; subject: string; reason: string }
  | { type: 'RevocationLearned'; uri: string; subject: string; source: 'feed' | 'read' }
  | { type: 'PurgeDone'; uri: string; subject: string; invalidatedEntries: number }
  | { type: 'StalenessBoundPublished'; uri: string; boundMs: number; mode: 'subscription' | 'polling' }
  | { type: 'SubscriptionClosed'; uri: string; closeEpoch: number; closeOrdinal: number; outcome: 'ACKED' | 'SESSION_ENDED' }
  | { type: 'Transitioned'; uri: string; from: SubscriptionState; to: SubscriptionState; event: TransitionEvent }
  | { type: 'ProtocolRejected'; rejection: Rejection }
  /** 2026-07-28: the client ends its listen `requestId` (sends `notifications/cancelled`); nothing is awaited. */
  | { type: 'ListenCancelled'; requestId: number; sessionGeneration: number; uri: string };

export type ClientEffectType = ClientEffect['type'];

export interface StepResult<S> {
  state: S;
  effects: ClientEffect[];
}
