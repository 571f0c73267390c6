/**
 * The indexer's metrics for one interleaving, as plain counters that merge by addition (so workers and
 * shards add up exactly): freshness, drift found, semantic decisions judged against the hidden labels,
 * embedding calls, purge latency, read availability.
 */
export interface IndexerMetrics {
  metadataCommits: number;
  metadataCommitsLate: number;
  freshnessProbes: number;
  freshnessFresh: number;
  lostEvents: number;
  lostEventsFoundInPeriod: number;
  decisions: number;
  decisionsUnchanged: number;
  falseUpdates: number;
  decisionsChanged: number;
  missed: number;
  subtleDecisions: number;
  subtleMissed: number;
  embedCalls: number;
  embedCallsMigration: number;
  debouncedChanges: number;
  purges: number;
  purgeMsHistogram: number[];
  readsOfServedLive: number;
  readsRefusedLive: number;
  /** The freshness curve: probes and fresh probes per 10 s of virtual time (the dashboard's trend). */
  freshnessProbesBySlot: number[];
  freshnessFreshBySlot: number[];
  /** Reconciliation drift found (and repaired) by kind: a lost source event, a store out of step, a semantic miss. */
  driftSource: number;
  driftStore: number;
  driftSemantic: number;
  /** Similarity histogram per model: 50 bins over [0, 1], split by the hidden truth (changed or not). */
  similarity: Record<string, { changed: number[]; unchanged: number[] }>;
  /** Best-threshold errors the oracle can reach, and the indexer's, summed over interleavings. */
  thresholdErrors: number;
  faultsFired: Record<string, number>;
}

export const histogramBins = 50;
export const purgeBinMs = 1_000;
export const purgeBins = 60;
export const freshnessSlotMs = 10_000;
/** Slots of the freshness curve: a probe runs at most window + 10 s after the last change of the run (< 200 s). */
export const freshnessSlots = 20;

export function emptyMetrics(): IndexerMetrics {
  return {
    metadataCommits: 0, metadataCommitsLate: 0, freshnessProbes: 0, freshnessFresh: 0, lostEvents: 0, lostEventsFoundInPeriod: 0,
    decisions: 0, decisionsUnchanged: 0, falseUpdates: 0, decisionsChanged: 0, missed: 0, subtleDecisions: 0, subtleMissed: 0,
    embedCalls: 0, embedCallsMigration: 0, debouncedChanges: 0, purges: 0, purgeMsHistogram: new Array<number>(purgeBins).fill(0),
    readsOfServedLive: 0, readsRefusedLive: 0, freshnessProbesBySlot: new Array<number>(freshnessSlots).fill(0),
    freshnessFreshBySlot: new Array<number>(freshnessSlots).fill(0), driftSource: 0, driftStore: 0, driftSemantic: 0, similarity: {}, thresholdErrors: 0, faultsFired: {},
  };
}

export function similarityBin(similarity: number): number {
  const clamped = similarity < 0 ? 0 : similarity > 1 ? 1 : similarity;
  return Math.min(histogramBins - 1, Math.floor(clamped * histogramBins));
}

export function mergeMetrics(into: IndexerMetrics, from: IndexerMetrics): void {
  for (const key of Object.keys(from) as (keyof IndexerMetrics)[]) {
    const value = from[key];
    if (typeof value === 'number') (into[key] as number) += value;
  }
  from.purgeMsHistogram.forEach((count, index) => (into.purgeMsHistogram[index]! += count));
  from.freshnessProbesBySlot.forEach((count, index) => (into.freshnessProbesBySlot[index]! += count));
  from.freshnessFreshBySlot.forEach((count, index) => (into.freshnessFreshBySlot[index]! += count));
  for (const model in from.similarity) {
    const target = (into.similarity[model] ??= { changed: new Array<number>(histogramBins).fill(0), unchanged: new Array<number>(histogramBins).fill(0) });
    from.similarity[model]!.changed.forEach((count, index) => (target.changed[index]! += count));
    from.similarity[model]!.unchanged.forEach((count, index) => (target.unchanged[index]! += count));
  }
  for (const fault in from.faultsFired) into.faultsFired[fault] = (into.faultsFired[fault] ?? 0) + from.faultsFired[fault]!;
}

export function recordSimilarity(metrics: IndexerMetrics, model: string, similarity: number, changed: boolean): void {
  const entry = (metrics.similarity[model] ??= { changed: new Array<number>(histogramBins).fill(0), unchanged: new Array<number>(histogramBins).fill(0) });
  (changed ? entry.changed : entry.unchanged)[similarityBin(similarity)]!++;
}

export function freshnessSlotOf(nowMs: number): number {
  return Math.min(freshnessSlots - 1, Math.floor(nowMs / freshnessSlotMs));
}
