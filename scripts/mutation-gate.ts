// The fixed mutation gate (see mutation-gate.spec.ts, which Stryker runs): its parts and the judge of one part.
// Also used by scripts/mutation-survivors.mts to re-judge survivors under a larger gate.
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { GateAccumulator, verdictOf } from '../sim/gate.js';
import { failingLivenessInvariants, invariantIndex, safetyInvariants } from '../sim/oracle.js';
import { checkOne } from '../sim/determinism.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { sameResource } from '../core/uri.js';
import { nonUris, uriShapeResources } from '../scenarios/uri-shapes.js';

export type MutationGatePart = readonly [scenario: string, start: number, interleavings: number];

/**
 * scenario, first interleaving index, interleavings: the fixed gate. Sized for Stryker's instrumented code
 * (about 6x slower than plain): about 90 interleavings, 15-20 s per surviving mutant on this shared machine.
 */
export const mutationGateParts: readonly MutationGatePart[] = [
  // uri-shapes (scenarios/uri-shapes.ts): the canonicaliser (core/uri.ts, uri-chars.ts) on URIs no other scenario
  // sends. Its listing takes one-page passes in turn, no draw, so interleaving 0 alone lists each of the 107 spellings
  // next to its resource (one not normalised: unreconciled_catalog), each of the 115 non-URIs (one accepted:
  // unreconciled_catalog) and every resource under each of its spellings in ~80 honest passes (a conflation or a wrong
  // rejection: proven_withheld; a changed canonical form: catalog_untrue), notifications and read results spelled
  // too (uri-spelling). First in the gate: most mutants of those two files fail only here, and a mutant runs the parts
  // in order until one fails (placed last, each paid the whole gate first). One interleaving: ~1 s plain, the table's
  // coverage does not grow with more.
  ['uri-shapes', 0, 1],
  // malformed-input (sim/actors/hostile-inputs.ts, sim/checkers/inputs.ts): the only part that hands the client inputs with
  // a malformed caller field (core/input-check.ts) or a malformed notification, response id or envelope (core/protocol.ts
  // interpretNotification, checkRequestId). Early: most mutants of those lines fail only here, at interleaving 0; ~50 ms
  // an interleaving plain. Re-derived when uri-invalid, era-unknown, era-elsewhere-ignored and deadline-disarmed joined the
  // kinds (the draws of their input types moved; every mutant the earlier parts [0, 8), 11, 13 killed is killed by these,
  // scripts/mutation-rejudge-s16/reducer.txt): 0 the first command URI that is a string but no URI (core/reducer.ts withUri,
  // onSubscribeCommanded, onUnsubscribeCommanded) and the first timer firing at -1 for a timer never armed (core/reducer-timers.ts
  // onTimer's first test), 1 the first capabilities that are an array, 5 the first Connected of an unknown era (core/reducer.ts
  // checkEra's rejection) and the first sub-capabilities spelled with and without `resources: false`, 8 the first discover
  // command carrying an `era` (only Connected's era is checked). 11: the first completeness task that is not a string; 22 the
  // first Connected without `resources` (it means true); 29 the first `resources: "yes"`.
  ['malformed-input', 0, 9],
  ['malformed-input', 11, 1],
  ['malformed-input', 22, 1],
  ['malformed-input', 29, 1],
  ['swarm', 0, 12],
  ['era-both', 0, 6],
  // 2026-07-28 alone: its defaults (listen ack timeout, read re-issue) are only reached here (mutation-survivors.mts);
  // interleaving 13 is the first where a read's TTL left unapplied (core/ttl.ts freshUntilMs) fails ttl_staleness.
  ['era2026-swarm', 0, 14],
  // ttl-hostile: the first interleaving where a read whose ttlMs is absent or negative (so 0), taken for no TTL, fails ttl_staleness.
  ['era2026-swarm', 83, 1],
  // 2026-07-28 listings whose pages disagree on ttlMs / cacheScope (list-page-hint-mismatch), judged against the
  // pages' real hints from above and below (sim/checkers/era2026-catalog-hints.ts): era2026-swarm never reaches it;
  // interleaving 3 is the first with an all-public catalog (a fold that is always private fails there).
  ['era2026-listing', 0, 4],
  ['read-race', 0, 3],
  ['duplicate-storm', 0, 3],
  ['close-race', 0, 3],
  ['reconnect', 0, 3],
  ['uri-spelling', 0, 3],
  ['multi-page-lost-notifications', 0, 3],
  // the first interleaving where a second not-found is accepted while the URI is already TOMBSTONE_PENDING
  // (core/fence.ts acceptNotFound: the move only from other states); 11 before discovery plans healed longer.
  ['multi-page-lost-notifications', 13, 1],
  // 21: a catalog lists again a resource the client holds TOMBSTONE_PENDING, already confirmed deleted, which the truth
  // re-created: reconcileTombstones (core/scan.ts) must re-read it (reappeared_reread). 41: the first where a deletion
  // confirmed only once the not-found evidence is gone (the evidence test inverted) fails healed_deletion.
  ['multi-page-lost-notifications', 21, 1],
  ['multi-page-lost-notifications', 41, 1],
  ['cursor-cycle', 0, 3],
  // list pages that break the schema (sim/actors/listing.ts): interleaving 3 is the first where a parser that keeps a
  // page whose resources is not an array, or skips an entry without a string uri, publishes from such a pass; 7 the
  // first where one that takes a non-string snapshotId does (the other variants: entries without a name, not objects,
  // a repeated URI, an empty or too long snapshotId, are reached in [0, 3)).
  ['malformed-list-page', 0, 8],
  // [0, 4): 3 is the first where a negotiated pass's ID appears only on a later page (sim/actors/listing.ts): a client
  // that does not count a page without the ID as forged (core/scan.ts isForged) publishes it SNAPSHOT_PROVEN.
  ['forged-snapshot-id', 0, 4],
  // a proven catalog past its review time with tasks still coming (scenarios/discovery.ts catalog-review): a task
  // accepted past the review time fails task_catalog_expired, one not decided fails completeness_refused.
  ['catalog-review', 0, 1],
  // 414: the first where a task comes at the very millisecond of the review time (accepting it then fails).
  ['catalog-review', 414, 1],
  // [0, 8): interleaving 7 is the first where a read of an earlier generation is answered after the URI was
  // subscribed again (core/fence.ts judgeReadResponse, the generation half of the close fence).
  ['lost-unsubscribe-ack', 0, 8],
  ['late-content-after-close', 0, 3],
  ['old-session-notification', 0, 3],
  ['permission-revocation', 0, 3],
  ['no-subscribe-capability', 0, 3],
  ['client-crash', 0, 3],
  ['swarm', 12, 24],
  // the first where a discovery asked for while a pass runs (or while disconnected) must not start another
  // (core/scan.ts requestDiscovery): a second pass over the first publishes a catalog no listing matched.
  ['swarm', 60, 1],
  // healed_deletion (sim/checkers/deletion.ts) where the reference's deletion confirmation was late before a fix:
  // 2402, a poll's not-found moved the evidence past the next catalog's start (core/fence.ts acceptNotFound keeps
  // the first); 10450, a catalog skipped a TOMBSTONE_PENDING resource with a read in flight (core/scan.ts reconcileTombstones).
  ['era-both', 2402, 1],
  ['era-both', 10450, 1],
  // read answers broken by construction (sim/actors/malformed-reads.ts; core/protocol.ts interpretRead): a quarter of
  // the reads, a kind drawn each time among 24; an accept from one fails malformed_read_accepted, taking another
  // resource's item fails uri_confusion, a rejection of the wrong kind (or of a well-formed blob, a mimeType of exactly
  // 1,024 characters, the requested item after another) read_answer_misjudged. [0, 8): 3 is the first where a
  // well-formed blob and another resource's item alone are judged, 4 the first blob with no padding (a parser wanting
  // exactly one `=` rejects it), 7 the first error whose code is 1.5 and the first -32603 whose message says "not found".
  // After the merge of the branch that adds malformed-response-id copies to this scenario's plan (answers: [0, 4) and 9,
  // 9 the first where a READ_PENDING resource whose read was rejected must settle) the draws of both moved: [0, 10) covers
  // both sets of first kills approximately; their exact first indices were not re-derived after the merge.
  ['malformed-read-response', 0, 10],
  // notified_unread (sim/checkers/notification-reads.ts), for core/listen.ts, reducer-notifications.ts, duplicates.ts:
  // 42: an updated while a read is lost on a broken stream and the read deadline was armed late (core/listen.ts
  // armReadDeadline must bring an armed later deadline forward).
  ['era2026-broken-stream', 42, 1],
  // core/listen.ts read deadlines (onReadDeadline, armReadDeadline) and late answers to abandoned reads
  // (onAbandonedAnswer), found by re-judging its survivors one at a time (scripts/mutation-survivors.mts) and confirmed
  // by Stryker (mutation-report/listen.json killedBy): 1, a TOMBSTONE_PENDING read lost on a broken stream must be
  // re-issued, and a late answer teaches a revocation only when it is a permission error (notified_unread); 2, a re-issue
  // only when a read was abandoned or news is pending, the in-flight count lowered by the abandoned reads (healed_convergence).
  ['era2026-broken-stream', 0, 3],
  // 11: the read deadline armed no earlier than 1 ms from now (an overdue deadline armed in the past) (notified_unread).
  ['era2026-broken-stream', 11, 1],
  // 30 and 115: a late not-found to an abandoned read stops serving only when it is a not-found, newer than what was
  // accepted, and the lease still runs (refused_fresh).
  ['era2026-broken-stream', 30, 1],
  ['era2026-broken-stream', 115, 1],
  // era2026-listen-ends (scenarios/era2026.ts): watches that end while wanted, judged by watch_not_renewed
  // (sim/checkers/era2026-renewal.ts), and acks repeated (listen-ack-repeated) or honoring no resource (no
  // resourceSubscriptions): 0 is the first where a repeated ack of a live watch is taken for a new one (core/listen.ts
  // routeAck's waiting test), an ack without resourceSubscriptions is read as one honoring nothing (honoredUris), and
  // a remote end not followed by a new listen fails watch_not_renewed; 1, a remote end before the ack.
  ['era2026-listen-ends', 0, 2],
  // 49: a client that takes every updated as its URI's, whatever its subscription id (core/listen.ts
  // routeListenNotification's id test skipped), reads 1.58 times per notified change there (read_amplification, < 1.2,
  // fails the part: a metric of one interleaving, so a narrow kill). 430: an updated for a URI the client never
  // subscribed, tagged with an id it does not know (routeListenNotification's mismatch; the mutants throw).
  ['era2026-swarm', 49, 1],
  ['era2026-swarm', 430, 1],
  // 138: the first where a reference that counts raced no-news reads as duplicate evidence (core/duplicates.ts
  // raceWithAnswer always false) learns duplication on a server that never duplicates and leaves a notified change
  // unread (notified_unread; 36 of 3,000 such interleavings at root seed 1).
  ['malformed-list-page', 138, 1],
  // reads in flight when a 2026-07-28 updated arrives (scenarios/era2026.ts era2026-read-race): interleaving 0 is where
  // such a read, not marked superseded (core/state.ts markSuperseded, core/ttl.ts invalidateOnUpdated), is accepted
  // as fresh and served before the re-read's answer (read_your_notification).
  ['era2026-read-race', 0, 2],
  // a revocation learned from a fast feed while a read answered before it is still on the way (scenarios/catalog.ts
  // revocation-race): interleaving 0 is where a client that does not remember the revocation (core/draft-ledger.ts
  // putRevoked, core/authorization.ts learnRevocation) accepts that answer and serves it (served_after_revocation).
  ['revocation-race', 0, 2],
  // era-both beyond [0, 6) (scripts/mutation-survivors.mts over swarm, era-both and era2026-swarm at 220 interleavings):
  // 26 is the first that kills two core/era.ts survivors, 42 three of core/reducer-sessions.ts, reducer-timers.ts and
  // authorization.ts.
  ['era-both', 26, 1],
  ['era-both', 42, 1],
  // a new connection while the client believes the old one is up (scenarios/catalog.ts unannounced-disconnect):
  // interleaving 0 fails a client that ignores it (old_session_effect) or does not end the old session first
  // (core/reducer-sessions.ts onConnected: its reads wedge, healed_convergence).
  ['unannounced-disconnect', 0, 1],
  // a server without the resources capability (scenarios/catalog.ts no-resources-capability): interleaving 0 fails a
  // client that takes a subscribe or discover command silently (core/reducer.ts refusedForCapability; command_not_refused)
  // or refuses one and takes it too (bound_unkeepable); 2 the first where a subscribe taken while a restarted client did
  // not know the server yet is started at its connection (core/reducer-sessions.ts onConnected's capability test).
  ['no-resources-capability', 0, 3],
  // 3: the first multi-page-lost-notifications interleaving that confirms a deletion: its outbox delete entry must
  // remove exactly the URI's derived entries (core/authorization.ts writeDeletion; outbox_lineage_broken).
  ['multi-page-lost-notifications', 3, 1],
  // 70: the first era2026-swarm interleaving that kills a core/ttl.ts survivor (found by the same re-judge).
  ['era2026-swarm', 70, 1],
  // core/reducer-notifications.ts and duplicates.ts (mutation-survivors.mts under larger gates):
  // era-both 91: the first where an updated of an ended 2026-07-28 connection reaches the client (notification_unrecorded:
  // the OLD_SESSION_NOTIFICATION audit must name its URI). 57: the first where an updated that reaches a READ_PENDING
  // resource already dirty must not re-arm its hedge later (notified_unread). client-crash 24: the first where an updated
  // that reaches a TOMBSTONE_PENDING resource with a read in flight must mark it dirty (notified_unread).
  ['era-both', 91, 1],
  ['era-both', 57, 1],
  ['client-crash', 24, 1],
  // duplicate-storm [3, 200): notified_unread on a server seen to duplicate (a pulse no read sent within coalesceWindowMs
  // covers: 20 is the first where a client that coalesces outside its window leaves one unread), and read_amplification
  // over 200 interleavings (the reference 0.874; a client that reads every pulse of a window 1.226, fails < 1.2).
  ['duplicate-storm', 3, 197],
  // lost-unsubscribe-ack 82: the first where a late unsubscribe ACK (late-unsubscribe-ack) reaches a subscription its
  // retry's ACK already closed (core/reducer-responses.ts onUnsubscribeResponse must ignore it: CLOSED has no such move).
  ['lost-unsubscribe-ack', 82, 1],
  // read-errors (scenarios/server-trouble.ts): reads answered with transient errors; a read that brought nothing to take
  // must be made again (core/reducer-responses.ts retrySoon; notified_unread). Found by scripts/mutation-survivors.mts
  // over the session-15 Stryker batch of reducer-responses.ts: [0, 3) kills 14 survivors (2: the first where a failed
  // read is never retried), 58 four, 166 two (a failed newest read behind an older one on its way must mark the URI dirty).
  ['read-errors', 0, 3],
  // (Five interleavings around each: the part's verdict also weighs read_amplification, and 58 alone reads 1.2 per change.)
  ['read-errors', 55, 5],
  ['read-errors', 163, 5],
  // malformed-read-response 171: the first where an answer broken by construction (a rejection, not an error) must be
  // followed by a read (retrySoon for 'rejected').
  ['malformed-read-response', 171, 1],
  // malformed-acks: subscribe/unsubscribe answers whose result is not an object (malformed_response_unrejected); [0, 3)
  // kills 7 survivors (core/reducer-responses.ts brokenAck and its callers).
  ['malformed-acks', 0, 3],
  // subscription-errors: subscribe/unsubscribe answered with transient errors, the server not acting on them
  // (server_subscription_kept): an error or an older generation's answer taken for an unsubscribe ACK.
  ['subscription-errors', 0, 16],
  // 6623: the first where an unsubscribe's error answer, arriving after the application re-subscribed during the close,
  // must leave the URI's unsubscribeOwed set (core/reducer-responses.ts onUnsubscribeResponse): the new subscribe fails
  // and the close from RECONCILIATION_REQUIRED must still unsubscribe.
  ['subscription-errors', 6623, 1],
  // 1282: the first where a re-subscribe during a close whose unsubscribe ACK is unknown (UNSUBSCRIBE_UNKNOWN) must mark
  // the URI's unsubscribe owed (core/reducer.ts onSubscribeCommanded), or the server keeps it (server_subscription_kept).
  // close-race 33: the first where a URI with an unsubscribe owed is closed again before its new subscribe is answered:
  // only a close from RECONCILIATION_REQUIRED, connected, pays the owed unsubscribe (core/fence.ts beginUnsubscribe; the
  // table has no unsubscribe_owed edge from SUBSCRIBING, so a looser test throws).
  ['subscription-errors', 1282, 1],
  ['close-race', 33, 1],
  // core/reducer-timers.ts, reducer-sessions.ts, reducer.ts, reducer-notifications.ts (session 16): slow-server
  // (scenarios/server-trouble.ts, reads up to 12 s late): interleaving 0 is where a client whose 2025-11-25 hedge
  // never reads again while a slow read is on its way (core/reducer-timers.ts hedge test) leaves news unread
  // (notified_unread).
  ['slow-server', 0, 1],
  // 5: the first where news reaches a resource already dirty (TOMBSTONE_PENDING there) with its read on the way and no hedge
  // armed (core/reducer-notifications.ts armHedgeIfNone; core/reducer-timers.ts, the hedge's TOMBSTONE_PENDING read):
  // without the hedge the news waits for the slow read (notified_unread).
  ['slow-server', 5, 1],
  // repeated-inputs (scenarios/server-trouble.ts: Connected, subscribe and unsubscribe handed twice, unsubscribe ACKs
  // mostly lost, connections dropping): 0 is where a client that restarts a session handed again (core/reducer-sessions.ts
  // onConnected) or a subscription asked for again (core/reducer.ts onSubscribeCommanded) fails, 10 the first where a
  // session ends with an unsubscribe's ACK unknown (core/reducer-sessions.ts sessionLost must close it: close_record_untrue).
  ['repeated-inputs', 0, 1],
  ['repeated-inputs', 10, 1],
  // core/era.ts and core/listen.ts (session 16, scripts/mutation-rejudge-s16/): era2026-malformed-input (scenarios/era2026.ts)
  // hands a 2026-07-28 client the era's hostile inputs (sim/actors/hostile-inputs-2026.ts). [0, 3): 0 is the first with
  // subscription ids that are not ids (core/era.ts subscriptionIdOf; malformed_input_not_inert), malformed updated params
  // on a listen connection (core/listen.ts routeListenNotification's rejection) and acks whose notifications is no
  // object (routeAck, honoredUris; malformed_input_accepted); 1 the first Connected.era of no revision and the first ack
  // honoring nothing spelled two ways; 2 the first era text of no revision (checkEra shows it quoted). 32: the first era
  // text too long to show whole (checkEra's cut).
  ['era2026-malformed-input', 0, 3],
  ['era2026-malformed-input', 32, 1],
  // era2026-listen-ends 13: the first where a URI polled after a narrowed ack is read at the reconciliation period and
  // its lease kept that long (core/era.ts isPolling on 2026-07-28 without its listen test): served_beyond_bound.
  ['era2026-listen-ends', 13, 1],
  // (notification_unrecorded on 2026-07-28, an updated naming no live acknowledged listen of its URI left without its
  // LISTEN_MISMATCH audit, needs no part of its own: era-both 3 and era2026-swarm 2, already in the gate, kill
  // core/listen.ts mismatch's audit emitted as {}, routeListenNotification's id test and its before-the-ack test.)
  // quiet-slow-reads (scenarios/era2026.ts): a client whose leases follow the polling bound under a published
  // subscription bound refuses fresh content while a slow read is on its way (refused_fresh). 0 (2025-11-25) is the
  // first that kills core/era.ts isPolling taking the 2026 rule in 2025 (a subscribed URI without a subscribe in flight
  // counted as polled), 5 (2026-07-28) the first that kills it counting every watched URI as polled. [0, 6) as one part:
  // 0 alone misses the read_amplification gate (1.5 reads per change: a metric of one quiet interleaving).
  ['quiet-slow-reads', 0, 6],
  // era2026-swarm 397: the first where an unsubscribe of a polled 2026-07-28 URI (no listen) has a read of it in flight:
  // a listenOf that takes any request of the URI for its listen (core/era.ts, the kind test dropped) cancels that read
  // as a listen, its permission error then comes unknown and the client serves after the revocation (served_after_revocation).
  ['era2026-swarm', 397, 1],
  // core/scan.ts (scan_record_untrue, sim/checkers/scan-record.ts): listing-edges (list-page-edge) serves a transient
  // list error, a 2025 empty-string nextCursor, a null result, a 300-page pass and a snapshot ID exactly as long as a
  // ledger text, and its first discovery only at 4 s; [0, 6): 0 kills 20 survivors of scan.ts (the abandonment reasons
  // of onListPage and parsePage, the page limit, the pass labels of startPass, and onListChanged arming no timer when
  // none is armed: a list_changed before any discovery, list_changed_unscanned), 5 is the first with the long ID on a
  // negotiated pass (a `>=` length test rejects it). About 150 interleavings/s plain.
  ['listing-edges', 0, 6],
  // list-index-lag (scenarios/discovery.ts): a live list index that shows re-created resources 5-15 s late, so an A/B
  // catalog can miss a resource that exists; 3 is the first where a client that confirms a deletion from such a
  // catalog (core/scan.ts publish's `confirming` test widened: three survivors) confirms one of a live resource
  // (late_tombstone).
  ['list-index-lag', 3, 1],
  // catalog-outage (scenarios/server-trouble.ts): one discovery, then 25-45 s outages across the proven catalog's review
  // time; 0: a client that re-arms the review timer on reconnect for the earlier of the review time and now (core/scan.ts
  // resumeDiscovery: a deadline in the past never fires) never reviews the catalog again (healed_catalog).
  ['catalog-outage', 0, 1],
  // core/authorization.ts (session 16): multi-page-lost-notifications 120 is the first that confirms the deletion of a
  // resource whose lineage is empty (no version accepted since the last delete): writeDeletion's `previous === undefined`
  // branch, whose delete entry must name no entries and no digest (outbox_lineage_broken).
  ['multi-page-lost-notifications', 120, 1],
  // core/recovery.ts (session 16): swarm 1358 is the first where the client crashes with a subscription in
  // UNSUBSCRIBE_UNKNOWN (its unsubscribe ACK lost): recovery must close it, as the session it was closing on ended
  // (close_record_untrue; swarm [0, 12) above already has one in UNSUBSCRIBING, at 2).
  ['swarm', 1358, 1],
  // core/state.ts forgetSession (session 17's sampled re-judge of the Stryker kills): swarm 3 killed a session end that
  // keeps the old session's requests and timers until session 16's hedge changes; 39 is the first that still does (a
  // resource never converges after the heal: healed_convergence).
  ['swarm', 39, 1],
  // multi-page-lost-notifications 84 (the same re-judge): the first where an updated reaches a TOMBSTONE_PENDING
  // resource with its tombstone check on the way; a client that opens a debounce window there instead (core/
  // reducer-notifications.ts, the TOMBSTONE_PENDING test inverted) is in UPDATE_SEEN when the read is answered (it throws).
  ['multi-page-lost-notifications', 84, 1],
]

