/**
 * Invariants and expectations of a probe run, checked only on observed data: the core's effects (in
 * order, with times), the updates that came off the wire and the updates that reached the core.
 *
 * Invariants (must hold whatever the server does):
 * - accepted_ordinals_increase: per URI, each accepted readOrdinal exceeds the previous one and the
 *   watermark it was compared against.
 * - no_accept_after_unsubscribe_began: no version, tombstone or outbox entry for a URI after its
 *   unsubscribe began (the close fence).
 * - no_read_after_unsubscribe_began: no resources/read for a URI once closing began.
 * - no_update_after_unsubscribe_ack: no resources/updated for a URI reached the core later than its
 *   unsubscribe ACK plus a grace window (in-flight messages, injected delays). This one judges the server.
 * Expectations (liveness; "sometimes" marks that prove the run exercised something).
 */
import type { ClientEffect } from '../../core/types.js';
import type { ProbeObservations, ProbeSubscription } from './probe.js';

export interface ProbeCheck {
  name: string;
  ok: boolean;
  checked: number;
  detail: string;
}

export interface ProbeCheckResult {
  subscriptions: ProbeSubscription[];
  invariants: ProbeCheck[];
  expectations(toggleToolListed: boolean, subscribeCapability: boolean): ProbeCheck[];
}

const DETAILS_MAX = 5;

export function checkProbeInvariants(uris: string[], observations: ProbeObservations, graceMs: number): ProbeCheckResult {
  const subscriptions = uris.map((uri) => summarize(uri, observations, graceMs));
  const invariants = [
    orderedCheck('accepted_ordinals_increase', observations, acceptedOrdinalsIncrease()),
    orderedCheck('no_accept_after_unsubscribe_began', observations, afterClosing((effect) => effect.type === 'VersionAccepted' || effect.type === 'TombstonePending' || effect.type === 'OutboxEntryWritten')),
    orderedCheck('no_read_after_unsubscribe_began', observations, afterClosing((effect) => effect.type === 'RequestSent' && effect.method === 'resources/read')),
    updatesAfterAck(subscriptions, graceMs),
  ];
  return {
    subscriptions,
    invariants,
    expectations: (toggleToolListed, subscribeCapability) => expectations(subscriptions, toggleToolListed, subscribeCapability),
  };
}

function summarize(uri: string, observations: ProbeObservations, graceMs: number): ProbeSubscription {
  const timeOf = (match: (effect: ClientEffect) => boolean): number | null => observations.effects.find(({ effect }) => match(effect))?.meta.atMs ?? null;
  const ackAt = timeOf((effect) => effect.type === 'SubscriptionClosed' && effect.uri === uri && effect.outcome === 'ACKED');
  const wire = observations.onWire.filter((update) => update.uri === uri);
  const delivered = observations.delivered.filter((update) => update.uri === uri);
  const count = (type: ClientEffect['type']): number => observations.effects.filter(({ effect }) => effect.type === type && 'uri' in effect && effect.uri === uri).length;
  return {
    uri,
    subscribeAckAtMs: timeOf((effect) => effect.type === 'Transitioned' && effect.uri === uri && effect.event === 'subscribe_acked'),
    updatesOnWire: wire.length,
    updatesDelivered: delivered.length,
    updateGapsMs: wire.slice(1).map((update, index) => update.atMs - wire[index]!.atMs),
    versionsAccepted: count('VersionAccepted'),
    staleReceipts: count('StaleReceiptWritten'),
    unsubscribeBeganAtMs: timeOf((effect) => effect.type === 'Transitioned' && effect.uri === uri && effect.event === 'unsubscribe_begun'),
    unsubscribeAckAtMs: ackAt,
    updatesOnWireAfterAck: ackAt === null ? 0 : wire.filter((update) => update.atMs > ackAt).length,
    updatesDeliveredAfterGrace: ackAt === null ? 0 : delivered.filter((update) => update.atMs > ackAt + graceMs).length,
  };
}

type Visitor = (effect: ClientEffect, atMs: number) => { checked: boolean; violation: string | null };

function orderedCheck(name: string, observations: ProbeObservations, visit: Visitor): ProbeCheck {
  let checked = 0;
  const violations: string[] = [];
  for (const { effect, meta } of observations.effects) {
    const verdict = visit(effect, meta.atMs);
    if (verdict.checked) checked++;
    if (verdict.violation !== null) violations.push(verdict.violation);
  }
  return {
    name,
    ok: violations.length === 0,
    checked,
    detail: violations.length === 0 ? `${checked} checked` : `${violations.length} violations: ${violations.slice(0, DETAILS_MAX).join('; ')}`,
  };
}

function acceptedOrdinalsIncrease(): Visitor {
  const last = new Map<string, number>();
  return (effect, atMs) => {
    if (effect.type !== 'VersionAccepted') return { checked: false, violation: null };
    const previous = last.get(effect.uri) ?? 0;
    last.set(effect.uri, Math.max(previous, effect.readOrdinal));
    const bad = effect.readOrdinal <= previous || effect.readOrdinal <= effect.watermarkBefore;
    return { checked: true, violation: bad ? `${effect.uri} accepted ordinal ${effect.readOrdinal} after ${previous} (watermark ${effect.watermarkBefore}) at ${atMs} ms` : null };
  };
}

function afterClosing(forbidden: (effect: ClientEffect) => boolean): Visitor {
  const closing = new Set<string>();
  return (effect, atMs) => {
    if (effect.type === 'Transitioned' && effect.event === 'unsubscribe_begun') closing.add(effect.uri);
    if (effect.type === 'Transitioned' && (effect.event === 'subscribe_sent' || effect.event === 'resubscribe')) closing.delete(effect.uri);
    const uri = 'uri' in effect ? effect.uri : '';
    if (!closing.has(uri) || effect.type === 'Transitioned') return { checked: false, violation: null };
    return { checked: true, violation: forbidden(effect) ? `${effect.type} for ${uri} at ${atMs} ms after its unsubscribe began` : null };
  };
}

function updatesAfterAck(subscriptions: ProbeSubscription[], graceMs: number): ProbeCheck {
  const acked = subscriptions.filter((subscription) => subscription.unsubscribeAckAtMs !== null);
  const late = acked.filter((subscription) => subscription.updatesDeliveredAfterGrace > 0);
  return {
    name: 'no_update_after_unsubscribe_ack',
    ok: late.length === 0,
    checked: acked.length,
    detail:
      late.length === 0
        ? `${acked.length} unsubscribe ACKs; grace window ${graceMs} ms`
        : late.map((subscription) => `${subscription.uri}: ${subscription.updatesDeliveredAfterGrace} updates later than ACK + ${graceMs} ms`).join('; '),
  };
}

function expectations(subscriptions: ProbeSubscription[], toggleToolListed: boolean, subscribeCapability: boolean): ProbeCheck[] {
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
    all('version_accepted', (subscription) => subscription.versionsAccepted > 0, 'at least one accepted version'),
    all('unsubscribe_acked', (subscription) => subscription.unsubscribeAckAtMs !== null, 'unsubscribe ACK'),
  ];
  if (toggleToolListed && subscribeCapability) {
    checks.push(all('updates_observed', (subscription) => subscription.updatesOnWire > 0, 'at least one resources/updated on the wire'));
  } else {
    checks.push({ name: 'updates_observed', ok: true, checked: 0, detail: 'not required: the server lists no known update trigger' });
  }
  return checks;
}
