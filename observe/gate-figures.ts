/**
 * Simulated operations in the release gate (issue 16 item 3): the observation fold runs over every client
 * step of the sampled gate interleavings (runInterleaving's `onStep` folds each step, as the fenced cache's
 * onStep does in production), and each interleaving's dashboard figures are summed into
 * a fixed-layout Float64Array in the accumulator: one row for all interleavings, one for those where no
 * fault fired, and one per fault for the interleavings where that fault fired — so a reader sees what a
 * healthy and an unhealthy dashboard look like under each fault. Sums only: workers, shards and merge add
 * up exactly. The health verdict at the end of each interleaving is counted too.
 *
 * Sampled: the fold runs on the interleavings whose index is a multiple of `observeEvery` (5,000 of the
 * default 100,000). Folding every step roughly halves the client loop's throughput (measured: 736 -> 408
 * interleavings/s of CPU on swarm), so folding all of them would break the gate's wall budget; one in 20
 * still gives every fault's row thousands of runs. Measured when it wrapped the client: sampling off took 5 %
 * off the gate's CPU (runRange era-both 3,000, 5.57 -> 5.30 CPU-s), most of it the wrapper's polymorphic call
 * site, which the step listener (GateObservation) removed (5.33 -> 5.20 CPU-s beside the wrapper).
 */
import type { ClientEffect, ClientInput } from '../core/types.js';
import { faultNames } from '../sim/faults.js';
import { foldStepOwned } from './fold.js';
import { healthOf } from './health.js';
import { countOf, initialObserveState, seriesKey, type ObserveState } from './state.js';
import { seriesCount, seriesKeyAt } from './series.js';

/** The figures of one row, in layout order. */
export const observeFigureNames = [
  'interleavings', 'notifications', 'notificationsActedOn', 'notificationsCoalesced', 'notificationsAudited', 'reads', 'readsNotification',
  'readsReconcile', 'readsPoll', 'fenceAccepted', 'fenceStale', 'reconciliationChanges', 'connections', 'reconnects',
  'resubscriptionComplete', 'resubscriptionIncomplete', 'resubscriptionInterrupted', 'resubscriptionWanted', 'resubscriptionResubscribed',
  'serves', 'serveAgeCount', 'serveAgeSumMs', 'refusals', 'protocolRejections', 'healthy', 'degraded', 'unhealthy',
  // 2026-07-28 runs (0 on 2025-11-25 ones): listens, their acks by honored filter, TTL re-fetches and serves past TTL.
  'listens', 'listenAcksHonored', 'listenAcksNarrowed', 'readsTtl', 'ttlExpiredServes',
] as const;
export type ObserveFigure = (typeof observeFigureNames)[number];

const width = observeFigureNames.length;
/** Row labels: every interleaving, no fault fired, then each fault of the catalogue. */
export const observeRowNames: readonly string[] = ['all', 'no fault fired', ...faultNames];
const figureAt = Object.fromEntries(observeFigureNames.map((name, index) => [name, index])) as Record<ObserveFigure, number>;

export const observeEvery = 20;

export function observeDue(index: number): boolean {
  return index % observeEvery === 0;
}

export function emptyObserveFigures(): Float64Array {
  return new Float64Array(observeRowNames.length * width);
}

/**
 * The observation of the gate's sampled interleavings: runInterleaving's `onStep` folds each client step into
 * `state` (in place: the fold owns it), reset per interleaving. A listener rather than a wrapped client, so the
 * driver's call of the client's step is the same in every interleaving (a wrapper made that call site
 * polymorphic for the whole gate: 5 % of its CPU for 1 interleaving in 20).
 */
export class GateObservation {
  state: ObserveState = initialObserveState();
  readonly onStep = (input: ClientInput, effects: readonly ClientEffect[]): void => {
    this.state = foldStepOwned(this.state, input, effects).state;
  };

  reset(): void {
    this.state = initialObserveState();
  }
}

/** Sums of counter series whose key starts with a prefix (an instrument, or instrument|attribute=value). */
function prefixTotals(state: ObserveState, prefixes: readonly string[]): number[] {
  const totals = prefixes.map(() => 0);
  for (let index = 0; index < seriesCount; index++) {
    const value = state.counts[index]!;
    if (value === 0) continue;
    const key = seriesKeyAt(index);
    prefixes.forEach((prefix, at) => {
      if (key === prefix || key.startsWith(prefix + '|')) totals[at]! += value;
    });
  }
  return totals;
}

