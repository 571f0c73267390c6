/**
 * Catalog decisions a client owes (SPEC §3.6): `proven_withheld`, `completeness_refused`, `cursor_misused` and
 * `list_changed_unscanned`. The catalog and
 * task-age checkers judge what a client claims (no proven catalog without a real snapshot, no task on an
 * unproven or expired catalog); a client too cautious to ever prove a snapshot, or to accept a task, passes
 * them all. These four judge the converse, for a step client that claims catalogs
 * (`ClientUnderTest.features.catalogs`, as healed_catalog):
 * - `proven_withheld`: a pass the client received in full that the server really served from one real snapshot
 *   under the negotiated snapshot ID (the listing's `ListProof` 'snapshot') must be published SNAPSHOT_PROVEN in
 *   the step that delivered its last page ("a pass whose every page carries the same non-empty snapshotId
 *   publishes SNAPSHOT_PROVEN"; an A/B catalog there, or none, withholds the proof).
 * - `completeness_refused`: every completeness task the application commands is decided in its step (one
 *   `CompletenessTaskDecided`, none without a command), and accepted while the latest catalog the client published
 *   is an honest SNAPSHOT_PROVEN (the catalog checker's verdict) before the review time the client published with
 *   it. A crash forgets the catalog here (a client without a durable ledger starts from scratch).
 * - `cursor_misused`: cursors are opaque and a cycle abandons the pass ("sent back exactly as received"; "a cursor
 *   seen twice in one pass abandons the pass"): a `resources/list` request's cursor must be a string the server sent
 *   as a page's nextCursor, and not one already sent since the pass's first request (the one without cursor).
 * - `list_changed_unscanned`: "list_changed: a running pass is tainted; otherwise the catalog is stale: re-scan after a
 *   short delay". A list_changed that reaches the client while no pass of it runs (between its ScanStarted and its
 *   ScanAbandoned or CatalogPublished) owes a new pass: the client's next list request without cursor on that session
 *   must come within its declared listChangedDebounceMs. Judged at that request (a session end or a crash releases it).
 *
 * Judged from effects against the listing's truth only (never the client's scans). Per event: O(1).
 */
import type { ClientEffect } from '../../core/types.js';
import type { ListProof } from './catalog.js';
import type { CheckingSink } from './sink.js';

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;
type TaskEffect = Extract<ClientEffect, { type: 'CompletenessTaskDecided' }>;

export class CatalogDecisionChecker {
  /** Honest snapshot passes judged, and completeness tasks judged. */
  passesJudged = 0;
  tasksJudged = 0;
  /** The world pass whose honest completion is owed a SNAPSHOT_PROVEN catalog in this step, or -1. */
  private owedPass = -1;
  /** The latest pass judged (a replayed last page completes it again: judged once). */
  private judgedPass = -1;
  /** Completeness tasks commanded in this step and not yet decided. */
  private owedTasks = 0;
  /** The client's latest catalog is an honest SNAPSHOT_PROVEN, usable until this time (-1: none). */
  private provenUntilMs = -1;
  /** Every nextCursor the server sent on a page the client received (a string), and the cursors sent in this pass. */
  private readonly offeredCursors = new Set<string>();
  private readonly passCursors = new Set<string>();
  cursorsJudged = 0;
  rescansJudged = 0;
  /** Between the client's ScanStarted and its ScanAbandoned or CatalogPublished (a crash ends it). */
  private passRunning = false;
  /** A re-scan owed by this time (-1: none), on this session (-1: the list_changed's step not judged yet). */
  private rescanByMs = -1;
  private rescanSession = -1;
  private rescanSinceMs = -1;

  constructor(
    private readonly sink: CheckingSink,
    /** The client claims catalogs (ClientUnderTest.features.catalogs; catalog-liveness.ts `claimed`): it is judged. */
    private readonly claimed: () => boolean,
    /** Its declared ClientConfig.listChangedDebounceMs. */
    private readonly debounceMs: () => number,
  ) {}

  /** A list_changed reached the client on the current session; its step follows. */
  onListChanged(timeMs: number): void {
    if (!this.claimed() || this.passRunning || this.rescanByMs >= 0) return;
    this.rescanByMs = timeMs + this.debounceMs();
    this.rescanSinceMs = timeMs;
    this.rescanSession = -1;
  }

  /** ScanStarted, ScanAbandoned: whether a pass of the client runs. */
  onScan(running: boolean): void {
    this.passRunning = running;
  }

  onPassCompleted(pass: number, proof: ListProof): void {
    if (!this.claimed() || proof !== 'snapshot' || pass === this.judgedPass) return;
    this.owedPass = pass;
    this.judgedPass = pass;
  }

