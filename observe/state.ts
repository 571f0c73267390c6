/**
 * The state of the observation fold (plain JSON data) and its copy-on-write draft.
 *
 * The fold is pure: `foldStep(state, input, effects)` returns a new state and the measurements of that step;
 * the old state is never changed. A draft copies only the records a step touches, once per step.
 */
import type { Ledger } from '../core/state.js';
import type { ReadReason, RequestMethod } from '../core/types.js';
import { instruments, type InstrumentId } from './instruments.js';
import { seriesCount, seriesIndexOf, seriesKey, seriesKeyAt } from './series.js';

export { seriesKey } from './series.js';

export interface ObserveConfig {
  /** The window of the health verdict's trend figures ("notifications in the last 10 min"). */
  windowMs: number;
  /** Width of one window bucket; the window keeps windowMs / bucketMs + 1 buckets. */
  bucketMs: number;
  /** A reconnect after which a wanted URI is still not re-subscribed this long counts as incomplete. */
  resubscriptionDeadlineMs: number;
}

export const defaultObserveConfig: ObserveConfig = { windowMs: 600_000, bucketMs: 60_000, resubscriptionDeadlineMs: 30_000 };

/** One measurement: a counter increment or a histogram record (durations in ms). */
export interface Measurement {
  instrument: InstrumentId;
  value: number;
  attributes: Record<string, string>;
  /** The canonical URI it concerns (never exported raw; an opt-in hook may turn it into a label). */
  uri: string | null;
}

export interface PendingRequest {
  method: RequestMethod;
  uri: string;
  reason: ReadReason | null;
  sessionGeneration: number;
}

export interface ResubscriptionRound {
  sessionGeneration: number;
  startedAtMs: number;
  /** Wanted URIs not yet re-subscribed in this session. */
  missing: Record<string, true>;
  wanted: number;
  resubscribed: number;
}

export interface RoundSummary {
  sessionGeneration: number;
  /** incomplete: the deadline passed with URIs missing; interrupted: the session ended first. */
  outcome: 'complete' | 'incomplete' | 'interrupted';
  wanted: number;
  resubscribed: number;
  /** Complete rounds: time from the reconnect to the last re-subscription. */
  durationMs: number | null;
  endedAtMs: number;
}

export interface WindowBucket {
  startMs: number;
  updatedNotifications: number;
  reconciliationChanges: number;
  subscribeErrors: number;
  subscribeAcks: number;
  protocolRejections: number;
  serves: number;
  serveAgeMsMax: number;
  /** 2026-07-28: acks whose honored filter left the URI out, and serves past the entry's TTL. */
  listenAcksNarrowed: number;
  ttlExpiredServes: number;
}

export interface HistogramTotal {
  count: number;
  sumMs: number;
  maxMs: number;
}

export interface ObserveState {
  schema: 'fencesim.observe.v1';
  config: ObserveConfig;
  connected: boolean;
  everConnected: boolean;
  sessionGeneration: number;
  /** The server's `resources.subscribe` capability in the current (or last) session. */
  subscribeCapability: boolean | null;
  /** The current (or last) connection speaks 2026-07-28 (listens, `ttlMs` on results). */
  era2026: boolean;
  lastAtMs: number;
  /** URIs the application asked to watch and did not unsubscribe. */
  wanted: Record<string, true>;
  /** URIs whose subscription the server holds in the current session (acked or polling). */
  live: Record<string, true>;
  pending: Record<string, PendingRequest>;
  /** URI -> when the read that last confirmed its content was accepted, and that content's digest. */
  /** Per canonical URI: the last accepted version, and whether an `updated` for it arrived since. */
  /** 2026-07-28: `freshUntilMs`, receipt plus the result's effective `ttlMs` (core/ttl.ts). */
  accepted: Record<string, { atMs: number; digest: string; notifiedSince?: true; freshUntilMs?: number }>;
  /** `subject uri` -> when the revocation event arrived, until the purge. */
  revocationsPending: Record<string, number>;
  /** `subject uri` pairs the client learned were revoked (a repeated revocation event has nothing to purge). */
  revoked: Record<string, true>;
  round: ResubscriptionRound | null;
  lastRound: RoundSummary | null;
  /** Counter totals by series (series.ts); `countsOf` gives them keyed. The same figures an exporter sees. */
  counts: number[];
  /** Totals of series outside the catalogue's closed sets (none from the reference core). */
  otherCounts: Record<string, number>;
  histograms: Record<string, HistogramTotal>;
  window: WindowBucket[];
}

