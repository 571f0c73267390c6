/**
 * `Draft`: the view a single `step` works on. Its ledger half and the copy-on-write bookkeeping (copied at most
 * once per step, or changed in place when the step owns the state) are `DraftLedger` (draft-ledger.ts); this
 * class adds the volatile half: a URI's requests in flight, read coalescing, leases and timers.
 */
import { DraftLedger, idleUri } from './draft-ledger.js';
import type { InflightKind, InflightRequest, UriVolatile, Volatile } from './state-shape.js';
import type { ReadReason, RequestMethod, TimerKind } from './types.js';
import { timerKinds } from './types.js';

export * from './state-shape.js';
export { timerKinds, type TimerKind } from './types.js';

export class Draft extends DraftLedger {
  /** Whether this step may change the requests array `requests` in place (owning, and not the idle one). */
  private ownsRequests(requests: readonly InflightRequest[]): boolean {
    return this.ownedState !== null && requests !== idleUri.requests;
  }

  /** Appends a request to a URI's in-flight list: in place when owned, else a copy (the list is shared with the input state). */
  private appendRequest(state: UriVolatile, request: InflightRequest): void {
    if (this.ownsRequests(state.requests)) state.requests.push(request);
    else state.requests = [...state.requests, request];
  }

  // -- volatile ----------------------------------------------------------------------------

  mutableVolatile(): Volatile {
    if (!this.volatileOwned) {
      const v = this.volatile;
      this.volatile = { connected: v.connected, sessionGeneration: v.sessionGeneration, capabilities: v.capabilities, uris: v.uris, notificationReads: v.notificationReads, unchangedReads: v.unchangedReads, clearUnchangedReads: v.clearUnchangedReads, pulseCredits: v.pulseCredits };
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
      answeredAtMs: current.answeredAtMs,
      unsubscribeOwed: current.unsubscribeOwed,
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

  /** An answer to a read of the URI arrived now (duplicates.ts). */
  setAnsweredAt(uri: string, atMs: number): void {
    if (this.uriState(uri).answeredAtMs !== atMs) this.mutableUri(uri).answeredAtMs = atMs;
  }

  setUnsubscribeOwed(uri: string, owed: boolean): void {
    if (this.uriState(uri).unsubscribeOwed !== owed) this.mutableUri(uri).unsubscribeOwed = owed;
  }

  /** Sets the deletion-confirmation progress of a URI; (-1, -1) voids it. */
  setConfirmAfter(uri: string, ordinal: number, evidenceMs = -1): void {
    const current = this.uriState(uri);
    if (current.confirmAfterOrdinal === ordinal && current.notFoundEvidenceMs === evidenceMs) return;
    const state = this.mutableUri(uri);
    state.confirmAfterOrdinal = ordinal;
    state.notFoundEvidenceMs = evidenceMs;
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
