/**
 * `fence_lost_after_crash` (SPEC §3.9): after a client crash, no read issued before it may pass the fence,
 * and no URI's watermark may go backwards.
 * - A VersionAccepted or TombstonePending in a step answering a request sent at or before the latest crash
 *   is a pre-crash read accepted after the restart.
 * - An accepted readOrdinal at or below the highest one accepted for its URI before the latest crash is a
 *   watermark that went backwards (the ledger lost it).
 * - A durable ledger of the documented format (`fencesim.ledger.v1`) whose sessionGeneration is below the highest
 *   session the client was handed before the crash: a host numbers the sessions after a restart from it
 *   (adapters/mcp-sdk/cache/cache-setup.ts firstStateOf), so it would hand out a generation again, and a response
 *   of the pre-crash session of that number would pass the session fence.
 */
export interface CrashSink {
  resourceOf(uri: string): number;
  violate(invariant: 'fence_lost_after_crash', timeMs: number, uri: string, detail: string): void;
}

export class CrashChecker {
  crashes = 0;
  /** Time of the latest client crash, or -1. */
  private lastCrashMs = -1;
  /** Per resource: highest readOrdinal accepted (content or not-found), and its value at the latest crash. */
  private readonly acceptedOrdinal: Float64Array;
  private readonly acceptedOrdinalAtCrash: Float64Array;

  constructor(
    private readonly sink: CrashSink,
    resourceCount: number,
  ) {
    this.acceptedOrdinal = new Float64Array(resourceCount);
    this.acceptedOrdinalAtCrash = new Float64Array(resourceCount);
  }

  onCrash(timeMs: number): void {
    this.crashes++;
    this.lastCrashMs = timeMs;
    this.acceptedOrdinalAtCrash.set(this.acceptedOrdinal);
  }

  /** The client crashed with `durable` as its ledger, having been handed Connected up to session `highestSession`. */
  judgeDurableSession(durable: unknown, highestSession: number, timeMs: number): void {
    if (durable === null || typeof durable !== 'object') return;
    const ledger = durable as { schema?: unknown; sessionGeneration?: unknown };
    if (ledger.schema !== 'fencesim.ledger.v1' || ledger.sessionGeneration === highestSession) return;
    const kept = typeof ledger.sessionGeneration === 'number' ? ledger.sessionGeneration : -1;
    if (kept >= highestSession) return;
    this.sink.violate('fence_lost_after_crash', timeMs, '', `crashed with a durable ledger naming session ${String(ledger.sessionGeneration)}, but it had been handed session ${highestSession}: a host numbering sessions from the ledger hands a generation out twice`);
  }

  /** A version or a not-found was accepted at `readOrdinal`, in a step answering a request sent at `requestSentAtMs` (-1: none). */
  judgeAccepted(uri: string, readOrdinal: number, requestSentAtMs: number, timeMs: number): void {
    const resource = this.sink.resourceOf(uri);
    if (resource < 0) return;
    if (this.lastCrashMs >= 0) {
      if (requestSentAtMs >= 0 && requestSentAtMs <= this.lastCrashMs) {
        this.sink.violate('fence_lost_after_crash', timeMs, uri, `accepted a response to a read sent at ${Math.floor(requestSentAtMs)} ms, before the client crashed at ${Math.floor(this.lastCrashMs)} ms`);
      } else if (readOrdinal <= this.acceptedOrdinalAtCrash[resource]!) {
        this.sink.violate(
          'fence_lost_after_crash',
          timeMs,
          uri,
          `accepted read ordinal ${readOrdinal} after the crash at ${Math.floor(this.lastCrashMs)} ms, not above ordinal ${this.acceptedOrdinalAtCrash[resource]} accepted before it (watermark went backwards)`,
        );
      }
    }
    if (readOrdinal > this.acceptedOrdinal[resource]!) this.acceptedOrdinal[resource] = readOrdinal;
  }
}
