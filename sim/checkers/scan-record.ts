/**
 * `scan_record_untrue` (SPEC §3.6, core/effects.ts): a claimed client's own record of its discovery scans must say
 * what really happened to them, judged against the listing's truth (never the client's state):
 * - `ScanStarted.pass`: SNAPSHOT exactly when the server negotiated the snapshot-ID extension; otherwise B when the
 *   pass starts in the step that completed the pass before it without publishing a catalog ("two consecutive full
 *   scans (A and B)"), else A (a new reconciliation).
 * - a scan starts only when none runs: the previous one ended (its last page delivered, ScanAbandoned, or
 *   CatalogPublished), and a ScanAbandoned names the scan that runs.
 * - the answer to a pass's page request decides its fate in its step: an error abandons it as CURSOR_INVALID
 *   (-32602, "an invalid-cursor error restarts") or LIST_ERROR; a page the server broke (malformed-list-page, a
 *   uri-shapes duplicate or non-URI) is a typed rejection (ProtocolRejected MalformedListPage) and abandons it as the
 *   break the server made (MALFORMED_PAGE, or DUPLICATE_URI for a URI repeated within the page); a well-formed page
 *   whose nextCursor was already offered in this pass abandons it as CURSOR_CYCLE; any other well-formed page
 *   abandons nothing, unless the pass reached the client's declared scanPagesMax pages (PAGE_LIMIT).
 * Judged only for a step client that claims catalogs (ClientUnderTest.features.catalogs), as catalog-decisions.ts.
 * Per event: O(1) but for the pass's cursors (a Set).
 */
import type { ClientEffect, ScanAbandonReason } from '../../core/types.js';
import type { CheckingSink } from './sink.js';

/** What the answer to a list request really was (sim/kernel/step-truth.ts). */
export interface ListAnswerTruth {
  /** The error's code, or null for a result. */
  errorCode: number | null;
  /** The break the server made in the page (malformed-list-page, uri-shapes), or null for a well-formed page. */
  broken: ScanAbandonReason | null;
  /** The page's nextCursor as served (undefined: none). */
  nextCursor: unknown;
  /** The page ends its pass (no nextCursor). */
  last: boolean;
}

export class ScanRecordChecker {
  scansJudged = 0;
  answersJudged = 0;
  private claimed = false;
  private snapshotNegotiated = false;
  private scanPagesMax = Number.MAX_SAFE_INTEGER;
  /** The client's running scan (its ScanStarted id), or null. */
  private running: number | null = null;
  private pages = 0;
  private readonly passCursors = new Set<string>();
  /** This step: the list answer delivered (null: none), the abandonment it calls for, and what the client did in it so far. */
  private answer: ListAnswerTruth | null = null;
  private want: ScanAbandonReason | null = null;
  private abandoned: ScanAbandonReason | null = null;
  private abandonedAny = false;
  private rejected = false;
  private published = false;
  /** The running scan's last page was delivered in this step (it ended complete). */
  private completed = false;

  constructor(private readonly sink: CheckingSink) {}

  /** The client claims catalogs: it is judged, with its declared scanPagesMax, on a server that does or does not negotiate snapshot IDs. */
  claim(scanPagesMax: number, snapshotNegotiated: boolean): void {
    this.claimed = true;
    this.scanPagesMax = scanPagesMax;
    this.snapshotNegotiated = snapshotNegotiated;
  }

  /** A list answer reached the client on the current session; its step follows. */
  onListAnswer(answer: ListAnswerTruth): void {
    if (!this.claimed || this.running === null) return;
    this.answer = answer;
    if (answer.errorCode !== null) this.want = answer.errorCode === -32602 ? 'CURSOR_INVALID' : 'LIST_ERROR';
    else if (answer.broken !== null) this.want = answer.broken;
    else {
      this.pages++;
      if (answer.last) this.completed = true;
      const cursor = answer.nextCursor;
      if (typeof cursor === 'string' && this.passCursors.has(cursor)) this.want = 'CURSOR_CYCLE';
      else this.want = !answer.last && this.pages >= this.scanPagesMax ? 'PAGE_LIMIT' : null;
      if (typeof cursor === 'string') this.passCursors.add(cursor);
    }
  }

