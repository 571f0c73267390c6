/**
 * The named scenarios. Each draws its interleaving plan from the chooser only, names the invariants it
 * targets, the naive clients it must catch, and the faults that must fire ("sometimes").
 */
import type { Chooser } from '../sim/chooser.js';
import { implementedFaults, ratio, type FaultName, type FaultPlan, type Ratio } from '../sim/faults.js';
import { defaultNetwork, type InterleavingPlan, type ResourceSpec, type WorkloadPlan } from '../sim/plan.js';
import type { Scenario } from './scenario.js';

const healPhaseMs = 65_000;

const plainResources: ResourceSpec[] = [
  { uri: 'demo://resource/static/document/architecture.md', mimeType: 'text/markdown' },
  { uri: 'file:///project/src/index.ts', mimeType: 'text/x-typescript' },
  { uri: 'test://static/resource/1', mimeType: 'text/plain' },
  { uri: 'test://static/resource/2', mimeType: 'text/plain' },
];

/** `a%2Fb` and `a/b` are different resources (reserved characters stay encoded). */
const confusableResources: ResourceSpec[] = [
  { uri: 'demo://resource/docs/a%2Fb', mimeType: 'text/plain' },
  { uri: 'demo://resource/docs/a/b', mimeType: 'text/plain' },
  { uri: 'demo://resource/docs/~notes', mimeType: 'text/plain' },
];

function workload(chooser: Chooser, overrides: Partial<WorkloadPlan>, resources = plainResources): WorkloadPlan {
  const count = chooser.between('workload', 'resource count', 2, resources.length);
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
    ...overrides,
  };
}

function plan(faults: FaultPlan, workloadPlan: WorkloadPlan): InterleavingPlan {
  return { faults, workload: workloadPlan, network: defaultNetwork };
}

export const readRace: Scenario = {
  name: 'read-race',
  description: 'read A slower than read B, out-of-order update notifications: a late read must not overwrite a newer one',
  targets: ['version_regression', 'convergence_60s'],
  catches: ['naive-overwrite'],
  sometimes: ['slow-read', 'reorder'],
  plan: (chooser) =>
    plan(
      { 'slow-read': ratio(1, 3), reorder: ratio(1, 4) },
      workload(chooser, { mutationIntervalMsMin: 100, mutationIntervalMsMax: 1_500, deleteRatio: ratio(0, 1) }),
    ),
};

export const closeRace: Scenario = {
  name: 'close-race',
  description: 'unsubscribe races accepts: late content and late 404 after close, lost unsubscribe ACK',
  targets: ['accept_when_not_active', 'post_close_outbox', 'late_tombstone'],
  catches: ['naive-no-close-fence'],
  sometimes: ['late-response-after-close', 'drop-unsubscribe-ack'],
  plan: (chooser) =>
    plan(
      { 'late-response-after-close': ratio(1, 8), 'drop-unsubscribe-ack': ratio(1, 2), 'slow-read': ratio(1, 8) },
      workload(chooser, { deleteRatio: ratio(1, 4), closeRatio: ratio(1, 4), closeTickMs: 2_000, resubscribeDelayMsMax: 12_000 }),
    ),
};

export const reconnect: Scenario = {
  name: 'reconnect',
  description: 'disconnects and server restarts drop server-side subscriptions; old-session notifications arrive late',
  targets: ['old_session_effect', 'accept_when_not_active', 'convergence_60s'],
  catches: ['naive-no-resubscribe'],
  sometimes: ['disconnect', 'server-restart', 'old-session-notification'],
  plan: (chooser) =>
    plan(
      { disconnect: ratio(1, 8), 'server-restart': ratio(1, 16), 'old-session-notification': ratio(1, 1) },
      workload(chooser, { faultPhaseMs: chooser.between('workload', 'fault phase', 15_000, 30_000) }),
    ),
};

export const duplicateStorm: Scenario = {
  name: 'duplicate-storm',
  description: 'every update notification delivered 2-4 times, slightly reordered: reads must stay coalesced',
  targets: ['version_regression', 'convergence_60s'],
  catches: ['naive-overwrite'],
  sometimes: ['duplicate-notification', 'reorder'],
  plan: (chooser) =>
    plan(
      { 'duplicate-notification': ratio(1, 1), reorder: ratio(1, 6), 'slow-read': ratio(1, 10) },
      workload(chooser, { deleteRatio: ratio(0, 1) }),
    ),
};

export const uriSpelling: Scenario = {
  name: 'uri-spelling',
  description: 'equivalent URI spellings in notifications and responses, next to a%2Fb vs a/b lookalikes',
  targets: ['uri_confusion', 'convergence_60s'],
  catches: ['naive-overwrite'],
  sometimes: ['uri-spelling'],
  plan: (chooser) =>
    plan({ 'uri-spelling': ratio(1, 2) }, workload(chooser, { deleteRatio: ratio(0, 1) }, confusableResources)),
};

const swarmDenominators = [2, 4, 8, 16];

/** Swarm: a random subset of faults and intensities per interleaving (TigerBeetle-style swarm testing). */
export const swarm: Scenario = {
  name: 'swarm',
  description: 'a random subset of every implemented fault, with random intensities and workload shape',
  targets: ['version_regression', 'accept_when_not_active', 'post_close_outbox', 'late_tombstone', 'old_session_effect', 'uri_confusion', 'convergence_60s'],
  catches: ['naive-overwrite', 'naive-no-resubscribe', 'naive-no-close-fence'],
  sometimes: implementedFaults,
  plan: (chooser) => {
    const faults: FaultPlan = {};
    for (const fault of implementedFaults) {
      if (chooser.draw('faults', `swarm: ${fault} on?`, 2) === 0) continue;
      const denominator = swarmDenominators[chooser.draw('faults', `swarm: ${fault} denominator`, swarmDenominators.length)]!;
      faults[fault] = ratio(1 + chooser.draw('faults', `swarm: ${fault} numerator`, Math.max(1, denominator >> 1)), denominator);
    }
    const confusable = chooser.draw('workload', 'swarm: confusable resources?', 4) === 3;
    const intensity = (label: string, max: number): Ratio => ratio(chooser.draw('workload', label, max + 1), 16);
    return plan(
      faults,
      workload(
        chooser,
        {
          mutationIntervalMsMin: 100,
          mutationIntervalMsMax: chooser.between('workload', 'swarm: mutation interval', 500, 4_000),
          deleteRatio: intensity('swarm: delete ratio', 4),
          closeRatio: intensity('swarm: close ratio', 4),
          resubscribeDelayMsMax: chooser.between('workload', 'swarm: resubscribe delay', 1_000, 12_000),
        },
        confusable ? confusableResources : plainResources,
      ),
    );
  },
};

export const scenarios: readonly Scenario[] = [readRace, closeRace, reconnect, duplicateStorm, uriSpelling, swarm];

export function findScenario(name: string): Scenario | undefined {
  return scenarios.find((scenario) => scenario.name === name);
}

export function scenarioNames(): string[] {
  return scenarios.map((scenario) => scenario.name);
}

/** Faults that a scenario's plans can switch on. */
export function faultsOf(scenario: Scenario): FaultName[] {
  return [...scenario.sometimes];
}
