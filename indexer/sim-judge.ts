/**
 * The oracle's metrics for one interleaving: semantic decisions judged against the hidden labels (the
 * confirmed version is what the store published, as the simulator saw it), freshness probes, lost events
 * and when reconciliation found them.
 */
import { semanticDistance } from './edits.js';
import { readIndex } from './read-path.js';
import { freshnessSlotOf, recordSimilarity } from './sim-metrics.js';
import type { SimPort } from './sim-port.js';
import type { IndexerEffect } from './types.js';

/** Slack for "within one period": the hash pass's own latency and a restart's downtime. */
export const lostEventSlackMs = 3_000;

export function judgeDecision(world: SimPort, effect: IndexerEffect): void {
  const metrics = world.metrics;
  switch (effect.type) {
    case 'MetadataCommitted': {
      metrics.metadataCommits++;
      const lost = world.lost.get(effect.uri);
      if (lost === undefined) return;
      const remaining = lost.filter((entry) => {
        if (entry.sequence > effect.sequence) return true;
        metrics.lostEvents++;
        if (world.nowMs - entry.droppedAtMs <= world.config.reconcilePeriodMs + lostEventSlackMs) metrics.lostEventsFoundInPeriod++;
        else world.metricEvent('lost_event_found_late', effect.uri, `v${entry.sequence} dropped at ${entry.droppedAtMs} ms, found at ${world.nowMs} ms`);
        return false;
      });
      world.lost.set(effect.uri, remaining);
      return;
    }
    case 'IndexPublished':
      world.published.set(effect.uri + '|' + effect.model, effect.sequence);
      return;
    case 'SemanticDecided': return judgeSemantic(world, effect);
    default: return;
  }
}

function judgeSemantic(world: SimPort, effect: Extract<IndexerEffect, { type: 'SemanticDecided' }>): void {
  const metrics = world.metrics;
  if (effect.model === world.state.durable.models.active) metrics.debouncedChanges++;
  const publishedSequence = world.published.get(effect.uri + '|' + effect.model);
  if (publishedSequence === undefined) return;
  const before = world.versionModel(effect.uri, publishedSequence);
  const after = world.versionModel(effect.uri, effect.sequence);
  // Forced refreshes (nothing comparable: first index, repair, another model ahead) are not the rule's.
  if (before === null || after === null || effect.similarity === null) return;
  const changed = semanticDistance(before, after) >= 1;
  metrics.decisions++;
  if (changed) {
    metrics.decisionsChanged++;
    if (!effect.refresh) {
      metrics.missed++;
      world.metricEvent('missed_semantic_change', effect.uri, `v${effect.sequence} differs in meaning from the published v${publishedSequence}, judged unchanged`);
    }
  } else {
    metrics.decisionsUnchanged++;
    if (effect.refresh) {
      metrics.falseUpdates++;
      world.metricEvent('false_update', effect.uri, `v${effect.sequence} means what the published v${publishedSequence} means, refreshed anyway`);
    }
  }
  if (world.labels.get(effect.uri + '#' + effect.sequence) === 'subtle' && changed) {
    metrics.subtleDecisions++;
    if (!effect.refresh) metrics.subtleMissed++;
  }
  recordSimilarity(metrics, effect.model, effect.similarity, changed);
}

/**
 * window + 10 s after a version arrived (and while it is still the source's): is it judged and readable?
 * Outside outages: the embedding outage window, a store data loss until the next pass.
 */
export function probeFreshness(world: SimPort, uri: string, sequence: number, startMs: number): void {
  const truth = world.truth(uri);
  if (truth === undefined || truth.deleted || truth.sequence !== sequence) return;
  const plan = world.plan;
  if (plan.faults['embed-outage'] && startMs < plan.outageEndMs && world.nowMs > plan.outageStartMs) return;
  // A store data loss is a store outage until the next reconciliation pass finds and rewrites it.
  const lossAtMs = world.dataLossAtMs.get(uri);
  if (lossAtMs !== undefined && lossAtMs <= world.nowMs && lossAtMs >= startMs - world.config.reconcilePeriodMs) return;
  world.metrics.freshnessProbes++;
  const slot = freshnessSlotOf(world.nowMs);
  world.metrics.freshnessProbesBySlot[slot]!++;
  const row = world.state.durable.meta[uri];
  const published = row?.indexed[world.state.durable.models.active];
  const judged = published !== undefined && published.checkedHash === truth.digest;
  if (judged && readIndex(world.state, uri, world.store.rowsOf(uri)).served) {
    world.metrics.freshnessFresh++;
    world.metrics.freshnessFreshBySlot[slot]!++;
  } else world.line(`freshness probe: ${uri} v${sequence} not indexed within window + 10 s`);
}

/** Lost events never found by the end of the run count as not found. */
export function finishMetrics(world: SimPort): void {
  for (const [uri, lost] of world.lost) {
    world.metrics.lostEvents += lost.length;
    for (const entry of lost) world.metricEvent('lost_event_found_late', uri, `v${entry.sequence} dropped at ${entry.droppedAtMs} ms, never found`);
  }
  world.lost.clear();
}