const rootSeed = 1;
/** What fails one interleaving in the real gate (sim/gate-verdict.ts verdictOf): a safety or a failing liveness invariant. */
const failingNames = [...safetyInvariants, ...failingLivenessInvariants];

/** The first failure of interleavings [start, start + count) of one scenario (default client: the reference), or null when the part passes. */
export function mutationGateFailure(name: string, start: number, count: number, client: ClientUnderTest<any> | undefined = findClient('reference')): string | null {
  const scenario = findScenario(name);
  if (scenario === undefined || client === undefined) return `no scenario ${name} or no client`;
  const accumulator = new GateAccumulator({ seed: rootSeed, interleavings: count, scenario: name, client: 'reference', maxFailures: 1 });
  for (let index = start; index < start + count; index++) {
    const seed = deriveSeed(rootSeed, index);
    const result = runInterleaving(seed, scenario, client, { trace: false, record: false });
    accumulator.add(index, result);
    const failed = failingNames.find((invariant) => result.oracle.counts[invariantIndex[invariant]]! > 0);
    if (failed !== undefined) return `${name} interleaving ${index} (seed ${seed}): ${failed}`;
  }
  const verdict = verdictOf(accumulator, scenario);
  return verdict.passed ? null : `${name}: ${verdict.reasons.join('; ')}`;
}

