/**
 * Planted bugs of the three classes of issue 10 (bugs the default gate used to pass), in the shape of
 * planting.ts: one-line patches to a copy of the reference core, each caught by the default gate (swarm,
 * reference configuration) through a check that did not exist before.
 *
 * 1. freshness judged only by a 60 s ratio: a failed subscribe that is never retried (healed_convergence;
 *    before, its never-reflected changes only lowered the convergence_60s ratio).
 * 2. rules counted, not enforced: a not-found that leaves the cached content servable (served_not_found; it
 *    was the reference's own bug until core/fence.ts ended the lease on a not-found).
 * 3. hard inputs / a truth independent of the client: the canonicaliser decoding the reserved `%2F`, judged by
 *    a truth that knows the near-miss resources `a%2Fb` and `a/b` apart without core/uri.ts.
 */
import type { PlantedBug } from './planting.js';

export const classBugs: readonly (PlantedBug & { issueClass: 1 | 2 | 3 })[] = [
  {
    issueClass: 1,
    name: 'subscribe-retry-lost',
    description: 'a failed subscribe (a server still warming up after a restart) is not retried: the subscription waits for a reconnect that may never come',
    patches: [{ file: 'reducer-sessions.ts', find: "  d.armTimer('resubscribe', uri, d.nowMs + d.config.subscribeRetryMs);\n", replace: '' }],
    scenarios: ['swarm'],
    invariants: ['healed_convergence'],
  },
  {
    issueClass: 2,
    name: 'not-found-keeps-lease',
    description: 'a not-found does not end the authorization lease: after a notification moves TOMBSTONE_PENDING on, the deleted content is served again',
    patches: [{ file: 'fence.ts', find: '  d.setLease(request.uri, -1);\n', replace: '' }],
    scenarios: ['swarm'],
    invariants: ['served_not_found'],
  },
  {
    issueClass: 3,
    name: 'reserved-slash-decoded',
    description: 'the URI canonicaliser decodes %2F like an unreserved character, so a%2Fb and a/b become one key',
    patches: [{ file: 'uri.ts', find: '    if (isUnreservedCode(byte)) {', replace: '    if (isUnreservedCode(byte) || byte === SLASH) {' }],
    scenarios: ['swarm'],
    invariants: ['healed_convergence', 'uri_confusion'],
  },
];
