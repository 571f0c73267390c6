/**
 * `outbox_lineage_broken` (SPEC §3.7 lineage, §14 the downstream index): the client's outbox is what a downstream
 * index applies, so the checker applies it the same way (an upsert adds its `derivedEntries` and removes what it
 * `supersedes`; a delete or an invalidation removes its `derivedEntries`) and judges, from the effects alone:
 * - an upsert leaves exactly its own entries live for the URI: every entry live before it is superseded or written
 *   again, it supersedes only live entries, and each entry it writes was announced by a DerivedEntryWritten of the
 *   same step (the lineage that traces it);
 * - a delete or an invalidation removes exactly the URI's live entries and supersedes nothing;
 * - a deletion confirmed (TombstoneConfirmed) writes its delete entry in the same step;
 * - sequences strictly increase over the client's life, crashes included (the index takes entries in sequence order).
 * The index outlives client crashes, and so does this model. Step clients only (module clients have no outbox).
 */
import type { ClientEffect } from '../../core/types.js';
import type { CheckingSink } from './sink.js';

type OutboxEffect = Extract<ClientEffect, { type: 'OutboxEntryWritten' }>;
const none: readonly string[] = [];

export class OutboxLineageChecker {
  /** URI -> the entries the downstream index holds for it. */
  private readonly live = new Map<string, readonly string[]>();
  private lastSequence = Number.NEGATIVE_INFINITY;
  /** This step's DerivedEntryWritten ids, TombstoneConfirmed URIs and delete entries' URIs (cleared per step). */
  private readonly announced: string[] = [];
  private readonly confirmed: string[] = [];
  private readonly deleted: string[] = [];

  constructor(private readonly sink: CheckingSink) {}

  beginStep(): void {
    if (this.announced.length > 0) this.announced.length = 0;
    if (this.confirmed.length > 0) this.confirmed.length = 0;
    if (this.deleted.length > 0) this.deleted.length = 0;
  }

  onDerived(entryId: string): void {
    this.announced.push(entryId);
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
    if (effect.operation === 'upsert') this.live.set(uri, Array.isArray(effect.derivedEntries) ? effect.derivedEntries.slice() : none);
    else {
      this.live.delete(uri);
      if (effect.operation === 'delete') this.deleted.push(uri);
    }
  }

  /** End of a step: every deletion confirmed in it wrote its delete entry. */
  afterStep(timeMs: number): void {
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
    for (const entry of live) if (!written.includes(entry)) return `leaves ${entry} live`;
    for (const entry of written) if (!live.includes(entry)) return `removes ${entry}, which the index does not hold`;
    return null;
  }
}
