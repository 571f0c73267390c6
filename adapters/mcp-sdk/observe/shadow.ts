/**
 * Shadow rollout (source document 001: "shadow first, then 5 % on the fenced path; rollback keeps the
 * watermarks and close receipts"). The fenced cache runs beside an application's existing client against
 * the same server and serves nothing; the existing client reports what it serves through one hook,
 * `reportServed`, and every point where that disagrees with what the fences accepted is counted (metrics)
 * and recorded (`health()`), naming the URI, the versions and the reason:
 *
 * - OLDER_THAN_ACCEPTED: content the fences saw and superseded (accepted earlier, or refused as stale).
 * - NOT_ACCEPTED: content the fences never accepted while they hold another version (it may be transient:
 *   the existing client read a change the fences have not read yet).
 * - AFTER_CLOSE: content of a URI whose watch was closed (the close fence would serve nothing).
 * - REVOKED_SUBJECT: content served to a subject the fences know lost access.
 * - CATALOG_FROM_ONE_SCAN: a catalog that is not the one the fences published from two agreeing scans.
 *
 * Then a rollout share: `serve` sends the URIs chosen by hash (rollout.ts) to the fenced path and the rest
 * to the existing client, with metrics per path. `rollback` returns to shadow-only and hands back the
 * durable ledger (watermarks, close receipts) to persist, so a later roll-forward never accepts an old read.
 */
import { metrics, type Counter, type MeterProvider } from '@opentelemetry/api';
import { contentDigest } from '../../../core/digest.js';
import type { Ledger } from '../../../core/state.js';
import { canonicalizeUri } from '../../../core/uri.js';
import { verdictOf, type CacheHealth } from '../../../observe/health.js';
import { shadowInstruments } from '../../../observe/instruments.js';
import { systemClock, type Clock } from '../transport/clock.js';
import type { FencedResourceCache } from '../cache/fenced-cache.js';
import { FenceView } from './fence-view.js';
import { meterName, meterVersion } from './metrics.js';
import { checkShare, rolloutPathOf, shadowOnly, type RolloutPath, type RolloutShare } from './rollout.js';

export type ExistingServed =
  | { kind: 'content'; uri: string; subject?: string; text: string; atMs?: number }
  | { kind: 'catalog'; uris: readonly string[]; atMs?: number };

export type DisagreementReason = 'OLDER_THAN_ACCEPTED' | 'NOT_ACCEPTED' | 'AFTER_CLOSE' | 'REVOKED_SUBJECT' | 'CATALOG_FROM_ONE_SCAN';

export interface Disagreement {
  reason: DisagreementReason;
  atMs: number;
  /** Canonical URI ('' for a catalog). */
  uri: string;
  subject: string | null;
  servedDigest: string | null;
  /** The read ordinal at which the fences saw the served content (null: never seen). */
  servedOrdinal: number | null;
  acceptedDigest: string | null;
  acceptedOrdinal: number | null;
  detail: string;
}

export interface ShadowOptions {
  cache: FencedResourceCache;
  /** Share of URIs the fenced path serves (default 0: shadow only). */
  share?: RolloutShare;
  meterProvider?: MeterProvider;
  /** The time disagreements are stamped with (default the system clock; pass the cache's clock). */
  clock?: Clock;
  /** Disagreements kept for `health()` (newest; default 200). */
  disagreementsMax?: number;
}

export type RolloutServeResult = { path: RolloutPath; served: true; text: string } | { path: RolloutPath; served: false; reason: string };

export interface ShadowHealth {
  share: RolloutShare;
  comparisons: { agree: number; disagree: number; unverified: number };
  disagreementsByReason: Record<DisagreementReason, number>;
  servesByPath: Record<RolloutPath, { served: number; refused: number }>;
  /** The newest disagreements, oldest first. */
  disagreements: Disagreement[];
  /** The fenced cache's own health, with a SHADOW_DISAGREEMENTS reason when there were any. */
  cache: CacheHealth;
}

