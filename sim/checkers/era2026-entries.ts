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
    const hinted = truth.requestSentAtMs >= 0 && truth.requestSentAtMs === this.pendingSentAtMs;
    const entries = this.entries[resource]!;
    entries.delete(digest);
    entries.set(digest, {
      version,
      sentAtMs: truth.requestSentAtMs,
      receivedAtMs: truth.timeMs,
      ttlMs: hinted ? this.pendingTtlMs : -1,
      scope: hinted ? this.pendingScope : 'private',
      subject: hinted ? this.pendingSubject : '',
    });
    if (entries.size > entriesPerResourceMax) entries.delete(entries.keys().next().value!);
  }

  /** The entry the client serves as `digest`, or undefined when it never accepted that content. */
  entryOf(resource: number, digest: string): CachedEntry | undefined {
    return resource < 0 ? undefined : this.entries[resource]!.get(digest);
  }
}
