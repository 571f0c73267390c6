/**
 * The reference core's state: a durable ledger (survives a client crash, SPEC §3.9) and volatile parts
 * (connection, in-flight requests, timers). Plain serializable data: JSON round-trips.
 *
 * `Draft` is the copy-on-write view a single `step` works on: each container and record is copied at most
 * once per step, the input state is never mutated, and `commit()` yields the next state.
 */
import { emptyDiscovery, type DerivedRecord, type DiscoveryLedger } from './records.js';
import type {
  ClientConfig,
  ClientEffect,
  ReadReason,
  RequestMethod,
  ResourceSubscriptionRecord,
  ResourceVersionRecord,
  ServerCapabilities,
  TimerKind,
} from './types.js';
import { timerKinds } from './types.js';

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
}

export { timerKinds, type TimerKind } from './types.js';

/** Volatile state of one URI: requests in flight, read coalescing, armed timers (-1 = not armed). */
export interface UriVolatile {
  requests: InflightRequest[];
  /** Reads of the current subscription generation still in flight. */
  inFlight: number;
  /** An `updated` pulse arrived while a read was in flight: one follow-up read when it settles. */
  dirty: boolean;
  /** When the current debounce window opened (UPDATE_SEEN), or -1. */
  pulseAtMs: number;
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
}

export interface Volatile {
  connected: boolean;
  sessionGeneration: number;
  capabilities: ServerCapabilities | null;
  /** Canonical URI -> its volatile state. Entries are replaced, never deleted (keeps objects fast). */
  uris: Record<string, UriVolatile>;
  /** The opaque cursor of the running discovery pass: volatile only, never persisted. */
  scanCursor: string | null;
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
  return { connected: false, sessionGeneration: 0, capabilities: null, uris: {}, scanCursor: null };
}

const idleUri: UriVolatile = Object.freeze({
  requests: Object.freeze([]) as unknown as InflightRequest[],
  inFlight: 0,
  dirty: false,
  pulseAtMs: -1,
  deadlines: Object.freeze([-1, -1, -1, -1, -1, -1, -1]) as unknown as number[],
  leaseUntilMs: -1,
  confirmAfterOrdinal: -1,
  notFoundEvidenceMs: -1,
});

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
    state: r.state,
  };
}

export class Draft {
  readonly config: ClientConfig;
  readonly nowMs: number;
  readonly jitter: number;
  readonly effects: ClientEffect[] = [];
  private ledger: Ledger;
  private volatile: Volatile;
  private ledgerOwned = false;
  private volatileOwned = false;
  private subscriptionsOwned = false;
  private versionsOwned = false;
  private derivedOwned = false;
  private revokedOwned = false;
  private urisOwned = false;
  private discoveryOwned = false;
  /** Per-URI volatile records already copied in this step. */
  private ownedUris: UriVolatile[] = [];
  /** Deadline arrays already copied in this step. */
  private ownedDeadlines: number[][] = [];
  /** Subscription records already copied in this step. */
  private ownedSubscriptions: ResourceSubscriptionRecord[] = [];

  constructor(state: CoreState, nowMs: number, jitter: number) {
    this.config = state.config;
    this.ledger = state.ledger;
    this.volatile = state.volatile;
    this.nowMs = nowMs;
    this.jitter = jitter;
  }

  get l(): Readonly<Ledger> {
    return this.ledger;
  }

  get v(): Readonly<Volatile> {
    return this.volatile;
  }

  commit(): CoreState {
    return { config: this.config, ledger: this.ledger, volatile: this.volatile };
  }

  emit(effect: ClientEffect): void {
    this.effects.push(effect);
  }

  // -- ledger ------------------------------------------------------------------------------

  mutableLedger(): Ledger {
    if (!this.ledgerOwned) {
      const l = this.ledger;
      // Explicit literal, not spread: measurably faster on the simulator's hot path.
      this.ledger = {
        schema: l.schema,
        sessionGeneration: l.sessionGeneration,
        nextRequestId: l.nextRequestId,
        nextSubscriptionGeneration: l.nextSubscriptionGeneration,
        closeEpoch: l.closeEpoch,
        outboxSequence: l.outboxSequence,
        subscriptions: l.subscriptions,
        versions: l.versions,
        derived: l.derived,
        revoked: l.revoked,
        discovery: l.discovery,
      };
      this.ledgerOwned = true;
    }
    return this.ledger;
  }

  subscription(uri: string): ResourceSubscriptionRecord | undefined {
    return this.ledger.subscriptions[uri];
  }

