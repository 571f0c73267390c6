/** The invariants of the release gate (SPEC §6): names, order (report and accumulator index), meaning. */

export const safetyInvariants = [
  'version_regression',
  'accept_when_not_active',
  'post_close_outbox',
  'late_tombstone',
  'unreconciled_catalog',
  'unproven_completeness',
  'old_session_effect',
  'served_after_revocation',
  'untraced_derived_entry',
  'uri_confusion',
  'fence_lost_after_crash',
  'served_outside_lease',
  'served_not_found',
  // 2026-07-28 (sim/checkers/era2026-*.ts)
  'phantom_watch',
  'read_your_notification',
  'ttl_staleness',
  'monotonic_reads',
  'scope_isolation',
  // SPEC §3.4, §3.6 enforced against the truth (sim/checkers/catalog-ab.ts, catalog-truth.ts, task-age.ts, server-subscriptions.ts)
  'catalog_ab_unsettled',
  'catalog_untrue',
  'task_catalog_expired',
  'server_subscription_kept',
  'served_beyond_bound',
  // availability (sim/checkers/availability.ts)
  'refused_fresh',
  // 2026-07-28 catalog hints judged from below (sim/checkers/era2026-catalog-hints.ts)
  'catalog_hint_narrowed',
  // SPEC §3.3, §3.4: a read answer fenced off still leaves a receipt or an audit (sim/checkers/answers.ts)
  'answer_unrecorded',
  // SPEC §11: a read answer that breaks the schema is a typed rejection (sim/checkers/answers.ts)
  'malformed_read_accepted',
  // SPEC §3.5: no resources/subscribe or unsubscribe where the server offers none (sim/checkers/offered.ts)
  'request_not_offered',
  'command_not_refused',
  'reappeared_reread',
  // SPEC §3.6, the converse of the catalog checks: a proof or a task a client owes (sim/checkers/catalog-decisions.ts)
  'proven_withheld',
  'completeness_refused',
  'cursor_misused',
  'list_changed_unscanned',
  // SPEC §3.3: a notified change is read, coalesced but never dropped (sim/checkers/notification-reads.ts)
  'notified_unread',
  // SPEC §11: a read answer is rejected as what breaks it, a well-formed one never (sim/checkers/answers.ts)
  'read_answer_misjudged',
  // SPEC §11: an input with a malformed field is a typed rejection naming it, and changes nothing (sim/checkers/inputs.ts)
  'malformed_input_accepted',
  'malformed_input_not_inert',
  // SPEC §3.2, §3.5: a subscribe command on a connection that offers subscribe sends one (sim/checkers/offered.ts)
  'subscribe_unsent',
  // SPEC §3.7, §14: the outbox applied as the downstream index applies it (sim/checkers/outbox-lineage.ts)
  'outbox_lineage_broken',
  // SPEC §3.4: a close is reported once, truthfully (sim/checkers/close-record.ts)
  'close_record_untrue',
  // SPEC §13: a lost watch the application still wants is listened for again (sim/checkers/era2026-renewal.ts)
  'watch_not_renewed',
  // SPEC §3.4: an unsubscribe's ACK closes it; no retry follows (sim/checkers/unsubscribe-acks.ts)
  'unsubscribe_after_ack',
  // SPEC §3.5: a notification of an ended session, or of a URI no one subscribed, is audited (sim/checkers/notification-records.ts)
  'notification_unrecorded',
  // SPEC §3.5, the converse of server_subscription_kept: a wanted resource's subscription is restored (sim/checkers/subscription-held.ts)
  'server_subscription_missing',
  // SPEC §11: a response whose id is not a positive integer is a typed rejection (sim/checkers/answers.ts)
  'malformed_response_unrejected',
  // SPEC §4: every effect is plain data of its type's documented shape (sim/checkers/effect-shape.ts)
  'effect_malformed',
  // SPEC §3.5: no staleness bound is promised where nothing can be read (sim/checkers/offered.ts)
  'bound_unkeepable',
  // SPEC §3.6: the client's record of its scans (ScanStarted, ScanAbandoned) says what happened to them (sim/checkers/scan-record.ts)
  'scan_record_untrue',
  // core/effects.ts RequestSent: a request's record says what it is (sim/checkers/offered.ts)
  'request_record_untrue',
] as const;
export type SafetyInvariant = (typeof safetyInvariants)[number];

/**
 * Liveness invariants. `healed_convergence`, `healed_deletion` (sim/checkers/deletion.ts) and `healed_catalog`
 * (sim/checkers/catalog-liveness.ts) fail the interleaving (and so the gate) like a safety violation;
 * `convergence_60s` is judged as a ratio over all changes (the metric of the same name).
 */
