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
  for (const model in m.similarity) {
    const { changed, unchanged } = m.similarity[model]!;
    let bestErrors = Infinity;
    for (let cut = 0; cut <= histogramBins; cut++) {
      let errors = 0;
      for (let bin = 0; bin < histogramBins; bin++) errors += bin < cut ? unchanged[bin]! : changed[bin]!;
      if (errors < bestErrors) bestErrors = errors;
    }
    total += bestErrors;
  }
  return total;
}

/** The bin edge of the valley of a bimodal histogram: the lowest bin between its two highest peaks. */
export function valleyThreshold(histogram: readonly number[]): number {
  let high = 0;
  for (let bin = 1; bin < histogram.length; bin++) if (histogram[bin]! >= histogram[high]!) high = bin;
  let low = -1;
  for (let bin = 0; bin < histogram.length; bin++) {
    if (Math.abs(bin - high) < 3) continue;
    if (low === -1 || histogram[bin]! > histogram[low]!) low = bin;
  }
  if (low === -1) return (high + 0.5) / histogram.length;
  const [from, to] = low < high ? [low, high] : [high, low];
  let valley = from + 1;
  for (let bin = from + 1; bin < to; bin++) if (histogram[bin]! < histogram[valley]!) valley = bin;
  return (valley + 0.5) / histogram.length;
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
