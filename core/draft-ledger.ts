/**
 * The half of `Draft` (state.ts) that owns the copy-on-write bookkeeping and the durable ledger. Copy-on-write (the
 * pure `step`): each container and record of the state (state-shape.ts) is copied at most once per step, the input
 * state is never mutated, and `commit()` yields the next state. Owning (`stepOwned`, for a caller that gives the
 * state up): the same code changes the state it was handed in place, copying only the shared frozen idle values
 * below. `Draft` adds the volatile half (a URI's requests in flight, read coalescing, timers) on top.
 */
import type { DerivedRecord, DiscoveryLedger } from './records.js';
import { cloneSubscription, type CoreState, type InflightRequest, type Ledger, type UriVolatile, type Volatile } from './state-shape.js';
import type { ClientConfig, ClientEffect, ResourceSubscriptionRecord, ResourceVersionRecord } from './types.js';
import { timerKinds } from './types.js';

/** The volatile state of a URI with nothing in flight and nothing armed (shared, frozen). */
export const idleDeadlines = Object.freeze(timerKinds.map(() => -1)) as unknown as number[];
export const idleUri: UriVolatile = Object.freeze({
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
  answeredAtMs: -1,
  unsubscribeOwed: false,
});

export class DraftLedger {
  readonly config: ClientConfig;
  readonly nowMs: number;
  readonly jitter: number;
  readonly effects: ClientEffect[] = [];
  private ledger: Ledger;
  protected volatile: Volatile;
  private ledgerOwned = false;
  protected volatileOwned = false;
  private subscriptionsOwned = false;
  private versionsOwned = false;
  private derivedOwned = false;
  private revokedOwned = false;
  protected urisOwned = false;
  private discoveryOwned = false;
  /**
   * Records and arrays already copied in this step (per-URI volatile records, deadline arrays,
   * subscription records): one list, since objects of different kinds are never identical. Made on the
   * first copy (an owning step, or one that copies nothing, never needs it).
   */
  private owned: object[] | null = null;
  /** The state handed in, when this step owns it (changed in place); null when copying on write. */
  protected readonly ownedState: CoreState | null;

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
  protected isOwned(record: object): boolean {
    if (this.ownedState !== null) return record !== idleUri && record !== idleDeadlines;
    return this.owned !== null && this.owned.includes(record);
  }

  /** Remembers a record this step made (copy-on-write only: an owning step owns everything already). */
  protected own(record: object): void {
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

}