export const livenessInvariants = ['convergence_60s', 'healed_convergence', 'healed_deletion', 'healed_catalog'] as const;
export type LivenessInvariant = (typeof livenessInvariants)[number];
export type InvariantName = SafetyInvariant | LivenessInvariant;

export const invariantExplanations: Record<InvariantName, string> = {
  version_regression: 'the client accepted content older than a version it had already accepted for this resource',
  accept_when_not_active: 'the client accepted a version, tombstone or outbox entry for a subscription that was closing, closed, or from a session that had ended',
  post_close_outbox: 'the client wrote a downstream outbox entry for a URI whose subscription was closing or closed',
  late_tombstone: 'the client tombstoned a resource from a not-found older than an accepted version, or after close',
  unreconciled_catalog: 'the client published a catalog as complete without proof, or from a single scan',
  unproven_completeness: 'a completeness task consumed a catalog that was only SNAPSHOT_UNPROVEN',
  old_session_effect: "the client read, accepted or wrote an outbox entry because of an old session's notification, or sent a request on a session it had been told had ended",
  served_after_revocation: 'the client served content to a subject after it had learned of the revocation',
  untraced_derived_entry: 'a derived index entry of revoked content was left without an invalidation',
  uri_confusion: 'the client accepted content for a URI from a response or notification for a non-equivalent URI',
  fence_lost_after_crash: 'after a crash the client accepted a pre-crash read, or a watermark went backwards',
  served_outside_lease: 'the client served cached content after the authorization lease of its last accepted read had ended',
  served_not_found: 'the client served cached content after the server answered a newer read of it with not-found',
  phantom_watch: '2026-07-28: the client claimed a URI watched without a live listen acknowledged with it on the current connection',
  read_your_notification: '2026-07-28: after processing an updated of a live acknowledged listen, the client served content older than the version it announced',
  ttl_staleness: '2026-07-28: while unwatched, the client served content older than the truth at now minus its ttlMs minus the read round trip',
  monotonic_reads: '2026-07-28: the client served a subject an older version of a resource than it had already served that subject',
  scope_isolation: '2026-07-28: the client served content the server marked cacheScope private to a subject other than the one it was read for',
  catalog_ab_unsettled: 'the client published an A/B catalog although a list_changed arrived during one of its two passes, or the passes really served different listings',
  catalog_untrue: 'a published SNAPSHOT_PROVEN catalog matched no listing the truth went through between its measured time and its publication',
  task_catalog_expired: "a completeness task was accepted on a catalog older (from when its listing was really taken) than the catalog's published staleness bound, or past its review time",
  server_subscription_kept: 'the server kept a subscription the application had given up, and the client sent no unsubscribe for longer than its ACK timeout plus one reconciliation period',
  served_beyond_bound: 'the client served content older (since the truth moved past it) than the staleness bound it published for the resource, or content it never accepted',
  refused_fresh: 'the client refused (or answered with nothing) a serve of content that was, by ground truth, current, authorized for that subject and well within its lease and staleness bound, read on the current session with no update, not-found, crash or session change since',
  catalog_hint_narrowed: '2026-07-28: a catalog was published with a shorter ttlMs, or as private, than every page of every pass it can rest on (the aggregate is the shortest page TTL, and private only when a page was)',
  answer_unrecorded: 'the client received the answer (content or not-found) to a read it sent on the current session and left no record of it: no version accepted, no tombstone, no stale receipt, no audit, no rejection; or (step clients) it answered a serve command with neither content served nor a refusal',
  malformed_read_accepted: 'the client accepted content, or pended a tombstone, from a resources/read answer that breaks the schema (contents not an array or empty, an item without a string uri or body, a bad blob or mimeType): SPEC §11 makes it a typed rejection',
  request_not_offered: 'the client sent resources/subscribe or resources/unsubscribe on a connection that offers neither (a 2025-11-25 server that did not declare resources.subscribe, or a 2026-07-28 connection), or any request to a server that declared no resources capability',
  outbox_lineage_broken: "the client's outbox, applied as a downstream index applies it, leaves an older version's entries live, names entries it never traced or the index does not hold, confirms a deletion without a delete entry, or does not raise its sequence",
  close_record_untrue: 'a move to CLOSED without exactly one SubscriptionClosed in its step (or one without the move), or a SubscriptionClosed whose closeOrdinal is not the last read ordinal issued for the URI, or whose closeEpoch is not a fresh positive integer above the URI\'s previous one',
  command_not_refused: 'a subscribe or discover command reached the client on a server that declared no resources capability, and it did not refuse it (CapabilityMissing): the application is never told its watch or listing cannot work',
  reappeared_reread: 'a wanted resource the client held tombstoned, which the truth had re-created, was listed by two catalogs and the client sent no read of it since the re-creation (a URI that reappears is re-read)',
  proven_withheld: 'a list pass the client received in full was served from one real snapshot under the negotiated snapshot ID, and the client did not publish it as SNAPSHOT_PROVEN in that step',
  completeness_refused: 'a commanded completeness task was not decided in its step (or one was decided without a command), or was refused while the latest catalog was an honest SNAPSHOT_PROVEN before its published review time',
  cursor_misused: 'the client sent resources/list with a cursor the server never sent as a nextCursor (not sent back exactly as received), or with one already sent in the same pass (a cursor cycle followed instead of abandoning the pass)',
  list_changed_unscanned: 'a list_changed reached the client while none of its passes ran, and its next pass on that session began later than its declared listChangedDebounceMs',
  notified_unread: "an update notification reached the client on its current connection for a resource the application wants (2026-07-28: of the live listen acknowledged with it), and the client sent no read of that resource within 5 s after it (before a 2025-11-25 server was seen to duplicate a notification)",
  read_answer_misjudged:
    'the client rejected a resources/read answer as another kind of break than the one the server made (or recorded no rejection, receipt or audit for it), or rejected a well-formed answer (a base64 blob, no mimeType, a mimeType of exactly the longest length kept, the requested item after another, a not-found spelled -32602, an error): SPEC §11',
  malformed_input_accepted:
    'the client took a step input with one malformed field (a time, session number, timer, capability, subject, flag, task, command URI, response id or envelope, notification method or params) as valid: the step did more than record a typed rejection naming the field and showing what it got; or it did anything at all with a valid input that must change nothing (a timer firing at a deadline never armed, a session end of a session not current, a grant to a subject never revoked): SPEC §11',
  malformed_input_not_inert:
    'after a malformed (or inert) input, the client answered the next real input differently than it would have without it: the malformed input changed its state (SPEC §11: the state is returned unchanged), or an equivalent spelling of a real input (capabilities without resources: true, an updated notification with extra params) was answered differently than the input itself, or two spellings of one input (a subscribe without a subject and one for the subject default; sub-capabilities with and without a resources capability that is false) differently from each other',
  subscribe_unsent:
    'the client was commanded to subscribe a resource while connected to a 2025-11-25 server that declared resources.subscribe, and sent no resources/subscribe for it in that step (it polls only without the capability: SPEC §3.5)',
  bound_unkeepable: 'the client published a staleness bound (StalenessBoundPublished) on a connection whose server declared no resources capability: it promises reads it cannot send',
  effect_malformed: 'the client returned an effect that is not plain data of its documented shape (core/effects.ts): not an object, of no known type, or without a field its type requires (a string, a finite number, a boolean, an array, an object, or one of a closed set of values): the host cannot carry it out or record it',
  watch_not_renewed: '2026-07-28: a listen acknowledged with a resource the application still wants ended on the current connection (completed, its stream closed, or cancelled by the client), and the client sent no new subscriptions/listen of it within its subscribeRetryMs plus its listen ack deadline (7 s by default)',
  unsubscribe_after_ack: "the client sent resources/unsubscribe for a resource after the server's success answer (ACK) to an unsubscribe of it, sent since the application last gave it up, had reached the client on the same session, with no new subscribe or unsubscribe command since",
  notification_unrecorded: "a resources/updated delivered on an ended session left no OLD_SESSION_NOTIFICATION audit naming its resource and no rejection in the step that handled it, or one of a URI no one subscribed left no audit and no rejection, or one whose uri is not a URI no rejection, or (2026-07-28) one whose tag names no live acknowledged listen of its resource (no id, another listen's, before the ack, after the end) no audit naming its resource and no rejection, or an ack honoring a URI its listen did not ask for no audit and no rejection",
  server_subscription_missing: 'on a live 2025-11-25 session whose server declared subscribe, the server held no subscription of a resource the application wants (and may read), and the client sent no resources/subscribe of it for longer than two subscribe retries plus one reconciliation period',
  malformed_response_unrejected: 'the client received a response whose id is not a positive integer (a copy of a read answer: malformed-response-id), or a subscribe/unsubscribe answer whose result is not an object (malformed-ack), and left no typed rejection (MalformedResponse for the latter) in that step, or took the latter for an acknowledgement, or rejected a well-formed error answer to subscribe/unsubscribe: SPEC §11 makes a broken response a typed rejection',
  scan_record_untrue:
    "a claimed client's scan record was untrue: a ScanStarted labelled other than SNAPSHOT (snapshot IDs negotiated), B (right after a complete pass that published nothing) or A; a scan started over a running one or a ScanAbandoned naming another; or the answer to a pass's page request not given its fate in its step (an error abandons as CURSOR_INVALID for -32602 or LIST_ERROR; a page the server broke is a MalformedListPage rejection and abandons as that break; a repeated nextCursor as CURSOR_CYCLE; a well-formed page abandons nothing before scanPagesMax pages)",
  request_record_untrue: "a step client's RequestSent record did not say what its request is: a resources/read without its reason, read ordinal (a positive integer) or subject, another method with any of those read-only fields, or a method other than resources/list with a cursor, or a read for reason tombstone-check or reappeared of a URI its own last move did not leave TOMBSTONE_PENDING",
  convergence_60s: 'a change to a continuously subscribed resource was not reflected in the accepted content within 60 s',
  healed_convergence: 'after the faults healed, a wanted resource did not reflect its truth within the staleness bound the client published for it (plus settling time)',
  healed_deletion: 'after the faults healed, a wanted resource deleted in the truth was not confirmed deleted (TombstoneConfirmed) by a client that publishes proven catalogs within its staleness bound plus two catalog reviews (plus settling time), or was served after that',
  healed_catalog: 'after the faults healed, a client that claims catalogs and was asked to discover published no catalog of the healed listing (equal to the truth at its measured time) within its catalogReviewMs (plus settling time)',
};

