/**
 * Peer benchmark: fast-check's scheduler (`fc.scheduler()` + `fc.asyncProperty`) driving a
 * "read-race" model, so fencesim's own simulator throughput (events/s) can be compared with a
 * well-known off-the-shelf interleaving explorer.
 *
 * Model, per interleaving and per resource (SPEC §3.3 read-ordinal fence, §5 duplicate-notification):
 *   - the server-side version of the resource starts at v0 and goes v1..v3 through 3 edits;
 *     each edit is a scheduled task;
 *   - when an edit is released it bumps the server version and emits one `updated` notification
 *     (a scheduled task); exactly one of the three notifications is duplicated by the network
 *     (a second, independent scheduled task; which edit is duplicated is drawn by fast-check);
 *   - when a notification is released the client issues a read: it allocates the next read
 *     ordinal and the server serves the version current at that moment; the response is a
 *     scheduled task carrying that version (so responses may come back in any order);
 *   - when a response is released the client fences it: accepted only if its ordinal is greater
 *     than the last accepted ordinal (otherwise it is a stale receipt and nothing changes).
 *   Events = every scheduled task the scheduler releases:
 *     3 edits + 4 notifications (3 + 1 duplicate) + 4 read responses = 11 per resource.
 *   Invariant checked at the end of each interleaving: accepted versions never go backwards
 *   (and, as a cheap extra, the last accepted version is v3: the fenced client converges).
 *
 * `resources` (default 1) runs that many independent copies of the model inside one interleaving
 * (all their tasks share one scheduler, so they interleave with each other); it exists only to make
 * the per-interleaving event count comparable with other harnesses (5 resources = 55 events).
 *
 * Timing uses `performance.now()` (allowed in bench/, never in core/ or sim/).
 */
import fc from 'fast-check';
import type { Scheduler } from 'fast-check';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { median } from './median.js';

export const EDITS_PER_RESOURCE = 3;
export const DUPLICATED_NOTIFICATIONS_PER_RESOURCE = 1;
/** 3 edits + (3 + 1) notifications + (3 + 1) read responses. */
export const EVENTS_PER_RESOURCE =
  EDITS_PER_RESOURCE + 2 * (EDITS_PER_RESOURCE + DUPLICATED_NOTIFICATIONS_PER_RESOURCE);

export const DEFAULT_SEED = 20_240_601;

export type WaitMode = 'all' | 'idle';

export interface FastCheckPeerOptions {
  numRuns: number;
  repetitions: number;
  /** Independent resources per interleaving (default 1 = the model as specified, 11 events). */
  resources?: number;
  /** fast-check seed (fixed by default so every repetition explores the same interleavings). */
  seed?: number;
  /** How the property drains the scheduler: `s.waitAll()` (default) or `s.waitIdle()`. */
  wait?: WaitMode;
  /** Print per-repetition timings to stdout. */
  verbose?: boolean;
}

export interface FastCheckPeerResult {
  interleavingsPerSecondMedian: number;
  eventsPerSecondMedian: number;
  eventsPerInterleaving: number;
}

interface EventCounter {
  events: number;
}

interface ResourceOutcome {
  regressions: number;
  lastAcceptedVersion: number;
  accepted: number;
  stale: number;
}

/**
 * Schedule one resource's read race on `s`. Nothing runs until the scheduler releases tasks.
 * `duplicatedEdit` (0-based) selects the edit whose notification the network delivers twice.
 */
function scheduleResource(
  s: Scheduler,
  duplicatedEdit: number,
  fenced: boolean,
  counter: EventCounter,
): ResourceOutcome {
  let serverVersion = 0;
  let lastIssuedOrdinal = 0;
  let lastAcceptedOrdinal = 0;
  const outcome: ResourceOutcome = { regressions: 0, lastAcceptedVersion: 0, accepted: 0, stale: 0 };

  const onResponse = (ordinal: number, version: number): void => {
    counter.events++;
    if (fenced && ordinal <= lastAcceptedOrdinal) {
      outcome.stale++;
      return;
    }
    if (version < outcome.lastAcceptedVersion) outcome.regressions++;
    lastAcceptedOrdinal = ordinal;
    outcome.lastAcceptedVersion = version;
    outcome.accepted++;
  };

  const onNotification = (): void => {
    counter.events++;
    const ordinal = ++lastIssuedOrdinal;
    // The server serves the read when it receives it; the response is in flight until released.
    const version = serverVersion;
    void s.schedule(Promise.resolve(version), 'read-response').then((v) => onResponse(ordinal, v));
  };

  const notify = (): void => {
    void s.schedule(Promise.resolve(), 'updated').then(onNotification);
  };

  for (let edit = 0; edit < EDITS_PER_RESOURCE; edit++) {
    const duplicate = edit === duplicatedEdit;
    void s.schedule(Promise.resolve(), 'edit').then(() => {
      counter.events++;
      serverVersion++;
      notify();
      if (duplicate) notify();
    });
  }
  return outcome;
}

function buildProperty(
  resources: number,
  fenced: boolean,
  wait: WaitMode,
  counter: EventCounter,
) {
  const expectedEvents = resources * EVENTS_PER_RESOURCE;
  return fc.asyncProperty(
    fc.scheduler(),
    fc.array(fc.integer({ min: 0, max: EDITS_PER_RESOURCE - 1 }), {
      minLength: resources,
      maxLength: resources,
    }),
    async (s, duplicatedEdits) => {
      const before = counter.events;
      const outcomes: ResourceOutcome[] = [];
      for (let r = 0; r < resources; r++) {
        outcomes.push(scheduleResource(s, duplicatedEdits[r]!, fenced, counter));
      }
      if (wait === 'all') await s.waitAll();
      else await s.waitIdle();

      const released = counter.events - before;
      if (released !== expectedEvents) {
        throw new Error(`model error: released ${released} events, expected ${expectedEvents}`);
      }
      for (const o of outcomes) {
        if (o.regressions !== 0) {
          throw new Error(`version_regression: accepted versions went backwards (${o.regressions}x)`);
        }
        if (fenced && o.lastAcceptedVersion !== EDITS_PER_RESOURCE) {
          throw new Error(`not converged: last accepted v${o.lastAcceptedVersion}`);
        }
      }
    },
  );
}

