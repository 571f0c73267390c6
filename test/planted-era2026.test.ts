/**
 * Planted bugs for the 2026-07-28 serving invariants (sim/checkers/era2026-*.ts): a copy of the reference
 * core with one rule of the era removed is caught by the 2026 gate (era2026-swarm) through exactly the
 * invariant that rule protects, on a seed where the unpatched copy does not violate it, and the traced
 * replay of that seed names the invariant on the step that broke it. (Shrinking is the naive clients'
 * test, test/shrink-naive.test.ts; its wall-clock budget is too tight for these richer worlds on a loaded machine.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { referenceClient } from '../core/reducer.js';
import type { CoreState } from '../core/state.js';
import { findScenario } from '../scenarios/catalog.js';
import { invariantIndex, type InvariantName } from '../sim/oracle.js';
import { ratio } from '../sim/faults.js';
import type { Scenario } from '../scenarios/scenario.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_2026;
const searchInterleavings = 600;
const scenarioName = 'era2026-swarm';

/** The 2026-07-28 world with only slow reads on (answers overtaking each other and later notifications). */
function slowReads(): Scenario {
  const base = findScenario('era2026-broken-stream')!;
  return { ...base, name: 'era2026-slow-reads', sometimes: ['slow-read'], plan: (chooser) => ({ ...base.plan(chooser), faults: { 'slow-read': ratio(1, 2) } }) };
}

const era2026Bugs: readonly (PlantedBug & { invariant: InvariantName; scenario?: () => Scenario })[] = [
  {
    name: 'updated-keeps-entry-fresh',
    description: 'a 2026 updated of the live listen does not make the cached entry stale (it is served until the re-read lands)',
    patches: [{ file: 'reducer-notifications.ts', find: '    invalidateOnUpdated(d, route.uri);\n', replace: '' }],
    scenarios: [scenarioName],
    invariants: ['read_your_notification'],
    invariant: 'read_your_notification',
    scenario: slowReads,
  },
  {
    name: 'ttl-ignored',
    description: 'the serving lease is not narrowed to ttlMs from receipt (only the authorization lease bounds serving)',
    patches: [{ file: 'ttl.ts', find: '  if (until < d.uriState(uri).leaseUntilMs) d.setLease(uri, until);', replace: '  void until;' }],
    scenarios: [scenarioName],
    invariants: ['ttl_staleness'],
    invariant: 'ttl_staleness',
  },
  {
    name: 'one-cache-for-all-subjects',
    description: 'cached content is served to any subject, whoever it was read for and whatever its cacheScope',
    patches: [{ file: 'authorization.ts', find: "  if (version.subject !== subject) return refuse(`cached content was read for ${version.subject}, not ${subject}`);\n", replace: '' }],
    scenarios: [scenarioName],
    invariants: ['scope_isolation'],
    invariant: 'scope_isolation',
  },
  ...(['scope_isolation', 'ttl_staleness'] as const).map((invariant) => ({
    name: `list-hints-not-folded-${invariant}`,
    description: "a list pass keeps its first page's cacheScope and ttlMs (the later pages' hints are not folded in)",
    patches: [{ file: 'scan.ts', find: 'next.hint = foldHint(running.hint, cacheHintOf(outcome.result));', replace: 'next.hint = running.hint ?? cacheHintOf(outcome.result);' }],
    scenarios: ['era2026-listing'],
    invariants: [invariant],
    invariant,
    scenario: () => findScenario('era2026-listing')!,
  })),
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...era2026Bugs]) loaded.set(bug.name, await plantedClient(bug));
});

/** The first era2026-swarm seed on which the planted copy violates `invariant` and the unpatched copy does not. */
function findCatch(client: ClientUnderTest<any>, invariant: InvariantName, scenario: Scenario): { seed: number; index: number } | null {
  const control = loaded.get(unpatchedControl.name)!;
  for (let index = 0; index < searchInterleavings; index++) {
    const seed = deriveSeed(rootSeed, index);
    const planted = runInterleaving(seed, scenario, client, { trace: false, record: false });
    if (planted.oracle.counts[invariantIndex[invariant]]! === 0) continue;
    const unpatched = runInterleaving(seed, scenario, control, { trace: false, record: false });
    if (unpatched.oracle.counts[invariantIndex[invariant]]! === 0) return { seed, index };
  }
  return null;
}

