/**
 * MCP 2026-07-28 scenarios: the same swarm of workload shapes and 2025 faults that still make sense
 * without sessions (drops, duplicates, reorders, slow reads, spellings, revocations, disconnects,
 * restarts, crashes, listings), plus every fault of the listen / TTL era. `era-both` draws the era of each
 * interleaving through the chooser (decision 0: 2025-11-25, the simplest).
 */
import { era2025Faults, era2026Faults, ratio, type FaultName } from '../sim/faults.js';
import type { Chooser } from '../sim/chooser.js';
import type { InterleavingPlan } from '../sim/plan.js';
import { allInvariants } from '../sim/oracle.js';
import type { Scenario } from './scenario.js';
import { catalogResources, discoveryWorkload, drawServer, plan, workload } from './shape.js';

/** What the 2026 scenarios take from the catalogue (passed in by catalog.ts, so nothing here imports it). */
export interface SwarmParts {
  swarm: Scenario;
  swarmPlan(chooser: Chooser, faultSet: readonly FaultName[]): InterleavingPlan;
}

/** 2025 faults with no 2026-07-28 counterpart: there is no `resources/unsubscribe` whose ACK could be lost. */
const without2026: readonly FaultName[] = ['drop-unsubscribe-ack'];
const era2026SwarmFaults: readonly FaultName[] = [...era2025Faults.filter((fault) => !without2026.includes(fault)), ...era2026Faults];

/** TTLs from "immediately stale" to longer than the reconciliation period. */
const ttlMsMin = 0;
const ttlMsMax = 30_000;

