/**
 * Discovery scans and catalog reconciliation (SPEC §3.6).
 *
 * Rules:
 * - Cursors are opaque: sent back exactly as received, never parsed or modified, kept only in volatile
 *   state (never persisted, never reused across sessions). The ledger keeps cursor digests, for cycle
 *   detection: a cursor seen twice in one pass abandons the pass. An invalid-cursor error, an empty-string
 *   cursor, a malformed page or a duplicate URI within a page abandon it too; reconciliation restarts.
 * - With the snapshot-ID extension negotiated, a pass whose every page carries the same non-empty
 *   snapshotId publishes SNAPSHOT_PROVEN. An ID that changes across pages, is missing on a page, or arrives
 *   without negotiation is forged: that pass is treated as a standard one and is never proven.
 * - Standard MCP: two consecutive complete passes (A, B) of one session with equal URI-set digests and no
 *   list_changed during either may publish SNAPSHOT_UNPROVEN with measuredAt, a staleness bound and the next
 *   review time. A single pass never publishes anything.
 * - Completeness tasks accept only a SNAPSHOT_PROVEN catalog; so does confirming a deletion (it deletes
 *   downstream), which also needs a not-found read issued after an earlier catalog lacked the URI.
 * - 2026-07-28: every page's `ttlMs` / `cacheScope` is folded into its pass (the shortest TTL, the most
 *   private scope: core/ttl.ts `aggregateHints`), and a catalog carries the fold of every pass it rests on
 *   (both passes of an A/B reconciliation), never wider than any one page the server sent.
 */
import { contentDigest } from './digest.js';
import { confirmTombstone, isOpen, issueRead, resourcesOffered } from './fence.js';
import { describe } from './input-check.js';
import { LEDGER_TEXT_CHARS_MAX, checkUriAt, isObject, typeName } from './protocol.js';
import { isEra2026 } from './era.js';
import { aggregateHints, cacheHintOf, type CacheHint } from './ttl.js';
import type { Draft } from './state.js';
import type { CatalogRecord, DiscoveryScanRecord } from './records.js';
import type { CatalogStatus, ResponseOutcome, ScanAbandonReason } from './types.js';

export { emptyDiscovery, type CatalogRecord, type DiscoveryLedger, type DiscoveryScanRecord } from './records.js';

/** The discovery timer is global; it lives under the empty URI key. */
export const discoveryTimerUri = '';

/** Asked to discover (workload, list_changed, periodic review): start a round unless one runs. */
export function requestDiscovery(d: Draft): void {
  const discovery = d.mutableDiscovery();
  discovery.wanted = true;
  discovery.rounds = 0;
  if (discovery.running === null && d.v.connected) startPass(d);
}

/**
 * A new session (a reconnect, or the first after a crash): a wanted round starts; otherwise a published
 * catalog's review timer, which lived in the session's volatile state, is armed again for its review time, so
 * the catalog keeps being reviewed (and deletions confirmed) without a new discovery command.
 */
export function resumeDiscovery(d: Draft): void {
  const discovery = d.l.discovery;
  if (discovery.wanted) requestDiscovery(d);
  else if (discovery.catalog !== null) d.armTimer('discover', discoveryTimerUri, Math.max(discovery.catalog.nextReviewAtMs, d.nowMs));
}

export function startPass(d: Draft): void {
  if (!resourcesOffered(d)) return; // no resources/list without the capability
  const discovery = d.mutableDiscovery();
  if (discovery.rounds >= d.config.reconcileRoundsMax) {
    // Give up for now; the review timer tries again later.
    discovery.rounds = 0;
    discovery.previous = null;
    d.armTimer('discover', discoveryTimerUri, d.nowMs + d.config.catalogReviewMs);
    return;
  }
  discovery.rounds += 1;
  const scanId = discovery.nextScanId++;
  const snapshot = d.v.capabilities?.snapshotId === true;
  const pass = snapshot ? 'SNAPSHOT' : discovery.previous === null ? 'A' : 'B';
  discovery.running = {
    schema: 'resourceDiscoveryScan.v1',
    scanId,
    pass,
    sessionGeneration: d.v.sessionGeneration,
    firstRequestMs: d.nowMs,
    cursorDigests: [],
    uris: [],
    uriSetDigest: null,
    notificationsObserved: 0,
    snapshotIds: [],
    snapshotForged: false,
    pages: 0,
    endMs: null,
    status: 'RUNNING',
  };
  d.emit({ type: 'ScanStarted', scanId, pass });
  d.sendListRequest(null);
}