const prefixes = ['notifications', 'reads', 'refusals', 'protocolRejections'];

/** One interleaving's figures (the fold's final state), in layout order. */
export function figuresOfRun(state: ObserveState, endMs: number): number[] {
  const row = new Array<number>(width).fill(0);
  const set = (name: ObserveFigure, value: number): void => void (row[figureAt[name]] = value);
  const [notifications, reads, refusals, rejections] = prefixTotals(state, prefixes);
  set('interleavings', 1);
  set('notifications', notifications!);
  set('reads', reads!);
  set('refusals', refusals!);
  set('protocolRejections', rejections!);
  const fate = (value: string): number => ['updated', 'list_changed', 'other'].reduce((sum, kind) => sum + countOf(state, 'notifications', { 'fencesim.notification.kind': kind, 'fencesim.notification.fate': value }), 0);
  set('notificationsActedOn', fate('acted_on'));
  set('notificationsCoalesced', fate('coalesced'));
  set('notificationsAudited', fate('audited_old_session') + fate('audited_unsubscribed'));
  set('readsNotification', countOf(state, 'reads', { 'fencesim.read.reason': 'notification' }));
  set('readsReconcile', countOf(state, 'reads', { 'fencesim.read.reason': 'reconcile' }));
  set('readsPoll', countOf(state, 'reads', { 'fencesim.read.reason': 'poll' }));
  set('fenceAccepted', countOf(state, 'fenceDecisions', { 'fencesim.fence.decision': 'accepted' }));
  set('fenceStale', prefixTotals(state, ['fenceDecisions|fencesim.fence.decision=stale'])[0]!);
  set('reconciliationChanges', countOf(state, 'reconciliationChanges'));
  set('connections', countOf(state, 'connections', { 'fencesim.connection.kind': 'first' }) + countOf(state, 'connections', { 'fencesim.connection.kind': 'reconnect' }));
  set('reconnects', countOf(state, 'connections', { 'fencesim.connection.kind': 'reconnect' }));
  set('resubscriptionComplete', countOf(state, 'resubscriptionRounds', { 'fencesim.outcome': 'complete' }));
  set('resubscriptionIncomplete', countOf(state, 'resubscriptionRounds', { 'fencesim.outcome': 'incomplete' }));
  set('resubscriptionInterrupted', countOf(state, 'resubscriptionRounds', { 'fencesim.outcome': 'interrupted' }));
  set('resubscriptionWanted', countOf(state, 'resubscriptionUris', { 'fencesim.resubscription.state': 'wanted' }));
  set('resubscriptionResubscribed', countOf(state, 'resubscriptionUris', { 'fencesim.resubscription.state': 'resubscribed' }));
  set('serves', countOf(state, 'serves'));
  const age = state.histograms[seriesKey('serveAge', {})];
  set('serveAgeCount', age?.count ?? 0);
  set('serveAgeSumMs', age?.sumMs ?? 0);
  set(healthOf(state, endMs).verdict, 1);
  set('listens', countOf(state, 'listens'));
  set('listenAcksHonored', countOf(state, 'listenAcks', { 'fencesim.ack.filter': 'honored' }));
  set('listenAcksNarrowed', countOf(state, 'listenAcks', { 'fencesim.ack.filter': 'narrowed' }));
  set('readsTtl', countOf(state, 'reads', { 'fencesim.read.reason': 'ttl' }));
  set('ttlExpiredServes', countOf(state, 'ttlExpiredServes'));
  return row;
}

/** Adds one interleaving's figures to row "all", to "no fault fired" or to each fault that fired. */
export function addObservedRun(figures: Float64Array, row: readonly number[], faultCounts: ArrayLike<number>): void {
  addRow(figures, 0, row);
  let anyFault = false;
  for (let fault = 0; fault < faultNames.length; fault++) {
    if (faultCounts[fault]! > 0) {
      anyFault = true;
      addRow(figures, 2 + fault, row);
    }
  }
  if (!anyFault) addRow(figures, 1, row);
}

function addRow(figures: Float64Array, rowIndex: number, row: readonly number[]): void {
  const base = rowIndex * width;
  for (let at = 0; at < width; at++) figures[base + at]! += row[at]!;
}

export function observeRowOf(figures: Float64Array, rowIndex: number): Record<ObserveFigure, number> {
  const out = {} as Record<ObserveFigure, number>;
  observeFigureNames.forEach((name, at) => (out[name] = figures[rowIndex * width + at]!));
  return out;
}
