/**
 * The fault catalogue (SPEC §5) and the fault plan: one serializable value saying which faults are on and
 * how often they fire. Intensities are integer ratios (numerator / denominator), never floats.
 */

export const faultNames = [
  'drop-notification',
  'duplicate-notification',
  'reorder',
  'slow-read',
  'cursor-cycle',
  'cursor-invalid',
  'forged-snapshot-id',
  'list-mutation-during-scan',
  'drop-unsubscribe-ack',
  'late-response-after-close',
  'old-session-notification',
  'uri-spelling',
  'permission-revocation',
  'disconnect',
  'server-restart',
  'client-crash',
  'no-subscribe-capability',
  'no-list-changed-capability',
  // 2026-07-28 (listen, TTL, no sessions): fire only in interleavings of that era (scenarios/era2026.ts).
  'listen-notify-before-ack',
  'listen-ack-narrower',
  'listen-ack-wider',
  'listen-wrong-id',
  'listen-missing-id',
  'listen-notify-after-close',
  'listen-lost',
  'listen-graceful-completion',
  'listen-rejected',
  'listen-ack-lost',
  'ttl-hostile',
  'broken-read-stream',
  'late-original-response',
  'era-downgrade',
  'response-replay',
  'serve-other-subject',
  'list-empty-cursor',
  'list-page-hint-mismatch',
  'listen-out-of-filter',
  'listen-stream-closed',
  'malformed-list-page',
  'malformed-read-response',
  'malformed-input',
  'disconnect-unannounced',
  'no-resources-capability',
  'listen-ack-repeated',
  'stray-notification',
  'malformed-response-id',
  'late-unsubscribe-ack',
  'long-outage',
  'read-error',
  'malformed-ack',
  'subscription-error',
  'input-repeated',
  'list-page-edge',
  'list-index-lag',
] as const;

export type FaultName = (typeof faultNames)[number];

/**
 * Capability faults are decided once per interleaving (the server does not offer the capability for the
 * whole run): a plan that lists one switches the capability off with its ratio, drawn at the start.
 */
export const capabilityFaults: readonly FaultName[] = ['no-subscribe-capability', 'no-list-changed-capability', 'no-resources-capability'];