export function abandonPass(d: Draft, reason: ScanAbandonReason, detail: string): void {
  const discovery = d.mutableDiscovery();
  const running = discovery.running;
  if (running === null) return;
  d.emit({ type: 'ScanAbandoned', scanId: running.scanId, reason, detail });
  discovery.running = null;
  discovery.previous = null;
  if (reason === 'SESSION_LOST') return;
  if (discovery.wanted && d.v.connected) startPass(d);
}

/** list_changed: a running pass is tainted; otherwise the catalog is stale: re-scan after a short delay. */
export function onListChanged(d: Draft): void {
  const discovery = d.mutableDiscovery();
  if (discovery.running !== null) {
    const running = copyScan(discovery.running);
    running.notificationsObserved += 1;
    discovery.running = running;
    return;
  }
  discovery.previous = null;
  const soonMs = d.nowMs + d.config.listChangedDebounceMs;
  const armedMs = d.timerDeadline('discover', discoveryTimerUri);
  if (armedMs < 0 || armedMs > soonMs) d.armTimer('discover', discoveryTimerUri, soonMs);
}

/** One `resources/list` page arrived for the running pass. */
export function onListPage(d: Draft, outcome: ResponseOutcome): void {
  const running = d.l.discovery.running;
  if (running === null) return;
  if (outcome.type === 'error') {
    const invalidCursor = outcome.code === -32602;
    abandonPass(d, invalidCursor ? 'CURSOR_INVALID' : 'LIST_ERROR', `resources/list error ${describe(outcome.code)}`);
    return;
  }
  const page = parsePage(outcome.result, running, isEra2026(d));
  if (!page.ok) {
    d.emit({ type: 'ProtocolRejected', rejection: { kind: 'MalformedListPage', detail: page.detail } });
    abandonPass(d, page.reason, page.detail);
    return;
  }
  // One copy of the running pass per page, changed in place below (it is this step's own record).
  const next = copyScan(running);
  if (page.uris.length > 0) next.uris = running.uris.concat(page.uris);
  next.pages = running.pages + 1;
  if (page.snapshotId !== null && !running.snapshotIds.includes(page.snapshotId)) next.snapshotIds = running.snapshotIds.concat(page.snapshotId);
  next.snapshotForged = running.snapshotForged || isForged(d, running, page.snapshotId);
  if (isEra2026(d)) next.hint = foldHint(running.hint, cacheHintOf(outcome.result));
  d.mutableDiscovery().running = next;
  if (page.nextCursor === null) {
    completePass(d, next);
    return;
  }
  const cursorDigest = digestCursor(page.nextCursor);
  if (next.cursorDigests.includes(cursorDigest)) {
    abandonPass(d, 'CURSOR_CYCLE', `cursor repeated after ${next.pages} pages`);
    return;
  }
  if (next.pages >= d.config.scanPagesMax) {
    abandonPass(d, 'PAGE_LIMIT', `more than ${d.config.scanPagesMax} pages`);
    return;
  }
  next.cursorDigests = next.cursorDigests.concat(cursorDigest);
  d.sendListRequest(page.nextCursor);
}

/** A copy of a scan record, fields in declaration order (an explicit literal: faster than a spread here). */
function copyScan(r: DiscoveryScanRecord): DiscoveryScanRecord {
  const copy: DiscoveryScanRecord = {
    schema: r.schema,
    scanId: r.scanId,
    pass: r.pass,
    sessionGeneration: r.sessionGeneration,
    firstRequestMs: r.firstRequestMs,
    cursorDigests: r.cursorDigests,
    uris: r.uris,
    uriSetDigest: r.uriSetDigest,
    notificationsObserved: r.notificationsObserved,
    snapshotIds: r.snapshotIds,
    snapshotForged: r.snapshotForged,
    pages: r.pages,
    endMs: r.endMs,
    status: r.status,
  };
  // Set only when present (a key holding undefined would not be deep-equal): a spread here is slow.
  if (r.hint !== undefined) copy.hint = r.hint;
  return copy;
}

/** The hint of a pass (or catalog) so far folded with one more: the shortest TTL, the most private scope. */
function foldHint(folded: CacheHint | undefined, next: CacheHint | undefined): CacheHint | undefined {
  if (folded === undefined || next === undefined) return folded ?? next;
  return aggregateHints([folded, next]);
}

/**
 * A cursor's fingerprint for cycle detection (the cursor itself is never stored). Two independent 32-bit
 * FNV-1a lanes: a collision could only abandon a pass needlessly, never accept a wrong listing.
 */