  /** The application commanded a completeness task; its step follows. */
  onTaskAsked(): void {
    if (this.claimed()) this.owedTasks++;
  }

  /** A list page reached the client with this nextCursor (as served: undefined when none, or not a string). */
  onListPage(nextCursor: unknown): void {
    if (typeof nextCursor === 'string') this.offeredCursors.add(nextCursor);
  }

  /** A `resources/list` request (RequestSent): `cursor` undefined starts a pass. */
  judgeListRequest(cursor: unknown, session: number, timeMs: number): void {
    if (!this.claimed()) return;
    if (cursor === undefined) {
      this.passCursors.clear();
      this.judgeRescan(session, timeMs);
      return;
    }
    this.cursorsJudged++;
    this.sink.checked('cursor_misused');
    if (typeof cursor !== 'string' || !this.offeredCursors.has(cursor)) {
      this.sink.violate('cursor_misused', timeMs, '', `resources/list sent with cursor ${JSON.stringify(cursor)}, which the server never sent as a nextCursor`);
    } else if (this.passCursors.has(cursor)) {
      this.sink.violate('cursor_misused', timeMs, '', `resources/list sent with cursor ${JSON.stringify(cursor)} a second time in one pass: a cursor cycle followed instead of abandoning the pass`);
    }
    if (typeof cursor === 'string') this.passCursors.add(cursor);
  }

  private judgeRescan(session: number, timeMs: number): void {
    if (this.rescanByMs < 0) return;
    if (session === this.rescanSession) {
      this.rescansJudged++;
      this.sink.checked('list_changed_unscanned');
      if (timeMs > this.rescanByMs) this.sink.violate('list_changed_unscanned', timeMs, '', `a list_changed reached the client at ${this.rescanSinceMs} ms with no pass running, and its next pass began only at ${timeMs} ms, after its declared debounce (by ${this.rescanByMs} ms)`);
    }
    this.rescanByMs = -1;
  }

  onCrash(): void {
    this.provenUntilMs = -1;
    this.passRunning = false;
    this.rescanByMs = -1;
  }

  /** `honest`: the catalog checker's verdict (proven, and its last pass really one snapshot). */
  judgePublished(effect: CatalogEffect, honest: boolean, timeMs: number): void {
    this.passRunning = false;
    this.provenUntilMs = honest ? effect.nextReviewAtMs : -1;
    if (this.owedPass < 0) return;
    const pass = this.owedPass;
    this.owedPass = -1;
    this.passesJudged++;
    this.sink.checked('proven_withheld');
    if (effect.status !== 'SNAPSHOT_PROVEN') this.sink.violate('proven_withheld', timeMs, '', `list pass #${pass} was served from one real snapshot under the negotiated snapshot ID, and the client published it as ${effect.status} (scan ${effect.scanId})`);
  }

  judgeTask(effect: TaskEffect, timeMs: number): void {
    if (!this.claimed()) return;
    this.tasksJudged++;
    this.sink.checked('completeness_refused');
    if (this.owedTasks === 0) {
      this.sink.violate('completeness_refused', timeMs, '', `completeness task ${effect.task} decided (${effect.accepted ? 'accepted' : 'refused'}) without a command`);
      return;
    }
    this.owedTasks--;
    if (!effect.accepted && timeMs < this.provenUntilMs) {
      this.sink.violate('completeness_refused', timeMs, '', `completeness task ${effect.task} refused (client claims catalog ${effect.catalogStatus}), but the latest catalog is an honest SNAPSHOT_PROVEN until its review time ${this.provenUntilMs} ms`);
    }
  }

  /** The end of a client step on `session`: what it still owes was withheld. */
  afterStep(timeMs: number, session: number): void {
    if (this.rescanByMs >= 0 && this.rescanSession < 0) this.rescanSession = session;
    else if (this.rescanByMs >= 0 && session !== this.rescanSession) this.rescanByMs = -1; // a new session: released
    if (this.owedPass >= 0) {
      this.passesJudged++;
      this.sink.checked('proven_withheld');
      this.sink.violate('proven_withheld', timeMs, '', `list pass #${this.owedPass} was served from one real snapshot under the negotiated snapshot ID, and the client published no catalog when it completed`);
      this.owedPass = -1;
    }
    if (this.owedTasks > 0) {
      this.tasksJudged++;
      this.sink.checked('completeness_refused');
      this.sink.violate('completeness_refused', timeMs, '', `${this.owedTasks} completeness task(s) commanded and not decided`);
      this.owedTasks = 0;
    }
  }
}
