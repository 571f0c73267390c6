/**
 * One interleaving's plan: the fault plan plus the workload, network and server shape, drawn by a scenario
 * from the interleaving's chooser. Plain serializable data; every duration in integer ms.
 */
import type { FaultPlan, Ratio } from './faults.js';

export interface ResourceSpec {
  uri: string;
  mimeType: string;
  /**
   * Equivalent spellings of `uri` made by construction (scenarios/uri-shapes.ts); present: the server spells the
   * resource with these (uri-spelling, ServerPlan.uriShapes) instead of sim/actors/spelling.ts's variants.
   */
  spellings?: readonly string[];
}

export interface WorkloadPlan {
  resources: ResourceSpec[];
  /** Mutations, workload commands and faults happen in [0, faultPhaseMs). */
  faultPhaseMs: number;
  /** Then nothing but the client's own timers and reconnects, for this long (convergence is judged). */
  healPhaseMs: number;
  /** Per resource: time between mutations. */
  mutationIntervalMsMin: number;
  mutationIntervalMsMax: number;
  /** Per mutation: chance it deletes an existing resource (a deleted one is re-created next time). */
  deleteRatio: Ratio;
  /**
   * Per resource: chance the last mutation of the fault phase deletes it (it stays deleted through the heal, so
   * the healed phase judges the deletion's confirmation); absent or 0: the last mutation writes (re-creates) it.
   */
  finalDeleteRatio?: Ratio;
  /** Per mutation: chance it is a burst of 2-4 quick edits. */
  burstRatio: Ratio;
  /** Per close tick (every closeTickMs per resource): chance to unsubscribe; re-subscribed later. */
  closeTickMs: number;
  closeRatio: Ratio;
  resubscribeDelayMsMin: number;
  resubscribeDelayMsMax: number;
  /** DiscoverCommanded at the start and then every [min, max] ms; max 0 = no discovery. */
  discoverIntervalMsMin: number;
  discoverIntervalMsMax: number;
  /** The first DiscoverCommanded at this time instead of at the start (listing-edges: list_changed before any discovery). */
  firstDiscoverMs?: number;
  /** CompletenessTaskCommanded ('cleanup' or 'revocation-sweep') every [min, max] ms after the first discovery; max 0 = none. */
  taskIntervalMsMin: number;
  taskIntervalMsMax: number;
  /** Per resource: ServeCommanded to its subject every [min, max] ms; max 0 = none. */
  serveIntervalMsMin: number;
  serveIntervalMsMax: number;
}

export interface NetworkPlan {
  latencyMsMin: number;
  latencyMsMax: number;
  reorderDelayMsMax: number;
  slowReadDelayMsMax: number;
  duplicateDelayMsMax: number;
  duplicateCopiesMax: number;
  lateResponseDelayMsMax: number;
  outageMsMin: number;
  outageMsMax: number;
  /** Disconnects, restarts, crashes and revocations are tried once per tick during the fault phase. */
  faultTickMs: number;
  /** The authorization feed delivers a revocation after this delay, unless it loses it. */
  authorizationFeedDelayMsMin: number;
  authorizationFeedDelayMsMax: number;
  authorizationFeedLossRatio: Ratio;
}

export interface ServerPlan {
  /** The snapshot-ID list extension is negotiated (capabilities.snapshotId). */
  snapshotId: boolean;
  /** resources/list pages hold 1..pageSizeMax resources (server-chosen per page). */
  pageSizeMax: number;
  /** Present: list passes taken in turn spell URIs and carry malformed URI entries (sim/actors/listing.ts). */
  uriShapes?: UriShapesListing;
}

/**
 * Listings of the uri-shapes scenario (scenarios/uri-shapes.ts). Passes cycle through `honest`, `duplicate`,
 * `nonUri`, `duplicate`, `nonUri`: an honest pass lists every resource under a spelling taken in turn (its `spellings`, or
 * its own URI); a duplicate pass lists one resource a second time under one of its spellings, next to itself; a
 * nonUri pass lists one of `nonUris` among the resources. Every pass is one page; duplicate and nonUri ones are
 * `malformed`.
 */
export interface UriShapesListing {
  nonUris: readonly string[];
}

/** MCP 2026-07-28 (listen, `ttlMs`, no sessions); a plan without it runs 2025-11-25. */
export interface Era2026Plan {
  /** Every read result carries a `ttlMs` in [min, max] (drawn per result), unless ttl-hostile rewrites it. */
  ttlMsMin: number;
  ttlMsMax: number;
}

export interface InterleavingPlan {
  faults: FaultPlan;
  workload: WorkloadPlan;
  network: NetworkPlan;
  server: ServerPlan;
  /** Present: the interleaving speaks 2026-07-28 (sim/actors/era2026.ts). */
  era2026?: Era2026Plan;
}

export const defaultNetwork: NetworkPlan = {
  latencyMsMin: 1,
  latencyMsMax: 25,
  reorderDelayMsMax: 400,
  slowReadDelayMsMax: 3_000,
  duplicateDelayMsMax: 300,
  duplicateCopiesMax: 3,
  lateResponseDelayMsMax: 2_000,
  outageMsMin: 50,
  outageMsMax: 5_000,
  faultTickMs: 1_000,
  authorizationFeedDelayMsMin: 100,
  authorizationFeedDelayMsMax: 5_000,
  authorizationFeedLossRatio: { numerator: 1, denominator: 3 },
};

export const defaultServer: ServerPlan = { snapshotId: false, pageSizeMax: 3 };
