/**
 * `outbox_lineage_broken` (SPEC §3.7 lineage, §14 the downstream index): the client's outbox is what a downstream
 * index applies, so the checker applies it the same way (an upsert adds its `derivedEntries` and removes what it
 * `supersedes`; a delete or an invalidation removes its `derivedEntries`) and judges, from the effects alone:
 * - an upsert leaves exactly its own entries live for the URI: every entry live before it is superseded or written
 *   again, it supersedes only live entries, and each entry it writes was announced by a DerivedEntryWritten of the
 *   same step (the lineage that traces it);
 * - a delete or an invalidation removes exactly the URI's live entries, names the digest of the upsert that wrote
 *   them ('' when none is live) and supersedes nothing;
 * - a deletion confirmed (TombstoneConfirmed) writes its delete entry in the same step;
 * - sequences strictly increase over the client's life, crashes included (the index takes entries in sequence order);
 * - (step clients, told by the world: `expectLineage`) every accepted version (VersionAccepted) writes, in its step, an
 *   upsert for its URI naming its digest, with exactly the derived entries per version its declared configuration
 *   says (`derivedEntriesPerVersion`), each announced by a DerivedEntryWritten naming that URI and digest: content the
 *   cache serves that the index never got (or got in a shape the client did not declare) is lineage lost.
 * The index outlives client crashes, and so does this model. Step clients only (module clients have no outbox).
 */
import type { ClientEffect } from '../../core/types.js';
import type { CheckingSink } from './sink.js';

type OutboxEffect = Extract<ClientEffect, { type: 'OutboxEntryWritten' }>;
const none: readonly string[] = [];

/** Whether the flat (uri, digest) pair list holds this pair. */
function hasPair(pairs: readonly string[], uri: string, digest: string): boolean {
  for (let index = 0; index < pairs.length; index += 2) if (pairs[index] === uri && pairs[index + 1] === digest) return true;
  return false;
}

export class OutboxLineageChecker {
  /** URI -> the entries the downstream index holds for it. */
  private readonly live = new Map<string, readonly string[]>();
  /** URI -> the digest of the upsert whose entries are live. */
  private readonly liveDigest = new Map<string, unknown>();
  private lastSequence = Number.NEGATIVE_INFINITY;
  /** This step's DerivedEntryWritten ids, TombstoneConfirmed URIs and delete entries' URIs (cleared per step). */
  private readonly announced: string[] = [];
  private readonly confirmed: string[] = [];
  private readonly deleted: string[] = [];
  /** This step's accepted versions and upserts, as flat (uri, digest) pairs (cleared per step). */
  private readonly accepted: string[] = [];
  private readonly upserted: string[] = [];
  /** This step's DerivedEntryWritten's URIs and digests, parallel to `announced`. */
  private readonly announcedUri: string[] = [];
  private readonly announcedDigest: string[] = [];
  /** Derived entries per accepted version the client declared, or -1 (not a step client: no outbox expected). */
  private entriesPerVersion = -1;

  constructor(private readonly sink: CheckingSink) {}

  /** A step client whose declared configuration writes `entriesPerVersion` derived entries per accepted version. */
  expectLineage(entriesPerVersion: number): void {
    this.entriesPerVersion = entriesPerVersion;
  }

  beginStep(): void {
    if (this.announced.length > 0) this.announced.length = 0;
    if (this.confirmed.length > 0) this.confirmed.length = 0;
    if (this.deleted.length > 0) this.deleted.length = 0;
    if (this.accepted.length > 0) this.accepted.length = 0;
    if (this.upserted.length > 0) this.upserted.length = 0;
    if (this.announcedUri.length > 0) {
      this.announcedUri.length = 0;
      this.announcedDigest.length = 0;
    }
  }

  onDerived(entryId: string, uri: string, digest: string): void {
    this.announced.push(entryId);
    this.announcedUri.push(uri);
    this.announcedDigest.push(digest);
  }

  onAccepted(uri: string, digest: string): void {
    if (this.entriesPerVersion >= 0) this.accepted.push(uri, digest);
  }

  onConfirmed(uri: string): void {
    this.confirmed.push(uri);
  }

