/**
 * The client-under-test interface (SPEC §4) and the records of the consistency core (SPEC §3.1).
 *
 * Inputs are past-tense facts delivered to a client; effects are commands (send a request, arm a timer)
 * or observable facts (a version was accepted, a stale receipt was written). Both are discriminated
 * unions on `type`, plain JSON data. Every input carries `nowMs` (virtual or wall time, chosen by the
 * caller) and `jitter` (a uint32 the caller drew; the core never draws randomness itself).
 */

// ---------------------------------------------------------------------------------------------
// Wire-level shapes (what MCP carries; validated by the core, never trusted)

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ServerCapabilities {
  /**
   * The server declared the `resources` capability at all. When false the core sends no resources/*
   * request (no list, read, subscribe) and refuses workload commands that would need one.
   */
  resources: boolean;
  /** `resources.subscribe` was negotiated. */
  subscribe: boolean;
  /** `resources.listChanged` was negotiated. */
  listChanged: boolean;
  /** The optional snapshot-ID list extension was negotiated (SPEC §3.6). */
  snapshotId: boolean;
  /** The protocol era of the connection (absent: 2025-11-25). Set by the core from `Connected.era`. */
  era?: ProtocolEra;
}

/** The two MCP revisions the core speaks (SPEC §13): sessions + subscribe, or listen + TTL/scope. */
export type ProtocolEra = '2025-11-25' | '2026-07-28';
export const protocolEras: readonly ProtocolEra[] = ['2025-11-25', '2026-07-28'];

export type RequestMethod =
  | 'resources/read'
  | 'resources/subscribe'
  | 'resources/unsubscribe'
  | 'resources/list'
  /** 2026-07-28: one listen per watched URI (filter `{resourceSubscriptions: [uri]}`); its id is the subscription id. */
  | 'subscriptions/listen';

export type ResponseOutcome =
  | { type: 'result'; result: unknown }
  | { type: 'error'; code: unknown; message: unknown; data?: unknown };

// ---------------------------------------------------------------------------------------------
// Inputs

export type WorkloadCommand =
  | {
      type: 'SubscribeCommanded';
      nowMs: number;
      jitter: number;
      uri: string;
      /** The authorization principal whose credentials read this resource (default 'default'). */
      subject?: string;
    }
  | { type: 'UnsubscribeCommanded'; nowMs: number; jitter: number; uri: string }
  | { type: 'DiscoverCommanded'; nowMs: number; jitter: number }
  | { type: 'ServeCommanded'; nowMs: number; jitter: number; uri: string; subject: string }
  | { type: 'CompletenessTaskCommanded'; nowMs: number; jitter: number; task: string };

export type ClientInput =
  | WorkloadCommand
  | {
      type: 'Connected';
      nowMs: number;
      jitter: number;
      /** 2026-07-28 has no sessions: the generation then names the connection (the stream) instead. */
      sessionGeneration: number;
      capabilities: ServerCapabilities;
      /** The negotiated era (absent: 2025-11-25). */
      era?: ProtocolEra;
    }
  | { type: 'Disconnected'; nowMs: number; jitter: number; sessionGeneration: number }
  | {
      type: 'ResponseArrived';
      nowMs: number;
      jitter: number;
      /** The session whose stream carried the response. */
      sessionGeneration: number;
      requestId: unknown;
      outcome: ResponseOutcome;
    }
  | {
      type: 'NotificationArrived';
      nowMs: number;
      jitter: number;
      /** The session whose stream carried the notification. */
      sessionGeneration: number;
      method: unknown;
      params: unknown;
    }
  | { type: 'TimerFired'; nowMs: number; jitter: number; timer: TimerId; deadlineMs: number }
  | {
      type: 'AuthorizationChanged';
      nowMs: number;
      jitter: number;
      subject: string;
      uri: string;
      allowed: boolean;
    };

export type ClientInputType = ClientInput['type'];

// ---------------------------------------------------------------------------------------------
// Effects

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

/** Static configuration of a client (plain data; every default resolved). */
export interface ClientConfig {
  /**
   * Trailing debounce that coalesces `updated` pulses (duplicates arrive spread out) before the read is
   * issued: each pulse extends the window by debounceMs, never beyond debounceMsMax after the first.
   */
  debounceMs: number;
  debounceMsMax: number;
  /**
   * A read in flight longer than this while newer updates are pending is hedged: one more read is issued
   * and the ordinal fence keeps whichever answer is newest (read A slower than read B).
   */
  readHedgeMs: number;
  /** Base period of the per-subscription reconciliation read (lost notifications are expected). */
  reconcileIntervalMs: number;
  /** Jitter added to each reconciliation period: `jitter % (reconcileJitterMsMax + 1)`. */
  reconcileJitterMsMax: number;
  /** How long an unsubscribe may wait for its ACK before the subscription is UNSUBSCRIBE_UNKNOWN. */
  unsubscribeTimeoutMs: number;
  /** How often an UNSUBSCRIBE_UNKNOWN subscription retries its unsubscribe in the same session. */
  unsubscribeRetryMs: number;
  /** Quick unsubscribe retries (every unsubscribeTimeoutMs); later ones wait one reconciliation period each. */
  unsubscribeRetryMax: number;
  /** How long to wait before retrying a failed subscribe in the same session. */
  subscribeRetryMs: number;
  /** Poll period when the server lacks the `subscribe` capability (plus jitter, like reconciliation). */
  pollIntervalMs: number;
  pollJitterMsMax: number;
  /** Responses whose content exceeds this many characters are rejected. */
  contentCharsMax: number;
  /** Cached content is served only within this authorization lease; it is revalidated by a read. */
  authorizationLeaseMs: number;
  /** Derived index entries (chunks) written per accepted version. */
  derivedEntriesPerVersion: number;
  /** Discovery: pages per scan before it is abandoned, and reconciliation rounds before backing off. */
  scanPagesMax: number;
  reconcileRoundsMax: number;
  /** A published catalog is reviewed (re-scanned) after this long; also its staleness bound. */
  catalogReviewMs: number;
  /** After list_changed outside a scan, wait this long before re-scanning (coalesces bursts). */
  listChangedDebounceMs: number;
  /** 2026-07-28: how long a listen may wait for its ack before it is cancelled and retried (default in core/era.ts). */
  listenAckTimeoutMs?: number;
  /** 2026-07-28: a read unanswered this long is abandoned and re-issued with a new id (default in core/era.ts). */
  readReissueMs?: number;
}

