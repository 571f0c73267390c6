/**
 * A/B catalog rules (SPEC §3.6): `catalog_ab_unsettled`. Without a snapshot proof a catalog may be published
 * only from two consecutive complete passes with no `list_changed` during either and the same listing in
 * both. Judged against the truth: which resources each pass really served (the listing records it) and
 * when a list_changed really reached the client on the current session, never the client's own digests
 * or counters.
 *
 * A list_changed is "during" a pass when it arrived between the server serving the pass's first page and
 * the client receiving its last one (a window inside the client's own scan, so a client that counts
 * notifications during its scan always sees it). O(1) per event: a pass is judged when it completes.
 */
import type { ClientEffect } from '../../core/types.js';
import type { ViolationSink } from './sink.js';

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;

interface PassSeen {
  pass: number;
  served: Int32Array;
  /** The time of a list_changed that arrived during the pass, or -1. */
  listChangedAtMs: number;
}

export class CatalogAbChecker {
  catalogsJudged = 0;
  private lastListChangedMs = -1;
  private passesSincePublish = 0;
  private latest: PassSeen | null = null;
  private previous: PassSeen | null = null;

  constructor(
    private readonly sink: ViolationSink,
    private readonly uris: readonly string[],
  ) {}

  onListChanged(timeMs: number): void {
    this.lastListChangedMs = timeMs;
  }

  onPassCompleted(pass: number, served: Int32Array, startMs: number): void {
    this.passesSincePublish++;
    this.previous = this.latest;
    this.latest = { pass, served, listChangedAtMs: this.lastListChangedMs >= startMs ? this.lastListChangedMs : -1 };
  }

  /** Only A/B catalogs (SNAPSHOT_UNPROVEN from two passes) are judged here; proofs and pass counts are catalog.ts. */
  judgePublished(effect: CatalogEffect, timeMs: number): void {
    const passes = this.passesSincePublish;
    this.passesSincePublish = 0;
    if (effect.status !== 'SNAPSHOT_UNPROVEN' || passes < 2) return;
    const a = this.previous!;
    const b = this.latest!;
    this.catalogsJudged++;
    const noisy = a.listChangedAtMs >= 0 ? a : b.listChangedAtMs >= 0 ? b : null;
    if (noisy !== null) {
      this.sink.violate('catalog_ab_unsettled', timeMs, '', `A/B catalog of scan ${effect.scanId} published, but a list_changed arrived at ${noisy.listChangedAtMs} ms during its pass #${noisy.pass}`);
      return;
    }
    const difference = firstDifference(a.served, b.served);
    if (difference >= 0) {
      const uri = this.uris[difference]!;
      const inA = a.served.includes(difference);
      this.sink.violate('catalog_ab_unsettled', timeMs, uri, `A/B catalog of scan ${effect.scanId} published, but its passes served different listings: ${uri} in pass #${inA ? a.pass : b.pass} only, not in pass #${inA ? b.pass : a.pass}`);
    }
  }
}

/** The smallest resource in exactly one of two sorted sets, or -1 when they are equal. */
function firstDifference(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else return Math.min(a[i]!, b[j]!);
  }
  if (i < a.length) return a[i]!;
  if (j < b.length) return b[j]!;
  return -1;
}
