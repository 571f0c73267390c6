/**
 * The health verdict: the fold's figures as plain data plus a verdict with reasons a person can act on,
 * judged over a trailing window ("trends, not instantaneous values"). Pure: `nowMs` is a parameter.
 */
import { bucketsWithin, countOf, countsOf, type HistogramTotal, type ObserveState, type RoundSummary } from './state.js';

export interface HealthThresholds {
  /** Content older than this at serve (time since the read that confirmed it) is reported. */
  serveAgeMsMax: number;
  /** A revocation event whose content is not purged within this long is reported. */
  purgeDelayMsMax: number;
}

export const defaultHealthThresholds: HealthThresholds = { serveAgeMsMax: 60_000, purgeDelayMsMax: 1_000 };

export type HealthSeverity = 'critical' | 'warning';

export interface HealthReason {
  code:
    | 'NEVER_CONNECTED'
    | 'DISCONNECTED'
    | 'NOTIFICATIONS_LOOK_LOST'
    | 'NOTIFICATIONS_PARTLY_LOST'
    | 'RESUBSCRIPTION_INCOMPLETE'
    | 'SUBSCRIBE_FAILING'
    | 'REVOCATION_NOT_PURGED'
    | 'SERVE_AGE_HIGH'
    | 'PROTOCOL_REJECTIONS'
    | 'CACHE_STOPPED'
    | 'SHADOW_DISAGREEMENTS'
    | 'LISTENS_NARROWED';
  severity: HealthSeverity;
  message: string;
}

export interface WindowFigures {
  windowMs: number;
  updatedNotifications: number;
  reconciliationChanges: number;
  subscribeAcks: number;
  subscribeErrors: number;
  protocolRejections: number;
  serves: number;
  serveAgeMsMax: number;
  listenAcksNarrowed: number;
  ttlExpiredServes: number;
}

/** 2026-07-28 connections: listens and their acks, and serves that found an entry past its TTL (totals since start). */
export interface ListenFigures {
  listens: number;
  acksHonored: number;
  acksNarrowed: number;
  acksIgnored: number;
  ttlExpiredServes: number;
}

export interface CacheHealth {
  verdict: 'healthy' | 'degraded' | 'unhealthy';
  reasons: HealthReason[];
  atMs: number;
  connected: boolean;
  sessionGeneration: number;
  wantedUris: number;
  subscribedUris: number;
  window: WindowFigures;
  resubscription: {
    open: { sessionGeneration: number; wanted: number; resubscribed: number; ageMs: number } | null;
    last: RoundSummary | null;
  };
  revocationsAwaitingPurge: number;
  /** Present once a connection spoke 2026-07-28 (or a listen was sent). */
  listen: ListenFigures | null;
  /** Totals since start, keyed like the exported series: instrument id, then `|attribute=value` sorted. */
  counts: Record<string, number>;
  histograms: Record<string, HistogramTotal>;
}

export function healthOf(state: ObserveState, nowMs: number, thresholds: Partial<HealthThresholds> = {}, extra: HealthReason[] = []): CacheHealth {
  const limits = { ...defaultHealthThresholds, ...thresholds };
  const window = windowFigures(state, nowMs);
  const round = state.round;
  const health: CacheHealth = {
    verdict: 'healthy',
    reasons: [],
    atMs: nowMs,
    connected: state.connected,
    sessionGeneration: state.sessionGeneration,
    wantedUris: Object.keys(state.wanted).length,
    subscribedUris: Object.keys(state.live).length,
    window,
    resubscription: {
      open: round === null ? null : { sessionGeneration: round.sessionGeneration, wanted: round.wanted, resubscribed: round.resubscribed, ageMs: nowMs - round.startedAtMs },
      last: state.lastRound,
    },
    revocationsAwaitingPurge: Object.keys(state.revocationsPending).length,
    listen: listenFigures(state),
    counts: countsOf(state),
    histograms: { ...state.histograms },
  };
  health.reasons = [...extra, ...connectionReasons(state, health), ...notificationReasons(state, health), ...servingReasons(state, health, nowMs, limits)];
  health.verdict = verdictOf(health.reasons);
  return health;
}

