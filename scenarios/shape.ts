/**
 * Building blocks of scenario plans: resource sets, the default workload shape and the plan wrapper. Every
 * value a scenario draws comes from the interleaving's chooser.
 */
import type { Chooser } from '../sim/chooser.js';
import { ratio, type FaultPlan } from '../sim/faults.js';
import { defaultNetwork, defaultServer, type InterleavingPlan, type NetworkPlan, type ResourceSpec, type ServerPlan, type WorkloadPlan } from '../sim/plan.js';
import { deletionBoundMs } from '../sim/checkers/deletion.js';

export const healPhaseMs = 65_000;
/**
 * Plans with discovery heal for as long as the reference's declared configuration takes to confirm a deletion
 * (sim/checkers/deletion.ts): staleness bound + two catalog reviews + settle, 101 s with the defaults.
 */
export const deletionHealPhaseMs = Math.max(healPhaseMs, deletionBoundMs());

export const plainResources: ResourceSpec[] = [
  { uri: 'demo://resource/static/document/architecture.md', mimeType: 'text/markdown' },
  { uri: 'file:///project/src/index.ts', mimeType: 'text/x-typescript' },
  { uri: 'test://static/resource/1', mimeType: 'text/plain' },
  { uri: 'test://static/resource/2', mimeType: 'text/plain' },
];

/**
 * Near-misses that are NOT equivalent: `a%2Fb` and `a/b` (reserved characters stay encoded), `a/b` and
 * `a/B` (path case is significant); an https URI, so its default port is spelled too (sim/actors/spelling.ts).
 */
export const confusableResources: ResourceSpec[] = [
  { uri: 'demo://resource/docs/a%2Fb', mimeType: 'text/plain' },
  { uri: 'demo://resource/docs/a/b', mimeType: 'text/plain' },
  { uri: 'demo://resource/docs/~notes', mimeType: 'text/plain' },
  { uri: 'demo://resource/docs/a/B', mimeType: 'text/plain' },
  { uri: 'https://example.com/docs/a%2Fb', mimeType: 'text/plain' },
];

/** A larger catalogue, so listings span several pages. */
export const catalogResources: ResourceSpec[] = [
  ...plainResources,
  { uri: 'file:///project/src/world.ts', mimeType: 'text/x-typescript' },
  { uri: 'test://static/resource/3', mimeType: 'text/plain' },
  { uri: 'test://static/resource/4', mimeType: 'text/plain' },
  { uri: 'demo://resource/static/document/README.md', mimeType: 'text/markdown' },
];

/** The default workload: subscribe everything, mutate, no closes, no discovery, no serving. */
export function workload(chooser: Chooser, overrides: Partial<WorkloadPlan>, resources = plainResources, countMin = 2): WorkloadPlan {
  const count = chooser.between('workload', 'resource count', countMin, resources.length);
  return {
    resources: resources.slice(0, count),
    faultPhaseMs: chooser.between('workload', 'fault phase', 10_000, 30_000),
    healPhaseMs,
    mutationIntervalMsMin: 200,
    mutationIntervalMsMax: 3_000,
    deleteRatio: ratio(1, 12),
    burstRatio: ratio(1, 6),
    closeTickMs: 3_000,
    closeRatio: ratio(0, 1),
    resubscribeDelayMsMin: 200,
    resubscribeDelayMsMax: 4_000,
    discoverIntervalMsMin: 0,
    discoverIntervalMsMax: 0,
    taskIntervalMsMin: 0,
    taskIntervalMsMax: 0,
    serveIntervalMsMin: 0,
    serveIntervalMsMax: 0,
    ...overrides,
  };
}

/**
 * Discovery at the start and every 5-15 s, completeness tasks every 3-12 s, deletes and re-creates often; the
 * fault phase's last mutation deletes a resource as often, and the heal is long enough to judge its confirmation.
 */
export const discoveryWorkload: Partial<WorkloadPlan> = {
  discoverIntervalMsMin: 5_000,
  discoverIntervalMsMax: 15_000,
  taskIntervalMsMin: 3_000,
  taskIntervalMsMax: 12_000,
  deleteRatio: ratio(1, 5),
  finalDeleteRatio: ratio(1, 5),
  healPhaseMs: deletionHealPhaseMs,
};

/** Each resource is served to its subject every 1-3 s. */
export const servingWorkload: Partial<WorkloadPlan> = { serveIntervalMsMin: 1_000, serveIntervalMsMax: 3_000 };

export function plan(faults: FaultPlan, workloadPlan: WorkloadPlan, server: ServerPlan = defaultServer, network: NetworkPlan = defaultNetwork): InterleavingPlan {
  return { faults, workload: workloadPlan, network, server };
}

/** Half the interleavings negotiate the snapshot-ID list extension. */
export function drawServer(chooser: Chooser, pageSizeMax = defaultServer.pageSizeMax): ServerPlan {
  return { snapshotId: chooser.draw('server', 'snapshot-ID extension negotiated?', 2) === 1, pageSizeMax };
}
