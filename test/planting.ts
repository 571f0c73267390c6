/**
 * Planted bugs: a copy of the reference core with one subtle bug patched in, made at test time.
 *
 * `plant(bug)` copies core/*.ts (not the tests) into test/.planted/<bug>/core/, applies the bug's textual
 * patches, and asserts that every pattern was found exactly once, so a refactor that removes or duplicates
 * a pattern fails loudly instead of silently testing the unpatched reference. `plantedClient(bug)` then
 * imports the copy's reducer and wraps its reference client under the bug's name.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ClientUnderTest } from '../core/types.js';
import type { InvariantName } from '../sim/oracle.js';

export interface Patch {
  file: string;
  find: string;
  replace: string;
}

export interface PlantedBug {
  name: string;
  description: string;
  patches: readonly Patch[];
  /** Scenarios to search for a catching seed, in order, and the invariants that count as catching it. */
  scenarios: readonly string[];
  invariants: readonly InvariantName[];
}

/**
 * A response let through while closing must not also make an illegal state move or decrement the in-flight
 * count that closing reset (either would crash the core rather than show the bug as a violation).
 */
const noMoveWhenClosing: readonly Patch[] = [
  {
    file: 'reducer-responses.ts',
    find: 'd.setReads(request.uri, tracking.inFlight - 1, tracking.dirty);',
    replace: 'd.setReads(request.uri, isOpen(sub.state) ? tracking.inFlight - 1 : tracking.inFlight, tracking.dirty);',
  },
  // The responses file (core/reducer.ts split by concern) does not import isOpen itself.
  { file: 'reducer-responses.ts', find: 'closeSubscription, isLive, issueRead,', replace: 'closeSubscription, isLive, isOpen, issueRead,' },
  { file: 'fence.ts', find: "  move(d, request.uri, 'read_accepted');", replace: "  if (isOpen(sub.state)) move(d, request.uri, 'read_accepted');" },
  {
    file: 'fence.ts',
    find: "if (sub.state !== 'TOMBSTONE_PENDING') move(d, request.uri, 'not_found_accepted');",
    // Only from a read (the one edge of not_found_accepted), wherever a late answer lands: closing, or watched again.
    replace: "if (sub.state === 'READ_PENDING') move(d, request.uri, 'not_found_accepted');",
  },
];