/** Liveness invariants whose violation fails the interleaving, as a safety violation does. */
export const failingLivenessInvariants: readonly LivenessInvariant[] = ['healed_convergence', 'healed_deletion', 'healed_catalog'];

/** Which checker (sim/checkers/*) judges which invariants: reports show checked / violated per checker. */
export const checkerFamilies: Record<string, readonly InvariantName[]> = {
  versions: ['version_regression', 'late_tombstone'],
  close: ['accept_when_not_active', 'post_close_outbox'],
  sessions: ['old_session_effect'],
  uris: ['uri_confusion'],
  convergence: ['convergence_60s', 'healed_convergence'],
  catalog: ['unreconciled_catalog', 'unproven_completeness'],
  revocation: ['served_after_revocation', 'untraced_derived_entry'],
  serving: ['served_outside_lease', 'served_not_found'],
  crash: ['fence_lost_after_crash'],
  listen: ['phantom_watch'],
  era2026Notification: ['read_your_notification'],
  era2026Ttl: ['ttl_staleness'],
  era2026Monotonic: ['monotonic_reads'],
  era2026Scope: ['scope_isolation'],
  era2026CatalogHints: ['catalog_hint_narrowed'],
  'catalog-ab': ['catalog_ab_unsettled'],
  'catalog-truth': ['catalog_untrue'],
  'task-age': ['task_catalog_expired'],
  'server-subscriptions': ['server_subscription_kept'],
  'staleness-bound': ['served_beyond_bound'],
  availability: ['refused_fresh'],
  answers: ['answer_unrecorded', 'malformed_read_accepted', 'read_answer_misjudged', 'malformed_response_unrejected'],
  inputs: ['malformed_input_accepted', 'malformed_input_not_inert'],
  offered: ['request_not_offered', 'subscribe_unsent', 'command_not_refused', 'bound_unkeepable', 'request_record_untrue'],
  'unsubscribe-acks': ['unsubscribe_after_ack'],
  'notification-records': ['notification_unrecorded'],
  'subscription-held': ['server_subscription_missing'],
  deletion: ['healed_deletion'],
  reappearance: ['reappeared_reread'],
  'catalog-liveness': ['healed_catalog'],
  'catalog-decisions': ['proven_withheld', 'completeness_refused', 'cursor_misused', 'list_changed_unscanned'],
  'notification-reads': ['notified_unread'],
  'outbox-lineage': ['outbox_lineage_broken'],
  'close-record': ['close_record_untrue'],
  'scan-record': ['scan_record_untrue'],
  era2026Renewal: ['watch_not_renewed'],
  'effect-shape': ['effect_malformed'],
};

export const invariantIndex: Record<InvariantName, number> = Object.fromEntries(
  [...safetyInvariants, ...livenessInvariants].map((name, index) => [name, index]),
) as Record<InvariantName, number>;

export const allInvariants: readonly InvariantName[] = [...safetyInvariants, ...livenessInvariants];
