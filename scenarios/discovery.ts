/**
 * Discovery scenarios (SPEC §3.6, §7): listings that are not snapshots. A single pass never proves a
 * catalog complete; only a negotiated, unforged snapshot ID does.
 */
import { ratio } from '../sim/faults.js';
import type { Scenario } from './scenario.js';
import { catalogResources, discoveryWorkload, drawServer, plan, workload } from './shape.js';

export const multiPageLostNotifications: Scenario = {
  name: 'multi-page-lost-notifications',
  description:
    'multi-page listings over live data while resources are deleted and re-created between pages, update and list_changed notifications lost, sometimes no listChanged capability',
  targets: ['unreconciled_catalog', 'unproven_completeness', 'late_tombstone', 'convergence_60s'],
  catches: ['naive-single-scan', 'naive-trust-404'],
  sometimes: ['drop-notification', 'list-mutation-during-scan', 'slow-read', 'no-list-changed-capability'],
  plan: (chooser) =>
    plan(
      {
        'drop-notification': ratio(1, 2),
        'list-mutation-during-scan': ratio(1, 2),
        'slow-read': ratio(1, 6),
        'no-list-changed-capability': ratio(1, 4),
      },
      workload(chooser, discoveryWorkload, catalogResources, 4),
      drawServer(chooser),
    ),
};

export const cursorCycle: Scenario = {
  name: 'cursor-cycle',
  description: 'a nextCursor that leads back to a page already listed in the pass, and cursors the server rejects as invalid',
  targets: ['unreconciled_catalog', 'unproven_completeness', 'convergence_60s'],
  catches: ['naive-single-scan'],
  sometimes: ['cursor-cycle', 'cursor-invalid'],
  plan: (chooser) =>
    plan(
      { 'cursor-cycle': ratio(1, 3), 'cursor-invalid': ratio(1, 8) },
      workload(chooser, discoveryWorkload, catalogResources, 4),
      drawServer(chooser, 2),
    ),
};

export const malformedListPage: Scenario = {
  name: 'malformed-list-page',
  description: 'list pages that break the schema (resources not an array, an entry without a string uri, a non-string nextCursor): no catalog may rest on such a pass, and the client must still publish one after the heal',
  targets: ['unreconciled_catalog', 'healed_catalog', 'convergence_60s'],
  catches: ['naive-single-scan'],
  sometimes: ['malformed-list-page'],
  plan: (chooser) => plan({ 'malformed-list-page': ratio(1, 4) }, workload(chooser, discoveryWorkload, catalogResources, 4), drawServer(chooser, 2)),
};

/**
 * List passes at the edges of the contract (list-page-edge, sim/actors/listing-edges.ts; one pass in three during the
 * fault phase, snapshot IDs negotiated or not): a transient list error, a 2025-11-25 empty-string nextCursor, a null
 * result, 300 pages under fresh cursors, a snapshot ID as long as a ledger text. Each page's fate is judged in its
 * step (scan_record_untrue: abandoned as LIST_ERROR, EMPTY_CURSOR, MALFORMED_PAGE, PAGE_LIMIT at the client's
 * scanPagesMax; the long ID's pass proven, proven_withheld), and a catalog must still come after the heal. The first
 * discovery comes only at 4 s: a list_changed before it, no catalog and no pass yet, still owes a pass
 * (list_changed_unscanned; core/scan.ts onListChanged arms the discover timer when none is armed).
 */
export const listingEdges: Scenario = {
  name: 'listing-edges',
  description: 'list passes at the edges of the contract: a transient list error, an empty-string nextCursor on 2025-11-25, a null result, a pass longer than the page limit, a snapshot ID as long as allowed',
  targets: ['scan_record_untrue', 'proven_withheld', 'healed_catalog', 'unreconciled_catalog'],
  catches: [],
  sometimes: ['list-page-edge'],
  plan: (chooser) => plan({ 'list-page-edge': ratio(1, 3) }, workload(chooser, { ...discoveryWorkload, firstDiscoverMs: 4_000 }, catalogResources, 4), drawServer(chooser, 2)),
};

/**
 * A live list index that lags re-creates by 5-15 s (list-index-lag), no snapshot IDs, half the notifications lost,
 * discovery every 1-3 s and a resource deleted one change in three: two consecutive passes of an A/B catalog can
 * both miss a resource that exists again, so such a catalog must not confirm a deletion (core/scan.ts publish: only
 * a proven snapshot may; late_tombstone), while the client still converges and publishes after the heal.
 */
export const listIndexLag: Scenario = {
  name: 'list-index-lag',
  description: "a live resources/list index that shows re-created resources only 5-15 s later, no snapshot IDs, notifications lost: A/B catalogs that miss live resources",
  targets: ['late_tombstone', 'unreconciled_catalog', 'healed_catalog', 'convergence_60s'],
  catches: [],
  sometimes: ['list-index-lag', 'drop-notification'],
  plan: (chooser) =>
    plan(
      { 'list-index-lag': ratio(1, 1), 'drop-notification': ratio(1, 2) },
      workload(chooser, { ...discoveryWorkload, discoverIntervalMsMin: 1_000, discoverIntervalMsMax: 3_000, deleteRatio: ratio(1, 3) }, catalogResources, 4),
      { snapshotId: false, pageSizeMax: 3 },
    ),
};

export const forgedSnapshotId: Scenario = {
  name: 'forged-snapshot-id',
  description: 'a snapshot ID on pages the server never negotiated, or a negotiated one that changes between live pages',
  targets: ['unreconciled_catalog', 'unproven_completeness', 'convergence_60s'],
  catches: ['naive-single-scan'],
  sometimes: ['forged-snapshot-id'],
  plan: (chooser) =>
    plan({ 'forged-snapshot-id': ratio(1, 2) }, workload(chooser, discoveryWorkload, catalogResources, 3), drawServer(chooser)),
};

/**
 * A proven catalog reaches its review time (30 s by default) with no discovery command to renew it, its review pass
 * slowed by reordered (late) list pages, while the application commands completeness tasks every 0.2-1 s, snapshot
 * IDs negotiated: a task decided after the catalog's review time and before the next catalog must be refused
 * (task_catalog_expired), one before it accepted (completeness_refused).
 */
export const catalogReview: Scenario = {
  name: 'catalog-review',
  description: 'one discovery, then completeness tasks every 0.2-1 s across the proven catalog\'s review time, its review pass slowed by late list pages',
  targets: ['task_catalog_expired', 'completeness_refused', 'unproven_completeness'],
  catches: [],
  sometimes: ['reorder'],
  plan: (chooser) =>
    plan(
      { reorder: ratio(1, 1) },
      workload(chooser, { ...discoveryWorkload, deleteRatio: ratio(0, 1), finalDeleteRatio: ratio(0, 1), discoverIntervalMsMin: 300_000, discoverIntervalMsMax: 300_000, taskIntervalMsMin: 200, taskIntervalMsMax: 1_000, faultPhaseMs: chooser.between('workload', 'fault phase', 40_000, 60_000) }, catalogResources, 4),
      { snapshotId: true, pageSizeMax: 2 },
    ),
};
