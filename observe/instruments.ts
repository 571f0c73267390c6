/**
 * The catalogue of the fenced cache's metrics: one entry per instrument, named and unit-ed in OpenTelemetry's
 * semantic-convention style (dot-separated namespace `fencesim.cache.*`, UCUM units, `{thing}` annotations
 * for counts, seconds for durations). The fold (fold.ts) emits measurements against these names; the
 * OpenTelemetry adapter creates one instrument per entry; the README table is checked against it.
 *
 * Attribute values are bounded: closed sets listed here. No raw URI is ever an attribute; an application may
 * opt in to a low-cardinality label per URI (`fencesim.uri.label`) on the instruments marked `labelled`.
 */

export type InstrumentKind = 'counter' | 'histogram';

export interface InstrumentSpec {
  name: string;
  kind: InstrumentKind;
  /** The exported unit (UCUM). */
  unit: string;
  /** Measurements are folded in milliseconds and exported in seconds when `unit` is 's'. */
  description: string;
  /** Attribute key -> its closed set of values. */
  attributes: Record<string, readonly string[]>;
  /** Carries `fencesim.uri.label` when the application supplies a URI -> label hook. */
  labelled: boolean;
}

export const uriLabelAttribute = 'fencesim.uri.label';

export const readReasons = ['initial', 'notification', 'reconcile', 'tombstone_check', 'poll', 'reappeared', 'authorization', 'ttl'] as const;
export const notificationKinds = ['updated', 'list_changed', 'other'] as const;
export const notificationFates = ['acted_on', 'coalesced', 'audited_old_session', 'audited_unsubscribed', 'rejected'] as const;
export const fenceDecisions = ['accepted', 'not_found', 'stale', 'after_close'] as const;
export const staleReasons = ['ordinal', 'generation', 'session', 'revoked'] as const;
export const refusalReasons = ['revoked', 'not_cached', 'other_subject', 'pending_deletion', 'lease_expired', 'other'] as const;
export const ackFilters = ['honored', 'narrowed', 'ignored'] as const;
export const rejectionKinds = [
  'InvalidUri',
  'MalformedNotification',
  'MalformedResponse',
  'UnknownNotification',
  'ContentUriMismatch',
  'ContentTooLarge',
  'MalformedListPage',
  'IllegalTransition',
  'Other',
] as const;

