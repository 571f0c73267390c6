/**
 * The shape of the reference core's state: a durable ledger (survives a client crash, SPEC §3.9) and
 * volatile parts (connection, in-flight requests, timers). Plain serializable data: JSON round-trips.
 * The copy-on-write view a step changes it through is `Draft` (state.ts).
 */
import { emptyDiscovery, type DerivedRecord, type DiscoveryLedger } from './records.js';
import type { ClientConfig, ReadReason, ResourceSubscriptionRecord, ResourceVersionRecord, ServerCapabilities } from './types.js';

export interface Ledger {
  schema: 'fencesim.ledger.v1';
  /** Highest session generation this client has seen. */
  sessionGeneration: number;
  /** Request ids are durable so that a response to a pre-crash request can never match a new one. */
  nextRequestId: number;
  nextSubscriptionGeneration: number;
  closeEpoch: number;
  outboxSequence: number;
  /** Canonical URI -> current subscription record (the latest generation for that URI). */
  subscriptions: Record<string, ResourceSubscriptionRecord>;
  /** Canonical URI -> last accepted version (the cache; purged on revocation and confirmed deletion). */
  versions: Record<string, ResourceVersionRecord>;
  /** Canonical URI -> the derived index entries built from its cached version (lineage). */
  derived: Record<string, DerivedRecord>;
  /**
   * `subject uri` -> when the client learned that the subject lost access. Kept only for the subject of
   * the URI's subscription record (at most one entry per record): a revocation of anything else is
   * announced and purged but not stored, so the feed cannot grow the ledger (see authorization.ts).
   */
  revoked: Record<string, number>;
  discovery: DiscoveryLedger;
}

export type InflightKind = 'read' | 'subscribe' | 'unsubscribe' | 'list';

export interface InflightRequest {
  requestId: number;
  kind: InflightKind;
  uri: string;
  sessionGeneration: number;
  subscriptionGeneration: number;
  readOrdinal: number;
  reason: ReadReason | null;
  sentAtMs: number;
  /** 2026-07-28: a read past the core's deadline, re-issued with a new id; its late answer only teaches revocations. */
  abandoned?: true;
  /** 2026-07-28: a read sent before an `updated` of its URI's live listen: its content is stale on arrival. */
  superseded?: true;
}

/** Volatile state of one URI: requests in flight, read coalescing, armed timers (-1 = not armed). */
export interface UriVolatile {
  requests: InflightRequest[];
  /** Reads of the current subscription generation still in flight. */
  inFlight: number;
  /** An `updated` pulse arrived while a read was in flight: one follow-up read when it settles. */
  dirty: boolean;
  /** When the current debounce window opened (UPDATE_SEEN), or -1. */
  pulseAtMs: number;
  /** Pulses coalesced on credit in the debounce window ending at `creditWindowMs` (duplicates.ts); -1: none. */
  creditWindowMs: number;
  creditPulses: number;
  /** Deadlines by timer kind, in `timerKinds` order. A TimerFired whose deadline differs is stale. */
  deadlines: number[];
  /** Cached content may be served until this time (authorization lease), -1 when none. */
  leaseUntilMs: number;
  /**
   * Deletion confirmation, step 1: a reconciled catalog lacked this TOMBSTONE_PENDING URI, so a not-found
   * read with an ordinal above this counts as evidence. -1 when no confirmation is pending.
   */
  confirmAfterOrdinal: number;
  /**
   * Step 2: when that not-found arrived (-1: none yet). The deletion is confirmed by the next reconciled
   * catalog that still lacks the URI and whose first pass began after this time.
   */
  notFoundEvidenceMs: number;
  /** When the latest answer to a read of this URI arrived, or -1 (duplicates.ts: a pulse soon after may be a race, not a copy). */
  answeredAtMs: number;
  /**
   * The server may still hold a subscription of this URI from an older generation on this session: its record was
   * replaced (a new subscribe) while its unsubscribe was not yet acknowledged. Cleared by an unsubscribe ACK or a
   * subscribe ACK of the URI; a close from RECONCILIATION_REQUIRED then still unsubscribes (core/fence.ts beginUnsubscribe).
   */
  unsubscribeOwed: boolean;
}

export interface Volatile {
  connected: boolean;
  sessionGeneration: number;
  capabilities: ServerCapabilities | null;
  /** Canonical URI -> its volatile state. Entries are replaced, never deleted (keeps objects fast). */
  uris: Record<string, UriVolatile>;
  /**
   * Notification-triggered reads accepted, and those that brought the digest already accepted (duplicates.ts):
   * the evidence until the server is seen to duplicate, then the current batch of the pulse-credit rule.
   */
  notificationReads: number;
  unchangedReads: number;
  /** Of those, the ones not sent within pulseRaceMs of an answer (duplicates.ts: only they can teach that the server duplicates). */
  clearUnchangedReads: number;
  /** Pulses a read covers inside its debounce window on a server seen to duplicate; 0 until then (duplicates.ts). */
  pulseCredits: number;
}

export interface CoreState {
  config: ClientConfig;
  ledger: Ledger;
  volatile: Volatile;
}

export function emptyLedger(): Ledger {
  return {
    schema: 'fencesim.ledger.v1',
    sessionGeneration: 0,
    nextRequestId: 1,
    nextSubscriptionGeneration: 1,
    closeEpoch: 0,
    outboxSequence: 0,
    subscriptions: {},
    versions: {},
    derived: {},
    revoked: {},
    discovery: emptyDiscovery(),
  };
}

export function emptyVolatile(): Volatile {
  return { connected: false, sessionGeneration: 0, capabilities: null, uris: {}, notificationReads: 0, unchangedReads: 0, clearUnchangedReads: 0, pulseCredits: 0 };
}

export function initialState(config: ClientConfig): CoreState {
  return { config, ledger: emptyLedger(), volatile: emptyVolatile() };
}

export function cloneSubscription(r: ResourceSubscriptionRecord): ResourceSubscriptionRecord {
  return {
    schema: r.schema,
    subject: r.subject,
    serverId: r.serverId,
    uri: r.uri,
    sessionGeneration: r.sessionGeneration,
    capabilityReceipt: r.capabilityReceipt,
    subscriptionGeneration: r.subscriptionGeneration,
    startMs: r.startMs,
    endMs: r.endMs,
    lastIssuedOrdinal: r.lastIssuedOrdinal,
    lastAcceptedOrdinal: r.lastAcceptedOrdinal,
    lastAcceptedDigest: r.lastAcceptedDigest,
    closeOrdinal: r.closeOrdinal,
    closeEpoch: r.closeEpoch,
    unsubscribeAttempts: r.unsubscribeAttempts,
    deletionConfirmed: r.deletionConfirmed,
    state: r.state,
  };
}
