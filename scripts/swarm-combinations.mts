/**
 * How often the default gate's swarm hits rare combinations (issue 10: "say how you checked"). Runs N swarm
 * interleavings of the reference (the gate's derivation of seeds from a root seed) and prints, per pair of
 * faults, the interleavings in which both fired, the rarest pairs first, plus the combinations the oracle's
 * newer checks need: a real cursor cycle, a sustained pulse storm, a long close with a lost unsubscribe,
 * and catalog x deletion x capability loss. Projected to 100,000 interleavings.
 *
 *   npx tsx scripts/swarm-combinations.mts [interleavings=2000] [rootSeed=1]
 */
import { referenceClient } from '../core/reducer.ts';
import { findScenario } from '../scenarios/catalog.ts';
import { faultIndex, faultNames } from '../sim/faults.ts';
import { deriveSeed } from '../sim/prng.ts';
import { runInterleaving } from '../sim/world.ts';

const count = Number(process.argv[2] ?? 2_000);
const rootSeed = Number(process.argv[3] ?? 1);
const scenario = findScenario('swarm')!;
const pairs = new Map<string, number>();
const everFired = new Set<string>();
const combos = { 'real cursor cycle': 0, 'long closes x lost unsubscribe': 0, 'catalog x deletion x capability loss': 0, 'A/B catalog published': 0, 'proven catalog + accepted task': 0, 'server kept a given-up subscription (stretch)': 0 };
const fired = (counts: Int32Array, name: (typeof faultNames)[number]): boolean => counts[faultIndex[name]]! > 0;
for (let index = 0; index < count; index++) {
  const result = runInterleaving(deriveSeed(rootSeed, index), scenario, referenceClient, { trace: false, record: false });
  const counts = result.faultCounts;
  const on = faultNames.filter((name) => fired(counts, name));
  for (const name of on) everFired.add(name);
  for (let a = 0; a < on.length; a++) for (let b = a + 1; b < on.length; b++) pairs.set(`${on[a]} + ${on[b]}`, (pairs.get(`${on[a]} + ${on[b]}`) ?? 0) + 1);
  const workload = result.plan.workload;
  if (fired(counts, 'cursor-cycle')) combos['real cursor cycle']++;
  if (workload.resubscribeDelayMsMin >= 30_000 && fired(counts, 'drop-unsubscribe-ack')) combos['long closes x lost unsubscribe']++;
  const deletes = workload.deleteRatio.numerator > 0;
  const capabilityLost = fired(counts, 'no-subscribe-capability') || fired(counts, 'no-list-changed-capability');
  if (workload.discoverIntervalMsMax > 0 && deletes && capabilityLost) combos['catalog x deletion x capability loss']++;
  if (result.oracle.catalogAb.catalogsJudged > 0) combos['A/B catalog published']++;
  if (result.oracle.taskAge.tasksJudged > 0) combos['proven catalog + accepted task']++;
  if (result.oracle.serverSubscriptions.stretchesJudged > 0) combos['server kept a given-up subscription (stretch)']++;
}
const scale = 100_000 / count;
console.log(`${count} swarm interleavings (root seed ${rootSeed}); counts per 100,000 projected`);
for (const [name, hits] of Object.entries(combos)) console.log(`  ${name.padEnd(48)} ${String(hits).padStart(6)}  ~${Math.round(hits * scale)}`);
const firing = faultNames.filter((name) => everFired.has(name));
const never: string[] = [];
for (let a = 0; a < firing.length; a++) for (let b = a + 1; b < firing.length; b++) if (!pairs.has(`${firing[a]} + ${firing[b]}`)) never.push(`${firing[a]} + ${firing[b]}`);
const sorted = [...pairs].sort((x, y) => x[1] - y[1]);
console.log(`fault pairs that fired together: ${pairs.size} of ${(firing.length * (firing.length - 1)) / 2} among the ${firing.length} faults that fired; never together: ${never.join(', ') || 'none'}`);
console.log('the 12 rarest pairs:');
for (const [pair, hits] of sorted.slice(0, 12)) console.log(`  ${pair.padEnd(60)} ${String(hits).padStart(6)}  ~${Math.round(hits * scale)}`);