export function initialObserveState(config: Partial<ObserveConfig> = {}): ObserveState {
  const resolved = { ...defaultObserveConfig, ...config };
  for (const key of ['windowMs', 'bucketMs', 'resubscriptionDeadlineMs'] as const) {
    const value = resolved[key];
    if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`observe config: ${key} must be a positive integer (ms), got ${String(value)}`);
  }
  return {
    schema: 'fencesim.observe.v1',
    config: resolved,
    connected: false,
    everConnected: false,
    sessionGeneration: 0,
    subscribeCapability: null,
    era2026: false,
    lastAtMs: 0,
    wanted: {},
    live: {},
    pending: {},
    accepted: {},
    revocationsPending: {},
    revoked: {},
    round: null,
    lastRound: null,
    counts: new Array<number>(seriesCount).fill(0),
    otherCounts: {},
    histograms: {},
    window: [],
  };
}

const closedStates = new Set(['UNSUBSCRIBING', 'CLOSED', 'UNSUBSCRIBE_UNKNOWN']);

/** A fold resuming beside a recovered ledger: the wanted URIs and the confirmation times of cached versions. */
export function observeStateFromLedger(ledger: Ledger, config: Partial<ObserveConfig> = {}): ObserveState {
  const state = initialObserveState(config);
  state.sessionGeneration = ledger.sessionGeneration;
  state.everConnected = ledger.sessionGeneration > 0;
  for (const uri of Object.keys(ledger.subscriptions)) {
    if (!closedStates.has(ledger.subscriptions[uri]!.state)) state.wanted[uri] = true;
  }
  for (const key of Object.keys(ledger.revoked)) state.revoked[key] = true;
  for (const uri of Object.keys(ledger.versions)) {
    const version = ledger.versions[uri]!;
    state.accepted[uri] = { atMs: version.acceptedAtMs, digest: version.digest };
  }
  return state;
}

/** Counter totals keyed by series (non-zero only). */
export function countsOf(state: ObserveState): Record<string, number> {
  const counts: Record<string, number> = {};
  for (let index = 0; index < state.counts.length; index++) if (state.counts[index] !== 0) counts[seriesKeyAt(index)] = state.counts[index]!;
  for (const key of Object.keys(state.otherCounts)) counts[key] = state.otherCounts[key]!;
  return counts;
}

export function countOf(state: ObserveState, instrument: InstrumentId, attributes: Record<string, string> = {}): number {
  const key = seriesKey(instrument, attributes);
  const index = seriesIndexOf(key);
  return index === undefined ? (state.otherCounts[key] ?? 0) : state.counts[index]!;
}

const fieldBits = { wanted: 1, live: 2, pending: 4, accepted: 8, revocationsPending: 16, otherCounts: 32, histograms: 64, counts: 128, window: 256, revoked: 512 } as const;
type RecordField = 'wanted' | 'live' | 'pending' | 'accepted' | 'revocationsPending' | 'revoked' | 'otherCounts' | 'histograms';

/** Every field bit: an owning draft has nothing to copy. */
const allFields = Object.values(fieldBits).reduce((all, bit) => all | bit, 0);

/**
 * A step's working copy: fields are copied on first write, so the input state stays untouched. An owning
 * draft (`owns`: the caller gives the state up and keeps no reference to it or to anything in it, as the
 * gate's sampled fold does) changes the state in place instead: same figures, no copies.
 */