interface Repetition {
  ms: number;
  events: number;
}

async function timeOnce(
  numRuns: number,
  seed: number,
  resources: number,
  wait: WaitMode,
): Promise<Repetition> {
  const counter: EventCounter = { events: 0 };
  const property = buildProperty(resources, true, wait, counter);
  const t0 = performance.now();
  await fc.assert(property, { numRuns, seed });
  const ms = performance.now() - t0;
  return { ms, events: counter.events };
}

export async function runFastCheckPeer(options: FastCheckPeerOptions): Promise<FastCheckPeerResult> {
  const { numRuns, repetitions } = options;
  const resources = options.resources ?? 1;
  const seed = options.seed ?? DEFAULT_SEED;
  const wait = options.wait ?? 'all';
  if (!Number.isInteger(numRuns) || numRuns < 1) throw new RangeError(`numRuns must be a positive integer, got ${numRuns}`);
  if (!Number.isInteger(repetitions) || repetitions < 1) {
    throw new RangeError(`repetitions must be a positive integer, got ${repetitions}`);
  }
  if (!Number.isInteger(resources) || resources < 1) {
    throw new RangeError(`resources must be a positive integer, got ${resources}`);
  }
  const eventsPerInterleaving = resources * EVENTS_PER_RESOURCE;

  // Warm-up (JIT, fast-check internals); not measured.
  await timeOnce(Math.min(numRuns, 5_000), seed, resources, wait);

  const ips: number[] = [];
  const eps: number[] = [];
  for (let i = 0; i < repetitions; i++) {
    const rep = await timeOnce(numRuns, seed, resources, wait);
    if (rep.events !== numRuns * eventsPerInterleaving) {
      throw new Error(`released ${rep.events} events over ${numRuns} runs, expected ${numRuns * eventsPerInterleaving}`);
    }
    const secs = rep.ms / 1000;
    ips.push(numRuns / secs);
    eps.push(rep.events / secs);
    if (options.verbose) {
      console.log(
        `  rep ${i + 1}/${repetitions}: ${rep.ms.toFixed(1)} ms, ` +
          `${Math.round(numRuns / secs).toLocaleString('en-US')} interleavings/s, ` +
          `${Math.round(rep.events / secs).toLocaleString('en-US')} events/s`,
      );
    }
  }
  return {
    interleavingsPerSecondMedian: median(ips),
    eventsPerSecondMedian: median(eps),
    eventsPerInterleaving,
  };
}

/**
 * Negative control (untimed): the same model with the fence removed must be caught, otherwise the
 * invariant would be vacuous and the benchmark would measure a model that cannot fail.
 * Returns the 1-based run index of the first counterexample, or null if none was found.
 */
export async function unfencedControlFailsAt(numRuns: number, seed = DEFAULT_SEED): Promise<number | null> {
  const counter: EventCounter = { events: 0 };
  const details = await fc.check(buildProperty(1, false, 'all', counter), {
    numRuns,
    seed,
    endOnFailure: true,
  });
  return details.failed ? details.numRuns : null;
}

function parseArgs(argv: readonly string[]): FastCheckPeerOptions {
  const opts: FastCheckPeerOptions = { numRuns: 20_000, repetitions: 7, verbose: true };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const num = (): number => {
      const n = Number(value);
      if (value === undefined || !Number.isFinite(n)) throw new Error(`${flag} needs a number, got ${value ?? '(nothing)'}`);
      i++;
      return n;
    };
    switch (flag) {
      case '--runs': opts.numRuns = num(); break;
      case '--reps': opts.repetitions = num(); break;
      case '--resources': opts.resources = num(); break;
      case '--seed': opts.seed = num(); break;
      case '--wait':
        if (value !== 'all' && value !== 'idle') throw new Error(`--wait must be "all" or "idle", got ${value ?? '(nothing)'}`);
        opts.wait = value;
        i++;
        break;
      default:
        throw new Error(`unknown argument ${flag}; usage: fastcheck-peer [--runs N] [--reps N] [--resources N] [--seed N] [--wait all|idle]`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const resources = opts.resources ?? 1;
  const seed = opts.seed ?? DEFAULT_SEED;
  console.log(
    `fast-check ${fc.__version} scheduler peer: read-race model, ${resources} resource(s), ` +
      `${opts.numRuns.toLocaleString('en-US')} runs x ${opts.repetitions} reps (+ warm-up), ` +
      `seed ${seed}, wait=${opts.wait ?? 'all'}, node ${process.version}`,
  );
  const failsAt = await unfencedControlFailsAt(opts.numRuns, seed);
  console.log(
    `  negative control (fence removed): ${failsAt === null ? 'NOT caught (model is vacuous!)' : `caught at run ${failsAt}`}`,
  );
  const r = await runFastCheckPeer(opts);
  console.log(`events per interleaving: ${r.eventsPerInterleaving} (exact; ${EVENTS_PER_RESOURCE} per resource)`);
  console.log(`interleavings/s (median): ${Math.round(r.interleavingsPerSecondMedian).toLocaleString('en-US')}`);
  console.log(`events/s (median):        ${Math.round(r.eventsPerSecondMedian).toLocaleString('en-US')}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