export function verdictOf(reasons: readonly HealthReason[]): CacheHealth['verdict'] {
  return reasons.some((reason) => reason.severity === 'critical') ? 'unhealthy' : reasons.length > 0 ? 'degraded' : 'healthy';
}

function listenFigures(state: ObserveState): ListenFigures | null {
  const listens = countOf(state, 'listens');
  if (!state.era2026 && listens === 0) return null;
  const acks = (filter: string): number => countOf(state, 'listenAcks', { 'fencesim.ack.filter': filter });
  return { listens, acksHonored: acks('honored'), acksNarrowed: acks('narrowed'), acksIgnored: acks('ignored'), ttlExpiredServes: countOf(state, 'ttlExpiredServes') };
}

function windowFigures(state: ObserveState, nowMs: number): WindowFigures {
  const figures: WindowFigures = { windowMs: state.config.windowMs, updatedNotifications: 0, reconciliationChanges: 0, subscribeAcks: 0, subscribeErrors: 0, protocolRejections: 0, serves: 0, serveAgeMsMax: 0, listenAcksNarrowed: 0, ttlExpiredServes: 0 };
  for (const bucket of bucketsWithin(state, nowMs)) {
    figures.updatedNotifications += bucket.updatedNotifications;
    figures.reconciliationChanges += bucket.reconciliationChanges;
    figures.subscribeAcks += bucket.subscribeAcks;
    figures.subscribeErrors += bucket.subscribeErrors;
    figures.protocolRejections += bucket.protocolRejections;
    figures.serves += bucket.serves;
    figures.listenAcksNarrowed += bucket.listenAcksNarrowed;
    figures.ttlExpiredServes += bucket.ttlExpiredServes;
    figures.serveAgeMsMax = Math.max(figures.serveAgeMsMax, bucket.serveAgeMsMax);
  }
  return figures;
}

function connectionReasons(state: ObserveState, health: CacheHealth): HealthReason[] {
  const reasons: HealthReason[] = [];
  if (!state.everConnected) reasons.push({ code: 'NEVER_CONNECTED', severity: 'critical', message: 'no session was ever opened with the server' });
  else if (!state.connected) reasons.push({ code: 'DISCONNECTED', severity: 'critical', message: `not connected: session ${state.sessionGeneration} ended and no new one is open` });
  const open = health.resubscription.open;
  if (open !== null && open.ageMs > state.config.resubscriptionDeadlineMs) {
    reasons.push({ code: 'RESUBSCRIPTION_INCOMPLETE', severity: 'critical', message: `reconnected ${seconds(open.ageMs)} ago (session ${open.sessionGeneration}): only ${open.resubscribed} of ${open.wanted} wanted URIs re-subscribed` });
  }
  const last = state.lastRound;
  if (open === null && last !== null && last.outcome === 'incomplete') {
    reasons.push({ code: 'RESUBSCRIPTION_INCOMPLETE', severity: 'critical', message: `after the reconnect of session ${last.sessionGeneration} only ${last.resubscribed} of ${last.wanted} wanted URIs were re-subscribed within ${seconds(state.config.resubscriptionDeadlineMs)}` });
  }
  const window = health.window;
  if (window.listenAcksNarrowed > 0) {
    reasons.push({ code: 'LISTENS_NARROWED', severity: 'warning', message: `the server left ${count(window.listenAcksNarrowed, 'URI')} out of the honored filter of its listen ack in ${seconds(window.windowMs)}: those URIs are polled, not watched` });
  }
  if (window.subscribeErrors > 0) {
    reasons.push({ code: 'SUBSCRIBE_FAILING', severity: 'warning', message: `${window.subscribeErrors} of ${window.subscribeErrors + window.subscribeAcks} subscribe requests failed in ${seconds(window.windowMs)}` });
  }
  return reasons;
}

