/**
 * 2026-07-28 ground truth about cached entries, shared by the era's serving checkers (read_your_notification,
 * TTL-bounded staleness, monotonic reads, scope isolation): for every content the client accepted, the truth
 * version it is, when the read that brought it was sent and received, and the cache hint the server really
 * sent with it (`ttlMs` as the spec reads it, `cacheScope`, the subject the read was made as).
 *
 * The hint reaches this registry as a truth event just before the client steps the response
 * (`cache-hint`); the accept of that step is matched to it by the read's send stamp, which is unique.
 */
import type { StepTruth } from './step-truth.js';

export interface CachedEntry {
  version: number;
  sentAtMs: number;
  receivedAtMs: number;
  /** -1: the response carried no hint (a 2025-11-25 read). */
  ttlMs: number;
  scope: 'public' | 'private';
  subject: string;
  /**
   * The earliest instant the client may drop this content as expired: `sentAtMs + ttlMs` (Infinity without a
   * hint); after a black-box renewal, the earlier of the two entries it may hold (EntryRegistry.onRenewed).
   */
  lapsesAtMs: number;
}

/** Entries remembered per resource (the newest accepted contents; older ones are no longer served). */
const entriesPerResourceMax = 8;

export class EntryRegistry {
  private pendingSentAtMs = -1;
  private pendingTtlMs = -1;
  private pendingScope: 'public' | 'private' = 'private';
  private pendingSubject = '';
  private readonly entries: Map<string, CachedEntry>[];

  constructor(resourceCount: number) {
    this.entries = Array.from({ length: resourceCount }, () => new Map<string, CachedEntry>());
  }

  /** The response about to be stepped (sent at `requestSentAtMs`) carried this hint. */
  onHint(requestSentAtMs: number, ttlMs: number, scope: 'public' | 'private', subject: string): void {
    this.pendingSentAtMs = requestSentAtMs;
    this.pendingTtlMs = ttlMs;
    this.pendingScope = scope;
    this.pendingSubject = subject;
  }

  /** The client accepted content `digest` of `resource` at truth `version` in this step. */
  onAccepted(resource: number, digest: string, version: number, truth: StepTruth): void {
    this.remember(resource, digest, this.entryFrom(version, truth));
  }

  /**
   * A read answered `digest` again and the client, seen only as a black box, still serves it: it may have taken
   * the new entry or kept the one it had (a reducer says which with its accept; a module client cannot). Each
   * judgement takes the reading that favours the client, so it is never blamed on an entry it may not hold:
   * - serving (ttl_staleness, scope_isolation) is judged on the entry that leaves the content fresh longer (the
   *   larger ttlMs plus round trip; no hint counts as longest). client-v2, era2026-swarm seed 378315806: v6 kept
   *   with ttlMs 14,713 while a re-read blocked after close brought ttlMs 699;
   * - a drop may be an expiry from the earlier `lapsesAtMs` of the two. client-v2, era2026-broken-stream seed
   *   971016562: v28 renewed at 27,592 ms with a shorter ttlMs than the first read's, dropped at 29,088 ms.
   * Returns the renewal's own entry (its hint: refused_fresh's window, Era2026Availability.onRenewed).
   */
  onRenewed(resource: number, digest: string, version: number, truth: StepTruth): CachedEntry {
    const renewal = this.entryFrom(version, truth);
    const held = this.entries[resource]!.get(digest);
    if (held === undefined) this.remember(resource, digest, renewal);
    else this.remember(resource, digest, { ...(freshSpanMs(held) > freshSpanMs(renewal) ? held : renewal), lapsesAtMs: Math.min(held.lapsesAtMs, renewal.lapsesAtMs) });
    return renewal;
  }

  private entryFrom(version: number, truth: StepTruth): CachedEntry {
    const hinted = truth.requestSentAtMs >= 0 && truth.requestSentAtMs === this.pendingSentAtMs;
    const ttlMs = hinted ? this.pendingTtlMs : -1;
    return {
      version,
      sentAtMs: truth.requestSentAtMs,
      receivedAtMs: truth.timeMs,
      ttlMs,
      scope: hinted ? this.pendingScope : 'private',
      subject: hinted ? this.pendingSubject : '',
      lapsesAtMs: ttlMs < 0 ? Infinity : truth.requestSentAtMs + ttlMs,
    };
  }

  private remember(resource: number, digest: string, entry: CachedEntry): void {
    const entries = this.entries[resource]!;
    entries.delete(digest);
    entries.set(digest, entry);
    if (entries.size > entriesPerResourceMax) entries.delete(entries.keys().next().value!);
  }

  /** The entry the client serves as `digest`, or undefined when it never accepted that content. */
  entryOf(resource: number, digest: string): CachedEntry | undefined {
    return resource < 0 ? undefined : this.entries[resource]!.get(digest);
  }
}

/** How long after the truth moves past an entry's version ttl_staleness still lets it be served (no hint: unbounded). */
function freshSpanMs(entry: CachedEntry): number {
  return entry.ttlMs < 0 ? Infinity : entry.ttlMs + entry.receivedAtMs - entry.sentAtMs;
}
