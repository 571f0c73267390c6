/**
 * Invariants and expectations of a probe run, checked online on observed data as it happens: the core's
 * effects (in order, with times), the updates that came off the wire and the updates that reached the core.
 * Nothing is kept per event: per URI counters, the first violations and the first gaps only, so a server
 * sending 100,000 notifications a second costs the probe constant memory per subscribed URI.
 *
 * Invariants (must hold whatever the server does):
 * - accepted_ordinals_increase: per URI, each accepted readOrdinal exceeds the previous one and the
 *   watermark it was compared against.
 * - no_accept_after_unsubscribe_began: no version, tombstone or outbox entry for a URI after its
 *   unsubscribe began (the close fence).
 * - no_read_after_unsubscribe_began: no resources/read for a URI once closing began.
 * - no_update_after_unsubscribe_ack: no resources/updated for a URI reached the core later than its
 *   unsubscribe ACK plus a grace window (in-flight messages, injected delays). This one judges the server.
 * - served_only_accepted: every `get()` that served content served a digest the fence accepted for that
 *   URI (a VersionAccepted effect), never anything else.
 * Expectations (liveness; "sometimes" marks that prove the run exercised something).
 */
import type { ClientEffect } from '../../../core/types.js';
import type { GetResult } from '../cache/cache-types.js';
import type { ProbeCheck, ProbeReport, ProbeSubscription } from './probe-types.js';

export type { ProbeCheck } from './probe-types.js';

const DETAILS_MAX = 5;
const GAPS_MAX = 50;
const DIGESTS_MAX = 10_000;
const SERVED_PREFIXES_MAX = 20;

/** A check fed one event at a time; keeps its count and its first violations. */
class OnlineCheck {
  checked = 0;
  violations = 0;
  readonly examples: string[] = [];
  constructor(readonly name: string) {}
  visit(checked: boolean, violation: string | null): void {
    if (checked) this.checked++;
    if (violation === null) return;
    this.violations++;
    if (this.examples.length < DETAILS_MAX) this.examples.push(violation);
  }
  result(): ProbeCheck {
    const detail = this.violations === 0 ? `${this.checked} checked` : `${this.violations} violations: ${this.examples.join('; ')}`;
    return { name: this.name, ok: this.violations === 0, checked: this.checked, detail };
  }
}

interface UriRecord extends ProbeSubscription {
  lastWireAtMs: number | null;
}

export class ProbeRecorder {
  private readonly ordinals = new OnlineCheck('accepted_ordinals_increase');
  private readonly acceptAfterClosing = new OnlineCheck('no_accept_after_unsubscribe_began');
  private readonly readAfterClosing = new OnlineCheck('no_read_after_unsubscribe_began');
  private readonly lastOrdinal = new Map<string, number>();
  private readonly closing = new Set<string>();
  private readonly subscribed = new Map<string, UriRecord>();
  private readonly closedOtherwise = new Set<string>();
  private readonly servedCheck = new OnlineCheck('served_only_accepted');
  private readonly acceptedDigests = new Map<string, Set<string>>();
  readonly effectCounts: Record<string, number> = {};
  /** Distinct beginnings (40 characters) of the bodies `get()` served, the first 20. */
  readonly servedPrefixes: string[] = [];
  gets = 0;
  served = 0;

  constructor(private readonly graceMs: number) {}

  /** The URIs the probe subscribes: only these get per-URI records. */
  watch(uris: readonly string[]): void {
    for (const uri of uris) if (!this.subscribed.has(uri)) this.subscribed.set(uri, emptyRecord(uri));
  }

  effect(effect: ClientEffect, atMs: number): void {
    this.effectCounts[effect.type] = (this.effectCounts[effect.type] ?? 0) + 1;
    this.checkOrdinal(effect, atMs);
    this.checkClosing(effect, atMs);
    const record = 'uri' in effect ? this.subscribed.get(effect.uri) : undefined;
    if (record === undefined) return;
    if (effect.type === 'VersionAccepted') {
      record.versionsAccepted++;
      const digests = this.acceptedDigests.get(effect.uri) ?? new Set<string>();
      if (digests.size < DIGESTS_MAX) digests.add(effect.digest);
      this.acceptedDigests.set(effect.uri, digests);
    }
    else if (effect.type === 'StaleReceiptWritten') record.staleReceipts++;
    else if (effect.type === 'Transitioned' && effect.event === 'subscribe_acked') record.subscribeAckAtMs ??= atMs;
    else if (effect.type === 'Transitioned' && (effect.event === 'unsubscribe_begun' || effect.event === 'unsubscribe_owed')) record.unsubscribeBeganAtMs ??= atMs;
    else if (effect.type === 'SubscriptionClosed' && effect.outcome === 'ACKED') record.unsubscribeAckAtMs ??= atMs;
  }

