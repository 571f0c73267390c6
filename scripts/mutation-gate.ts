// The fixed mutation gate (see mutation-gate.spec.ts, which Stryker runs): its parts and the judge of one part.
// Also used by scripts/mutation-survivors.mts to re-judge survivors under a larger gate.
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { findClient } from '../scenarios/clients.js';
import { GateAccumulator, verdictOf } from '../sim/gate.js';
import { failingLivenessInvariants, invariantIndex, safetyInvariants } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';

export type MutationGatePart = readonly [scenario: string, start: number, interleavings: number];

/**
 * scenario, first interleaving index, interleavings: the fixed gate. Sized for Stryker's instrumented code
 * (about 6x slower than plain): about 90 interleavings, 15-20 s per surviving mutant on this shared machine.
 */
export const mutationGateParts: readonly MutationGatePart[] = [
  // uri-shapes (scenarios/uri-shapes.ts): the canonicaliser (core/uri.ts, uri-chars.ts) on URIs no other scenario
  // sends. Its listing takes one-page passes in turn, no draw, so interleaving 0 alone lists each of the 100 spellings
  // next to its resource (one not normalised: unreconciled_catalog), each of the 110 non-URIs (one accepted:
  // unreconciled_catalog) and every resource under each of its spellings in ~80 honest passes (a conflation or a wrong
  // rejection: proven_withheld; a changed canonical form: catalog_untrue), notifications and read results spelled
  // too (uri-spelling). First in the gate: most mutants of those two files fail only here, and a mutant runs the parts
  // in order until one fails (placed last, each paid the whole gate first). One interleaving: ~1 s plain, the table's
  // coverage does not grow with more.
  ['uri-shapes', 0, 1],
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
  // the reads, a kind drawn each time, so [0, 4) serves every kind (3 the first with a blob that is not base64 since
  // malformed-response-id joined the plan); an accept from one fails malformed_read_accepted, taking another
  // resource's item fails uri_confusion, a response id not rejected malformed_response_unrejected. 9: the first where
  // a READ_PENDING resource whose read was rejected must settle (core/reducer-responses.ts settleReads; notified_unread).
  ['malformed-read-response', 0, 4],
  ['malformed-read-response', 9, 1],
  // notified_unread (sim/checkers/notification-reads.ts), for core/listen.ts, reducer-notifications.ts, duplicates.ts:
  // 42: an updated while a read is lost on a broken stream and the read deadline was armed late (core/listen.ts
  // armReadDeadline must bring an armed later deadline forward).
  ['era2026-broken-stream', 42, 1],
  // 138: the first where a reference that counts raced no-news reads as duplicate evidence (core/duplicates.ts
  // raceWithAnswer always false) learns duplication on a server that never duplicates and leaves a notified change
  // unread (notified_unread; 36 of 3,000 such interleavings at root seed 1).
  ['malformed-list-page', 138, 1],
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
