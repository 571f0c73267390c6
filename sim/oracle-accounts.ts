/**
 * The oracle's accounting: per invariant what was checked and what was violated (the first violations kept
 * as evidence), transition-table edge hits, the effect counters a report totals, and the stamp that orders
 * events within one virtual millisecond. Checkers report into it through their sink interfaces; the Oracle
 * (oracle.ts) extends it with the routing of effects and truth events to the checkers.
 */
import { allInvariants, invariantIndex, type InvariantName } from './invariants.js';

export interface Violation {
  invariant: InvariantName;
  timeMs: number;
  uri: string;
  detail: string;
}

export class OracleAccounts {
  readonly violations: Violation[] = [];
  readonly counts = new Int32Array(allInvariants.length);
  /** Per invariant (allInvariants order): how many times it was checked (checkers/checks.ts; convergence: changes judged). */
  readonly checks = new Float64Array(allInvariants.length);
  readonly edgeHits: Int32Array;
  staleReceipts = 0;
  audits = 0;
  rejections = 0;
  /** 2026-07-28 truth: acks delivered whose honored filter held a resource (observe/ agreement tests). */
  listenAcks = 0;

  private stampMs = -1;
  private stampsInMs = 0;

  constructor(edgeCount: number) {
    this.edgeHits = new Int32Array(edgeCount);
  }

  /**
   * A time that also orders events within one virtual millisecond: `timeMs` plus a fraction that grows with
   * every stamp in that millisecond (exact in binary). Request send times and the start of a close or a
   * crash are stamped, so a read sent in the same millisecond after an unsubscribe and a re-subscribe is
   * not mistaken for one sent before the close.
   */
  stamp(timeMs: number): number {
    if (timeMs !== this.stampMs) {
      this.stampMs = timeMs;
      this.stampsInMs = 0;
    }
    this.stampsInMs++;
    return timeMs + this.stampsInMs / 1_048_576;
  }

  violate(invariant: InvariantName, timeMs: number, uri: string, detail: string): void {
    this.counts[invariantIndex[invariant]]! += 1;
    if (this.violations.length < 16) this.violations.push({ invariant, timeMs, uri, detail });
  }

  /** `times` more checks of `invariant` (default one), for checkers that count their own. */
  checked(invariant: InvariantName, times = 1): void {
    this.checks[invariantIndex[invariant]]! += times;
  }

  recordEdge(edgeIndex: number): void {
    if (edgeIndex >= 0) this.edgeHits[edgeIndex]! += 1;
  }
}