export class ShadowRollout {
  private readonly cache: FencedResourceCache;
  private readonly view = new FenceView();
  private share: RolloutShare;
  private readonly disagreementsMax: number;
  private readonly clock: Clock;
  private readonly figures: Omit<ShadowHealth, 'share' | 'cache'>;
  private readonly counters: Record<keyof typeof shadowInstruments, Counter>;
  private readonly detach: () => void;

  constructor(options: ShadowOptions) {
    this.cache = options.cache;
    this.share = checkShare(options.share ?? shadowOnly);
    this.clock = options.clock ?? systemClock;
    this.disagreementsMax = options.disagreementsMax ?? 200;
    this.figures = {
      comparisons: { agree: 0, disagree: 0, unverified: 0 },
      disagreementsByReason: { OLDER_THAN_ACCEPTED: 0, NOT_ACCEPTED: 0, AFTER_CLOSE: 0, REVOKED_SUBJECT: 0, CATALOG_FROM_ONE_SCAN: 0 },
      servesByPath: { fenced: { served: 0, refused: 0 }, existing: { served: 0, refused: 0 } },
      disagreements: [],
    };
    const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(meterName, meterVersion);
    const counter = (id: keyof typeof shadowInstruments): Counter => meter.createCounter(shadowInstruments[id].name, { unit: shadowInstruments[id].unit, description: shadowInstruments[id].description });
    this.counters = { comparisons: counter('comparisons'), disagreements: counter('disagreements'), rolloutServes: counter('rolloutServes') };
    this.detach = this.cache.onStep((input, effects) => this.view.step(input, effects));
  }

  /** The one hook: the existing client reports what it served. Returns the disagreement, if any. */
  reportServed(served: ExistingServed): Disagreement | null {
    const atMs = served.atMs ?? this.clock.nowMs();
    const found = served.kind === 'catalog' ? this.judgeCatalog(served.uris, atMs) : this.judgeContent(served.uri, served.subject ?? 'default', served.text, atMs);
    if (found === 'unverified') {
      this.figures.comparisons.unverified++;
      this.counters.comparisons.add(1, { 'fencesim.shadow.result': 'unverified' });
      return null;
    }
    if (found === null) {
      this.figures.comparisons.agree++;
      this.counters.comparisons.add(1, { 'fencesim.shadow.result': 'agree' });
      return null;
    }
    this.figures.comparisons.disagree++;
    this.figures.disagreementsByReason[found.reason]++;
    this.counters.comparisons.add(1, { 'fencesim.shadow.result': 'disagree' });
    this.counters.disagreements.add(1, { 'fencesim.shadow.reason': found.reason });
    this.figures.disagreements.push(found);
    if (this.figures.disagreements.length > this.disagreementsMax) this.figures.disagreements.shift();
    return found;
  }

  pathOf(uri: string): RolloutPath {
    return rolloutPathOf(canonical(uri), this.share);
  }

  /**
   * Serves `uri` from its path: the fenced cache, or the existing client (`existing` returns its content, or
   * undefined when it has none). What the existing path serves is compared like any `reportServed`. A refusal on
   * the fenced path is returned as is: falling back to the existing client would serve what the fence refused.
   */
  serve(uri: string, subject: string, existing: () => string | undefined): RolloutServeResult {
    const path = this.pathOf(uri);
    let result: RolloutServeResult;
    if (path === 'fenced') {
      const hit = this.cache.get(uri, subject);
      result = hit.served ? { path, served: true, text: hit.text } : { path, served: false, reason: hit.reason };
    } else {
      const text = existing();
      if (text !== undefined) this.reportServed({ kind: 'content', uri, subject, text });
      result = text === undefined ? { path, served: false, reason: 'the existing client has no content' } : { path, served: true, text };
    }
    this.figures.servesByPath[path][result.served ? 'served' : 'refused']++;
    this.counters.rolloutServes.add(1, { 'fencesim.rollout.path': path, 'fencesim.serve.outcome': result.served ? 'served' : 'refused' });
    return result;
  }

  setShare(share: RolloutShare): void {
    this.share = checkShare(share);
  }

