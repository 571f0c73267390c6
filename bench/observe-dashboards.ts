/**
 * What healthy and unhealthy dashboards look like under each fault (issue 16 item 3), a script, not a test:
 *   `npm run bench:build && node dist-bench/bench/observe-dashboards.js [--seeds 20]`
 * One row per fault (alone, 1 in 4; capability faults always on), the reference client, the same pure fold
 * that feeds the fenced cache's metrics. Deterministic: same seeds, same table.
 */
import { referenceClient } from '../core/reducer.js';
import { dashboardOf, dashboardScenario } from '../adapters/mcp-sdk/observe/dashboards.js';
import { capabilityFaults, faultNames, ratio } from '../adapters/mcp-sdk/observe/sim-support.js';

const seedsIndex = process.argv.indexOf('--seeds');
const seedCount = seedsIndex < 0 ? 20 : Number(process.argv[seedsIndex + 1]);
if (!Number.isInteger(seedCount) || seedCount < 1) throw new RangeError(`--seeds must be a positive integer, got ${process.argv[seedsIndex + 1]}`);
const seeds = Array.from({ length: seedCount }, (_, index) => 1 + index);

const header = ['fault', 'notif', 'recon.chg', 'reads notif/recon', 'stale', 'age mean s', 'age max s', 'resub ok/inc/int', 'healthy/degr/unh'];
console.log(header.join(' | '));
for (const fault of ['none', ...faultNames]) {
  const faults = fault === 'none' ? {} : { [fault]: capabilityFaults.includes(fault as never) ? ratio(1, 1) : ratio(1, 4) };
  const board = dashboardOf(dashboardScenario(fault, faults), referenceClient, seeds);
  const rounds = board.resubscriptionRounds;
  console.log([
    fault,
    board.notifications,
    board.reconciliationChanges,
    `${board.readsByReason.notification ?? 0}/${board.readsByReason.reconcile ?? 0}`,
    board.staleReceipts,
    (board.serveAgeMsMean / 1_000).toFixed(1),
    (board.serveAgeMsMax / 1_000).toFixed(1),
    `${rounds.complete}/${rounds.incomplete}/${rounds.interrupted}`,
    `${board.verdicts.healthy}/${board.verdicts.degraded}/${board.verdicts.unhealthy}`,
  ].join(' | '));
}
