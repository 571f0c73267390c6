/**
 * The gate's figures split by protocol era (`--protocol both`): one fixed-layout Float64Array in the
 * accumulator (so it travels to workers, into report.json and through shard merges like every other
 * field), one block per era in `protocolEraNames` order. An interleaving belongs to the era its plan drew
 * (`plan.era2026` present: 2026-07-28, even when era-downgrade later made the server speak 2025-11-25).
 */
import { faultNames } from './faults.js';
import { allInvariants } from './invariants.js';
import type { InterleavingResult } from './kernel/interleaving.js';

export const protocolEraNames = ['2025-11-25', '2026-07-28'] as const;
export type ProtocolEraName = (typeof protocolEraNames)[number];

/** The scalar figures of one era's block, in order; then fault counts, violations and checks per invariant. */
export const eraScalarFigures = [
  'interleavings',
  'failingInterleavings',
  'events',
  'steps',
  'virtualMs',
  'servesJudged',
  'staleServes',
  'servesBeyondBound',
  'changesTracked',
  'changesConverged',
  'notificationReads',
  'notifiedChanges',
  'totalReads',
] as const;

const scalarCount = eraScalarFigures.length;
const faultsAt = scalarCount;
const violationsAt = faultsAt + faultNames.length;
const checksAt = violationsAt + allInvariants.length;
export const eraBlockLength = checksAt + allInvariants.length;

export function emptyEraFigures(): Float64Array {
  return new Float64Array(eraBlockLength * protocolEraNames.length);
}

/** Folds one finished interleaving into its era's block. */
export function addEraRun(figures: Float64Array, result: InterleavingResult): void {
  const base = (result.plan.era2026 === undefined ? 0 : 1) * eraBlockLength;
  const oracle = result.oracle;
  const convergence = oracle.convergence;
  const scalars = [
    1,
    result.outcome === 'passed' ? 0 : 1,
    result.events,
    result.steps,
    result.endMs,
    convergence.servesJudged,
    convergence.staleServes,
    convergence.servesBeyondBound,
    oracle.changesTracked,
    oracle.changesConverged,
    oracle.notificationReads,
    oracle.notifiedChanges,
    oracle.totalReads,
  ];
  for (let i = 0; i < scalarCount; i++) figures[base + i]! += scalars[i]!;
  for (let i = 0; i < faultNames.length; i++) figures[base + faultsAt + i]! += result.faultCounts[i]!;
  for (let i = 0; i < allInvariants.length; i++) {
    figures[base + violationsAt + i]! += oracle.counts[i]!;
    figures[base + checksAt + i]! += oracle.checks[i]!;
  }
}

export interface EraFigures {
  scalars: Record<(typeof eraScalarFigures)[number], number>;
  faultsFired: Record<string, number>;
  invariants: Record<string, { checked: number; violated: number }>;
}

/** One era's block as named figures. */
export function eraFiguresOf(figures: Float64Array, era: ProtocolEraName): EraFigures {
  const base = protocolEraNames.indexOf(era) * eraBlockLength;
  const scalars = Object.fromEntries(eraScalarFigures.map((name, i) => [name, figures[base + i]!])) as EraFigures['scalars'];
  const faultsFired: Record<string, number> = {};
  faultNames.forEach((name, i) => {
    const fired = figures[base + faultsAt + i]!;
    if (fired > 0) faultsFired[name] = fired;
  });
  const invariants: EraFigures['invariants'] = {};
  allInvariants.forEach((name, i) => {
    invariants[name] = { checked: figures[base + checksAt + i]!, violated: figures[base + violationsAt + i]! };
  });
  return { scalars, faultsFired, invariants };
}
