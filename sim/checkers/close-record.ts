/**
 * `close_record_untrue` (SPEC §3.4 the close fence): a subscription's close is reported once, truthfully. A step
 * that moves a URI to CLOSED (its Transitioned effect) emits one SubscriptionClosed for it, and no step emits one
 * without that move; the record's `closeOrdinal` is the last read ordinal the client issued for the URI (the
 * fence frozen when closing began: no read is allocated afterwards), and its `closeEpoch` is a positive integer no
 * earlier close used, above the URI's previous one; its `outcome` tells the move's story (an `unsubscribe_acked`
 * move is ACKED, a `session_lost` or `unsubscribe_begun` one SESSION_ENDED). A closing subscription (UNSUBSCRIBING,
 * UNSUBSCRIBE_UNKNOWN) does not outlive the session it was closing on: once the world runs a later session (a
 * reconnect, a crash and restart) it has been moved to CLOSED (the server forgot it with its session; SPEC §3.4:
 * UNSUBSCRIBING and UNSUBSCRIBE_UNKNOWN --session_lost--> CLOSED): judged once the client has taken a new session (after
 * the step of a Connected, or a restart: judgeSessionStarted), not when the world opens one (over the SDK transport,
 * and after an unannounced disconnect, the client hears of it later). Judged from the client's own effects (Transitioned, RequestSent, SubscriptionClosed), across
 * crashes (ordinals and epochs are durable). Step clients only.
 */
import type { ClientEffect } from '../../core/types.js';
import type { CheckingSink } from './sink.js';

type ClosedEffect = Extract<ClientEffect, { type: 'SubscriptionClosed' }>;

export class CloseRecordChecker {
  /** URI -> the highest read ordinal the client sent for it. */
  private readonly issued = new Map<string, number>();
  /** URI -> the latest close epoch reported for it; and every epoch reported. */
  private readonly lastEpoch = new Map<string, number>();
  private readonly epochs = new Set<number>();
  /** This step's URIs moved to CLOSED, and those reported closed (cleared per step). */
  private readonly movedClosed: string[] = [];
  private readonly reported: string[] = [];
  /** The event of each move in `movedClosed`, and the outcome of each record in `reported`. */
  private readonly movedBy: string[] = [];
  private readonly reportedOutcomes: string[] = [];

  /** URIs the client last moved to UNSUBSCRIBING or UNSUBSCRIBE_UNKNOWN (a close under way). */
  private readonly closing = new Set<string>();

  constructor(private readonly sink: CheckingSink) {}

  /** A move to a state other than CLOSED. */
  onMoved(uri: string, to: string): void {
    if (to === 'UNSUBSCRIBING' || to === 'UNSUBSCRIBE_UNKNOWN') this.closing.add(uri);
    else if (this.closing.size > 0) this.closing.delete(uri);
  }

  /** After the step of a new session (a Connected) or a restart: every close under way before it has been settled. */
  judgeSessionStarted(timeMs: number): void {
    this.sink.checked('close_record_untrue');
    for (const uri of this.closing) {
      this.sink.violate('close_record_untrue', timeMs, uri, `${uri} is still closing (UNSUBSCRIBING or UNSUBSCRIBE_UNKNOWN) in a new session: the end of the session that held it closes it (session_lost -> CLOSED), with its record`);
    }
    this.closing.clear();
  }

  beginStep(): void {
    if (this.movedClosed.length > 0) this.movedClosed.length = 0;
    if (this.reported.length > 0) this.reported.length = 0;
    if (this.movedBy.length > 0) this.movedBy.length = 0;
    if (this.reportedOutcomes.length > 0) this.reportedOutcomes.length = 0;
  }

  onReadSent(uri: string, readOrdinal: number | undefined): void {
    if (typeof readOrdinal !== 'number') return;
    if (readOrdinal > (this.issued.get(uri) ?? 0)) this.issued.set(uri, readOrdinal);
  }

  onMovedClosed(uri: string, event: string): void {
    this.closing.delete(uri);
    this.movedClosed.push(uri);
    this.movedBy.push(event);
  }

  onClosed(effect: ClosedEffect, timeMs: number): void {
    this.sink.checked('close_record_untrue');
    const uri = effect.uri;
    this.reported.push(uri);
    this.reportedOutcomes.push(String(effect.outcome));
    const problem = this.problemOf(effect);
    if (problem !== null) this.sink.violate('close_record_untrue', timeMs, uri, `SubscriptionClosed of ${uri}: ${problem}`);
    if (typeof effect.closeEpoch === 'number') {
      this.epochs.add(effect.closeEpoch);
      this.lastEpoch.set(uri, Math.max(effect.closeEpoch, this.lastEpoch.get(uri) ?? 0));
    }
  }

  /** End of a step: every URI moved to CLOSED was reported closed, once, and none other. */
  afterStep(timeMs: number): void {
    if (this.movedClosed.length === 0 && this.reported.length === 0) return;
    for (let index = 0; index < this.movedClosed.length; index++) {
      const uri = this.movedClosed[index]!;
      const reports = this.reported.filter((other) => other === uri).length;
      if (reports === 1) {
        const outcome = this.reportedOutcomes[this.reported.indexOf(uri)];
        const event = this.movedBy[index]!;
        const told = event === 'unsubscribe_acked' ? 'ACKED' : 'SESSION_ENDED';
        if (outcome === told) continue;
        this.sink.checked('close_record_untrue');
        this.sink.violate('close_record_untrue', timeMs, uri, `${uri} moved to CLOSED by ${event}, but its SubscriptionClosed says ${outcome} (${told} is that move's outcome)`);
        continue;
      }
      this.sink.checked('close_record_untrue');
      this.sink.violate('close_record_untrue', timeMs, uri, `${uri} moved to CLOSED with ${reports} SubscriptionClosed records in that step (one is owed)`);
    }
    for (const uri of this.reported) {
      if (this.movedClosed.includes(uri)) continue;
      this.sink.violate('close_record_untrue', timeMs, uri, `SubscriptionClosed of ${uri} in a step that did not move it to CLOSED`);
    }
  }


  private problemOf(effect: ClosedEffect): string | null {
    const epoch = effect.closeEpoch;
    if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 1) return `closeEpoch ${String(epoch)} is not a positive integer`;
    if (this.epochs.has(epoch)) return `closeEpoch ${epoch} was already used by an earlier close`;
    const previous = this.lastEpoch.get(effect.uri);
    if (previous !== undefined && epoch <= previous) return `closeEpoch ${epoch} is not above ${previous} of the URI's previous close`;
    const issued = this.issued.get(effect.uri) ?? 0;
    if (effect.closeOrdinal !== issued) return `closeOrdinal ${String(effect.closeOrdinal)}, but the last read ordinal issued for it is ${issued}`;
    return null;
  }
}
