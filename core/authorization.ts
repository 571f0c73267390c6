/**
 * Serving, authorization leases, revocation and lineage (SPEC §3.8).
 *
 * Rules:
 * - Cached content records the subject it was read for; derived index entries record URI, version digest
 *   and subject (lineage). Every accepted version writes its derived entries and an upsert outbox entry that
 *   supersedes the previous version's entries.
 * - Content is served only to the subject it was read for, only within an authorization lease that a
 *   successful read renews, and never after a revocation was learned. An expiring lease is revalidated by a
 *   read, so a lost revocation event still bounds exposure.
 * - Learning of a revocation (feed event or permission error on read) stops serving at once, purges the
 *   cached version and writes one invalidation outbox entry naming every derived entry built from it.
 */
import { isPolling } from './era.js';
import type { ClientConfig } from './types.js';
import type { Draft } from './state.js';

/** Non-standard JSON-RPC code the simulator (and many servers) use for "permission denied". */
export const permissionDeniedCode = -32003;

export type { DerivedRecord } from './records.js';

export function revocationKey(subject: string, uri: string): string {
  return subject + ' ' + uri;
}

export function isRevoked(d: Draft, subject: string, uri: string): boolean {
  const revoked = d.l.revoked;
  for (const _ in revoked) return revoked[revocationKey(subject, uri)] !== undefined; // only when any exist
  return false;
}

/** After a version is accepted: lineage entries plus the upsert outbox entry that supersedes the old ones. */
export function writeLineage(d: Draft, uri: string, subject: string, digest: string): void {
  const count = d.config.derivedEntriesPerVersion;
  const entries: string[] = [];
  for (let index = 0; index < count; index++) {
    const entryId = uri + '#' + digest.slice(0, 12) + '#' + index;
    entries.push(entryId);
    d.emit({ type: 'DerivedEntryWritten', entryId, uri, digest, subject });
  }
  const previous = d.l.derived[uri];
  d.putDerived(uri, { subject, digest, entries });
  d.emit({
    type: 'OutboxEntryWritten',
    uri,
    sequence: d.allocateOutboxSequence(),
    operation: 'upsert',
    digest,
    derivedEntries: entries,
    supersedes: previous === undefined ? [] : previous.entries,
  });
}

/** A confirmed deletion: drop the cached version and delete its derived entries downstream. */
export function writeDeletion(d: Draft, uri: string): void {
  const previous = d.l.derived[uri];
  d.putDerived(uri, undefined);
  d.putVersion(uri, undefined);
  d.emit({
    type: 'OutboxEntryWritten',
    uri,
    sequence: d.allocateOutboxSequence(),
    operation: 'delete',
    digest: previous?.digest ?? '',
    derivedEntries: previous === undefined ? [] : previous.entries,
    supersedes: [],
  });
}

/** The staleness bound a client of this configuration keeps: worst case between a change and the read that sees it, every notification lost. */
export function configuredStalenessBoundMs(config: ClientConfig, polling: boolean): number {
  const period = polling ? config.pollIntervalMs + config.pollJitterMsMax : config.reconcileIntervalMs + config.reconcileJitterMsMax;
  return period + config.readHedgeMs;
}

/**
 * An accepted read renews the authorization lease, and content is served only while it also keeps the
 * published staleness bound, counted from when the confirming read was sent (`confirmedAtMs`): when reads
 * fail for longer (an outage, a slow server), serving is refused until one succeeds.
 */
export function renewLease(d: Draft, uri: string, confirmedAtMs: number): void {
  const leaseUntilMs = d.nowMs + d.config.authorizationLeaseMs;
  const polling = isPolling(d, uri);
  d.setLease(uri, Math.min(leaseUntilMs, confirmedAtMs + configuredStalenessBoundMs(d.config, polling)));
  // Revalidate a little before expiry so serving is not interrupted while access lasts.
  d.armTimer('lease', uri, leaseUntilMs - (d.config.authorizationLeaseMs >> 2));
}

/** Serve cached content to a subject, or refuse with the reason. */
export function serve(d: Draft, uri: string, subject: string): void {
  const version = d.l.versions[uri];
  const refuse = (reason: string): void => d.emit({ type: 'ContentRefused', uri, subject, reason });
  if (isRevoked(d, subject, uri)) return refuse(`${subject} lost access to this resource`);
  if (version === undefined) return refuse('nothing cached for this resource');
  if (version.subject !== subject) return refuse(`cached content was read for ${version.subject}, not ${subject}`);
  const sub = d.subscription(uri);
  if (sub !== undefined && sub.state === 'TOMBSTONE_PENDING') return refuse('the resource is pending deletion');
  if (d.nowMs >= d.uriState(uri).leaseUntilMs) return refuse('authorization lease expired: revalidation pending');
  d.emit({ type: 'ContentServed', uri, subject, digest: version.digest });
}

/**
 * Revocation learned: stop serving at once, purge the cache, invalidate every derived entry.
 *
 * It is remembered (durably) only when `subject` is the subject of the URI's subscription record: that is
 * what blocks its reads and the accepts of reads already in flight. For anything else nothing is cached
 * once the purge below has run, and no read of it is in flight (reads belong to the subscription), so a
 * later subscription by that subject must read first, and the server answers that read with a permission
 * error, which is learned then. So the map holds at most one entry per subscription record, and an
 * authorization feed about unknown resources costs O(1) per event and never grows the ledger.
 */
export function learnRevocation(d: Draft, uri: string, subject: string, source: 'feed' | 'read'): void {
  if (isRevoked(d, subject, uri)) return;
  if (d.subscription(uri)?.subject === subject) d.putRevoked(revocationKey(subject, uri), d.nowMs);
  d.emit({ type: 'RevocationLearned', uri, subject, source });
  d.setLease(uri, -1);
  d.disarmTimer('lease', uri);
  const version = d.l.versions[uri];
  if (version !== undefined && version.subject === subject) d.putVersion(uri, undefined);
  const derived = d.l.derived[uri];
  let invalidated = 0;
  if (derived !== undefined && derived.subject === subject) {
    invalidated = derived.entries.length;
    d.putDerived(uri, undefined);
    d.emit({
      type: 'OutboxEntryWritten',
      uri,
      sequence: d.allocateOutboxSequence(),
      operation: 'invalidate',
      digest: derived.digest,
      derivedEntries: derived.entries,
      supersedes: [],
    });
  }
  d.emit({ type: 'PurgeDone', uri, subject, invalidatedEntries: invalidated });
}

/** Access granted again (feed): serving resumes after the next successful read renews the lease. */
export function learnGrant(d: Draft, uri: string, subject: string): void {
  forgetRevocation(d, subject, uri);
}

/** Drops the remembered revocation of (subject, uri), if any (a grant, or its subscription replaced). */
export function forgetRevocation(d: Draft, subject: string, uri: string): void {
  if (isRevoked(d, subject, uri)) d.putRevoked(revocationKey(subject, uri), undefined);
}