  /** Back to shadow-only; returns the durable ledger to persist (the fenced cache keeps running and judging). */
  rollback(): Ledger {
    this.share = shadowOnly;
    return this.cache.ledger();
  }

  health(): ShadowHealth {
    const cache = this.cache.health();
    const byReason = Object.entries(this.figures.disagreementsByReason).filter(([, count]) => count > 0);
    if (byReason.length > 0) {
      const total = this.figures.comparisons.disagree;
      const list = byReason.map(([reason, count]) => `${count} ${reason}`).join(', ');
      cache.reasons.push({ code: 'SHADOW_DISAGREEMENTS', severity: 'warning', message: `the existing client served ${total} time${total === 1 ? '' : 's'} what the fences would not have: ${list}` });
      cache.verdict = verdictOf(cache.reasons);
    }
    return JSON.parse(JSON.stringify({ share: this.share, ...this.figures, cache })) as ShadowHealth;
  }

  /** Stops following the cache's steps (the cache itself is the application's to close). */
  close(): void {
    this.detach();
  }

  private judgeContent(rawUri: string, subject: string, text: string, atMs: number): Disagreement | null | 'unverified' {
    const uri = canonical(rawUri);
    const view = this.view.of(uri);
    const servedDigest = contentDigest(text);
    const accepted = view?.accepted ?? null;
    const seen = view?.seen.get(servedDigest);
    const make = (reason: DisagreementReason, detail: string): Disagreement => ({
      reason,
      atMs,
      uri,
      subject,
      servedDigest,
      servedOrdinal: seen === undefined || seen.readOrdinal < 0 ? null : seen.readOrdinal,
      acceptedDigest: accepted?.digest ?? null,
      acceptedOrdinal: accepted?.readOrdinal ?? null,
      detail,
    });
    const revokedAtMs = this.view.revoked.get(subject + ' ' + uri);
    if (revokedAtMs !== undefined) return make('REVOKED_SUBJECT', `${subject} lost access at ${revokedAtMs} ms; the fences serve nothing to it`);
    if (view?.closed != null) return make('AFTER_CLOSE', `the watch was closed at ${view.closed.atMs} ms (close ordinal ${view.closed.closeOrdinal}, epoch ${view.closed.closeEpoch})`);
    if (accepted === null) return 'unverified';
    if (servedDigest === accepted.digest) return null;
    if (seen !== undefined && seen.readOrdinal < accepted.readOrdinal) {
      return make('OLDER_THAN_ACCEPTED', `served content the fences ${seen.detail}; accepted ordinal ${accepted.readOrdinal} (digest ${accepted.digest.slice(0, 12)})`);
    }
    return make('NOT_ACCEPTED', `served content the fences never accepted; accepted ordinal ${accepted.readOrdinal} (digest ${accepted.digest.slice(0, 12)})`);
  }

  private judgeCatalog(rawUris: readonly string[], atMs: number): Disagreement | null {
    const uris = [...new Set(rawUris.map(canonical))].sort();
    const published = this.view.catalog;
    const make = (detail: string): Disagreement => ({ reason: 'CATALOG_FROM_ONE_SCAN', atMs, uri: '', subject: null, servedDigest: null, servedOrdinal: null, acceptedDigest: null, acceptedOrdinal: published?.scanId ?? null, detail });
    if (published === null) return make(`a catalog of ${uris.length} URIs while the fences have published none (two agreeing scans are needed)`);
    const fenced = new Set(published.uris);
    const served = new Set(uris);
    const extra = uris.filter((uri) => !fenced.has(uri));
    const missing = published.uris.filter((uri) => !served.has(uri));
    if (extra.length === 0 && missing.length === 0) return null;
    return make(`differs from the fences' catalog of scan ${published.scanId} (${published.status}): extra ${preview(extra)}, missing ${preview(missing)}`);
  }
}

function canonical(uri: string): string {
  const result = canonicalizeUri(uri);
  return result.ok ? result.uri : uri;
}

function preview(uris: readonly string[]): string {
  return uris.length === 0 ? 'none' : uris.slice(0, 5).join(', ') + (uris.length > 5 ? ` (+${uris.length - 5})` : '');
}
