/**
 * `Draft`: the view a single `step` works on. Copy-on-write (the pure `step`): each container and record of
 * the state (state-shape.ts) is copied at most once per step, the input state is never mutated, and
 * `commit()` yields the next state. Owning (`stepOwned`, for a caller that gives the state up): the same
 * code changes the state it was handed in place, copying only the shared frozen idle values below.
 */
import type { DerivedRecord, DiscoveryLedger } from './records.js';
import { cloneSubscription, type CoreState, type InflightKind, type InflightRequest, type Ledger, type UriVolatile, type Volatile } from './state-shape.js';
import type { ClientConfig, ClientEffect, ReadReason, RequestMethod, ResourceSubscriptionRecord, ResourceVersionRecord, TimerKind } from './types.js';
import { timerKinds } from './types.js';

export * from './state-shape.js';
export { timerKinds, type TimerKind } from './types.js';

/** The volatile state of a URI with nothing in flight and nothing armed (shared, frozen). */
const idleDeadlines = Object.freeze(timerKinds.map(() => -1)) as unknown as number[];
const idleUri: UriVolatile = Object.freeze({
  requests: Object.freeze([]) as unknown as InflightRequest[],
  inFlight: 0,
  dirty: false,
  pulseAtMs: -1,
  creditWindowMs: -1,
  creditPulses: 0,
  deadlines: idleDeadlines,
  leaseUntilMs: -1,
  confirmAfterOrdinal: -1,
  notFoundEvidenceMs: -1,
});

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
  /**
   * Records and arrays already copied in this step (per-URI volatile records, deadline arrays,
   * subscription records): one list, since objects of different kinds are never identical. Made on the
   * first copy (an owning step, or one that copies nothing, never needs it).
   */
  private owned: object[] | null = null;
  /** The state handed in, when this step owns it (changed in place); null when copying on write. */
  private readonly ownedState: CoreState | null;

  /** `ownsState`: the caller gives `state` up (it keeps no reference to it or to anything in it). */
  constructor(state: CoreState, nowMs: number, jitter: number, ownsState = false) {
    this.config = state.config;
    this.ledger = state.ledger;
    this.volatile = state.volatile;
    this.nowMs = nowMs;
    this.jitter = jitter;
    this.ownedState = ownsState ? state : null;
    if (ownsState) {
      this.ledgerOwned = this.volatileOwned = this.subscriptionsOwned = this.versionsOwned = true;
      this.derivedOwned = this.revokedOwned = this.urisOwned = this.discoveryOwned = true;
    }
  }

  /** Whether this step may change `record` in place: its own copy, or (owning) anything but the idle values. */
  private isOwned(record: object): boolean {
    if (this.ownedState !== null) return record !== idleUri && record !== idleDeadlines;
    return this.owned !== null && this.owned.includes(record);
  }

  /** Whether this step may change the requests array `requests` in place (owning, and not the idle one). */
  private ownsRequests(requests: readonly InflightRequest[]): boolean {
    return this.ownedState !== null && requests !== idleUri.requests;
  }

  /** Appends a request to a URI's in-flight list: in place when owned, else a copy (the list is shared with the input state). */
  private appendRequest(state: UriVolatile, request: InflightRequest): void {
    if (this.ownsRequests(state.requests)) state.requests.push(request);
    else state.requests = [...state.requests, request];
  }

  /** Remembers a record this step made (copy-on-write only: an owning step owns everything already). */
  private own(record: object): void {
    if (this.ownedState === null) (this.owned ??= []).push(record);
  }

  get l(): Readonly<Ledger> {
    return this.ledger;
  }

  get v(): Readonly<Volatile> {
    return this.volatile;
  }

  commit(): CoreState {
    if (this.ownedState !== null) return this.ownedState; // its ledger and volatile were changed in place
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
    if (this.isOwned(current)) return current;
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
    this.own(record);
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
      const x = ledger.discovery;
      // Explicit literal, not spread (as in mutableLedger); a new required field fails to compile here.
      ledger.discovery = { nextScanId: x.nextScanId, wanted: x.wanted, rounds: x.rounds, running: x.running, previous: x.previous, catalog: x.catalog };
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
      this.volatile = { connected: v.connected, sessionGeneration: v.sessionGeneration, capabilities: v.capabilities, uris: v.uris, scanCursor: v.scanCursor, notificationReads: v.notificationReads, unchangedReads: v.unchangedReads, pulseCredits: v.pulseCredits };
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
    if (this.isOwned(current)) return current;
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
      creditWindowMs: current.creditWindowMs,
      creditPulses: current.creditPulses,
      deadlines: current.deadlines,
      leaseUntilMs: current.leaseUntilMs,
      confirmAfterOrdinal: current.confirmAfterOrdinal,
      notFoundEvidenceMs: current.notFoundEvidenceMs,
    };
    volatile.uris[uri] = copy;
    this.own(copy);
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
    const requests = state.requests;
    if (!this.ownsRequests(requests)) {
      state.requests = requests.filter((candidate) => candidate !== request);
      return;
    }
    const index = requests.indexOf(request);
    if (index >= 0) requests.splice(index, 1);
  }

  /** Marks a request abandoned (2026-07-28 read deadline): kept only so that its late answer is recognised. */
  markAbandoned(request: InflightRequest): void {
    this.replaceRequests(request.uri, (candidate) => (candidate === request ? { ...candidate, abandoned: true as const } : candidate));
  }

  /** Marks the URI's reads in flight superseded (2026-07-28: an `updated` arrived after they were sent). */
  markSuperseded(uri: string): void {
    const requests = this.uriState(uri).requests;
    if (!requests.some((request) => request.kind === 'read' && request.superseded !== true)) return;
    this.replaceRequests(uri, (request) => (request.kind === 'read' && request.superseded !== true ? { ...request, superseded: true as const } : request));
  }

  /** Replaces each in-flight request of a URI by `replace(request)` (a new record, never the old one changed): in place when owned. */
  private replaceRequests(uri: string, replace: (request: InflightRequest) => InflightRequest): void {
    const state = this.mutableUri(uri);
    const requests = state.requests;
    if (!this.ownsRequests(requests)) {
      state.requests = requests.map(replace);
      return;
    }
    for (let index = 0; index < requests.length; index++) requests[index] = replace(requests[index]!);
  }

  setLease(uri: string, leaseUntilMs: number): void {
    if (this.uriState(uri).leaseUntilMs !== leaseUntilMs) this.mutableUri(uri).leaseUntilMs = leaseUntilMs;
  }

  /** `pulses` pulses coalesced on credit in the debounce window ending at `windowMs` (duplicates.ts). */
  setCreditPulses(uri: string, windowMs: number, pulses: number): void {
    const state = this.mutableUri(uri);
    state.creditWindowMs = windowMs;
    state.creditPulses = pulses;
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
    this.appendRequest(this.mutableUri(''), { requestId, kind: 'list', uri: '', sessionGeneration, subscriptionGeneration: 0, readOrdinal: 0, reason: null, sentAtMs: this.nowMs });
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
    if (!this.isOwned(state.deadlines)) {
      // An explicit copy: slice() of the frozen idle array takes a slow path.
      const source = state.deadlines;
      const copy: number[] = [];
      for (let kind = 0; kind < source.length; kind++) copy.push(source[kind]!);
      state.deadlines = copy;
      this.own(copy);
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
    this.appendRequest(this.mutableUri(uri), { requestId, kind, uri, sessionGeneration, subscriptionGeneration, readOrdinal, reason, sentAtMs: this.nowMs });
    if (reason === null) {
      this.emit({ type: 'RequestSent', requestId, sessionGeneration, method, uri });
    } else {
      this.emit({ type: 'RequestSent', requestId, sessionGeneration, method, uri, reason, readOrdinal, subject: subject ?? 'default' });
    }
    return requestId;
  }
}
