/**
 * The strategy benchmark's scenario and client strategies (SPEC §1, "benchmark read amplification and
 * freshness across client strategies"; `002_*`: polling vs subscription vs subscription + version check).
 *
 * One parameterized scenario: four plain resources subscribed for the whole run, edited (never deleted)
 * every 0.2-3 s with bursts, each served to its subject every 1-3 s, with exactly two faults whose rates the
 * condition fixes — duplicate notifications and dropped notifications — and nothing else (no reorder, no
 * slow reads, no disconnects). A duplicate rate of r % means r / 100 extra copies per notification on
 * average: 100 % is exactly one extra copy, 200 % one to three (mean 2), 300 % one to five (mean 3).
 *
 * Strategies: naive subscription (`naive-overwrite`: read and overwrite on every notification), pure
 * polling at three intervals (the reference core told the server has no subscribe capability, so every
 * read it makes is a poll), subscription + version check (a read per notification, the ordinal fence, a
 * low-frequency reconciliation read, no coalescing), and the reference (fenced, debounced and coalesced).
 */
import { referenceClient } from '../core/reducer.js';
import type { ClientConfig, ClientInput, ClientUnderTest } from '../core/types.js';
import { ratio, type FaultPlan } from '../sim/faults.js';
import { defaultNetwork, defaultServer, type InterleavingPlan } from '../sim/plan.js';
import { naiveClient, naiveOverwrite } from './naive.js';
import type { Scenario } from './scenario.js';
import { healPhaseMs, plainResources } from './shape.js';

export interface StrategyCondition {
  /** Average extra copies per update notification, in percent: 0, 100, 200 or 300. */
  duplicateRatePercent: number;
  /** Share of notifications lost, in percent. */
  dropRatePercent: number;
}

export const duplicateRatesPercent = [0, 100, 200, 300] as const;
export const dropRatesPercent = [0, 10, 30] as const;

/** Every condition of the benchmark: duplicate rate outer, drop rate inner. */
export const strategyConditions: readonly StrategyCondition[] = duplicateRatesPercent.flatMap((duplicateRatePercent) =>
  dropRatesPercent.map((dropRatePercent) => ({ duplicateRatePercent, dropRatePercent })),
);

/** "dup 200 % / drop 10 %" */
export function conditionName(condition: StrategyCondition): string {
  return `dup ${condition.duplicateRatePercent} % / drop ${condition.dropRatePercent} %`;
}

/** The fault phase is fixed (not drawn) so every strategy is measured over the same stretch of changes. */
export const strategyFaultPhaseMs = 30_000;

/** The scenario of one condition: its plan fixes the two rates; every other draw is the workload's. */
export function strategyScenario(condition: StrategyCondition): Scenario {
  const { duplicateRatePercent, dropRatePercent } = condition;
  if (!Number.isInteger(duplicateRatePercent / 100) || duplicateRatePercent < 0) {
    throw new Error(`duplicate rate ${duplicateRatePercent} % is not a whole number of extra copies (0, 100, 200, 300 ...)`);
  }
  if (dropRatePercent < 0 || dropRatePercent > 100) throw new Error(`drop rate ${dropRatePercent} % is not a percentage`);
  const faults: FaultPlan = {};
  if (duplicateRatePercent > 0) faults['duplicate-notification'] = ratio(1, 1);
  if (dropRatePercent > 0) faults['drop-notification'] = ratio(dropRatePercent, 100);
  // Every notification fires the duplicate fault; copies are uniform in [1, max], so the mean is (1 + max) / 2.
  const network = { ...defaultNetwork, duplicateCopiesMax: Math.max(1, (2 * duplicateRatePercent) / 100 - 1) };
  return {
    name: `strategies (${conditionName(condition)})`,
    description: `four resources edited every 0.2-3 s and served every 1-3 s; ${conditionName(condition)}; no other fault`,
    targets: ['convergence_60s'],
    catches: [],
    sometimes: Object.keys(faults) as (keyof FaultPlan)[],
    plan: (): InterleavingPlan => ({
      faults,
      network,
      server: defaultServer,
      workload: {
        resources: plainResources,
        faultPhaseMs: strategyFaultPhaseMs,
        healPhaseMs,
        mutationIntervalMsMin: 200,
        mutationIntervalMsMax: 3_000,
        deleteRatio: ratio(0, 1),
        burstRatio: ratio(1, 6),
        closeTickMs: 3_000,
        closeRatio: ratio(0, 1),
        resubscribeDelayMsMin: 200,
        resubscribeDelayMsMax: 4_000,
        discoverIntervalMsMin: 0,
        discoverIntervalMsMax: 0,
        taskIntervalMsMin: 0,
        taskIntervalMsMax: 0,
        serveIntervalMsMin: 1_000,
        serveIntervalMsMax: 3_000,
      },
    }),
  };
}

/** A client strategy of the benchmark. `polling` strategies never subscribe, so notifications never reach them. */
export interface Strategy {
  client: ClientUnderTest<any>;
  polling: boolean;
  summary: string;
}

/**
 * Pure polling: the reference core, told at every connect that the server lacks `resources.subscribe`,
 * polls each resource every `intervalMs` plus up to a fifth of it in jitter. Its authorization lease is
 * stretched to twice the interval (at least the default) so the lease never triggers reads of its own.
 */
export function pollingClient(intervalMs: number): ClientUnderTest<unknown> {
  const configure = (config: ClientConfig): ClientConfig => ({
    ...config,
    pollIntervalMs: intervalMs,
    pollJitterMsMax: Math.floor(intervalMs / 5),
    authorizationLeaseMs: Math.max(config.authorizationLeaseMs, 2 * intervalMs),
  });
  const withoutSubscribe = (input: ClientInput): ClientInput =>
    input.type === 'Connected' ? { ...input, capabilities: { ...input.capabilities, subscribe: false } } : input;
  return {
    name: `poll-${intervalMs / 1_000}s`,
    description: `polls every resource every ${intervalMs / 1_000} s (+ up to ${intervalMs / 5_000} s jitter) and never subscribes`,
    init: (config) => referenceClient.init(configure(config)),
    step: (state, input) => referenceClient.step(state as never, withoutSubscribe(input)),
  };
}

/** Subscription + version check: a read per notification, the ordinal fence, a reconciliation read every 20-30 s. */
export const versionCheckClient = naiveClient(
  'subscribe-version-check',
  'reads on every notification (no debounce, no coalescing), accepts only responses newer than the last accepted one (ordinal fence), re-reads every 20-30 s',
  { decodeKeys: false, ordinalFence: true, closeFence: true, resubscribe: true, sessionCheck: true, reconcile: true, subjects: true },
);

export const pollIntervalsMs = [1_000, 5_000, 15_000] as const;

export const strategies: readonly Strategy[] = [
  { client: naiveOverwrite, polling: false, summary: 'naive subscription: read and overwrite on every notification' },
  ...pollIntervalsMs.map((intervalMs) => ({ client: pollingClient(intervalMs), polling: true, summary: `polling every ${intervalMs / 1_000} s` })),
  { client: versionCheckClient, polling: false, summary: 'subscription + version check, no coalescing' },
  { client: referenceClient, polling: false, summary: 'reference: fenced, debounced and coalesced' },
];