  /** A resources/updated as it came off the wire (before faults). */
  onWire(atMs: number, uri: string | null): void {
    const record = uri === null ? undefined : this.subscribed.get(uri);
    if (record === undefined) return;
    record.updatesOnWire++;
    if (record.lastWireAtMs !== null && record.updateGapsMs.length < GAPS_MAX) record.updateGapsMs.push(atMs - record.lastWireAtMs);
    record.lastWireAtMs = atMs;
    if (record.unsubscribeAckAtMs !== null && atMs > record.unsubscribeAckAtMs) record.updatesOnWireAfterAck++;
  }

  /** A resources/updated as it reached the core (after faults). */
  delivered(atMs: number, uri: string | null): void {
    const record = uri === null ? undefined : this.subscribed.get(uri);
    if (record === undefined) return;
    record.updatesDelivered++;
    if (record.unsubscribeAckAtMs !== null && atMs > record.unsubscribeAckAtMs + this.graceMs) record.updatesDeliveredAfterGrace++;
  }

  /** What `get(uri)` returned while the probe watched. */
  serve(uri: string, result: GetResult, atMs: number): void {
    this.gets++;
    if (!result.served) {
      this.servedCheck.visit(false, null);
      return;
    }
    this.served++;
    const accepted = this.acceptedDigests.get(uri)?.has(result.digest) === true && result.uri === uri;
    this.servedCheck.visit(true, accepted ? null : `get(${uri}) at ${atMs} ms served digest ${result.digest.slice(0, 12)} of ${result.uri}, never accepted for it`);
    const prefix = result.text.slice(0, 40);
    if (this.servedPrefixes.length < SERVED_PREFIXES_MAX && !this.servedPrefixes.includes(prefix)) this.servedPrefixes.push(prefix);
  }

  isSubscribeAcked(uri: string): boolean {
    return this.subscribed.get(uri)?.subscribeAckAtMs != null;
  }

  isClosed(uri: string): boolean {
    return this.subscribed.get(uri)?.unsubscribeAckAtMs != null || this.closedOtherwise.has(uri);
  }

  subscriptions(): ProbeSubscription[] {
    return [...this.subscribed.values()].map(({ lastWireAtMs: _last, ...subscription }) => ({ ...subscription, updateGapsMs: [...subscription.updateGapsMs] }));
  }

  invariants(): ProbeCheck[] {
    return [this.ordinals.result(), this.acceptAfterClosing.result(), this.readAfterClosing.result(), this.updatesAfterAck(), this.servedCheck.result()];
  }

  /** Liveness marks. `changeSource`: what made the server change something (null: nothing known). */
  expectations(subscribeCapability: boolean, changeSource: string | null, contentLimit: ProbeReport['contentLimit']): ProbeCheck[] {
    const subscriptions = this.subscriptions();
    const all = (name: string, predicate: (subscription: ProbeSubscription) => boolean, what: string): ProbeCheck => {
      const missing = subscriptions.filter((subscription) => !predicate(subscription)).map((subscription) => subscription.uri);
      return {
        name,
        ok: subscriptions.length > 0 && missing.length === 0,
        checked: subscriptions.length,
        detail: subscriptions.length === 0 ? 'no resource was subscribed' : missing.length === 0 ? `${what} for all ${subscriptions.length}` : `missing for ${missing.join(', ')}`,
      };
    };
    const checks = [
      all('subscribe_acked', (subscription) => subscription.subscribeAckAtMs !== null || !subscribeCapability, 'subscribe ACK (or polling)'),
      withContentLimit(all('version_accepted', (subscription) => subscription.versionsAccepted > 0, 'at least one accepted version'), contentLimit),
      all('unsubscribe_acked', (subscription) => subscription.unsubscribeAckAtMs !== null, 'unsubscribe ACK'),
    ];
    if (changeSource !== null && subscribeCapability) {
      checks.push(all('updates_observed', (subscription) => subscription.updatesOnWire > 0, `at least one resources/updated on the wire (changes made by ${changeSource})`));
    }
    return checks;
  }