export const faultDescriptions: Record<FaultName, string> = {
  'drop-notification': 'notifications (resources/updated, resources/list_changed) lost on the way to the client',
  'duplicate-notification': 'a notification delivered two or more times',
  reorder: 'server-to-client messages overtake each other (extra random delay per message)',
  'slow-read': 'a resources/read response delayed by up to seconds (read A slower than read B)',
  'cursor-cycle': 'a list nextCursor equal to a cursor already returned in the same pass',
  'cursor-invalid': 'a list page request answered with an invalid-cursor error',
  'forged-snapshot-id': 'a snapshot ID that changes across pages or was never negotiated',
  'list-mutation-during-scan': 'resources deleted and re-created between list pages',
  'drop-unsubscribe-ack': 'the resources/unsubscribe response is lost',
  'late-response-after-close': 'a read response held back until after the client began to unsubscribe',
  'old-session-notification': 'messages of a dead session delivered after the reconnect',
  'uri-spelling': 'URIs spelled differently (equivalent encodings) in notifications and responses',
  'permission-revocation': 'a subject loses access to a resource it reads; the authorization feed is delayed or lost',
  disconnect: 'the connection drops; the client reconnects as a new session',
  'server-restart': 'the server restarts and forgets every session and subscription',
  'client-crash': 'the client crashes and restarts from its durable ledger',
  'no-subscribe-capability': 'the server does not offer resources.subscribe: the client must poll',
  'no-list-changed-capability': 'the server does not offer resources.listChanged',
  'listen-notify-before-ack': '2026-07-28: a notification tagged with a listen id arrives before that listen\'s ack',
  'listen-ack-narrower': '2026-07-28: the ack honors a narrower filter than requested (the URI is left out)',
  'listen-ack-wider': '2026-07-28: the ack honors a URI the client never asked for',
  'listen-wrong-id': '2026-07-28: an updated notification tagged with another listen\'s id or an unknown one',
  'listen-missing-id': '2026-07-28: an updated notification without a subscription id',
  'listen-notify-after-close': '2026-07-28: a tagged notification after the client cancelled the listen, or after the server completed it gracefully',
  'listen-lost': '2026-07-28: the server silently forgets a listen while the connection stays up',
  'listen-graceful-completion': '2026-07-28: the server ends a listen with its result (resultType complete)',
  'listen-rejected': '2026-07-28: a listen answered with an error before any ack (Subscription limit reached)',
  'listen-ack-lost': '2026-07-28: the ack of a listen never arrives',
  'ttl-hostile': '2026-07-28: a read result whose ttlMs is 0, absent, negative or huge',
  'broken-read-stream': '2026-07-28: a broken response stream loses an in-flight read (no response ever arrives)',
  'late-original-response': '2026-07-28: a read response held back past the client\'s deadline, arriving after its retry',
  'era-downgrade': '2026-07-28: after a server restart the server speaks only 2025-11-25',
  'response-replay': '2026-07-28: an intermediary delivers a read response a second time, seconds later (same id, older content by then)',
  'serve-other-subject': "2026-07-28: the application asks for a resource's cached content for another subject (a different authorization context)",
  'list-empty-cursor': '2026-07-28: a list page whose nextCursor is the empty string (a valid cursor, not the end of the list)',
  'list-page-hint-mismatch': '2026-07-28: pages of one list carry different cacheScope and/or ttlMs (the aggregate must take the most private and the shortest)',
  'listen-out-of-filter': "2026-07-28: an updated notification tagged with a live listen's id for a URI outside that listen's acknowledged filter",
  'listen-stream-closed': '2026-07-28: the server closes a listen stream without its result (remote end: notifications/cancelled of the listen id); no more updates on it',
  'malformed-list-page': 'a resources/list page that breaks the schema: `resources` not an array, an entry without a string uri, or a non-string nextCursor',
  'no-resources-capability': 'the server does not declare the resources capability at all: the client must send no resources/* request and refuse what needs one',
  'disconnect-unannounced': 'a disconnect the client is not told of (the transport never reports the close): the next thing it hears is a new connection',
  'malformed-read-response':
    "a resources/read answer that breaks the schema (contents not an array or empty, an item without a string uri or body, a bad blob or mimeType, a non-integer error code, an oversized body), an error in place of content, names another resource's item, or is well-formed in an unusual way (a base64 blob, no mimeType, a not-found spelled -32602)",
  'malformed-input':
    'the harness, like a buggy embedding application (or a server breaking the notification schema), hands the client an input with one field broken (time, session, timer, capabilities, subject, flag, task, command URI, response id or envelope, notification method or params) before the real one, a valid input that must change nothing, or an equivalent spelling in its place',
  'listen-ack-repeated': '2026-07-28: the ack of a listen arrives a second time, later (an intermediary replays it), while the watch it started is live',
  'late-unsubscribe-ack': 'the resources/unsubscribe response delayed past the client\'s ACK timeout (5-8 s): it arrives after the retry, often after the retry\'s own ACK',
  'malformed-response-id': 'a copy of a resources/read answer whose id is not a positive integer (0, -1 or 1.5), next to the real answer',
  'long-outage': 'a disconnect or server restart whose outage lasts 25-45 s (a partition, a deploy), not 0.05-5 s: authorization leases run out and the reconciliation, lease and resubscribe timers fire while the client has no connection',
  'read-error': 'a resources/read of an existing resource answered with a transient server error (-32603 internal error, -32000 server busy) instead of its content: neither a deletion nor a revocation',
  'list-index-lag': "a re-created resource shows in the server's live resources/list index only 5-15 s later (reads see it at once; snapshot passes are consistent): a live A/B listing can miss a resource that exists",
  'list-page-edge': 'a resources/list pass at an edge of the contract (in turn): its first page a transient -32603 error, a 2025-11-25 empty-string nextCursor, a null result, 300 pages under fresh cursors (past a page limit of 256), or a snapshot ID exactly as long as a ledger text',
  'malformed-ack': 'a resources/subscribe or resources/unsubscribe answer whose result is not an object (null, a string, an array, a number): no acknowledgement, a typed rejection (the server did act on the request)',
  'subscription-error': 'a resources/subscribe or resources/unsubscribe answered with a transient server error (-32603 internal error, -32000 server busy): the server did not act on it (no subscription made, or the subscription kept)',
  'input-repeated': 'the host hands the client a Connected, subscribe or unsubscribe command a second time, at once (a handler run twice): the repeat must change nothing',
  'stray-notification': 'a 2025-11-25 resources/updated for a URI the client never subscribed (outside the catalog), or for no URI at all, next to a real one: audited and ignored, or rejected',
};