/** The 2026-07-28 scenarios over the catalogue's swarm. */
export function era2026Scenarios({ swarm, swarmPlan }: SwarmParts): readonly Scenario[] {
  const era2026Plan = (chooser: Chooser): InterleavingPlan => ({ ...swarmPlan(chooser, era2026SwarmFaults), era2026: { ttlMsMin, ttlMsMax } });
  const era2026Swarm: Scenario = {
    name: 'era2026-swarm',
    description: "MCP 2026-07-28: listen/ack/tags, TTL and the era's faults, over a random subset of the session-free 2025 faults",
    era: '2026-07-28',
    targets: allInvariants,
    // refused_fresh on a 2026-07-28 connection (sim/checkers/availability-era2026.ts).
    catches: ['naive-never-serve'],
    sometimes: era2026Faults,
    claims: ['read_amplification', 'convergence_60s', 'staleness_at_serve_p99_ms'],
    plan: era2026Plan,
  };
  const eraBoth: Scenario = {
    name: 'era-both',
    description: 'each interleaving draws its era: the 2025-11-25 swarm or the 2026-07-28 swarm',
    era: 'both',
    targets: allInvariants,
    catches: [],
    sometimes: [...era2025Faults, ...era2026Faults],
    claims: ['read_amplification', 'convergence_60s', 'revocation_p99_ms', 'staleness_at_serve_p99_ms'],
    plan: (chooser) => (chooser.draw('server', 'protocol era: 2026-07-28?', 2) === 1 ? era2026Plan(chooser) : swarm.plan(chooser)),
  };
  const era2026BrokenStream: Scenario = {
    name: 'era2026-broken-stream',
    description: '2026-07-28: broken response streams lose reads and late originals outlive their retries, while notifications are lost',
    era: '2026-07-28',
    targets: ['convergence_60s', 'version_regression', 'phantom_watch'],
    catches: ['naive-2026-wait-forever', 'naive-2026-no-ack-wait'],
    sometimes: ['broken-read-stream', 'late-original-response', 'drop-notification'],
    plan: (chooser) => ({
      ...swarmPlan(chooser, []),
      faults: { 'broken-read-stream': ratio(1, 3), 'late-original-response': ratio(1, 6), 'drop-notification': ratio(1, 2) },
      era2026: { ttlMsMin, ttlMsMax },
    }),
  };
  // A read in flight when an `updated` arrives answers with content from before that change: accepted, it must not
  // be served as fresh (core/ttl.ts invalidateOnUpdated marks such reads superseded). Slow reads keep reads in
  // flight across edits every 0.1-1.5 s, serves every 0.1-0.5 s fall between that answer and the next, and
  // long TTLs keep a wrongly fresh answer servable until then.
  const era2026ReadRace: Scenario = {
    name: 'era2026-read-race',
    description: '2026-07-28: reads still in flight when an updated arrives answer with the content from before it, served often, under long TTLs',
    era: '2026-07-28',
    targets: ['read_your_notification', 'version_regression', 'monotonic_reads'],
    catches: [],
    sometimes: ['slow-read', 'reorder'],
    plan: (chooser) => ({
      ...plan(
        { 'slow-read': ratio(1, 2), reorder: ratio(1, 4) },
        workload(chooser, { mutationIntervalMsMin: 300, mutationIntervalMsMax: 1_500, deleteRatio: ratio(0, 1), serveIntervalMsMin: 200, serveIntervalMsMax: 800 }, undefined, 2),
      ),
      era2026: { ttlMsMin: 20_000, ttlMsMax: ttlMsMax },
    }),
  };
  const era2026Tags: Scenario = {
    name: 'era2026-tags',
    description: '2026-07-28: notifications before the ack and tagged with another listen\'s id, acks that never arrive',
    era: '2026-07-28',
    targets: ['phantom_watch', 'read_your_notification', 'version_regression'],
    catches: ['naive-2026-trusts-any-id'],
    sometimes: ['listen-notify-before-ack', 'listen-wrong-id', 'listen-ack-lost'],
    plan: (chooser) => ({
      ...swarmPlan(chooser, []),
      faults: { 'listen-notify-before-ack': ratio(1, 2), 'listen-wrong-id': ratio(1, 3), 'listen-ack-lost': ratio(1, 4) },
      era2026: { ttlMsMin, ttlMsMax },
    }),
  };
  const era2026Partitions: Scenario = {
    name: 'era2026-partitions',
    description: "2026-07-28: the application asks for one subject's content for the other, while an intermediary replays read responses",
    era: '2026-07-28',
    targets: ['scope_isolation', 'monotonic_reads', 'version_regression'],
    catches: ['naive-2026-shared-cache'],
    sometimes: ['serve-other-subject', 'response-replay'],
    plan: (chooser) => ({
      ...swarmPlan(chooser, []),
      faults: { 'serve-other-subject': ratio(1, 2), 'response-replay': ratio(1, 3) },
      era2026: { ttlMsMin, ttlMsMax },
    }),
  };
  const era2026Listing: Scenario = {
    name: 'era2026-listing',
    description: '2026-07-28: multi-page listings whose nextCursor is sometimes the empty string and whose pages disagree on cacheScope and ttlMs',
    era: '2026-07-28',
    targets: ['unreconciled_catalog', 'catalog_untrue', 'scope_isolation', 'ttl_staleness'],
    catches: ['naive-2026-empty-cursor-end'],
    sometimes: ['list-empty-cursor', 'list-page-hint-mismatch'],
    plan: (chooser) => ({
      ...plan({ 'list-empty-cursor': ratio(1, 2), 'list-page-hint-mismatch': ratio(1, 2) }, workload(chooser, discoveryWorkload, catalogResources, 4), drawServer(chooser, 2)),
      era2026: { ttlMsMin, ttlMsMax },
    }),
  };
  const era2026ListenEnds: Scenario = {
    name: 'era2026-listen-ends',
    description: '2026-07-28: watches that end while wanted (listens completed, streams closed), acks narrower, wider or repeated, updated after the end or outside the filter',
    era: '2026-07-28',
    targets: ['watch_not_renewed', 'phantom_watch', 'notified_unread', 'read_your_notification', 'healed_convergence'],
    catches: [],
    sometimes: ['listen-graceful-completion', 'listen-stream-closed', 'listen-ack-narrower', 'listen-ack-wider', 'listen-ack-repeated', 'listen-notify-after-close', 'listen-out-of-filter'],
    plan: (chooser) => ({
      ...swarmPlan(chooser, []),
      faults: {
        'listen-graceful-completion': ratio(1, 4),
        'listen-stream-closed': ratio(1, 4),
        'listen-ack-narrower': ratio(1, 6),
        'listen-ack-wider': ratio(1, 3),
        'listen-ack-repeated': ratio(1, 3),
        'listen-notify-after-close': ratio(1, 2),
        'listen-out-of-filter': ratio(1, 4),
      },
      era2026: { ttlMsMin, ttlMsMax },
    }),
  };
  // malformed-input (sim/actors/hostile-inputs.ts) on listen connections, with the era's own kinds
  // (sim/actors/hostile-inputs-2026.ts): a Connected.era that is no revision, subscription ids that are not ids, acks
  // that break the schema or are spelled two ways. Step clients only, as malformed-input (sim/applicability.ts).
  const era2026MalformedInput: Scenario = {
    name: 'era2026-malformed-input',
    description: "2026-07-28: inputs with one malformed field before the real ones, and the era's own: a Connected.era that is no revision, listen notifications whose subscription id is not an id, acks whose notifications break the schema",
    era: '2026-07-28',
    targets: ['malformed_input_accepted', 'malformed_input_not_inert', 'convergence_60s'],
    catches: [],
    // listen-ack-repeated: acks of listens no longer waiting for one (a malformed one is rejected all the same).
    sometimes: ['malformed-input', 'disconnect', 'listen-ack-narrower', 'listen-ack-wider', 'listen-ack-repeated'],
    plan: (chooser) => ({
      ...plan(
        { 'malformed-input': ratio(1, 2), disconnect: ratio(1, 3), 'listen-ack-narrower': ratio(1, 6), 'listen-ack-wider': ratio(1, 4), 'listen-ack-repeated': ratio(1, 2) },
        workload(chooser, { ...discoveryWorkload, closeRatio: ratio(1, 6), closeTickMs: 3_000, serveIntervalMsMin: 1_000, serveIntervalMsMax: 3_000 }, catalogResources),
        drawServer(chooser),
      ),
      era2026: { ttlMsMin, ttlMsMax },
    }),
  };
  // Quiet resources read slowly and served often, in either era: a client keeps serving for as long as its published
  // staleness bound and lease allow, so a client whose leases are shorter than the bound it published (one that counts
  // a watched URI as polled: core/era.ts isPolling) refuses fresh content while a slow reconciliation read is on its way.
  const quietSlowReads: Scenario = {
    name: 'quiet-slow-reads',
    description: 'rarely changed resources, reads slow by up to 3 s, serves every 0.2-0.8 s; each interleaving draws its era (2026-07-28 with long TTLs)',
    era: 'both',
    targets: ['refused_fresh', 'served_beyond_bound', 'served_outside_lease'],
    catches: [],
    sometimes: ['slow-read'],
    plan: (chooser) => {
      const quiet = plan(
        { 'slow-read': ratio(1, 2) },
        workload(chooser, { mutationIntervalMsMin: 20_000, mutationIntervalMsMax: 60_000, deleteRatio: ratio(0, 1), serveIntervalMsMin: 200, serveIntervalMsMax: 800 }),
      );
      return chooser.draw('server', 'protocol era: 2026-07-28?', 2) === 1 ? { ...quiet, era2026: { ttlMsMin: 20_000, ttlMsMax: ttlMsMax } } : quiet;
    },
  };
  // Interop pairs (--transport sdk only; cli/protocol.ts refuses them on the pure transport): the 2025-11-25
  // swarm with the ends on different SDKs. Both speak 2025-11-25 (a v1 end knows no listen), so they are
  // 2025-11-25 scenarios; the v2 end is the one a user upgrades first.
  const interop = (name: string, client: 'v1' | 'v2', server: 'v1' | 'v2', who: string): Scenario => ({
    ...swarm,
    name,
    description: `interop (--transport sdk): ${who}; both speak 2025-11-25 (swarm's faults, client crashes excluded)`,
    sometimes: swarm.sometimes.filter((fault) => fault !== 'client-crash'),
    targets: swarm.targets.filter((invariant) => invariant !== 'fence_lost_after_crash'),
    catches: [],
    plan: (chooser) => swarmPlan(chooser, swarm.sometimes.filter((fault) => fault !== 'client-crash')),
    sdkPair: { client, server },
  });
  return [
    era2026Swarm,
    eraBoth,
    era2026BrokenStream,
    era2026ReadRace,
    era2026Tags,
    era2026Partitions,
    era2026Listing,
    era2026ListenEnds,
    era2026MalformedInput,
    quietSlowReads,
    interop('interop-v1-client-v2-server', 'v1', 'v2', 'an SDK 1.x Client (inside the fenced cache) against an SDK v2 server'),
    interop('interop-v2-client-v1-server', 'v2', 'v1', 'an SDK v2 Client (auto negotiation, inside the fenced cache) against an SDK 1.x server'),
  ];
}
