/**
 * The 2026-07-28 serving checkers in one place for the oracle to route to: the entry registry (what each
 * accepted content really is and what hint came with it) and the four checkers judging every serve on a
 * 2026-07-28 connection against it: read_your_notification, ttl_staleness (with the staleness-at-serve
 * metric), monotonic_reads and scope_isolation. 2025-11-25 connections are judged by the older checkers only.
 */
import { CatalogHintChecker } from './era2026-catalog-hints.js';
import { EntryRegistry, type CachedEntry } from './era2026-entries.js';
import { MonotonicChecker } from './era2026-monotonic.js';
import { NotificationChecker } from './era2026-notification.js';
import { ScopeChecker } from './era2026-scope.js';
import { TtlChecker } from './era2026-ttl.js';
import type { WatchChecker } from './era2026-watch.js';
import type { CheckingSink } from './sink.js';
import type { StepTruth } from './step-truth.js';

export class Era2026ServingCheckers {
  readonly entries: EntryRegistry;
  readonly notification: NotificationChecker;
  readonly ttl: TtlChecker;
  readonly monotonic: MonotonicChecker;
  readonly scope: ScopeChecker;
  /** Not a serve: the catalog's folded list hints (scope_isolation, ttl_staleness), judged at CatalogPublished. */
  readonly catalogHints: CatalogHintChecker;

  constructor(
    sink: CheckingSink,
    private readonly watch: WatchChecker,
    uris: readonly string[],
  ) {
    this.entries = new EntryRegistry(uris.length);
    this.notification = new NotificationChecker(sink, watch, uris);
    this.ttl = new TtlChecker(sink, watch, uris);
    this.monotonic = new MonotonicChecker(sink, uris);
    this.scope = new ScopeChecker(sink, uris);
    this.catalogHints = new CatalogHintChecker(sink);
  }

  onAccepted(resource: number, digest: string, version: number, truth: StepTruth): void {
    if (resource >= 0 && this.watch.isEra(truth.currentSession)) this.entries.onAccepted(resource, digest, version, truth);
  }

  /** A black-box client still serves `digest` after a read answered it again (EntryRegistry.onRenewed): the renewal's entry, if on a 2026-07-28 connection. */
  onRenewed(resource: number, digest: string, version: number, truth: StepTruth): CachedEntry | undefined {
    return resource >= 0 && this.watch.isEra(truth.currentSession) ? this.entries.onRenewed(resource, digest, version, truth) : undefined;
  }

  /** A ContentServed on connection `truth.currentSession`. */
  judgeServed(resource: number, subject: string, digest: string, truth: StepTruth): void {
    if (!this.watch.isEra(truth.currentSession)) return;
    const entry = this.entries.entryOf(resource, digest);
    if (entry === undefined) return; // content never accepted on a 2026-07-28 connection: dated by the older checkers
    const timeMs = truth.timeMs;
    this.notification.judgeServed(resource, entry.version, timeMs);
    this.ttl.judgeServed(resource, entry, truth.currentSession, timeMs);
    this.monotonic.judgeServed(resource, subject, entry.version, timeMs);
    this.scope.judgeServed(resource, subject, entry, timeMs);
  }
}