/**
 * Faults only their own scenario makes, never a swarm: malformed-read-response is judged on the step interface
 * (a reducer on the pure transport, sim/applicability.ts `stepInterface`). Over the SDK an answer that breaks the
 * JSON-RPC envelope is dropped by the SDK and its read hangs until the request timeout, which the 2025-11-25 core
 * does not bound (its reads have no deadline; 2026-07-28 reads have readReissueMs), so the swarms, which the SDK
 * transport and module clients also run, do not draw it yet. malformed-input hands a step client inputs through
 * its step function (sim/kernel/reducer-driver.ts), which a module client does not have. disconnect-unannounced: a
 * module client's transport reports a close as a real one does, and its own scenario (unannounced-disconnect) judges
 * it; and no-resources-capability, under which nothing can converge (its scenario judges only what is sent).
 * listen-ack-repeated is era2026-listen-ends' own: added to the swarms' draws it would shift every interleaving they
 * make (and the gate parts and goldens pinned on them).
 * stray-notification is drawn only by old-session-notification, malformed-response-id only by
 * malformed-read-response, late-unsubscribe-ack only by lost-unsubscribe-ack (a fault added to the swarms' catalogue
 * would move every swarm interleaving). long-outage, read-error, malformed-ack, subscription-error, list-page-edge and list-index-lag are their
 * scenarios' own for the same reason; input-repeated (repeated-inputs) too, and it is stepped through a step client's step function like malformed-input.
 */
export const scenarioOnlyFaults: readonly FaultName[] = ['malformed-read-response', 'malformed-input', 'disconnect-unannounced', 'no-resources-capability', 'listen-ack-repeated', 'stray-notification', 'malformed-response-id', 'late-unsubscribe-ack', 'long-outage', 'read-error', 'malformed-ack', 'subscription-error', 'input-repeated', 'list-page-edge', 'list-index-lag'];
/** The faults that only fire on 2026-07-28 connections (those of the swarms; scenario-only ones apart). */
export const era2026Faults: readonly FaultName[] = faultNames.filter((fault) => (fault.startsWith('listen-') && !scenarioOnlyFaults.includes(fault)) || fault === 'ttl-hostile' || fault === 'broken-read-stream' || fault === 'late-original-response' || fault === 'era-downgrade' || fault === 'response-replay' || fault === 'serve-other-subject' || fault === 'list-empty-cursor' || fault === 'list-page-hint-mismatch');
// ('listen-out-of-filter' and 'listen-stream-closed' start with listen- and are in the filter above.)
/** The 2025-11-25 catalogue (what the 2025 swarm draws from; malformed-list-page, last of it, is drawn only with discovery). */
export const era2025Faults: readonly FaultName[] = faultNames.filter((fault) => !era2026Faults.includes(fault) && !scenarioOnlyFaults.includes(fault));

export interface Ratio {
  numerator: number;
  denominator: number;
}

/** A fault that is on fires with this per-opportunity probability. */
export type FaultPlan = Partial<Record<FaultName, Ratio>>;

export function ratio(numerator: number, denominator: number): Ratio {
  return { numerator, denominator };
}

/** Per-fault firing counts for one interleaving, in `faultNames` order. */
export type FaultCounts = Int32Array;

export function newFaultCounts(): FaultCounts {
  return new Int32Array(faultNames.length);
}

export const faultIndex: Record<FaultName, number> = Object.fromEntries(
  faultNames.map((name, index) => [name, index]),
) as Record<FaultName, number>;