interface MatchBook {
  /** URI of every read sent, by id; the latest read sent per URI; the ids already answered. */
  uriOf: Record<number, string>;
  latest: Record<string, number>;
  answered: Record<number, true>;
}

/**
 * Planted around the live reference: responses are matched to reads by URI, not by id. A response to an id
 * already answered (an intermediary's replay) is taken as the answer to the URI's latest read, so the
 * replayed, older content passes the fence as the newest read.
 */
const matchesByUri: ClientUnderTest<{ core: CoreState; book: MatchBook }> = {
  name: 'matches-responses-by-uri',
  description: 'a response to an id already answered is taken as the answer to the latest read of its URI',
  init: (config) => ({ core: referenceClient.init(config), book: { uriOf: {}, latest: {}, answered: {} } }),
  step: (state, input) => {
    let book = state.book;
    let stepped = input;
    if (input.type === 'ResponseArrived' && typeof input.requestId === 'number') {
      const uri = book.uriOf[input.requestId];
      const latest = uri === undefined ? undefined : book.latest[uri];
      if (book.answered[input.requestId] === true && latest !== undefined && book.answered[latest] !== true) stepped = { ...input, requestId: latest };
      book = { ...book, answered: { ...book.answered, [stepped.type === 'ResponseArrived' ? (stepped.requestId as number) : 0]: true } };
    }
    const result = referenceClient.step(state.core, stepped);
    for (const effect of result.effects) {
      if (effect.type === 'RequestSent' && effect.method === 'resources/read') book = { ...book, uriOf: { ...book.uriOf, [effect.requestId]: effect.uri }, latest: { ...book.latest, [effect.uri]: effect.requestId } };
    }
    return { state: { core: result.state, book }, effects: result.effects };
  },
};

/**
 * The traced run of `seed`, stopped at the first violation of `invariant`, shows it right after the step
 * that broke it (the oracle records the first 16 violations, so an earlier flood of another invariant
 * could hide it: the run is stopped there instead of judged at its end).
 */
function expectReplayNames(seed: number, scenario: Scenario, client: ClientUnderTest<any>, invariant: InvariantName): void {
  const traced = runInterleaving(seed, scenario, client, { trace: true, record: false, stopAtInvariant: invariant });
  expect(traced.oracle.counts[invariantIndex[invariant]]).toBeGreaterThan(0);
  const recorded = traced.oracle.violations.some((violation) => violation.invariant === invariant);
  expect(recorded ? traced.timeline!.some((line) => line.trimStart().startsWith(`!! ${invariant}:`)) : traced.oracle.violations.length).toBe(recorded ? true : 16);
}

describe('planted bugs of the 2026-07-28 serving invariants', () => {
  it('covers each of the four invariants', () => {
    expect(new Set([...era2026Bugs.map((bug) => bug.invariant), 'monotonic_reads'])).toEqual(new Set(['read_your_notification', 'ttl_staleness', 'monotonic_reads', 'scope_isolation']));
  });

  it('matches-responses-by-uri: a replayed response reaches the serve, and era2026-partitions catches it by monotonic_reads', () => {
    const scenario = findScenario('era2026-partitions')!;
    const found = findCatch(matchesByUri, 'monotonic_reads', scenario);
    expect(found, `no catching seed in ${searchInterleavings} era2026-partitions interleavings`).not.toBeNull();
    expectReplayNames(found!.seed, scenario, matchesByUri, 'monotonic_reads');
  });

  it.each(era2026Bugs.map((bug) => [bug.name, bug] as const))('%s: the 2026 gate catches it, and the traced replay names the invariant', (_name, bug) => {
    const client = loaded.get(bug.name)!;
    const scenario = bug.scenario?.() ?? findScenario(scenarioName)!;
    const found = findCatch(client, bug.invariant, scenario);
    expect(found, `${bug.name}: no catching seed in ${searchInterleavings} ${scenario.name} interleavings`).not.toBeNull();
    expectReplayNames(found!.seed, scenario, client, bug.invariant);
  });
}, 600_000);