  onOutbox(effect: OutboxEffect, timeMs: number): void {
    this.sink.checked('outbox_lineage_broken');
    const uri = effect.uri;
    const problem = this.problemOf(effect);
    if (problem !== null) this.sink.violate('outbox_lineage_broken', timeMs, uri, `outbox #${effect.sequence} ${effect.operation} of ${uri}: ${problem}`);
    if (typeof effect.sequence === 'number') this.lastSequence = Math.max(this.lastSequence, effect.sequence);
    if (effect.operation === 'upsert') {
      this.live.set(uri, Array.isArray(effect.derivedEntries) ? effect.derivedEntries.slice() : none);
      this.liveDigest.set(uri, effect.digest);
      if (this.entriesPerVersion >= 0) this.upserted.push(uri, effect.digest);
      if (problem === null && this.entriesPerVersion >= 0) this.judgeShape(effect, timeMs);
    }
    else {
      this.live.delete(uri);
      this.liveDigest.delete(uri);
      if (effect.operation === 'delete') this.deleted.push(uri);
    }
  }

  /** An upsert of a step client: the declared number of entries, each traced to this URI and digest. */
  private judgeShape(effect: OutboxEffect, timeMs: number): void {
    const written = effect.derivedEntries;
    let problem: string | null = null;
    if (written.length !== this.entriesPerVersion) problem = `writes ${written.length} derived entries; the declared configuration writes ${this.entriesPerVersion} per version`;
    for (let index = 0; problem === null && index < written.length; index++) {
      const at = this.announced.lastIndexOf(written[index]!);
      if (at < 0 || this.announcedUri[at] !== effect.uri || this.announcedDigest[at] !== effect.digest) problem = `writes ${written[index]}, whose DerivedEntryWritten names another URI or digest`;
    }
    if (problem !== null) this.sink.violate('outbox_lineage_broken', timeMs, effect.uri, `outbox #${effect.sequence} upsert of ${effect.uri}: ${problem}`);
  }

  /** End of a step: every deletion confirmed in it wrote its delete entry, every accepted version its upsert. */
  afterStep(timeMs: number): void {
    const accepted = this.accepted;
    if (accepted.length > 0) this.sink.checked('outbox_lineage_broken', accepted.length / 2);
    for (let index = 0; index < accepted.length; index += 2) {
      const uri = accepted[index]!;
      const digest = accepted[index + 1]!;
      if (hasPair(this.upserted, uri, digest)) continue;
      this.sink.violate('outbox_lineage_broken', timeMs, uri, `version ${digest} of ${uri} accepted without an outbox upsert naming it: the index never gets it`);
    }
    for (let index = 0; index < this.confirmed.length; index++) {
      const uri = this.confirmed[index]!;
      if (this.deleted.includes(uri)) continue;
      this.sink.checked('outbox_lineage_broken');
      this.sink.violate('outbox_lineage_broken', timeMs, uri, `deletion of ${uri} confirmed without an outbox delete entry: the index keeps its entries`);
    }
  }

  private problemOf(effect: OutboxEffect): string | null {
    if (typeof effect.sequence !== 'number' || !(effect.sequence > this.lastSequence)) return `sequence ${String(effect.sequence)} is not above ${this.lastSequence} written before`;
    const written = effect.derivedEntries;
    const superseded = effect.supersedes;
    if (!Array.isArray(written) || !Array.isArray(superseded)) return 'derivedEntries and supersedes must be lists';
    const live = this.live.get(effect.uri) ?? none;
    if (effect.operation === 'upsert') {
      for (const entry of superseded) if (!live.includes(entry)) return `supersedes ${entry}, which the index does not hold`;
      for (const entry of live) if (!superseded.includes(entry) && !written.includes(entry)) return `leaves ${entry} of an older version live`;
      for (const entry of written) if (!this.announced.includes(entry)) return `writes ${entry}, which no DerivedEntryWritten of this step traces`;
      return null;
    }
    if (superseded.length > 0) return `a ${effect.operation} supersedes nothing, but names ${superseded.length} entries`;
    const liveDigest = this.liveDigest.get(effect.uri) ?? '';
    if (effect.digest !== liveDigest) return `names digest ${JSON.stringify(effect.digest)}, but the index holds the entries of ${liveDigest === '' ? 'no version' : JSON.stringify(liveDigest)}`;
    for (const entry of live) if (!written.includes(entry)) return `leaves ${entry} live`;
    for (const entry of written) if (!live.includes(entry)) return `removes ${entry}, which the index does not hold`;
    return null;
  }
}