/**
 * scenario, interleaving indexes: the determinism self-check (sim/determinism.ts checkOne) as the real gate runs it
 * on its sample (which always holds interleaving 0). Its second run steps the pure `step` on deep-frozen states
 * while the gate's own runs step the owned twin (core/step-owned.ts), so a copy-on-write slip of core/draft-ledger.ts
 * or core/state.ts (a container or record taken as this step's own copy while the caller still holds it, a copy
 * that is not kept) fails here and nowhere else. client-crash adds recovered states, era-both the 2026 listen
 * state and catalogs.
 */
export const mutationSelfCheckParts: readonly (readonly [scenario: string, indices: readonly number[]])[] = [
  ['swarm', [0, 1, 2, 3]],
  ['era-both', [0, 1]],
  ['client-crash', [0]],
  // 2026-07-28 alone: reads superseded by an updated and abandoned at the read deadline (core/state.ts replaceRequests).
  ['era2026-swarm', [0, 1, 2, 3]],
  ['era2026-broken-stream', [42]],
];

/** The first mismatch of the self-check on those interleavings, or null. */
export function mutationSelfCheckFailure(name: string, indices: readonly number[], client: ClientUnderTest<any> | undefined = findClient('reference')): string | null {
  const scenario = findScenario(name);
  if (scenario === undefined || client === undefined) return `no scenario ${name} or no client`;
  for (const index of indices) {
    const mismatch = checkOne(index, deriveSeed(rootSeed, index), scenario, client);
    if (mismatch !== null) return `${name} interleaving ${index} self-check (seed ${mismatch.seed}): line ${mismatch.line}: ${mismatch.first.trim()} / ${mismatch.second.trim()}`;
  }
  return null;
}

