/**
 * Answers a client must account for (SPEC §3.3, §3.4): `answer_unrecorded`. A read the server answered
 * with content or not-found, delivered on the session the read was sent on, either passes the fences (a
 * version accepted, a tombstone pending) or is fenced off, and then it leaves a record: a stale receipt
 * (§3.3 "otherwise it emits a stale receipt"), a `STALE_AFTER_CLOSE` audit (§3.4), another audit, or a
 * protocol rejection. A step answering such a read with none of these dropped the answer silently.
 *
 * And `malformed_response_unrejected` (SPEC §11): a response whose id is not a positive integer (malformed-response-id,
 * a copy of a read's answer) is a typed rejection (ProtocolRejected), not an unknown answer audited.
 *
 * It also judges subscribe and unsubscribe answers (2025-11-25) on the session they were sent on: one whose result is not
 * an object (malformed-ack) is a typed MalformedResponse rejection and no acknowledgement (the step moves nothing to
 * ACTIVE or CLOSED by it), and an error answer (a restarted server warming up) is never rejected as malformed.
 *
 * And `malformed_read_accepted` (SPEC §11): an answer the server broke by construction (malformed-read-response,
 * sim/actors/malformed-reads.ts), or an error answer in place of content, gives nothing: the step answering it
 * accepts no version and pends no tombstone, whatever session it came on.
 *
 * And `read_answer_misjudged` (SPEC §11, §3.3): what the fault made of the answer says what the client must
 * record (malformed-reads.ts `readAnswerExpectations`): a broken answer is a typed rejection of the kind the
 * break is (MalformedResponse, InvalidUri, ContentTooLarge, ContentUriMismatch) unless the client fenced it off
 * before reading it (a stale receipt or an audit instead); a well-formed answer (a blob, no mimeType, one of
 * exactly the longest kept, another item first, a not-found spelled -32602) and an error answer are never
 * rejected. Judged on the session the read was sent on.
 *
 * Judged on the world's own message (it was a read, it was not a permission denial, it came on the session
 * it was sent on, after the last crash), never on what the client says about the request. Only clients of
 * the step interface (SPEC §4, sim/kernel/reducer-driver.ts) are judged: their effects are the vocabulary
 * that has receipts; a module client observed from outside (adapters/mcp-sdk/module) has none.
 */
import type { ClientEffect } from '../../core/types.js';
import { acceptsNothing, readAnswerExpectations, type MalformedReadKind } from '../actors/malformed-reads.js';
import type { StepTruth } from './step-truth.js';
import { ackNotObjectKind, responseIdKind } from '../kernel/events.js';
import type { CheckingSink } from './sink.js';

/** Effects that record what became of an answer. */
const recordingEffects: ReadonlySet<ClientEffect['type']> = new Set<ClientEffect['type']>([
  'VersionAccepted',
  'TombstonePending',
  'StaleReceiptWritten',
  'AuditWritten',
  'ProtocolRejected',
]);

/** "sent at N ms": a read's send time in whole virtual ms (its stamp's fraction only orders events within one ms). */
function sentAt(truth: StepTruth): string {
  return `sent at ${Math.floor(truth.requestSentAtMs)} ms`;
}

export class AnswerChecker {
  answersJudged = 0;
  private lastCrashMs = -1;

  constructor(
    private readonly sink: CheckingSink,
    private readonly uris: readonly string[],
  ) {}

  onCrash(timeMs: number): void {
    this.lastCrashMs = timeMs;
  }

  /** A step that answered a read (content or not-found, not a permission denial) with `effects`. */
  judgeReadAnswered(effects: readonly ClientEffect[], truth: StepTruth): void {
    if (truth.malformedRead === responseIdKind) {
      // A copy of an answer with an id no request has (malformed-response-id): a typed rejection, nothing accepted.
      this.judgeUnrejected(effects, truth);
      this.judgeMalformed(effects, truth, responseIdKind);
      return;
    }
    const made = truth.malformedRead as MalformedReadKind | null;
    if (made !== null && acceptsNothing(made)) this.judgeMalformed(effects, truth, made);
    if (truth.requestSession !== truth.currentSession || truth.requestSentAtMs < 0 || truth.requestSentAtMs <= this.lastCrashMs) return;
    if (made !== null) this.judgeExpectation(effects, truth, made);
    // An error in place of content carries neither content nor a not-found: nothing is owed a record.
    if (made !== null && readAnswerExpectations[made] === 'fail') return;
    this.answersJudged++;
    this.sink.checked('answer_unrecorded');
    for (let index = 0; index < effects.length; index++) {
      if (recordingEffects.has(effects[index]!.type)) return;
    }
    const uri = truth.servedResource >= 0 ? this.uris[truth.servedResource]! : '';
    const answer = truth.servedExists ? `content v${truth.servedVersion}` : 'not-found';
    this.sink.violate('answer_unrecorded', truth.timeMs, uri, `the answer (${answer}) to a read of ${uri === '' ? 'an unknown URI' : uri} ${sentAt(truth)} left no version, tombstone, stale receipt, audit or rejection`);
  }