  onCrash(): void {
    this.running = null;
    this.resetStep();
  }

  onEffect(effect: ClientEffect, timeMs: number): void {
    if (!this.claimed) return;
    switch (effect.type) {
      case 'ScanStarted':
        this.judgeStart(effect.scanId, effect.pass, timeMs);
        break;
      case 'ScanAbandoned':
        this.abandonedAny = true;
        if (this.running === null || effect.scanId !== this.running) {
          this.sink.violate('scan_record_untrue', timeMs, '', `ScanAbandoned names scan ${effect.scanId}, but ${this.running === null ? 'no scan runs' : `scan ${this.running} runs`}`);
        }
        if (this.answer !== null && this.abandoned === null) this.abandoned = effect.reason;
        this.running = null;
        break;
      case 'CatalogPublished':
        this.published = true;
        this.running = null;
        break;
      case 'ProtocolRejected':
        if (effect.rejection.kind === 'MalformedListPage') this.rejected = true;
        break;
      default:
        break;
    }
  }

  private judgeStart(scanId: number, pass: string, timeMs: number): void {
    this.scansJudged++;
    this.sink.checked('scan_record_untrue');
    if (this.running !== null && !this.completed) {
      this.sink.violate('scan_record_untrue', timeMs, '', `scan ${scanId} started while scan ${this.running} runs (its last page not delivered, neither abandoned nor published)`);
    }
    // B: right after a pass of this step completed and published nothing (and was not abandoned).
    const expected = this.snapshotNegotiated ? 'SNAPSHOT' : this.completed && !this.published && !this.abandonedAny ? 'B' : 'A';
    if (pass !== expected) {
      this.sink.violate('scan_record_untrue', timeMs, '', `scan ${scanId} started as pass ${pass}, but it is pass ${expected} (${this.snapshotNegotiated ? 'the snapshot-ID extension was negotiated' : expected === 'B' ? 'it follows a complete pass that published no catalog' : 'no complete pass without a catalog precedes it in its step'})`);
    }
    this.running = scanId;
    this.pages = 0;
    this.passCursors.clear();
    this.completed = false;
  }

  /** The end of a client step: the list answer delivered in it decided its pass's fate. */
  afterStep(timeMs: number): void {
    const answer = this.answer;
    if (answer !== null) this.judgeAnswer(answer, timeMs);
    if (this.completed) this.running = null; // complete, and no pass followed it (a round given up)
    this.resetStep();
  }

  private judgeAnswer(answer: ListAnswerTruth, timeMs: number): void {
    this.answersJudged++;
    this.sink.checked('scan_record_untrue');
    const got = this.abandoned;
    const want = this.want;
    const what = answer.errorCode !== null ? `an error ${answer.errorCode}` : answer.broken !== null ? `a page broken as ${answer.broken}` : want === null ? 'a well-formed page' : `a page whose abandonment is ${want}`;
    if (got !== want) {
      this.sink.violate('scan_record_untrue', timeMs, '', `the answer to a list request of the running pass was ${what}, and the client ${got === null ? 'did not abandon the pass' : `abandoned it as ${got}`}${want === null ? '' : ` (it is ${want})`}`);
    }
    if (this.rejected !== (answer.broken !== null)) {
      this.sink.violate('scan_record_untrue', timeMs, '', `the answer to a list request was ${what}, and the client ${this.rejected ? 'rejected it as a MalformedListPage' : 'left no MalformedListPage rejection'}`);
    }
  }

  private resetStep(): void {
    this.answer = null;
    this.want = null;
    this.abandoned = null;
    this.abandonedAny = false;
    this.rejected = false;
    this.published = false;
    this.completed = false;
  }
}