  /** A copy of the subscription record that this step may change (copied once per step). */
  mutableSubscription(uri: string): ResourceSubscriptionRecord {
    const current = this.ledger.subscriptions[uri];
    if (current === undefined) throw new Error(`no subscription for ${uri}`);
    if (this.ownedSubscriptions.includes(current)) return current;
    const copy = cloneSubscription(current);
    this.putSubscription(copy);
    return copy;
  }

  putSubscription(record: ResourceSubscriptionRecord): void {
    const ledger = this.mutableLedger();
    if (!this.subscriptionsOwned) {
      ledger.subscriptions = { ...ledger.subscriptions };
      this.subscriptionsOwned = true;
    }
    ledger.subscriptions[record.uri] = record;
    this.ownedSubscriptions.push(record);
  }

  putVersion(uri: string, record: ResourceVersionRecord | undefined): void {
    const ledger = this.mutableLedger();
    if (!this.versionsOwned) {
      ledger.versions = { ...ledger.versions };
      this.versionsOwned = true;
    }
    if (record === undefined) delete ledger.versions[uri];
    else ledger.versions[uri] = record;
  }

  putDerived(uri: string, record: DerivedRecord | undefined): void {
    const ledger = this.mutableLedger();
    if (!this.derivedOwned) {
      ledger.derived = { ...ledger.derived };
      this.derivedOwned = true;
    }
    if (record === undefined) delete ledger.derived[uri];
    else ledger.derived[uri] = record;
  }

  putRevoked(key: string, atMs: number | undefined): void {
    const ledger = this.mutableLedger();
    if (!this.revokedOwned) {
      ledger.revoked = { ...ledger.revoked };
      this.revokedOwned = true;
    }
    if (atMs === undefined) delete ledger.revoked[key];
    else ledger.revoked[key] = atMs;
  }

  mutableDiscovery(): DiscoveryLedger {
    const ledger = this.mutableLedger();
    if (!this.discoveryOwned) {
      ledger.discovery = { ...ledger.discovery };
      this.discoveryOwned = true;
    }
    return ledger.discovery;
  }

  allocateRequestId(): number {
    const ledger = this.mutableLedger();
    const id = ledger.nextRequestId;
    ledger.nextRequestId = id + 1;
    return id;
  }

  allocateSubscriptionGeneration(): number {
    const ledger = this.mutableLedger();
    const generation = ledger.nextSubscriptionGeneration;
    ledger.nextSubscriptionGeneration = generation + 1;
    return generation;
  }

  allocateCloseEpoch(): number {
    const ledger = this.mutableLedger();
    ledger.closeEpoch += 1;
    return ledger.closeEpoch;
  }

  allocateOutboxSequence(): number {
    const ledger = this.mutableLedger();
    ledger.outboxSequence += 1;
    return ledger.outboxSequence;
  }

  // -- volatile ----------------------------------------------------------------------------

  mutableVolatile(): Volatile {
    if (!this.volatileOwned) {
      const v = this.volatile;
      this.volatile = { connected: v.connected, sessionGeneration: v.sessionGeneration, capabilities: v.capabilities, uris: v.uris, scanCursor: v.scanCursor };
      this.volatileOwned = true;
    }
    return this.volatile;
  }

  /** Read-only volatile state of a URI (an idle value when there is none). */
  uriState(uri: string): Readonly<UriVolatile> {
    return this.volatile.uris[uri] ?? idleUri;
  }

  /** A copy of the URI's volatile state that this step may change (copied once per step). */
  private mutableUri(uri: string): UriVolatile {
    const current = this.volatile.uris[uri] ?? idleUri;
    if (this.ownedUris.includes(current)) return current;
    const volatile = this.mutableVolatile();
    if (!this.urisOwned) {
      volatile.uris = { ...volatile.uris };
      this.urisOwned = true;
    }
    const copy: UriVolatile = {
      requests: current.requests,
      inFlight: current.inFlight,
      dirty: current.dirty,
      pulseAtMs: current.pulseAtMs,
      deadlines: current.deadlines,
      leaseUntilMs: current.leaseUntilMs,
      confirmAfterOrdinal: current.confirmAfterOrdinal,
      notFoundEvidenceMs: current.notFoundEvidenceMs,
    };
    volatile.uris[uri] = copy;
    this.ownedUris.push(copy);
    return copy;
  }

  /** The in-flight request with this id, searched across URIs (few URIs, few requests each). */
  inflight(requestId: number): InflightRequest | undefined {
    const uris = this.volatile.uris;
    for (const uri in uris) {
      const requests = uris[uri]!.requests;
      for (let index = 0; index < requests.length; index++) {
        if (requests[index]!.requestId === requestId) return requests[index];
      }
    }
    return undefined;
  }