/**
 * The library export sameResource (core/uri.ts, index.ts: for clients written against the SDK, such as
 * examples/fixed-kb/client.mjs), which the reference client never calls, so no scenario reaches it: judged against the
 * uri-shapes table (scenarios/uri-shapes.ts, the truth written by hand, never asked of core/uri.ts). Every name of a
 * resource (its canonical form and each spelling) is the same resource as its canonical form, in either order, and as
 * no other resource of the table; a non-URI is the same resource as nothing, itself included. The first disagreement,
 * or null. `same` is the function judged (mutation-survivors.mts passes a planted copy's).
 */
export function sameResourceFailure(same: (a: string, b: string) => boolean = sameResource): string | null {
  for (const [index, resource] of uriShapeResources.entries()) {
    for (const name of [resource.uri, ...(resource.spellings ?? [])]) {
      for (const [otherIndex, other] of uriShapeResources.entries()) {
        const expected = otherIndex === index;
        if (same(name, other.uri) !== expected) return `sameResource(${quote(name)}, ${quote(other.uri)}) is not ${expected}`;
        if (same(other.uri, name) !== expected) return `sameResource(${quote(other.uri)}, ${quote(name)}) is not ${expected}`;
      }
    }
  }
  const anyUri = uriShapeResources[0]!.uri;
  for (const nonUri of nonUris) {
    for (const [a, b] of [[nonUri, nonUri], [nonUri, anyUri], [anyUri, nonUri]] as const) {
      if (same(a, b)) return `sameResource(${quote(a)}, ${quote(b)}) is not false: ${quote(nonUri)} is not a URI`;
    }
  }
  return null;
}

/** A URI for a failure line: JSON-quoted, long ones cut. */
function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}... (${text.length} characters)` : text);
}