function notificationReasons(state: ObserveState, health: CacheHealth): HealthReason[] {
  const window = health.window;
  if (state.subscribeCapability !== true || health.subscribedUris === 0 || window.reconciliationChanges === 0) return [];
  if (window.updatedNotifications === 0) {
    return [{
      code: 'NOTIFICATIONS_LOOK_LOST',
      severity: 'critical',
      message: `subscribed to ${count(health.subscribedUris, 'URI')}, 0 notifications in ${seconds(window.windowMs)} while reconciliation found ${count(window.reconciliationChanges, 'change')}: notifications look lost`,
    }];
  }
  return [{
    code: 'NOTIFICATIONS_PARTLY_LOST',
    severity: 'warning',
    message: `reconciliation found ${count(window.reconciliationChanges, 'change')} the notifications had not brought in ${seconds(window.windowMs)} (${count(window.updatedNotifications, 'notification')}): some notifications look lost`,
  }];
}

function servingReasons(state: ObserveState, health: CacheHealth, nowMs: number, limits: HealthThresholds): HealthReason[] {
  const reasons: HealthReason[] = [];
  const overdue = Object.values(state.revocationsPending).filter((sinceMs) => nowMs - sinceMs > limits.purgeDelayMsMax);
  if (overdue.length > 0) {
    const oldestMs = nowMs - Math.min(...overdue);
    reasons.push({ code: 'REVOCATION_NOT_PURGED', severity: 'critical', message: `${count(overdue.length, 'revocation')} not purged from the cache; the oldest arrived ${seconds(oldestMs)} ago` });
  }
  const window = health.window;
  if (window.serveAgeMsMax > limits.serveAgeMsMax) {
    reasons.push({ code: 'SERVE_AGE_HIGH', severity: 'warning', message: `content up to ${seconds(window.serveAgeMsMax)} old was served in ${seconds(window.windowMs)} (bound ${seconds(limits.serveAgeMsMax)})` });
  }
  if (window.protocolRejections > 0) {
    reasons.push({ code: 'PROTOCOL_REJECTIONS', severity: 'warning', message: `${count(window.protocolRejections, 'malformed message')} rejected in ${seconds(window.windowMs)}` });
  }
  return reasons;
}

export function formatHealth(health: CacheHealth): string {
  const lines = [`health: ${health.verdict.toUpperCase()} (session ${health.sessionGeneration}, ${health.connected ? 'connected' : 'not connected'}, ${health.subscribedUris} of ${health.wantedUris} wanted URIs subscribed)`];
  const window = health.window;
  lines.push(`  last ${seconds(window.windowMs)}: ${window.updatedNotifications} updated notifications, ${window.reconciliationChanges} reconciliation changes, ${window.serves} serves (oldest ${seconds(window.serveAgeMsMax)}), ${window.protocolRejections} rejections`);
  const last = health.resubscription.last;
  if (last !== null) lines.push(`  last reconnect: ${last.outcome}, ${last.resubscribed}/${last.wanted} re-subscribed${last.durationMs === null ? '' : ` in ${seconds(last.durationMs)}`}`);
  const listen = health.listen;
  if (listen !== null) lines.push(`  2026-07-28: ${listen.listens} listens, acks ${listen.acksHonored} honored / ${listen.acksNarrowed} narrowed / ${listen.acksIgnored} ignored, ${listen.ttlExpiredServes} serves past TTL (${window.ttlExpiredServes} in the window)`);
  for (const reason of health.reasons) lines.push(`  ${reason.severity}: ${reason.code}: ${reason.message}`);
  return lines.join('\n');
}

function seconds(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000} min`;
  return ms < 10_000 && ms % 1_000 !== 0 ? `${(ms / 1_000).toFixed(1)} s` : `${Math.round(ms / 1_000)} s`;
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}
