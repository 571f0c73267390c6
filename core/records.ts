/**
 * The ledger records that state.ts holds and scan.ts / authorization.ts maintain, declared apart from the code
 * that changes them so that the state imports no behaviour (no import cycle between the core's files).
 */
import type { CatalogStatus } from './types.js';

export interface DerivedRecord {
  subject: string;
  digest: string;
  entries: string[];
}

export interface DiscoveryScanRecord {
  schema: 'resourceDiscoveryScan.v1';
  scanId: number;
  pass: 'A' | 'B' | 'SNAPSHOT';
  sessionGeneration: number;
  firstRequestMs: number;
  /** Digests of the cursors this pass followed (never the cursors themselves). */
  cursorDigests: string[];
  /** Canonical URIs seen so far, in arrival order. */
  uris: string[];
  uriSetDigest: string | null;
  /** list_changed notifications observed while this pass ran. */
  notificationsObserved: number;
  /** Distinct snapshot IDs seen on this pass's pages; `forged` once any rule is broken. */
  snapshotIds: string[];
  snapshotForged: boolean;
  pages: number;
  endMs: number | null;
  status: 'RUNNING' | 'COMPLETE' | 'ABANDONED';
  /** 2026-07-28: the pages' `ttlMs` / `cacheScope` folded so far (shortest TTL, most private scope); absent on 2025-11-25. */
  hint?: { ttlMs: number; cacheScope: 'public' | 'private' };
}

export interface CatalogRecord {
  scanId: number;
  status: CatalogStatus;
  uris: string[];
  digest: string;
  measuredAtMs: number;
  nextReviewAtMs: number;
}

export interface DiscoveryLedger {
  nextScanId: number;
  /** A discovery was asked for and has not yet published (or given up). */
  wanted: boolean;
  rounds: number;
  running: DiscoveryScanRecord | null;
  /** The last complete pass of the current attempt (A for the A/B comparison). */
  previous: DiscoveryScanRecord | null;
  catalog: CatalogRecord | null;
}

export function emptyDiscovery(): DiscoveryLedger {
  return { nextScanId: 1, wanted: false, rounds: 0, running: null, previous: null, catalog: null };
}
