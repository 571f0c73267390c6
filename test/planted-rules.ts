/**
 * Planted bugs against the SPEC §3.4 / §3.6 rules the checkers now enforce on the truth (issue 10, "rules
 * counted, not enforced"), in the shape of planting.ts: one-line patches to a copy of the reference core.
 * Each is caught by the default gate (swarm, reference configuration) through its own new checker.
 */
import type { PlantedBug } from './planting.js';

export const ruleBugs: readonly PlantedBug[] = [
  {
    name: 'ab-ignores-list-changed',
    description: 'A/B reconciliation forgets the list_changed count of its first pass: a listing that changed during pass A is published once B matches it',
    patches: [{ file: 'scan.ts', find: '    previous.notificationsObserved === 0 &&\n', replace: '' }],
    scenarios: ['swarm'],
    invariants: ['catalog_ab_unsettled'],
  },
  {
    name: 'catalog-dated-at-publish',
    description: 'a catalog is dated when it is published instead of when its listing was taken (a change in between makes it untrue at its measured time)',
    patches: [{ file: 'scan.ts', find: '  const measuredAtMs = firstPassStartMs;', replace: '  const measuredAtMs = d.nowMs;' }],
    scenarios: ['swarm'],
    invariants: ['catalog_untrue'],
  },
  {
    name: 'catalog-bound-wrong-field',
    description: "a catalog is published with the list_changed debounce (500 ms) as its staleness bound instead of its review period: completeness tasks act on catalogs far older than the bound the client published",
    patches: [{ file: 'scan.ts', find: '    stalenessBoundMs: d.config.catalogReviewMs,', replace: '    stalenessBoundMs: d.config.listChangedDebounceMs,' }],
    scenarios: ['swarm'],
    invariants: ['task_catalog_expired'],
  },
  {
    name: 'unsubscribe-not-retried',
    description: 'an unsubscribe whose ACK timed out is never retried: if the request itself was lost, the server keeps the subscription and notifies forever',
    patches: [{ file: 'reducer-timers.ts', find: "      if (d.subscription(uri)!.state === 'UNSUBSCRIBE_UNKNOWN') sendUnsubscribe(d, uri);\n", replace: '' }],
    scenarios: ['swarm'],
    invariants: ['server_subscription_kept'],
  },
  {
    name: 'bound-from-poll-timer',
    description: 'a subscription publishes the staleness bound of the poll timer (pollIntervalMs + pollJitterMsMax + readHedgeMs = 8 s) instead of the reconciliation timer (31 s): after a lost notification the content is served until the next lease revalidation (15 s), beyond the bound it promised',
    patches: [{ file: 'reducer-sessions.ts', find: "  d.emit({ type: 'StalenessBoundPublished', uri, boundMs: stalenessBoundMs(d, polling), mode:", replace: "  d.emit({ type: 'StalenessBoundPublished', uri, boundMs: stalenessBoundMs(d, true), mode:" }],
    scenarios: ['swarm'],
    invariants: ['served_beyond_bound'],
  },
  {
    name: 'refuse-unless-tombstone',
    description: 'the pending-deletion guard of serve is inverted: every serve of a resource that is not pending deletion is refused (safe, and useless)',
    patches: [{ file: 'authorization.ts', find: "if (sub !== undefined && sub.state === 'TOMBSTONE_PENDING') return refuse(", replace: "if (sub !== undefined && sub.state !== 'TOMBSTONE_PENDING') return refuse(" }],
    scenarios: ['swarm'],
    invariants: ['refused_fresh'],
  },
];
