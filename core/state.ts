/**
 * The reference core's state: a durable ledger (survives a client crash, SPEC §3.9) and volatile parts
 * (connection, in-flight requests, timers). Plain serializable data: JSON round-trips.
 *
 * `Draft` is the copy-on-write view a single `step` works on: each container and record is copied at most
 * once per step, the input state is never mutated, and `commit()` yields the next state.
 */
import type {
  ClientConfig,
  ClientEffect,
  ReadReason,
  RequestMethod,
  ResourceSubscriptionRecord,
  ResourceVersionRecord,
  ServerCapabilities,
} from './types.js';

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
  /** Canonical URI -> last accepted version. */
  versions: Record<string, ResourceVersionRecord>;
}

export type InflightKind = 'read' | 'subscribe' | 'unsubscribe';

export interface InflightRequest {
  kind: InflightKind;
  uri: string;
  sessionGeneration: number;
  subscriptionGeneration: number;
  readOrdinal: number;
  reason: ReadReason | null;
  sentAtMs: number;
}

export interface ReadTracking {
  /** Reads of the current subscription generation still in flight. */
  inFlight: number;
  /** An `updated` pulse arrived while a read was in flight: one follow-up read when it settles. */
  dirty: boolean;
  /** When the current debounce window opened (UPDATE_SEEN), or -1. */
  pulseAtMs: number;
}

export interface Volatile {
  connected: boolean;
  sessionGeneration: number;
  capabilities: ServerCapabilities | null;
  /** Request id (decimal string) -> what it was for. */
  inflight: Record<string, InflightRequest>;
  reads: Record<string, ReadTracking>;
  /** Timer key (`kind:uri`) -> armed deadline. A TimerFired whose deadline differs is stale. */
  timers: Record<string, number>;
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
  };
}

export function emptyVolatile(): Volatile {
  return { connected: false, sessionGeneration: 0, capabilities: null, inflight: {}, reads: {}, timers: {} };
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
  private inflightOwned = false;
  private readsOwned = false;
  private timersOwned = false;
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
      this.ledger = { ...this.ledger };
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

  putVersion(record: ResourceVersionRecord): void {
    const ledger = this.mutableLedger();
    if (!this.versionsOwned) {
      ledger.versions = { ...ledger.versions };
      this.versionsOwned = true;
    }
    ledger.versions[record.uri] = record;
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
      this.volatile = { ...this.volatile };
      this.volatileOwned = true;
    }
    return this.volatile;
  }

  inflight(requestId: number): InflightRequest | undefined {
    return this.volatile.inflight[requestId];
  }

  putInflight(requestId: number, request: InflightRequest | undefined): void {
    const volatile = this.mutableVolatile();
    if (!this.inflightOwned) {
      volatile.inflight = { ...volatile.inflight };
      this.inflightOwned = true;
    }
    if (request === undefined) delete volatile.inflight[requestId];
    else volatile.inflight[requestId] = request;
  }

  clearInflight(): void {
    this.mutableVolatile().inflight = {};
    this.inflightOwned = true;
  }

  readTracking(uri: string): ReadTracking {
    return this.volatile.reads[uri] ?? idleReads;
  }

  putReadTracking(uri: string, inFlight: number, dirty: boolean, pulseAtMs = -1): void {
    const volatile = this.mutableVolatile();
    if (!this.readsOwned) {
      volatile.reads = { ...volatile.reads };
      this.readsOwned = true;
    }
    if (inFlight === 0 && !dirty && pulseAtMs < 0) delete volatile.reads[uri];
    else volatile.reads[uri] = { inFlight, dirty, pulseAtMs };
  }

  clearReadTracking(): void {
    this.mutableVolatile().reads = {};
    this.readsOwned = true;
  }

  timerDeadline(key: string): number | undefined {
    return this.volatile.timers[key];
  }

  armTimer(key: string, deadlineMs: number): void {
    this.mutableTimers()[key] = deadlineMs;
    this.emit({ type: 'TimerArmed', timerKey: key, deadlineMs });
  }

  disarmTimer(key: string): void {
    if (this.volatile.timers[key] !== undefined) delete this.mutableTimers()[key];
  }

  private mutableTimers(): Record<string, number> {
    const volatile = this.mutableVolatile();
    if (!this.timersOwned) {
      volatile.timers = { ...volatile.timers };
      this.timersOwned = true;
    }
    return volatile.timers;
  }

  sendRequest(
    method: RequestMethod,
    uri: string,
    kind: InflightKind,
    subscriptionGeneration: number,
    readOrdinal: number,
    reason: ReadReason | null,
  ): number {
    const requestId = this.allocateRequestId();
    const sessionGeneration = this.volatile.sessionGeneration;
    this.putInflight(requestId, {
      kind,
      uri,
      sessionGeneration,
      subscriptionGeneration,
      readOrdinal,
      reason,
      sentAtMs: this.nowMs,
    });
    if (reason === null) {
      this.emit({ type: 'RequestSent', requestId, sessionGeneration, method, uri });
    } else {
      this.emit({ type: 'RequestSent', requestId, sessionGeneration, method, uri, reason, readOrdinal });
    }
    return requestId;
  }
}

const idleReads: ReadTracking = Object.freeze({ inFlight: 0, dirty: false, pulseAtMs: -1 });

export function timerKey(kind: TimerKind, uri: string): string {
  return kind + ':' + uri;
}

export type TimerKind = 'debounce' | 'hedge' | 'reconcile' | 'unsubscribe' | 'resubscribe';

export function parseTimerKey(key: string): { kind: TimerKind; uri: string } | null {
  const colon = key.indexOf(':');
  if (colon < 0) return null;
  const kind = key.slice(0, colon);
  if (kind !== 'debounce' && kind !== 'hedge' && kind !== 'reconcile' && kind !== 'unsubscribe' && kind !== 'resubscribe') {
    return null;
  }
  return { kind, uri: key.slice(colon + 1) };
}
