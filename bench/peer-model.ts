/**
 * The read-race model of bench/fastcheck-peer.ts, driven by fencesim's own machinery instead of
 * `fc.scheduler()`, so the two harnesses can be compared on exactly the same work (same-model benchmark).
 *
 * Model, per interleaving and per resource (identical to the fast-check peer):
 *   - the server version starts at v0 and goes v1..v3 through 3 edits, each a scheduled task;
 *   - a released edit bumps the server version and emits one `updated` notification; the network
 *     duplicates exactly one of the three (which one is drawn per interleaving and resource);
 *   - a released notification makes the client issue a read with the next ordinal; the server serves
 *     the version current when the read is issued (snapshot at send); the response is a scheduled task;
 *   - a released response is fenced by ordinal: accepted only if its ordinal is greater than the last
 *     accepted ordinal, otherwise it is a stale receipt.
 *   Events = released tasks = 3 edits + 4 notifications + 4 responses = 11 per resource.
 *   Checked at the end: accepted versions never went backwards and the last accepted version is v3.
 *
 * Machinery: one `EventQueue` (reused across interleavings with `clear()`) and one
 * `Chooser.seeded(deriveSeed(rootSeed, i), false)` per interleaving. Every task's delay is drawn from the
 * chooser, uniform in [0, DELAY_MS_SPREAD). Any release order the fast-check scheduler can produce is
 * reachable: release the k-th task of the order at virtual time k (every delay is then between 1 and the
 * number of tasks, well inside the spread). The distribution over orders differs (fast-check picks
 * uniformly among pending tasks; here later-scheduled tasks tend to be released later); the space does
 * not. Tasks are plain objects from a per-interleaving pool, so the inner loop allocates nothing.
 *
 * Timing uses `performance.now()` (allowed in bench/, never in core/ or sim/).
 */
import { performance } from 'node:perf_hooks';

import { Chooser } from '../sim/chooser.js';
import { deriveSeed } from '../sim/prng.js';
import { EventQueue, type Scheduled } from '../sim/queue.js';
import { EDITS_PER_RESOURCE, EVENTS_PER_RESOURCE } from './fastcheck-peer.js';
import { median } from './median.js';

export const PEER_MODEL_SEED_DEFAULT = 20_240_601;
/** Delays are uniform in [0, DELAY_MS_SPREAD) ms; anything >= EVENTS_PER_RESOURCE * resources reaches every order. */
export const DELAY_MS_SPREAD = 1_024;
const DUPLICATE_CHOICES = EDITS_PER_RESOURCE;

const KIND_EDIT = 0;
const KIND_NOTIFICATION = 1;
const KIND_RESPONSE = 2;

interface PeerTask extends Scheduled {
  kind: number;
  resource: number;
  /** Edit: the edit index. Response: the read ordinal. */
  ordinal: number;
  /** Response: the version the server served. */
  version: number;
}

export interface PeerModelOptions {
  interleavings: number;
  repetitions: number;
  /** Independent resources per interleaving (default 1 = 11 events); all share one queue. */
  resources?: number;
  /** Root seed; interleaving i uses deriveSeed(rootSeed, i). */
  rootSeed?: number;
}

export interface PeerModelResult {
  interleavingsPerSecondMedian: number;
  eventsPerSecondMedian: number;
  eventsPerInterleaving: number;
}

export interface UnfencedControlResult {
  interleavings: number;
  /** Interleavings in which some resource's accepted version went backwards. */
  caught: number;
  /** 0-based index of the first catching interleaving, or -1. */
  firstCaughtIndex: number;
}

/** The reusable state of the model: queue, task pool and per-resource counters. */
class PeerWorld {
  readonly queue = new EventQueue<PeerTask>();
  readonly resources: number;
  readonly eventsPerInterleaving: number;
  private readonly pool: PeerTask[];
  private poolNext = 0;
  private readonly serverVersion: Int32Array;
  private readonly lastIssuedOrdinal: Int32Array;
  private readonly lastAcceptedOrdinal: Int32Array;
  private readonly lastAcceptedVersion: Int32Array;
  private readonly regressions: Int32Array;
  private readonly duplicatedEdit: Int32Array;
  /** Responses the fence turned into stale receipts, over the world's lifetime (a "sometimes" counter). */
  staleReceipts = 0;