export function digestCursor(cursor: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ cursor.length;
  for (let index = 0; index < cursor.length; index++) {
    const code = cursor.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

function isForged(d: Draft, running: DiscoveryScanRecord, snapshotId: string | null): boolean {
  const negotiated = d.v.capabilities?.snapshotId === true;
  if (!negotiated) return snapshotId !== null;
  if (snapshotId === null) return true;
  return running.snapshotIds.length > 0 && running.snapshotIds[0] !== snapshotId;
}

type ParsedPage =
  | { ok: true; uris: string[]; nextCursor: string | null; snapshotId: string | null }
  | { ok: false; reason: ScanAbandonReason; detail: string };

/** `emptyCursorIsCursor`: 2026-07-28 (pagination.mdx: an empty string is a valid cursor, never the end). */
function parsePage(result: unknown, running: DiscoveryScanRecord, emptyCursorIsCursor: boolean): ParsedPage {
  if (!isObject(result)) return malformed(`resources/list result must be an object, got ${typeName(result)}`);
  const resources = result.resources;
  if (!Array.isArray(resources)) return malformed(`resources/list result.resources must be an array, got ${typeName(resources)}`);
  const uris: string[] = [];
  // Duplicate check: linear with a Set; a short page (the common case) scans its few URIs instead.
  const seen = resources.length > 16 ? new Set<string>() : null;
  for (let index = 0; index < resources.length; index++) {
    const item: unknown = resources[index];
    if (!isObject(item)) return malformed(`resources[${index}] must be an object, got ${typeName(item)}`);
    if (typeof item.name !== 'string') return malformed(`resources[${index}].name must be a string, got ${typeName(item.name)}`);
    const uri = checkUriAt(item.uri, 'resources', index);
    if (!uri.ok) return malformed(uri.rejection.detail);
    if (seen === null ? uris.includes(uri.uri) : seen.has(uri.uri)) return { ok: false, reason: 'DUPLICATE_URI', detail: `duplicate URI ${uri.uri} within one page` };
    seen?.add(uri.uri);
    uris.push(uri.uri);
  }
  const cursor = result.nextCursor;
  if (cursor !== undefined && typeof cursor !== 'string') return malformed(`nextCursor must be a string, got ${typeName(cursor)}`);
  if (cursor === '' && !emptyCursorIsCursor) return { ok: false, reason: 'EMPTY_CURSOR', detail: `empty-string nextCursor after page ${running.pages + 1}` };
  const snapshotId = result.snapshotId;
  if (snapshotId !== undefined && (typeof snapshotId !== 'string' || snapshotId === '')) {
    return malformed(`snapshotId must be a non-empty string, got ${typeName(snapshotId)}`);
  }
  if (snapshotId !== undefined && snapshotId.length > LEDGER_TEXT_CHARS_MAX) {
    return malformed(`snapshotId has ${snapshotId.length} characters, more than ${LEDGER_TEXT_CHARS_MAX}`);
  }
  return { ok: true, uris, nextCursor: cursor ?? null, snapshotId: snapshotId ?? null };
}

function malformed(detail: string): ParsedPage {
  return { ok: false, reason: 'MALFORMED_PAGE', detail };
}

function completePass(d: Draft, pass: DiscoveryScanRecord): void {
  const uris = [...new Set(pass.uris)].sort();
  const complete = copyScan(pass);
  complete.uris = uris;
  complete.uriSetDigest = contentDigest(uris.join('\n'));
  complete.endMs = d.nowMs;
  complete.status = 'COMPLETE';
  const discovery = d.mutableDiscovery();
  discovery.running = null;
  // Any complete pass that lists a URI voids a pending deletion confirmation for it, published or not.
  for (const uri of uris) if (d.uriState(uri).confirmAfterOrdinal >= 0) d.setConfirmAfter(uri, -1);
  const proven = complete.pass === 'SNAPSHOT' && !complete.snapshotForged && complete.snapshotIds.length === 1;
  if (proven) {
    publish(d, complete, 'SNAPSHOT_PROVEN', complete.firstRequestMs, complete.hint);
    return;
  }
  const previous = discovery.previous;
  const reconciled =
    previous !== null &&
    previous.sessionGeneration === complete.sessionGeneration &&
    previous.uriSetDigest === complete.uriSetDigest &&
    previous.notificationsObserved === 0 &&
    complete.notificationsObserved === 0;
  if (reconciled) {
    publish(d, complete, 'SNAPSHOT_UNPROVEN', previous.firstRequestMs, foldHint(previous.hint, complete.hint));
    return;
  }
  discovery.previous = complete;
  startPass(d);
}

/** `hint`: 2026-07-28, the fold of every page of the passes the catalog rests on (undefined on 2025-11-25). */
function publish(d: Draft, pass: DiscoveryScanRecord, status: CatalogStatus, firstPassStartMs: number, hint: CacheHint | undefined): void {
  const discovery = d.mutableDiscovery();
  // Measured when its (first) pass began, not when it is published: the listing may have changed since,
  // and its age (the staleness bound, the review time) counts from the listing, not from the publication.
  const measuredAtMs = firstPassStartMs;
  const nextReviewAtMs = measuredAtMs + d.config.catalogReviewMs;
  discovery.catalog = { scanId: pass.scanId, status, uris: pass.uris, digest: pass.uriSetDigest!, measuredAtMs, nextReviewAtMs };
  discovery.previous = null;
  discovery.wanted = false;
  discovery.rounds = 0;
  d.emit({
    type: 'CatalogPublished',
    scanId: pass.scanId,
    status,
    uris: pass.uris,
    digest: pass.uriSetDigest!,
    measuredAtMs,
    stalenessBoundMs: d.config.catalogReviewMs,
    nextReviewAtMs,
    ...(hint === undefined ? {} : { cacheScope: hint.cacheScope, ttlMs: hint.ttlMs }),
  });
  d.armTimer('discover', discoveryTimerUri, Math.max(nextReviewAtMs, d.nowMs));
  // Confirming a deletion deletes downstream: a completeness task, so only a proven snapshot may do it
  // (an A/B-reconciled listing can miss a live resource when pages shift under unseen mutations), and only
  // while it is current (no list_changed since the snapshot was taken).
  const confirming = status === 'SNAPSHOT_PROVEN' && pass.notificationsObserved === 0;
  reconcileTombstones(d, new Set(pass.uris), confirming ? firstPassStartMs : -1);
}

/**
 * A reconciled catalog settles TOMBSTONE_PENDING resources. One that is listed again is re-read. One that
 * is absent needs two pieces of evidence before its deletion is confirmed: a not-found read issued after a
 * catalog that lacked it, and then a later catalog that still lacks it and whose first pass began after
 * that not-found arrived (so no slow, stale not-found and no single listing can confirm a deletion).
 * An `updated` notification or any complete pass listing the URI voids the evidence. `firstPassStartMs` is
 * -1 when the list changed while the catalog was being taken: then nothing is confirmed from it.
 */
function reconcileTombstones(d: Draft, listed: ReadonlySet<string>, firstPassStartMs: number): void {
  for (const uri in d.l.subscriptions) {
    const sub = d.l.subscriptions[uri]!;
    if (!isOpen(sub.state)) continue; // closing or closed: no tombstone, no outbox entry
    const progress = d.uriState(uri);
    if (listed.has(uri)) {
      if (progress.confirmAfterOrdinal >= 0) d.setConfirmAfter(uri, -1);
      if (sub.state === 'TOMBSTONE_PENDING' && progress.inFlight === 0) issueRead(d, uri, 'reappeared');
      continue;
    }
    // A read in flight (READ_PENDING: a poll or tombstone check of a TOMBSTONE_PENDING resource, say) is no
    // reason to skip the catalog: its answer was asked before the catalog, so one more read follows it.
    const reading = sub.state === 'READ_PENDING' && progress.inFlight > 0;
    if (sub.state !== 'TOMBSTONE_PENDING' && !reading && progress.confirmAfterOrdinal < 0) continue;
    if (sub.deletionConfirmed) continue; // confirmed already, and nothing was accepted since
    if (progress.notFoundEvidenceMs >= 0 && progress.notFoundEvidenceMs < firstPassStartMs) {
      confirmTombstone(d, uri);
      continue;
    }
    // Only a not-found read issued after THIS catalog may count: reads already in flight are too old.
    d.setConfirmAfter(uri, sub.lastIssuedOrdinal);
    if (sub.state === 'TOMBSTONE_PENDING' && progress.inFlight === 0) issueRead(d, uri, 'tombstone-check');
    else if (progress.inFlight > 0 && !progress.dirty) d.setReads(uri, progress.inFlight, true);
  }
}

/** Completeness tasks (cleanup, revocation sweeps) need a proven snapshot. */
export function decideCompletenessTask(d: Draft, task: string): void {
  const catalog = d.l.discovery.catalog;
  if (catalog === null) {
    d.emit({ type: 'CompletenessTaskDecided', task, accepted: false, catalogStatus: 'NONE', reason: 'no catalog has been published' });
  } else if (catalog.status !== 'SNAPSHOT_PROVEN') {
    d.emit({ type: 'CompletenessTaskDecided', task, accepted: false, catalogStatus: catalog.status, reason: 'the catalog is SNAPSHOT_UNPROVEN: completeness needs a proven snapshot' });
  } else if (d.nowMs >= catalog.nextReviewAtMs) {
    d.emit({ type: 'CompletenessTaskDecided', task, accepted: false, catalogStatus: catalog.status, reason: 'the proven catalog is past its review time' });
  } else {
    d.emit({ type: 'CompletenessTaskDecided', task, accepted: true, catalogStatus: catalog.status, reason: `proven snapshot from scan ${catalog.scanId}` });
  }
}
