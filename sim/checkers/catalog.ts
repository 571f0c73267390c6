/**
 * Catalog invariants (SPEC §3.6, §6): `unreconciled_catalog`, `unproven_completeness`, and the deletion half
 * of `late_tombstone`. Judged from effects against what the server really served, never from the client's
 * claims about its scans.
 *
 * A pass runs from a list request without cursor to the delivery (on the current session) of its page
 * without nextCursor. It is honestly proven iff the snapshot-ID extension was negotiated, nothing was forged
 * and every page came from one real snapshot (the listing records this per page as `ListProof`).
 * - CatalogPublished SNAPSHOT_PROVEN: the last completed pass must be honestly proven.
 * - Any other catalog (or a proven claim that is not honest) needs two complete passes delivered since the
 *   previous CatalogPublished: a single scan never yields a complete catalog. Neither of the two it rests on
 *   may have had a malformed page (malformed-list-page: the client cannot know what that pass listed).
 * - CompletenessTaskDecided accepted: only on a catalog judged an honest SNAPSHOT_PROVEN.
 * - TombstoneConfirmed or an outbox 'delete' for a URI that exists in truth and has existed since the last
 *   completed pass began (since the start of the run when no pass completed) is a late tombstone.
 */
import type { ClientEffect } from '../../core/types.js';

/** How the pages of a pass were really served. */
export type ListProof =
  /** negotiated extension, every page from one real snapshot under one ID */
  | 'snapshot'
  /** no extension negotiated: live data, no snapshot ID */
  | 'live'
  /** no extension negotiated, yet the pages carried a snapshot ID */
  | 'forged-unnegotiated'
  /** extension negotiated, but pages served from live data and the ID changed, vanished or appeared on a later page */
  | 'forged-live'
  /** a page of the pass broke the schema (malformed-list-page): the client cannot know what it listed */
  | 'malformed';

const proofDescriptions: Record<ListProof, string> = {
  snapshot: 'served from one real snapshot',
  live: 'served from live data without a negotiated snapshot ID',
  'forged-unnegotiated': 'served from live data with a snapshot ID the server never negotiated',
  'forged-live': 'served from live data under a snapshot ID that changed, vanished or appeared between pages',
  malformed: 'served with a malformed page',
};

export interface OracleSink {
  resourceOf(uri: string): number;
  violate(invariant: 'unreconciled_catalog' | 'unproven_completeness' | 'late_tombstone', timeMs: number, uri: string, detail: string): void;
}

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;
type TaskEffect = Extract<ClientEffect, { type: 'CompletenessTaskDecided' }>;

export class CatalogChecker {
  passesCompleted = 0;
  catalogsPublished = 0;
  catalogsProven = 0;
  tasksAccepted = 0;
  tasksRefused = 0;

  private passesSincePublish = 0;
  private lastPassId = -1;
  private lastPassProof: ListProof | null = null;
  private previousPassProof: ListProof | null = null;
  /** Start of the latest completed pass, or -1. */
  private lastPassStartMs = -1;
  private latestCatalogHonest = false;
  private latestCatalogScan = -1;
  private readonly exists: Uint8Array;
  /** Per resource: since when it has existed without interruption (valid while it exists). */
  private readonly existsSinceMs: Float64Array;

  constructor(
    private readonly sink: OracleSink,
    resourceCount: number,
  ) {
    this.exists = new Uint8Array(resourceCount).fill(1);
    this.existsSinceMs = new Float64Array(resourceCount);
  }

  /** Truth: a resource was created, re-created or deleted (edits do not matter here). */
  onExistence(resource: number, exists: boolean, timeMs: number): void {
    if (exists && this.exists[resource] === 0) this.existsSinceMs[resource] = timeMs;
    this.exists[resource] = exists ? 1 : 0;
  }

  /** The last page of a pass was delivered on the current session. */
  onPassCompleted(pass: number, proof: ListProof, startMs: number): void {
    this.passesCompleted++;
    this.passesSincePublish++;
    this.lastPassId = pass;
    this.previousPassProof = this.lastPassProof;
    this.lastPassProof = proof;
    this.lastPassStartMs = startMs;
  }

  /** The latest catalog published is an honest SNAPSHOT_PROVEN (catalog-decisions.ts). */
  get latestHonest(): boolean {
    return this.latestCatalogHonest;
  }

  judgePublished(effect: CatalogEffect, timeMs: number): void {
    this.catalogsPublished++;
    const proven = effect.status === 'SNAPSHOT_PROVEN';
    const honest = proven && this.lastPassProof === 'snapshot';
    const passes = this.passesSincePublish;
    this.passesSincePublish = 0;
    this.latestCatalogHonest = honest;
    this.latestCatalogScan = effect.scanId;
    if (honest) {
      this.catalogsProven++;
      return;
    }
    if (proven) {
      const last = this.lastPassProof === null ? 'no list pass was ever completed' : `the last complete pass (#${this.lastPassId}) was ${proofDescriptions[this.lastPassProof]}`;
      this.sink.violate('unreconciled_catalog', timeMs, '', `catalog of scan ${effect.scanId} published as SNAPSHOT_PROVEN, but ${last}`);
    } else if (passes < 2) {
      this.sink.violate('unreconciled_catalog', timeMs, '', `catalog of scan ${effect.scanId} published as ${effect.status} after ${passes} complete list pass${passes === 1 ? '' : 'es'} since the previous catalog (two are needed)`);
    } else if (this.lastPassProof === 'malformed' || this.previousPassProof === 'malformed') {
      const which = this.lastPassProof === 'malformed' ? `its last pass (#${this.lastPassId})` : 'the pass before its last';
      this.sink.violate('unreconciled_catalog', timeMs, '', `catalog of scan ${effect.scanId} published as ${effect.status}, but ${which} was ${proofDescriptions.malformed}`);
    }
  }

  judgeTask(effect: TaskEffect, timeMs: number): void {
    if (!effect.accepted) {
      this.tasksRefused++;
      return;
    }
    this.tasksAccepted++;
    if (this.latestCatalogHonest) return;
    const catalog = this.latestCatalogScan < 0 ? 'no catalog was ever published' : `the latest catalog (scan ${this.latestCatalogScan}) is not an honest SNAPSHOT_PROVEN`;
    this.sink.violate('unproven_completeness', timeMs, '', `completeness task ${effect.task} accepted (client claims catalog ${effect.catalogStatus}), but ${catalog}`);
  }

  /** TombstoneConfirmed, or an outbox 'delete' entry: the client treats the resource as gone. */
  judgeDeletion(uri: string, timeMs: number, what: string): void {
    const resource = this.sink.resourceOf(uri);
    if (resource < 0 || this.exists[resource] === 0) return;
    const since = this.existsSinceMs[resource]!;
    if (this.lastPassStartMs >= 0 && since > this.lastPassStartMs) return; // re-created after the pass it relied on began
    const basis = this.lastPassStartMs < 0 ? 'no list pass was ever completed' : `the last complete list pass began at ${Math.floor(this.lastPassStartMs)} ms`;
    this.sink.violate('late_tombstone', timeMs, uri, `${what} for ${uri}, which exists in truth and has since ${since} ms (${basis})`);
  }
}