export const plantedBugs: readonly PlantedBug[] = [
  {
    name: 'ordinal-fence-ge',
    description: 'ordinal fence accepts readOrdinal >= watermark instead of > (newerThanAccepted, used by judgeReadResponse)',
    patches: [{ file: 'fence.ts', find: 'request.readOrdinal > sub.lastAcceptedOrdinal;', replace: 'request.readOrdinal >= sub.lastAcceptedOrdinal;' }],
    scenarios: ['read-race', 'duplicate-storm', 'close-race', 'reconnect', 'swarm'],
    invariants: ['version_regression', 'accept_when_not_active', 'late_tombstone'],
  },
  {
    name: 'close-fence-off-by-one',
    description: 'close fence drops only reads with ordinal < closeOrdinal: the last read issued before unsubscribe slips through',
    patches: [
      {
        file: 'fence.ts',
        find: 'if (sub === undefined || !isOpen(sub.state) || request.subscriptionGeneration !== sub.subscriptionGeneration) {',
        replace: 'if (sub === undefined || (!isOpen(sub.state) && request.readOrdinal < (sub.closeOrdinal ?? 0)) || request.subscriptionGeneration !== sub.subscriptionGeneration) {',
      },
      ...noMoveWhenClosing,
    ],
    scenarios: ['close-race', 'swarm'],
    invariants: ['accept_when_not_active', 'post_close_outbox'],
  },
  {
    name: 'session-not-bumped-on-reconnect',
    description: 'on reconnect the client keeps the first session generation (requests and notifications are matched against the old session)',
    patches: [
      {
        file: 'reducer-sessions.ts',
        find: '  volatile.sessionGeneration = sessionGeneration;',
        replace: '  if (volatile.sessionGeneration === 0) volatile.sessionGeneration = sessionGeneration;',
      },
    ],
    scenarios: ['reconnect', 'swarm'],
    invariants: ['old_session_effect', 'accept_when_not_active', 'convergence_60s'],
  },
  {
    name: 'not-found-after-close',
    description: 'a 404 that arrives after unsubscribe began is still turned into a tombstone (errors skip the close fence)',
    patches: [
      {
        file: 'reducer-responses.ts',
        find: "if (verdict.type === 'after-close') {",
        replace: "if (verdict.type === 'after-close' && (sub === undefined || outcome.type !== 'error')) {",
      },
      {
        file: 'reducer-responses.ts',
        find: "else if (read.type === 'not-found') acceptNotFound(d, requestId, request, verdict);",
        replace: "else if (read.type === 'not-found') acceptNotFound(d, requestId, request, verdict.type === 'after-close' ? { type: 'accept' } : verdict);",
      },
      ...noMoveWhenClosing,
    ],
    scenarios: ['close-race', 'swarm'],
    invariants: ['late_tombstone', 'accept_when_not_active'],
  },
  {
    name: 'not-found-keeps-watermark',
    description: 'a 404 does not advance the watermark, so an older read that arrives after it is accepted over the tombstone',
    patches: [
      {
        file: 'fence.ts',
        find: "  sub.lastAcceptedOrdinal = request.readOrdinal;\n  d.emit({ type: 'TombstonePending'",
        replace: "  d.emit({ type: 'TombstonePending'",
      },
    ],
    scenarios: ['close-race', 'swarm'],
    invariants: ['version_regression'],
  },
];

/** An unpatched copy, planted the same way: what a planted bug is compared with (not the live core, which may change meanwhile). */
export const unpatchedControl: PlantedBug = {
  name: 'unpatched-control',
  description: 'the reference core, copied without a patch',
  patches: [],
  scenarios: [],
  invariants: [],
};

const root = dirname(fileURLToPath(import.meta.url));
const coreDir = join(root, '..', 'core');
export const plantedDir = join(root, '.planted');

/** Writes test/.planted/<bug>/core/ and returns the path of its reducer. Throws when a pattern is not found exactly once. */
export function plant(bug: PlantedBug): string {
  const target = join(plantedDir, bug.name, 'core');
  rmSync(join(plantedDir, bug.name), { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const sources = new Map<string, string>();
  for (const file of readdirSync(coreDir)) {
    if (file.endsWith('.ts') && !file.endsWith('.test.ts')) sources.set(file, readFileSync(join(coreDir, file), 'utf8'));
  }
  for (const patch of bug.patches) {
    const text = sources.get(patch.file);
    if (text === undefined) throw new Error(`planted bug ${bug.name}: core/${patch.file} does not exist`);
    const found = text.split(patch.find).length - 1;
    if (found !== 1) throw new Error(`planted bug ${bug.name}: pattern found ${found} times in core/${patch.file} (expected exactly once): ${patch.find}`);
    sources.set(patch.file, text.replace(patch.find, () => patch.replace));
  }
  for (const [file, text] of sources) writeFileSync(join(target, file), text);
  return join(target, 'reducer.ts');
}

/** Plants the bug and loads its client (the copy's reference client, renamed). */
export async function plantedClient(bug: PlantedBug): Promise<ClientUnderTest<any>> {
  const reducer = plant(bug);
  const module = (await import(/* @vite-ignore */ pathToFileURL(reducer).href)) as { referenceClient: ClientUnderTest<any> };
  const reference = module.referenceClient;
  return {
    name: `planted-${bug.name}`,
    description: bug.description,
    init: reference.init,
    step: reference.step,
    ...(reference.durable === undefined ? {} : { durable: reference.durable }),
    ...(reference.recover === undefined ? {} : { recover: reference.recover }),
    ...(reference.features === undefined ? {} : { features: reference.features }),
  };
}