  constructor(resources: number, readonly fenced: boolean) {
    this.resources = resources;
    this.eventsPerInterleaving = resources * EVENTS_PER_RESOURCE;
    this.pool = [];
    for (let index = 0; index < this.eventsPerInterleaving; index++) {
      this.pool.push({ timeMs: 0, sequence: 0, kind: 0, resource: 0, ordinal: 0, version: 0 });
    }
    this.serverVersion = new Int32Array(resources);
    this.lastIssuedOrdinal = new Int32Array(resources);
    this.lastAcceptedOrdinal = new Int32Array(resources);
    this.lastAcceptedVersion = new Int32Array(resources);
    this.regressions = new Int32Array(resources);
    this.duplicatedEdit = new Int32Array(resources);
  }

  /**
   * Runs one interleaving. Returns the number of resources whose accepted versions went backwards.
   * A fenced world throws on any regression or non-convergence (the model would be broken).
   */
  run(seed: number): number {
    const chooser = Chooser.seeded(seed, false);
    const queue = this.queue;
    queue.clear();
    this.poolNext = 0;
    for (let resource = 0; resource < this.resources; resource++) {
      this.serverVersion[resource] = 0;
      this.lastIssuedOrdinal[resource] = 0;
      this.lastAcceptedOrdinal[resource] = 0;
      this.lastAcceptedVersion[resource] = 0;
      this.regressions[resource] = 0;
      this.duplicatedEdit[resource] = chooser.draw('faults', 'duplicated edit', DUPLICATE_CHOICES);
      for (let edit = 0; edit < EDITS_PER_RESOURCE; edit++) {
        this.schedule(chooser, 'server', 0, KIND_EDIT, resource, edit, 0);
      }
    }
    let events = 0;
    for (let task = queue.pop(); task !== undefined; task = queue.pop()) {
      events++;
      if (events > this.eventsPerInterleaving) throw new Error(`peer model: more than ${this.eventsPerInterleaving} events`);
      const resource = task.resource;
      const nowMs = task.timeMs;
      if (task.kind === KIND_EDIT) {
        this.serverVersion[resource]! += 1;
        this.schedule(chooser, 'network', nowMs, KIND_NOTIFICATION, resource, 0, 0);
        if (task.ordinal === this.duplicatedEdit[resource]) {
          this.schedule(chooser, 'network', nowMs, KIND_NOTIFICATION, resource, 0, 0);
        }
      } else if (task.kind === KIND_NOTIFICATION) {
        const ordinal = (this.lastIssuedOrdinal[resource]! += 1);
        // Snapshot at send: the server serves the version current when the read is issued.
        this.schedule(chooser, 'network', nowMs, KIND_RESPONSE, resource, ordinal, this.serverVersion[resource]!);
      } else {
        this.onResponse(resource, task.ordinal, task.version);
      }
    }
    if (events !== this.eventsPerInterleaving) {
      throw new Error(`peer model: released ${events} events, expected ${this.eventsPerInterleaving}`);
    }
    return this.check(seed);
  }

  private onResponse(resource: number, ordinal: number, version: number): void {
    if (this.fenced && ordinal <= this.lastAcceptedOrdinal[resource]!) {
      this.staleReceipts++;
      return;
    }
    if (version < this.lastAcceptedVersion[resource]!) this.regressions[resource]! += 1;
    this.lastAcceptedOrdinal[resource] = ordinal;
    this.lastAcceptedVersion[resource] = version;
  }

