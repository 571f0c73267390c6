/**
 * The indexer's metric gates (issue 13): metadata freshness, index freshness within window + 10 s outside
 * outages, dropped events found within one reconciliation period, false updates, missed semantic changes,
 * the threshold against the best one the oracle can compute, embedding calls per debounced change, purge
 * p99, read availability.
 */
import { histogramBins, purgeBinMs, type IndexerMetrics } from './sim-metrics.js';

export interface MetricResult {
  name: string;
  value: number;
  gate: string;
  passed: boolean;
}

const ratio = (numerator: number, denominator: number): number => (denominator === 0 ? 1 : numerator / denominator);

export function gateMetrics(m: IndexerMetrics): MetricResult[] {
  const best = bestThresholdErrors(m);
  const errors = m.falseUpdates + m.missed;
  const results: MetricResult[] = [
    { name: 'index_freshness', value: ratio(m.freshnessFresh, m.freshnessProbes), gate: '>= 0.99', passed: ratio(m.freshnessFresh, m.freshnessProbes) >= 0.99 },
    { name: 'lost_events_found_within_period', value: ratio(m.lostEventsFoundInPeriod, m.lostEvents), gate: '= 1', passed: m.lostEventsFoundInPeriod === m.lostEvents },
    { name: 'false_update_rate', value: ratio(m.falseUpdates, m.decisionsUnchanged) * (m.decisionsUnchanged === 0 ? 0 : 1), gate: '<= 0.05', passed: m.falseUpdates <= 0.05 * m.decisionsUnchanged },
    { name: 'missed_semantic_rate', value: m.decisionsChanged === 0 ? 0 : m.missed / m.decisionsChanged, gate: '<= 0.02', passed: m.missed <= 0.02 * m.decisionsChanged },
    { name: 'subtle_missed_rate', value: m.subtleDecisions === 0 ? 0 : m.subtleMissed / m.subtleDecisions, gate: 'reported', passed: true },
    { name: 'threshold_errors_vs_best', value: best === 0 ? errors : errors / best, gate: '<= 1.5x best + 0.5 %', passed: errors <= 1.5 * best + 0.005 * m.decisions },
    { name: 'embed_calls_per_change', value: ratio(m.embedCalls - m.embedCallsMigration, m.debouncedChanges), gate: '<= 1.05', passed: m.embedCalls - m.embedCallsMigration <= 1.05 * m.debouncedChanges },
    { name: 'purge_p99_ms', value: purgeP99Ms(m), gate: '< 30000', passed: purgeP99Ms(m) < 30_000 },
    { name: 'read_refused_live_rate', value: m.readsOfServedLive === 0 ? 0 : m.readsRefusedLive / m.readsOfServedLive, gate: '<= 0.05', passed: m.readsRefusedLive <= 0.05 * m.readsOfServedLive },
  ];
  return results;
}

/** The fewest errors any single threshold per model could make on the decisions the oracle judged. */
export function bestThresholdErrors(m: IndexerMetrics): number {
  let total = 0;
  for (const model in m.similarity) total += oracleValley(m.similarity[model]!).errors;
  return total;
}

/**
 * The valley the oracle computes: knowing which decisions were real changes, the bin edge that
 * misjudges the fewest (the middle of the best range when several edges tie).
 */
export function oracleValley(histogram: { changed: readonly number[]; unchanged: readonly number[] }): { threshold: number; errors: number } {
  let bestErrors = Infinity;
  let first = 0;
  let last = 0;
  for (let cut = 0; cut <= histogramBins; cut++) {
    let errors = 0;
    for (let bin = 0; bin < histogramBins; bin++) errors += bin < cut ? histogram.unchanged[bin]! : histogram.changed[bin]!;
    if (errors < bestErrors) {
      bestErrors = errors;
      first = cut;
      last = cut;
    } else if (errors === bestErrors && last === cut - 1) last = cut;
  }
  return { threshold: (first + last) / 2 / histogramBins, errors: bestErrors };
}

export function purgeP99Ms(m: IndexerMetrics): number {
  const target = Math.ceil(m.purges * 0.99);
  let seen = 0;
  for (let bin = 0; bin < m.purgeMsHistogram.length; bin++) {
    seen += m.purgeMsHistogram[bin]!;
    if (seen >= target && target > 0) return (bin + 1) * purgeBinMs;
  }
  return 0;
}
