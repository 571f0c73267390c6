// The naive-vs-reference indexer table (README, issue 13): every indexer over the same indexer interleavings,
// one line of JSON each, then the Markdown table. Runs dist/ (npm run build first), one thread.
//   node scripts/indexer-table.mjs [--interleavings N] [--seed S]
import { runIndexerGate } from '../dist/indexer/runner.js';
import { indexerConfig, indexerNames } from '../dist/indexer/indexers.js';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`indexer-table: ${name} needs a positive integer, got ${process.argv[at + 1]}`);
    process.exit(2);
  }
  return value;
};
const interleavings = option('--interleavings', 1000);
const seed = option('--seed', 1);

const rows = [];
for (const name of indexerNames) {
  const startedMs = performance.now();
  const report = runIndexerGate(seed, interleavings, name, indexerConfig(name));
  const seconds = (performance.now() - startedMs) / 1000;
  const metric = Object.fromEntries(report.metricResults.map((result) => [result.name, result]));
  const row = {
    name,
    passed: report.passed,
    falseUpdate: metric.false_update_rate.value,
    missed: metric.missed_semantic_rate.value,
    freshness: metric.index_freshness.value,
    embedPerChange: metric.embed_calls_per_change.value,
    driftFound: metric.lost_events_found_within_period.value,
    lost: report.metrics.lostEvents,
    violated: Object.entries(report.counts).filter(([, count]) => count.violated > 0).map(([invariant, count]) => `${invariant} ${count.violated}`),
    failedMetrics: report.metricResults.filter((result) => !result.passed).map((result) => result.name),
    faultsNeverFired: report.faultsNeverFired,
    seconds: Math.round(seconds * 10) / 10,
    interleavingsPerS: Math.round((interleavings / seconds) * 10) / 10,
    eventsPerS: Math.round(report.events / seconds),
  };
  rows.push(row);
  console.log(JSON.stringify(row));
}
const cell = (value, digits) => (+value).toFixed(digits);
console.log('\n| indexer | verdict | false updates | missed changes | index freshness | embedding calls / change | lost events found within the period | what catches it |');
console.log('|---|---|--:|--:|--:|--:|--:|---|');
for (const row of rows) {
  const never = row.faultsNeverFired.length === 0 ? [] : [`faults never fired: ${row.faultsNeverFired.join(', ')}`];
  const caught = [...row.violated, ...row.failedMetrics.map((name) => `${name} gate`), ...never].join('; ') || '—';
  console.log(`| \`${row.name}\` | ${row.passed ? 'passes' : 'caught'} | ${cell(row.falseUpdate, 4)} | ${cell(row.missed, 4)} | ${cell(row.freshness, 4)} | ${cell(row.embedPerChange, 3)} | ${cell(row.driftFound, 3)} | ${caught} |`);
}
