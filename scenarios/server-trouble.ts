/**
 * Scenarios of a server in trouble for a while, each the only one to draw its fault (the swarms never do): a long
 * outage (long-outage), reads failing with transient errors (read-error), acknowledgements that are no objects (malformed-ack),
 * subscribes and unsubscribes failing with transient errors (subscription-error), reads far slower than the
 * notified-read bound (slow-server), and a host that hands inputs twice (repeated-inputs).
 */
import { ratio } from '../sim/faults.js';
import type { Scenario } from './scenario.js';
import { catalogResources, discoveryWorkload, plan, servingWorkload, workload } from './shape.js';
import { defaultNetwork, defaultServer } from '../sim/plan.js';

/**
 * Outages longer than the authorization lease and the reconciliation period (long-outage: a partition, a deploy):
 * the client has no connection for 25-45 s while the application goes on serving, subscribing and closing. Content
 * whose lease ended must not be served (served_outside_lease); nothing may be sent while there is no connection (the reconciliation, lease and resubscribe timers fire then:
 * old_session_effect); after the reconnect every wanted resource converges (healed_convergence). Swarms never draw it.
 */
export const longOutage: Scenario = {
  name: 'long-outage',
  description: 'outages of 25-45 s: leases run out and timers fire while the client has no connection; serving, subscribing and closing go on',
  targets: ['served_outside_lease', 'old_session_effect', 'convergence_60s', 'healed_convergence'],
  catches: ['naive-no-resubscribe'],
  sometimes: ['disconnect', 'long-outage'],
  plan: (chooser) => {
    const faultPhaseMs = chooser.between('workload', 'long fault phase', 60_000, 120_000);
    const faults = { disconnect: ratio(1, 20), 'server-restart': ratio(1, 40), 'long-outage': ratio(3, 4) };
    return plan(faults, { ...workload(chooser, { ...servingWorkload, closeRatio: ratio(1, 6), closeTickMs: 4_000, resubscribeDelayMsMax: 8_000 }), faultPhaseMs });
  },
};

/**
 * One discovery at the start (none after), snapshot IDs negotiated, and outages of 25-45 s: the proven catalog's
 * review timer lives in the session's volatile state, so a reconnect after its review time must review it at once
 * (core/scan.ts resumeDiscovery arms the timer for the later of the review time and now; a timer armed in the past
 * never fires), and after the heal a catalog of the healed listing still comes within the review period
 * (healed_catalog). Swarms never draw long-outage.
 */
export const catalogOutage: Scenario = {
  name: 'catalog-outage',
  description: 'one discovery, then outages of 25-45 s across the proven catalog\'s review time: the catalog must still be reviewed, and one of the healed listing published',
  targets: ['healed_catalog', 'task_catalog_expired', 'completeness_refused'],
  catches: [],
  sometimes: ['long-outage'],
  plan: (chooser) => {
    const faultPhaseMs = chooser.between('workload', 'long fault phase', 60_000, 120_000);
    const once = { ...discoveryWorkload, deleteRatio: ratio(0, 1), finalDeleteRatio: ratio(0, 1), discoverIntervalMsMin: 600_000, discoverIntervalMsMax: 600_000, faultPhaseMs };
    return plan({ disconnect: ratio(1, 20), 'long-outage': ratio(3, 4) }, workload(chooser, once, catalogResources, 4), { snapshotId: true, pageSizeMax: 2 });
  },
};

/**
 * Reads answered with transient server errors (read-error: -32603 or -32000 for a resource that exists and may be
 * read): none is a deletion (no tombstone) or a revocation (fresh content still served: refused_fresh), and the news a
 * failed read was sent for is read again within notified_unread's bound (SPEC §3.3: a pulse may wait, never vanish).
 * Edits every 1-9 s, mostly further apart than that bound, so the next pulse seldom rescues a failed read; slow reads
 * (a third) leave an older read on its way when a newer one fails. The application serves every 1-3 s. Read amplification
 * counts the failed reads too (one in six: the reference stays under the gate's 1.2). Swarms never draw it.
 */
export const readErrors: Scenario = {
  name: 'read-errors',
  description: 'one read answer in six is a transient server error: no tombstone, no revocation, and the read a failed one was sent for is made again',
  targets: ['notified_unread', 'refused_fresh', 'convergence_60s', 'healed_convergence'],
  catches: [],
  sometimes: ['read-error'],
  plan: (chooser) =>
    plan({ 'read-error': ratio(1, 6), 'slow-read': ratio(1, 3) }, workload(chooser, { ...servingWorkload, mutationIntervalMsMin: 1_000, mutationIntervalMsMax: 9_000, deleteRatio: ratio(1, 20) })),
};

/**
 * Subscribe and unsubscribe answers whose result is not an object (malformed-ack: null, "ok", [], 1, true), a third of
 * them: the server did subscribe or unsubscribe, but such an answer is no acknowledgement. The client records a typed
 * MalformedResponse rejection, moves nothing to ACTIVE or CLOSED by it, and converges by its retries (the subscribe
 * retry; the unsubscribe's ACK timeout). Server restarts answer the first requests with errors while warming up, which
 * must not be rejected as malformed. Step clients only (sim/applicability.ts stepInterfaceFaults: over the SDK the
 * client's own result schema decides).
 */
