/**
 * 2026-07-28 cache hints (caching.mdx C1–C6): `ttlMs` and `cacheScope` on results.
 *
 * Rules:
 * - Freshness is measured from receipt: an entry received at t may be served while `now < t + ttlMs`.
 * - `ttlMs` absent, not a number, 0 or negative is 0 (immediately stale); a huge one is clamped to 24 h.
 * - `cacheScope` absent or unknown is `private` (the most private reading); `public` only when it says so.
 * - Across the pages of one list the aggregate is as fresh as its least fresh page and as private as its
 *   most private page: the shortest TTL and the most private scope, never wider than any one page.
 * - The reference core serves cached content only to the subject it was read for, so a `private` entry is
 *   never served across authorization contexts; the TTL narrows the serving lease of an accepted version.
 */
import { serve } from './authorization.js';
import { issueRead } from './fence.js';
import { isObject } from './protocol.js';
import type { Draft, InflightRequest } from './state.js';

/** The clamp of the SDK v2 (`MAX_CACHE_TTL_MS`): no entry outlives a day. */
export const ttlMsMax = 86_400_000;

export type CacheScope = 'public' | 'private';

export interface CacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}

/** The effective TTL of a raw `ttlMs` field. */
export function effectiveTtlMs(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw <= 0) return 0;
  return Math.min(Math.floor(raw), ttlMsMax);
}

/** The effective scope of a raw `cacheScope` field. */
export function effectiveScope(raw: unknown): CacheScope {
  return raw === 'public' ? 'public' : 'private';
}

/** The cache hint a result carries (a result that is not an object carries the strictest one). */
export function cacheHintOf(result: unknown): CacheHint {
  if (!isObject(result)) return { ttlMs: 0, cacheScope: 'private' };
  return { ttlMs: effectiveTtlMs(result.ttlMs), cacheScope: effectiveScope(result.cacheScope) };
}

/** One list's pages folded into one hint: the shortest TTL, the most private scope. */
export function aggregateHints(pages: readonly CacheHint[]): CacheHint {
  let ttlMs = pages.length === 0 ? 0 : ttlMsMax;
  let cacheScope: CacheScope = 'public';
  for (const page of pages) {
    if (page.ttlMs < ttlMs) ttlMs = page.ttlMs;
    if (page.cacheScope === 'private') cacheScope = 'private';
  }
  return { ttlMs, cacheScope: pages.length === 0 ? 'private' : cacheScope };
}

/** Until when an entry received at `receivedAtMs` with this hint may be served. */
export function freshUntilMs(receivedAtMs: number, hint: CacheHint): number {
  return receivedAtMs + hint.ttlMs;
}

/**
 * After a 2026-07-28 read was accepted: the serving lease ends no later than the TTL from receipt (now).
 * The authorization lease may end earlier still; whichever is first wins. A read sent before an `updated`
 * of the URI (superseded) proves nothing about that change: its content is stale at once.
 */
export function narrowLeaseToTtl(d: Draft, request: InflightRequest, result: unknown): void {
  const uri = request.uri;
  const until = request.superseded === true ? d.nowMs : freshUntilMs(d.nowMs, cacheHintOf(result));
  if (until < d.uriState(uri).leaseUntilMs) d.setLease(uri, until);
}

/**
 * A 2026-07-28 `updated` of the URI's live listen: the cached response is immediately stale (C4), so nothing
 * is served from it until a read sent after this notification is accepted.
 */
export function invalidateOnUpdated(d: Draft, uri: string): void {
  d.markSuperseded(uri);
  if (d.uriState(uri).leaseUntilMs > d.nowMs) d.setLease(uri, d.nowMs);
}

/**
 * A 2026-07-28 serve: the same judgement as 2025 (subject, revocation, tombstone, lease narrowed to the
 * TTL); an entry refused only because it is past its TTL is re-fetched on demand (one read, the fence
 * keeps the newest), never served stale.
 */
export function serveFresh(d: Draft, uri: string, subject: string): void {
  const before = d.effects.length;
  serve(d, uri, subject);
  if (d.effects[before]?.type !== 'ContentRefused') return;
  const sub = d.subscription(uri);
  const version = d.l.versions[uri];
  if (sub === undefined || sub.state !== 'ACTIVE' || version === undefined || version.subject !== subject) return;
  if (d.nowMs >= d.uriState(uri).leaseUntilMs) issueRead(d, uri, 'ttl');
}
