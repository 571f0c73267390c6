/**
 * Finding, replaying and shrinking an indexer's first failure: the glue the CLI and the tests share.
 * A failure is the first invariant violation, or (for an indexer that breaks no invariant but misses a
 * metric) the first interleaving with one of that metric's events.
 */
import { deriveSeed } from './kernel-imports.js';
import { runIndexerInterleaving } from './runner.js';
import { focusedTimeline, shrinkIndexerRun, violates, type Failing } from './shrink.js';
import type { IndexerRunResult } from './sim-world.js';
import type { IndexerConfig } from './types.js';

export interface CaughtRun {
  index: number;
  seed: number;
  failure: string;
  uri: string;
  failing: Failing;
  stopAt: string | null;
}

/** Metric events that count as a failing interleaving when no invariant is violated. */
export const metricFailures = ['false_update', 'missed_semantic_change', 'lost_event_found_late'] as const;

export function hasMetricEvent(kind: string): Failing {
  return (result) => result.metricEvents.some((event) => event.invariant === kind);
}

/** A caught run of a known failure kind (an invariant, or one of metricFailures) at a known seed. */
export function catchOf(index: number, seed: number, failure: string, uri: string): CaughtRun {
  const metric = (metricFailures as readonly string[]).includes(failure);
  return { index, seed, failure, uri, failing: metric ? hasMetricEvent(failure) : violates(failure), stopAt: failure };
}

export function firstFailure(rootSeed: number, interleavingsMax: number, config: IndexerConfig, metricsToo: boolean): CaughtRun | null {
  for (let index = 0; index < interleavingsMax; index++) {
    const seed = deriveSeed(rootSeed, index);
    const result = runIndexerInterleaving(seed, config, { stopAt: metricsToo ? null : '*' });
    const found = result.violations[0];
    if (found !== undefined) return { index, seed, failure: found.invariant, uri: found.uri, failing: violates(found.invariant), stopAt: found.invariant };
    if (!metricsToo) continue;
    for (const kind of metricFailures) {
      const event = result.metricEvents.find((candidate) => candidate.invariant === kind);
      if (event !== undefined) return { index, seed, failure: kind, uri: event.uri, failing: hasMetricEvent(kind), stopAt: kind };
    }
  }
  return null;
}

export interface ShrunkFailure {
  decisionsBefore: number;
  decisions: number;
  attempts: number;
  timeline: string[];
  result: IndexerRunResult;
}

export function shrinkCaught(config: IndexerConfig, caught: CaughtRun, attemptsMax = 1_500): ShrunkFailure {
  const recorded = runIndexerInterleaving(caught.seed, config, { record: true, stopAt: caught.stopAt });
  const shrunk = shrinkIndexerRun(config, recorded.decisions!, caught.failing, caught.stopAt, attemptsMax);
  const traced = runIndexerInterleaving(0, config, { replay: shrunk.decisions, strict: false, trace: true, stopAt: caught.stopAt });
  const uri = [...traced.violations, ...traced.metricEvents].find((found) => found.invariant === caught.failure)?.uri ?? caught.uri;
  const timeline = focusedTimeline(traced.timeline!, uri);
  return { decisionsBefore: recorded.decisions!.length, decisions: shrunk.decisions.length, attempts: shrunk.attempts, timeline, result: traced };
}