export const instruments = {
  subscribeAttempts: counter('fencesim.cache.subscribe.attempts', '{request}', 'resources/subscribe requests sent', {}),
  subscribeOutcomes: counter('fencesim.cache.subscribe.outcomes', '{response}', 'Outcomes of resources/subscribe requests', {
    'fencesim.outcome': ['acked', 'error', 'session_lost'],
  }),
  connections: counter('fencesim.cache.connections', '{connection}', 'Sessions opened (initialize completed)', {
    'fencesim.connection.kind': ['first', 'reconnect'],
  }),
  disconnections: counter('fencesim.cache.disconnections', '{connection}', 'Sessions that ended', {}),
  resubscriptionRounds: counter('fencesim.cache.resubscription.rounds', '{round}', 'Reconnects, by whether every wanted URI was re-subscribed in time (interrupted: the session ended first)', {
    'fencesim.outcome': ['complete', 'incomplete', 'interrupted'],
  }),
  resubscriptionUris: counter('fencesim.cache.resubscription.uris', '{uri}', 'URIs wanted at a reconnect, and those re-subscribed in that session', {
    'fencesim.resubscription.state': ['wanted', 'resubscribed'],
  }),
  resubscriptionDuration: histogram('fencesim.cache.resubscription.duration', 'Time from a reconnect until every wanted URI was re-subscribed', {}),
  notifications: counter('fencesim.cache.notifications', '{notification}', 'Resource notifications received, by kind and by what the client did with them', {
    'fencesim.notification.kind': notificationKinds,
    'fencesim.notification.fate': notificationFates,
  }),
  reads: counter('fencesim.cache.reads', '{request}', 'resources/read requests sent, by why (authorization: the lease revalidation read; ttl: 2026-07-28, a serve found the entry past its `ttlMs`)', { 'fencesim.read.reason': readReasons }, true),
  fenceDecisions: counter('fencesim.cache.fence.decisions', '{response}', 'Read responses judged by the ordinal and close fences', {
    'fencesim.fence.decision': fenceDecisions,
    'fencesim.stale.reason': staleReasons,
  }, true),
  reconciliationChanges: counter('fencesim.cache.reconciliation.changes', '{change}', 'Reconciliation or poll reads that found content the notifications had not brought', {}, true),
  serves: counter('fencesim.cache.serves', '{serve}', 'Content served from the cache', {}, true),
  serveAge: histogram('fencesim.cache.serve.age', 'Age of the content at serve: time since the read that last confirmed it', {}, true),
  refusals: counter('fencesim.cache.refusals', '{serve}', 'Serve requests refused, by reason', { 'fencesim.refusal.reason': refusalReasons }, true),
  revocationPurgeDuration: histogram('fencesim.cache.revocation.purge.duration', 'Time from a revocation event until the cached content was purged', {}),
  protocolRejections: counter('fencesim.cache.protocol.rejections', '{message}', 'Protocol input rejected as malformed, by kind', {
    'fencesim.rejection.kind': rejectionKinds,
    'fencesim.rejection.source': ['core', 'adapter'],
  }),
  listens: counter('fencesim.cache.listens', '{request}', '2026-07-28: subscriptions/listen requests sent (one per watched URI and listen)', {}),
  listenAcks: counter('fencesim.cache.listen.acks', '{notification}', '2026-07-28: subscriptions/acknowledged notifications, by whether the honored filter held the URI (narrowed: it did not, the URI is polled; ignored: no listen was waiting for it)', {
    'fencesim.ack.filter': ackFilters,
  }),
  ttlExpiredServes: counter('fencesim.cache.ttl.expired', '{serve}', '2026-07-28: serve requests that found the cached entry past its `ttlMs` from receipt (refused, re-fetched on demand)', {}, true),
} as const satisfies Record<string, InstrumentSpec>;

export type InstrumentId = keyof typeof instruments;

/** The shadow rollout's instruments (adapters/mcp-sdk/observe/shadow.ts), recorded outside the fold. */
export const shadowInstruments = {
  comparisons: counter('fencesim.shadow.comparisons', '{serve}', "What the existing client served, compared with what the fences accepted", {
    'fencesim.shadow.result': ['agree', 'disagree', 'unverified'],
  }),
  disagreements: counter('fencesim.shadow.disagreements', '{serve}', 'Serves of the existing client the fences would have refused, by reason', {
    'fencesim.shadow.reason': ['OLDER_THAN_ACCEPTED', 'NOT_ACCEPTED', 'AFTER_CLOSE', 'REVOKED_SUBJECT', 'CATALOG_FROM_ONE_SCAN'],
  }),
  rolloutServes: counter('fencesim.rollout.serves', '{serve}', 'Serves by rollout path (fenced or existing client) and outcome', {
    'fencesim.rollout.path': ['fenced', 'existing'],
    'fencesim.serve.outcome': ['served', 'refused'],
  }),
} as const satisfies Record<string, InstrumentSpec>;

export const instrumentIds = Object.keys(instruments) as InstrumentId[];

function counter(name: string, unit: string, description: string, attributes: Record<string, readonly string[]>, labelled = false): InstrumentSpec {
  return { name, kind: 'counter', unit, description, attributes, labelled };
}

function histogram(name: string, description: string, attributes: Record<string, readonly string[]>, labelled = false): InstrumentSpec {
  return { name, kind: 'histogram', unit: 's', description, attributes, labelled };
}

/** Histogram bucket boundaries in seconds (advice to the SDK): 10 ms .. 10 min. */
export const secondsBucketBoundaries = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
