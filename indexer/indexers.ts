/**
 * The indexers the gate runs: the reference and the naive strategies the issue names, each the reference
 * with one shortcut taken (so a caught naive indexer shows that shortcut is what breaks).
 */
import { defaultConfig, referenceFlags } from './reducer.js';
import type { IndexerConfig, NaiveFlags } from './types.js';

export const naiveIndexers: Record<string, { flag: keyof NaiveFlags; meaning: string }> = {
  'naive-arrival-order': { flag: 'noVersionGuard', meaning: 'applies events in arrival order (no version guard)' },
  'naive-no-outbox': { flag: 'noOutbox', meaning: 'metadata, then one store write with no outbox (no retry, no verification)' },
  'naive-store-first': { flag: 'storeFirstNoVerify', meaning: 'store first, bookkeeping second, never verified (the LangChain shape)' },
  'naive-delete-then-insert': { flag: 'deleteThenInsert', meaning: 'deletes the old vectors before embedding the new ones (LlamaIndex #22046)' },
  'naive-reembed-any-change': { flag: 'refreshOnAnyChange', meaning: 're-embeds and refreshes on any hash change' },
  'naive-compare-previous': { flag: 'compareWithPrevious', meaning: 'compares with the previous version, not the last confirmed fingerprint' },
  'naive-literal-band': { flag: 'literalBand', meaning: "the document's literal rule: resource-level, 0.7-0.85 updates the fingerprint only" },
  'naive-blocking-embed': { flag: 'embedBlocksMetadata', meaning: 'commits metadata only after the embedding returns' },
  'naive-no-tombstone': { flag: 'noTombstone', meaning: 'a delete drops the metadata row (no tombstone)' },
  'naive-in-place-swap': { flag: 'inPlaceModelSwap', meaning: 'swaps the embedding model in place' },
  'naive-sampled-reconcile': { flag: 'sampledReconciliation', meaning: "reconciles a 10 % random sample per period (the document's)" },
};

export const indexerNames = ['reference', ...Object.keys(naiveIndexers)];

export function indexerConfig(name: string): IndexerConfig | null {
  if (name === 'reference') return defaultConfig();
  const naive = naiveIndexers[name];
  if (naive === undefined) return null;
  const flags: NaiveFlags = { ...referenceFlags, [naive.flag]: true };
  return defaultConfig({ naive: flags });
}