  /** Whether anything changed while the probe watched: an update on the wire, or a second accepted version. */
  changesObserved(): number {
    let changes = 0;
    for (const record of this.subscribed.values()) changes += record.updatesOnWire + Math.max(0, record.versionsAccepted - 1);
    return changes;
  }

  private checkOrdinal(effect: ClientEffect, atMs: number): void {
    if (effect.type !== 'VersionAccepted') return;
    const previous = this.lastOrdinal.get(effect.uri) ?? 0;
    this.lastOrdinal.set(effect.uri, Math.max(previous, effect.readOrdinal));
    const bad = effect.readOrdinal <= previous || effect.readOrdinal <= effect.watermarkBefore;
    this.ordinals.visit(true, bad ? `${effect.uri} accepted ordinal ${effect.readOrdinal} after ${previous} (watermark ${effect.watermarkBefore}) at ${atMs} ms` : null);
  }

  private checkClosing(effect: ClientEffect, atMs: number): void {
    if (effect.type === 'Transitioned') {
      if (effect.event === 'unsubscribe_begun' || effect.event === 'unsubscribe_owed') this.closing.add(effect.uri);
      if (effect.event === 'subscribe_sent' || effect.event === 'resubscribe') this.closing.delete(effect.uri);
      return;
    }
    if (effect.type === 'SubscriptionClosed') this.closedOtherwise.add(effect.uri);
    const uri = 'uri' in effect ? effect.uri : '';
    if (!this.closing.has(uri)) return;
    const accepted = effect.type === 'VersionAccepted' || effect.type === 'TombstonePending' || effect.type === 'OutboxEntryWritten';
    this.acceptAfterClosing.visit(true, accepted ? `${effect.type} for ${uri} at ${atMs} ms after its unsubscribe began` : null);
    const read = effect.type === 'RequestSent' && effect.method === 'resources/read';
    this.readAfterClosing.visit(true, read ? `${effect.type} for ${uri} at ${atMs} ms after its unsubscribe began` : null);
  }

  private updatesAfterAck(): ProbeCheck {
    const acked = this.subscriptions().filter((subscription) => subscription.unsubscribeAckAtMs !== null);
    const late = acked.filter((subscription) => subscription.updatesDeliveredAfterGrace > 0);
    return {
      name: 'no_update_after_unsubscribe_ack',
      ok: late.length === 0,
      checked: acked.length,
      detail:
        late.length === 0
          ? `${acked.length} unsubscribe ACKs; grace window ${this.graceMs} ms`
          : late.map((subscription) => `${subscription.uri}: ${subscription.updatesDeliveredAfterGrace} updates later than ACK + ${this.graceMs} ms`).join('; '),
    };
  }
}

/** A missing version explained by the content limit says so (and how to raise it). */
function withContentLimit(check: ProbeCheck, contentLimit: ProbeReport['contentLimit']): ProbeCheck {
  if (check.ok || contentLimit.refused.length === 0) return check;
  const over = contentLimit.refused.map((refusal) => `${refusal.uri} has ${refusal.chars} characters`).join(', ');
  return { ...check, detail: `${check.detail} (over the content limit of ${contentLimit.contentCharsMax} characters: ${over}; raise it with --content-chars-max)` };
}

function emptyRecord(uri: string): UriRecord {
  return {
    uri,
    subscribeAckAtMs: null,
    updatesOnWire: 0,
    updatesDelivered: 0,
    updateGapsMs: [],
    versionsAccepted: 0,
    staleReceipts: 0,
    unsubscribeBeganAtMs: null,
    unsubscribeAckAtMs: null,
    updatesOnWireAfterAck: 0,
    updatesDeliveredAfterGrace: 0,
    lastWireAtMs: null,
  };
}