  private check(seed: number): number {
    let regressed = 0;
    for (let resource = 0; resource < this.resources; resource++) {
      if (this.regressions[resource] !== 0) regressed++;
      if (!this.fenced) continue;
      if (this.regressions[resource] !== 0) {
        throw new Error(`peer model seed ${seed}: version_regression on resource ${resource} (${this.regressions[resource]}x)`);
      }
      if (this.lastAcceptedVersion[resource] !== EDITS_PER_RESOURCE) {
        throw new Error(`peer model seed ${seed}: not converged on resource ${resource}, last accepted v${this.lastAcceptedVersion[resource]}`);
      }
    }
    return regressed;
  }

  private schedule(
    chooser: Chooser,
    stream: 'server' | 'network',
    nowMs: number,
    kind: number,
    resource: number,
    ordinal: number,
    version: number,
  ): void {
    const task = this.pool[this.poolNext++];
    if (task === undefined) throw new Error(`peer model: more than ${this.eventsPerInterleaving} tasks scheduled`);
    task.timeMs = nowMs + chooser.draw(stream, 'delay', DELAY_MS_SPREAD);
    task.kind = kind;
    task.resource = resource;
    task.ordinal = ordinal;
    task.version = version;
    this.queue.push(task);
  }
}

function assertPositiveInteger(value: number, what: string): void {
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${what} must be a positive integer, got ${value}`);
}

/** Runs interleavings [0, count) and returns the elapsed milliseconds. */
function timeOnce(world: PeerWorld, rootSeed: number, count: number): number {
  const startMs = performance.now();
  for (let index = 0; index < count; index++) world.run(deriveSeed(rootSeed, index));
  return performance.now() - startMs;
}

/** Throughput of the fenced model: a warm-up, then `repetitions` timed runs of the same interleavings. */
export function runPeerModel(options: PeerModelOptions): PeerModelResult {
  const { interleavings, repetitions } = options;
  const resources = options.resources ?? 1;
  const rootSeed = options.rootSeed ?? PEER_MODEL_SEED_DEFAULT;
  assertPositiveInteger(interleavings, 'interleavings');
  assertPositiveInteger(repetitions, 'repetitions');
  assertPositiveInteger(resources, 'resources');
  const world = new PeerWorld(resources, true);
  timeOnce(world, rootSeed, Math.min(interleavings, 5_000));
  const interleavingsPerSecond: number[] = [];
  const eventsPerSecond: number[] = [];
  for (let repetition = 0; repetition < repetitions; repetition++) {
    const seconds = timeOnce(world, rootSeed, interleavings) / 1_000;
    interleavingsPerSecond.push(interleavings / seconds);
    eventsPerSecond.push((interleavings * world.eventsPerInterleaving) / seconds);
  }
  return {
    interleavingsPerSecondMedian: median(interleavingsPerSecond),
    eventsPerSecondMedian: median(eventsPerSecond),
    eventsPerInterleaving: world.eventsPerInterleaving,
  };
}

/** Stale receipts the fenced model wrote over interleavings [0, count) (proves the fence is exercised). */
export function peerModelStaleReceipts(interleavings: number, resources = 1, rootSeed = PEER_MODEL_SEED_DEFAULT): number {
  const world = new PeerWorld(resources, true);
  for (let index = 0; index < interleavings; index++) world.run(deriveSeed(rootSeed, index));
  return world.staleReceipts;
}

/**
 * Negative control (untimed): the same model with the fence removed (fenced=false). The invariant must
 * catch the regression in some interleavings, otherwise the benchmark measures a model that cannot fail.
 */
export function peerModelUnfencedControl(interleavings: number, resources = 1, rootSeed = PEER_MODEL_SEED_DEFAULT): UnfencedControlResult {
  assertPositiveInteger(interleavings, 'interleavings');
  const world = new PeerWorld(resources, false);
  let caught = 0;
  let firstCaughtIndex = -1;
  for (let index = 0; index < interleavings; index++) {
    if (world.run(deriveSeed(rootSeed, index)) > 0) {
      caught++;
      if (firstCaughtIndex < 0) firstCaughtIndex = index;
    }
  }
  return { interleavings, caught, firstCaughtIndex };
}