  removeInflight(request: InflightRequest): void {
    const state = this.mutableUri(request.uri);
    state.requests = state.requests.filter((candidate) => candidate !== request);
  }

  /** Marks a request abandoned (2026-07-28 read deadline): kept only so that its late answer is recognised. */
  markAbandoned(request: InflightRequest): void {
    const state = this.mutableUri(request.uri);
    state.requests = state.requests.map((candidate) => (candidate === request ? { ...candidate, abandoned: true as const } : candidate));
  }

  setLease(uri: string, leaseUntilMs: number): void {
    if (this.uriState(uri).leaseUntilMs !== leaseUntilMs) this.mutableUri(uri).leaseUntilMs = leaseUntilMs;
  }

  /** Sets the deletion-confirmation progress of a URI; (-1, -1) voids it. */
  setConfirmAfter(uri: string, ordinal: number, evidenceMs = -1): void {
    const current = this.uriState(uri);
    if (current.confirmAfterOrdinal === ordinal && current.notFoundEvidenceMs === evidenceMs) return;
    const state = this.mutableUri(uri);
    state.confirmAfterOrdinal = ordinal;
    state.notFoundEvidenceMs = evidenceMs;
  }

  setScanCursor(cursor: string | null): void {
    if (this.volatile.scanCursor !== cursor) this.mutableVolatile().scanCursor = cursor;
  }

  sendListRequest(cursor: string | null): void {
    const requestId = this.allocateRequestId();
    const sessionGeneration = this.volatile.sessionGeneration;
    const state = this.mutableUri('');
    state.requests = [
      ...state.requests,
      { requestId, kind: 'list', uri: '', sessionGeneration, subscriptionGeneration: 0, readOrdinal: 0, reason: null, sentAtMs: this.nowMs },
    ];
    if (cursor === null) this.emit({ type: 'RequestSent', requestId, sessionGeneration, method: 'resources/list', uri: '' });
    else this.emit({ type: 'RequestSent', requestId, sessionGeneration, method: 'resources/list', uri: '', cursor });
  }

  setReads(uri: string, inFlight: number, dirty: boolean, pulseAtMs = -1): void {
    const current = this.uriState(uri);
    if (current.inFlight === inFlight && current.dirty === dirty && current.pulseAtMs === pulseAtMs) return;
    const state = this.mutableUri(uri);
    state.inFlight = inFlight;
    state.dirty = dirty;
    state.pulseAtMs = pulseAtMs;
  }

  /** The session ended: nothing in flight will be matched again and every timer is void. */
  forgetSession(): void {
    const volatile = this.mutableVolatile();
    volatile.uris = {};
    volatile.scanCursor = null;
    this.urisOwned = true;
    this.ownedUris.length = 0;
  }

  timerDeadline(kind: TimerKind, uri: string): number {
    return this.uriState(uri).deadlines[timerKinds.indexOf(kind)]!;
  }

  armTimer(kind: TimerKind, uri: string, deadlineMs: number): void {
    this.setDeadline(uri, timerKinds.indexOf(kind), deadlineMs);
    this.emit({ type: 'TimerArmed', timer: { kind, uri }, deadlineMs });
  }

  disarmTimer(kind: TimerKind, uri: string): void {
    const index = timerKinds.indexOf(kind);
    if (this.uriState(uri).deadlines[index] !== -1) this.setDeadline(uri, index, -1);
  }

  private setDeadline(uri: string, index: number, deadlineMs: number): void {
    const state = this.mutableUri(uri);
    if (!this.ownedDeadlines.includes(state.deadlines)) {
      state.deadlines = state.deadlines.slice();
      this.ownedDeadlines.push(state.deadlines);
    }
    state.deadlines[index] = deadlineMs;
  }

  sendRequest(
    method: RequestMethod,
    uri: string,
    kind: InflightKind,
    subscriptionGeneration: number,
    readOrdinal: number,
    reason: ReadReason | null,
    subject: string | null = null,
  ): number {
    const requestId = this.allocateRequestId();
    const sessionGeneration = this.volatile.sessionGeneration;
    const state = this.mutableUri(uri);
    state.requests = [
      ...state.requests,
      { requestId, kind, uri, sessionGeneration, subscriptionGeneration, readOrdinal, reason, sentAtMs: this.nowMs },
    ];
    if (reason === null) {
      this.emit({ type: 'RequestSent', requestId, sessionGeneration, method, uri });
    } else {
      this.emit({ type: 'RequestSent', requestId, sessionGeneration, method, uri, reason, readOrdinal, subject: subject ?? 'default' });
    }
    return requestId;
  }
}