export const malformedAcks: Scenario = {
  name: 'malformed-acks',
  description: 'a third of subscribe and unsubscribe answers carry a result that is not an object: a typed rejection, no acknowledgement, retries converge',
  targets: ['malformed_response_unrejected', 'server_subscription_kept', 'convergence_60s', 'healed_convergence'],
  catches: [],
  sometimes: ['malformed-ack', 'server-restart'],
  plan: (chooser) =>
    plan({ 'malformed-ack': ratio(1, 3), 'server-restart': ratio(1, 15) }, workload(chooser, { closeRatio: ratio(1, 3), closeTickMs: 2_000, resubscribeDelayMsMax: 5_000, deleteRatio: ratio(0, 1) })),
};

/**
 * Subscribe and unsubscribe answers that are transient server errors (subscription-error: -32603 or -32000), a quarter
 * of them: the server did NOT act, so a failed subscribe leaves the resource unwatched (server_subscription_missing:
 * the client must subscribe again) and a failed unsubscribe leaves the server holding and notifying a subscription the
 * application gave up (server_subscription_kept: the client must unsubscribe again). Neither is an acknowledgement, and
 * neither is malformed (answer_unrecorded / malformed_response_unrejected: no rejection). The application closes and
 * re-subscribes often (a third of the resources every 2 s, back after 0-45 s), and a third of the unsubscribe ACKs come
 * 5-8 s late (late-unsubscribe-ack), so the answer to an older generation's request often arrives while a newer
 * generation of the same resource waits for its own: it acknowledges nothing of the newer one. Swarms never draw it.
 */
export const subscriptionErrors: Scenario = {
  name: 'subscription-errors',
  description: 'a quarter of subscribe and unsubscribe answers are transient server errors (the server did not act): the client subscribes and unsubscribes again until the server holds exactly what the application wants',
  targets: ['server_subscription_missing', 'server_subscription_kept', 'convergence_60s', 'healed_convergence'],
  catches: [],
  sometimes: ['subscription-error', 'late-unsubscribe-ack'],
  plan: (chooser) =>
    plan(
      { 'subscription-error': ratio(1, 4), 'late-unsubscribe-ack': ratio(1, 3) },
      workload(chooser, { closeRatio: ratio(1, 3), closeTickMs: 2_000, resubscribeDelayMsMin: 0, resubscribeDelayMsMax: 45_000, deleteRatio: ratio(0, 1) }),
    ),
};

/**
 * An overloaded server (slow-read, a third of the reads, up to 12 s late: longer than notified_unread's bound): an update
 * that reaches a resource while its read is this slow must be read again before that read comes back (SPEC §3.3: one
 * more read while one is in flight and updates are pending; the fence keeps the newest), and the client still
 * converges and keeps serving what it confirmed. Swarms never draw reads this slow.
 */
export const slowServer: Scenario = {
  name: 'slow-server',
  description: 'a third of the read answers come up to 12 s late: updates that reach a resource while its read is that slow are read again at once',
  targets: ['notified_unread', 'version_regression', 'convergence_60s', 'healed_convergence'],
  catches: [],
  sometimes: ['slow-read'],
  plan: (chooser) =>
    plan({ 'slow-read': ratio(1, 3) }, workload(chooser, { ...servingWorkload, mutationIntervalMsMin: 500, mutationIntervalMsMax: 4_000 }), defaultServer, { ...defaultNetwork, slowReadDelayMsMax: 12_000 }),
};

/**
 * A host that repeats itself over a flaky connection (input-repeated: a Connected, subscribe or unsubscribe command
 * handed twice at once, as a handler run twice would; each repeat must change nothing, sim/checkers/inputs.ts), while
 * most unsubscribe ACKs are lost and connections drop: a close whose ACK is unknown when its session ends is settled
 * by that end (close_record_untrue). Closed resources are wanted again only after 6-9 s, past the ACK timeout (5 s). Step clients only (sim/applicability.ts).
 */
export const repeatedInputs: Scenario = {
  name: 'repeated-inputs',
  description: 'Connected, subscribe and unsubscribe handed twice, unsubscribe ACKs mostly lost, connections dropping: each repeat changes nothing, every close ends',
  targets: ['malformed_input_accepted', 'close_record_untrue', 'convergence_60s', 'healed_convergence'],
  catches: [],
  sometimes: ['input-repeated', 'drop-unsubscribe-ack', 'disconnect'],
  plan: (chooser) =>
    plan(
      { 'input-repeated': ratio(1, 2), 'drop-unsubscribe-ack': ratio(3, 4), disconnect: ratio(1, 6) },
      workload(chooser, { closeRatio: ratio(1, 3), closeTickMs: 2_000, resubscribeDelayMsMin: 6_000, resubscribeDelayMsMax: 9_000 }),
    ),
};
