/**
 * The one verdict of a gate over its accumulator: safety counters, the metric thresholds, the "sometimes"
 * faults, the indexer's part and the evidence beside them (sim/verdict.ts turns the reasons into the outcome).
 */
import type { Scenario } from './scenario.js';
import { faultNames, type FaultName } from './faults.js';
import { failingLivenessInvariants, invariantIndex, livenessInvariants, safetyInvariants } from './invariants.js';
import { evidenceReasons, exitCodeOf, gateOutcomeOf, type GateOutcome, type VerdictEvidence } from './verdict.js';
import { indexerReasons } from '../indexer/gate-part.js';
import type { GateAccumulator } from './gate-accumulator.js';
import { histogramPercentileMs } from './gate-histograms.js';

export interface MetricThreshold {
  comparator: '<' | '>=';
  value: number;
}

export type MetricName = 'read_amplification' | 'convergence_60s' | 'revocation_p99_ms' | 'staleness_at_serve_p99_ms';

export const thresholds: Record<MetricName, MetricThreshold> = {
  read_amplification: { comparator: '<', value: 1.2 },
  convergence_60s: { comparator: '>=', value: 0.999 },
  revocation_p99_ms: { comparator: '<', value: 30_000 },
  // 2026-07-28 (sim/checkers/era2026-ttl.ts): p99 of how stale served content is, under the longest ttlMs the era scenarios hand out.
  staleness_at_serve_p99_ms: { comparator: '<', value: 30_000 },
};

/** The "sometimes" expectations are enforced only on runs large enough to make a miss meaningful. */
export const sometimesMinimumInterleavings = 1_000;

export interface MetricReport {
  value: number;
  threshold: MetricThreshold;
  passed: boolean;
  numerator: number;
  denominator: number;
  /** False when the run produced no sample (denominator 0): `value` is then a placeholder, never a measurement. */
  measured?: boolean;
}

export interface GateVerdict {
  passed: boolean;
  /** `passed` unless `failed`; `nondeterministic` when the self-check found a run giving two traces. */
  outcome: GateOutcome;
  /** The exit code of `outcome` (verdict.ts gateExitCodes). */
  exitCode: number;
  /** The evidence beyond the accumulator this verdict weighed (buildReport checks it matches the report's). */
  evidence: VerdictEvidence;
  reasons: string[];
  counters: Record<string, number>;
  liveness: Record<string, number>;
  metrics: Record<string, MetricReport>;
  sometimes: Record<string, { fired: number; required: boolean }>;
}

function metric(name: MetricName, numerator: number, denominator: number, emptyValue: number): MetricReport {
  const threshold = thresholds[name];
  const value = denominator === 0 ? emptyValue : numerator / denominator;
  const passed = threshold.comparator === '<' ? value < threshold.value : value >= threshold.value;
  return { value: round6(value), threshold, passed, numerator, denominator };
}

/** p99 of the revocation latencies: numerator is the p99 in ms, denominator the number of revocations measured. */
function p99Metric(histogram: Float64Array, name: 'revocation_p99_ms' | 'staleness_at_serve_p99_ms' = 'revocation_p99_ms'): MetricReport {
  let measured = 0;
  for (let i = 0; i < histogram.length; i++) measured += histogram[i]!;
  const value = histogramPercentileMs(histogram, 0.99);
  const threshold = thresholds[name];
  return { value, threshold, passed: value < threshold.value, numerator: value, denominator: measured };
}

export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * The one verdict of a gate: the accumulated results of its interleavings (safety counters, metrics,
 * "sometimes" faults) and the evidence beside them (the determinism self-check, a partial merge) give the
 * reasons, the outcome and the exit code. Nothing else decides pass or fail.
 */
export function verdictOf(accumulator: GateAccumulator, scenario: Scenario, evidence: VerdictEvidence = {}): GateVerdict {
  const reasons: string[] = [];
  const counters: Record<string, number> = {};
  safetyInvariants.forEach((name, index) => {
    counters[name] = accumulator.violationCounts[index]!;
    if (counters[name]! > 0) reasons.push(`${name}: ${counters[name]} violations in ${accumulator.failingInterleavings[index]} interleavings`);
  });
  const liveness: Record<string, number> = {};
  livenessInvariants.forEach((name, offset) => {
    liveness[name] = accumulator.failingInterleavings[safetyInvariants.length + offset]!;
  });
  // A liveness failure of the healed phase fails its interleaving like a safety violation (sim/invariants.ts).
  for (const name of failingLivenessInvariants) {
    const index = invariantIndex[name];
    if (accumulator.failingInterleavings[index]! > 0) reasons.push(`${name}: ${accumulator.violationCounts[index]} violations in ${accumulator.failingInterleavings[index]} interleavings`);
  }
  const metrics: Record<string, MetricReport> = {
    read_amplification: metric('read_amplification', accumulator.notificationReads, accumulator.notifiedChanges, 0),
    convergence_60s: metric('convergence_60s', accumulator.changesConverged, accumulator.changesTracked, 1),
    revocation_p99_ms: p99Metric(accumulator.revocationHistogram),
    staleness_at_serve_p99_ms: p99Metric(accumulator.stalenessAtServeHistogram, 'staleness_at_serve_p99_ms'),
  };
  const enforce = accumulator.interleavings >= sometimesMinimumInterleavings;
  for (const [name, report] of Object.entries(metrics)) {
    // No sample is "not measured", never a pass on a placeholder value; it fails when the scenario claims the metric.
    report.measured = report.denominator > 0;
    const claimed = (scenario.claims ?? []).includes(name as MetricName);
    if (!report.measured) {
      report.passed = !(claimed && enforce);
      if (!report.passed) reasons.push(`${name} not measured: 0 samples in ${accumulator.interleavings} interleavings, but scenario ${scenario.name} claims this metric`);
    } else if (!report.passed) reasons.push(`${name} = ${report.value} misses its gate (${report.threshold.comparator} ${report.threshold.value})`);
  }
  const sometimes: Record<string, { fired: number; required: boolean }> = {};
  faultNames.forEach((name: FaultName, index) => {
    const required = scenario.sometimes.includes(name);
    const fired = accumulator.faultCounts[index]!;
    if (required || fired > 0) sometimes[name] = { fired, required };
    if (required && enforce && fired === 0) {
      reasons.push(`sometimes: fault ${name} never fired in ${accumulator.interleavings} interleavings, so the scenario did not test what it claims`);
    }
  });
  reasons.push(...indexerReasons(accumulator.indexerFigures));
  reasons.push(...evidenceReasons(evidence));
  const outcome = gateOutcomeOf(reasons, evidence);
  return { passed: outcome === 'passed', outcome, exitCode: exitCodeOf(outcome), evidence, reasons, counters, liveness, metrics, sometimes };
}