export const defaultClientConfig: ClientConfig = {
  debounceMs: 300,
  debounceMsMax: 1_500,
  readHedgeMs: 1_000,
  reconcileIntervalMs: 20_000,
  reconcileJitterMsMax: 10_000,
  unsubscribeTimeoutMs: 5_000,
  unsubscribeRetryMs: 5_000,
  unsubscribeRetryMax: 3,
  subscribeRetryMs: 2_000,
  pollIntervalMs: 5_000,
  pollJitterMsMax: 2_000,
  contentCharsMax: 1_048_576,
  authorizationLeaseMs: 20_000,
  derivedEntriesPerVersion: 2,
  scanPagesMax: 256,
  reconcileRoundsMax: 4,
  catalogReviewMs: 30_000,
  listChangedDebounceMs: 500,
};

/**
 * Any client the harness can drive: the reference core, a naive strategy, or a user's own.
 * `durable` and `recover` model a crash: the harness keeps only `durable(state)` and restarts
 * the client with `recover(config, durable)`, a step like any other: the restarted state and the effects of
 * the restart (the reference emits a `Transitioned` for every subscription it moves), judged by the oracle.
 */
export interface ClientUnderTest<S = unknown> {
  readonly name: string;
  readonly description: string;
  init(config: ClientConfig): S;
  step(state: S, input: ClientInput): StepResult<S>;
  durable?(state: S): unknown;
  recover?(config: ClientConfig, durable: unknown): StepResult<S>;
}

// ---------------------------------------------------------------------------------------------
// Subscription state machine vocabulary (the table itself lives in transitions.ts)

/** The subscription states, declared once; the table itself lives in transitions.ts. */
export const subscriptionStates = [
  'DISCOVERED',
  'SUBSCRIBING',
  'ACTIVE',
  'UPDATE_SEEN',
  'READ_PENDING',
  'VERSION_ACCEPTED',
  'TOMBSTONE_PENDING',
  'UNSUBSCRIBING',
  'CLOSED',
  'UNSUBSCRIBE_UNKNOWN',
  'RECONCILIATION_REQUIRED',
] as const;
export type SubscriptionState = (typeof subscriptionStates)[number];

/** The events that move a subscription, declared once. */
export const transitionEvents = [
  'subscribe_sent',
  'subscribe_acked',
  'subscribe_failed',
  'poll_started',
  'update_seen',
  'read_issued',
  'read_accepted',
  'reads_outstanding',
  'read_settled',
  'not_found_accepted',
  'unsubscribe_begun',
  'unsubscribe_acked',
  'unsubscribe_timed_out',
  'session_lost',
  'resubscribe',
] as const;
export type TransitionEvent = (typeof transitionEvents)[number];

/** The closed set of timer kinds; a timer is identified by its kind and URI (the empty URI: global). */
export const timerKinds = ['debounce', 'hedge', 'reconcile', 'unsubscribe', 'resubscribe', 'lease', 'discover'] as const;
export type TimerKind = (typeof timerKinds)[number];
export interface TimerId {
  kind: TimerKind;
  uri: string;
}

/** How a content body is carried: MCP `text`, or `blob` (base64). */
export type ContentEncoding = 'text' | 'blob';

// ---------------------------------------------------------------------------------------------
// Records (SPEC §3.1), versioned and serializable

export interface ResourceSubscriptionRecord {
  schema: 'resourceSubscription.v1';
  subject: string;
  serverId: string;
  uri: string;
  sessionGeneration: number;
  capabilityReceipt: ServerCapabilities | null;
  subscriptionGeneration: number;
  startMs: number;
  endMs: number | null;
  lastIssuedOrdinal: number;
  lastAcceptedOrdinal: number;
  lastAcceptedDigest: string | null;
  closeOrdinal: number | null;
  closeEpoch: number | null;
  /** How many unsubscribe requests were sent for the current close. */
  unsubscribeAttempts: number;
  state: SubscriptionState;
}

export interface ResourceVersionRecord {
  schema: 'resourceVersion.v1';
  uri: string;
  encoding: ContentEncoding;
  mimeType: string;
  digest: string;
  readOrdinal: number;
  subject: string;
  serverVersion: string;
  localGeneration: number;
  acceptedAtMs: number;
}

/** A timer's name, for hosts that keep armed timers in a map (a key only: the core never parses it back). */
export function timerName(timer: TimerId): string {
  return timer.kind + ':' + timer.uri;
}