export class ObserveDraft {
  readonly s: ObserveState;
  readonly measurements: Measurement[] = [];
  private copied = 0;
  private readonly owns: boolean;

  constructor(state: ObserveState, readonly nowMs: number, owns = false) {
    this.owns = owns;
    this.s = owns ? state : copyState(state);
    if (owns) this.copied = allFields;
    if (nowMs > this.s.lastAtMs) this.s.lastAtMs = nowMs;
  }

  edit<F extends RecordField>(field: F): ObserveState[F] {
    if ((this.copied & fieldBits[field]) === 0) {
      this.copied |= fieldBits[field];
      this.s[field] = { ...this.s[field] } as ObserveState[F];
    }
    return this.s[field];
  }

  measure(instrument: InstrumentId, value: number, attributes: Record<string, string> = {}, uri: string | null = null): void {
    this.measurements.push({ instrument, value, attributes, uri });
    const key = seriesKey(instrument, attributes);
    if (instruments[instrument].kind === 'histogram') {
      const previous = this.s.histograms[key];
      this.edit('histograms')[key] = {
        count: (previous?.count ?? 0) + 1,
        sumMs: (previous?.sumMs ?? 0) + value,
        maxMs: Math.max(previous?.maxMs ?? value, value),
      };
    } else {
      const index = seriesIndexOf(key);
      if (index === undefined) {
        const other = this.edit('otherCounts');
        other[key] = (other[key] ?? 0) + value;
        return;
      }
      if ((this.copied & fieldBits.counts) === 0) {
        this.copied |= fieldBits.counts;
        this.s.counts = this.s.counts.slice();
      }
      this.s.counts[index]! += value;
    }
  }

  /** The current window bucket (created, and old buckets dropped, as time moves on). */
  bucket(): WindowBucket {
    const { bucketMs, windowMs } = this.s.config;
    const startMs = this.nowMs - (this.nowMs % bucketMs);
    if ((this.copied & fieldBits.window) === 0) {
      this.copied |= fieldBits.window;
      this.s.window = this.s.window.slice();
    }
    const window = this.s.window;
    const last = window[window.length - 1];
    if (last !== undefined && last.startMs >= startMs) {
      if (this.owns) return last;
      const copy = { ...last };
      window[window.length - 1] = copy;
      return copy;
    }
    const fresh: WindowBucket = { startMs, updatedNotifications: 0, reconciliationChanges: 0, subscribeErrors: 0, subscribeAcks: 0, protocolRejections: 0, serves: 0, serveAgeMsMax: 0, listenAcksNarrowed: 0, ttlExpiredServes: 0 };
    window.push(fresh);
    while (window.length > 0 && window[0]!.startMs + bucketMs <= this.nowMs - windowMs) window.shift();
    return fresh;
  }
}

/** A shallow copy as an explicit literal (measured faster than an object spread on the hot path). */
function copyState(state: ObserveState): ObserveState {
  return {
    schema: state.schema,
    config: state.config,
    connected: state.connected,
    everConnected: state.everConnected,
    sessionGeneration: state.sessionGeneration,
    subscribeCapability: state.subscribeCapability,
    era2026: state.era2026,
    lastAtMs: state.lastAtMs,
    wanted: state.wanted,
    live: state.live,
    pending: state.pending,
    accepted: state.accepted,
    revocationsPending: state.revocationsPending,
    revoked: state.revoked,
    round: state.round,
    lastRound: state.lastRound,
    counts: state.counts,
    otherCounts: state.otherCounts,
    histograms: state.histograms,
    window: state.window,
  };
}

/** The buckets of `state.window` that overlap the window ending at `nowMs`. */
export function bucketsWithin(state: ObserveState, nowMs: number): WindowBucket[] {
  const fromMs = nowMs - state.config.windowMs;
  return state.window.filter((bucket) => bucket.startMs + state.config.bucketMs > fromMs && bucket.startMs <= nowMs);
}