  /** The rejection (or its absence) the answer's kind calls for, on the step answering it. */
  private judgeExpectation(effects: readonly ClientEffect[], truth: StepTruth, kind: MalformedReadKind): void {
    this.sink.checked('read_answer_misjudged');
    const expected = readAnswerExpectations[kind];
    let rejected: string | null = null;
    let expectedFound = false;
    let fenced = false;
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type === 'StaleReceiptWritten' || effect.type === 'AuditWritten') fenced = true;
      if (effect.type !== 'ProtocolRejected') continue;
      const kind = (effect.rejection as { kind?: unknown } | undefined)?.kind; // a client's effect: its shape is not trusted
      if (kind === expected) expectedFound = true;
      else rejected = String(kind);
    }
    const uri = truth.servedResource >= 0 ? this.uris[truth.servedResource]! : '';
    if (expected === 'accept' || expected === 'fail') {
      if (rejected !== null) this.sink.violate('read_answer_misjudged', truth.timeMs, uri, `rejected (${rejected}) a read answer that is well-formed (${kind}), ${sentAt(truth)}`);
      return;
    }
    if (rejected !== null) {
      this.sink.violate('read_answer_misjudged', truth.timeMs, uri, `rejected a read answer (${kind}) as ${rejected}, not ${expected}, ${sentAt(truth)}`);
    } else if (!expectedFound && !fenced) {
      this.sink.violate('read_answer_misjudged', truth.timeMs, uri, `recorded no ${expected} rejection (nor a receipt or audit) for a read answer that is ${kind}, ${sentAt(truth)}`);
    }
  }

  /** A response whose id is not a positive integer (malformed-response-id): the step rejects it, typed. */
  private judgeUnrejected(effects: readonly ClientEffect[], truth: StepTruth): void {
    this.sink.checked('malformed_response_unrejected');
    for (let index = 0; index < effects.length; index++) if (effects[index]!.type === 'ProtocolRejected') return;
    const uri = truth.servedResource >= 0 ? this.uris[truth.servedResource]! : '';
    this.sink.violate('malformed_response_unrejected', truth.timeMs, uri, `a response whose id is not a positive integer (a copy of the answer to a read of ${uri === '' ? 'an unknown URI' : uri}) left no typed rejection`);
  }

  /** A step that answered a 2025-11-25 resources/subscribe or unsubscribe (`method`): broken (malformed-ack) or an error, see above. */
  judgeAckAnswered(effects: readonly ClientEffect[], truth: StepTruth, method: string, error: boolean): void {
    const broken = truth.malformedRead === ackNotObjectKind;
    if ((!broken && !error) || truth.requestSession !== truth.currentSession || truth.requestSentAtMs < 0 || truth.requestSentAtMs <= this.lastCrashMs) return;
    this.sink.checked('malformed_response_unrejected');
    const uri = truth.servedResource >= 0 ? this.uris[truth.servedResource]! : '';
    const acked = method === 'resources/subscribe' ? 'subscribe_acked' : 'unsubscribe_acked';
    let rejected: unknown = null;
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type === 'ProtocolRejected') rejected = (effect.rejection as { kind?: unknown } | undefined)?.kind ?? 'a rejection without a kind'; // a client's effect: its shape is not trusted
      else if (broken && effect.type === 'Transitioned' && effect.event === acked) {
        this.sink.violate('malformed_response_unrejected', truth.timeMs, uri, `took a ${method} answer whose result is not an object for an acknowledgement (${effect.from} → ${effect.to}), ${sentAt(truth)}`);
        return;
      }
    }
    if (error && rejected !== null) this.sink.violate('malformed_response_unrejected', truth.timeMs, uri, `rejected (${String(rejected)}) a well-formed error answer to ${method}, ${sentAt(truth)}`);
    else if (broken && rejected !== 'MalformedResponse') {
      this.sink.violate('malformed_response_unrejected', truth.timeMs, uri, `${rejected === null ? 'left no' : `recorded ${String(rejected)}, not a`} MalformedResponse rejection for a ${method} answer whose result is not an object, ${sentAt(truth)}`);
    }
  }

  private judgeMalformed(effects: readonly ClientEffect[], truth: StepTruth, kind: string): void {
    this.sink.checked('malformed_read_accepted');
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (effect.type !== 'VersionAccepted' && effect.type !== 'TombstonePending') continue;
      const what = effect.type === 'VersionAccepted' ? `accepted content (read ordinal ${effect.readOrdinal})` : 'pended a tombstone';
      this.sink.violate('malformed_read_accepted', truth.timeMs, effect.uri, `${what} from a read answer that breaks the schema (${kind}), ${sentAt(truth)}`);
      return;
    }
  }
}
