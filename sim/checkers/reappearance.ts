/**
 * Reappearance (SPEC §3.3, §3.6): `reappeared_reread`. A resource a not-found made TOMBSTONE_PENDING (its
 * deletion confirmed or not) and that the truth then re-created must be re-read once a reconciled listing shows
 * it again: "a URI that reappears is re-read". Judged on the truth and the client's effects only: when the
 * client publishes a catalog that lists a wanted resource
 * - whose latest `Transitioned` effect entered TOMBSTONE_PENDING (held tombstoned), with no read of it in flight
 *   (every `resources/read` it sent on the current session answered: a read still out was asked before the
 *   re-creation and may answer not-found; the client may wait for it),
 * - which the truth re-created after a deletion and which exists now,
 * - and of which the client has sent no `resources/read` since that re-creation,
 * the client owes a read of it, sent by its next catalog that lists it again (a second reconciled listing
 * showing it), and at the latest within the review period it published with that catalog (`stalenessBoundMs`,
 * its configured catalogReviewMs). The reference sends it in the step of the catalog; a later one (its periodic
 * reconcile read of a TOMBSTONE_PENDING resource) is late once a second catalog lists it. A read owed and not
 * sent by then fails when the first later step is judged (or at the end of the run, for a deadline inside it).
 *
 * Nothing is owed any more once the application gives the resource up (or subscribes it again: a subscription
 * reads), the truth deletes it again, its subject loses access (reads answer with a permission error), the
 * client crashes, or a new session begins (it resubscribes and reads). Per event: O(1); a catalog walks its
 * URIs; a step after the nearest deadline walks the resources.
 */
import type { ClientEffect } from '../../core/types.js';
import type { StepTruth } from './step-truth.js';
import type { CheckingSink } from './sink.js';
import type { ExistenceHistory } from './existence-history.js';

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;

export interface ReappearanceSink extends CheckingSink {
  resourceOf(uri: string): number;
}

const notOwed = -1;

export class ReappearanceChecker {
  /** Reads owed that were judged (sent in time or not), and those that failed. */
  judged = 0;
  failedCount = 0;
  private readonly wanted: Uint8Array;
  private readonly off: Uint8Array;
  /** Per resource: when the truth last re-created it after a deletion, or -1. */
  private readonly recreatedAtMs: Float64Array;
  /** Per resource: the client's latest transition entered TOMBSTONE_PENDING. */
  private readonly tombstoned: Uint8Array;
  /** Per resource: when the client last sent a resources/read of it, or -1. */
  private readonly readAtMs: Float64Array;
  /**
   * Per resource: the send times of its reads of the current session not answered yet (an answer removes its
   * request's send time once, so a replayed response, response-replay, answers nothing more).
   */
  private readonly readsOut: number[][];
  /** Per resource: the deadline of an owed read, or notOwed; and when the catalog that made it owed was published. */
  private readonly dueAtMs: Float64Array;
  private readonly owedSinceMs: Float64Array;
  private owedCount = 0;
  private nearestDueAtMs = Infinity;
  private session = -1;

  constructor(
    private readonly sink: ReappearanceSink,
    private readonly uris: readonly string[],
    private readonly existence: ExistenceHistory,
  ) {
    const count = uris.length;
    this.wanted = new Uint8Array(count);
    this.off = new Uint8Array(count);
    this.recreatedAtMs = new Float64Array(count).fill(-1);
    this.tombstoned = new Uint8Array(count);
    this.readAtMs = new Float64Array(count).fill(-1);
    this.readsOut = Array.from({ length: count }, () => []);
    this.dueAtMs = new Float64Array(count).fill(notOwed);
    this.owedSinceMs = new Float64Array(count).fill(-1);
  }

  onSubscribed(resource: number): void {
    this.wanted[resource] = 1;
    this.forget(resource);
  }

  onUnsubscribed(resource: number): void {
    this.wanted[resource] = 0;
    this.forget(resource);
  }

  onRevoked(resource: number): void {
    this.off[resource] = 1;
    this.release(resource);
  }

  /** The truth changed `resource`; `changed`: its existence changed (ExistenceHistory.onExistence), so `exists` means re-created. */
  onExistence(resource: number, exists: boolean, changed: boolean, timeMs: number): void {
    if (exists && changed) this.recreatedAtMs[resource] = timeMs;
    if (!exists) this.release(resource);
  }

  onCrash(): void {
    this.forgetAll();
    this.clearReadsOut();
  }

  /** Before a step's effects: a new session voids what is owed; a current-session read answered; an owed read past its deadline fails. */
  onStep(truth: StepTruth): void {
    if (truth.currentSession !== this.session) {
      this.session = truth.currentSession;
      this.forgetAll();
      this.clearReadsOut();
    }
    const answered = truth.servedResource;
    if (answered >= 0 && truth.requestSession === truth.currentSession) {
      const out = this.readsOut[answered]!;
      const at = out.indexOf(Math.floor(truth.requestSentAtMs)); // send times are stamped: ms plus a fraction
      if (at >= 0) out.splice(at, 1);
    }
    if (truth.timeMs > this.nearestDueAtMs) this.judgeDue(truth.timeMs);
  }

  onTransitioned(resource: number, to: string): void {
    if (resource >= 0) this.tombstoned[resource] = to === 'TOMBSTONE_PENDING' ? 1 : 0;
  }

  onReadSent(resource: number, timeMs: number): void {
    if (resource < 0) return;
    this.readAtMs[resource] = timeMs;
    this.readsOut[resource]!.push(timeMs);
    if (this.dueAtMs[resource] === notOwed) return;
    this.release(resource);
    this.judged++;
    this.sink.checked('reappeared_reread');
  }

  onPublished(effect: CatalogEffect, timeMs: number): void {
    for (const uri of effect.uris) {
      const resource = this.sink.resourceOf(uri);
      if (resource < 0) continue;
      if (this.dueAtMs[resource] !== notOwed) {
        // Listed by a second catalog with the read still owed: it is due now (judged at the next later step).
        if (timeMs < this.dueAtMs[resource]!) this.dueAtMs[resource] = timeMs;
        if (timeMs < this.nearestDueAtMs) this.nearestDueAtMs = timeMs;
        continue;
      }
      if (!this.owes(resource)) continue;
      const dueAtMs = timeMs + effect.stalenessBoundMs;
      this.dueAtMs[resource] = dueAtMs;
      this.owedSinceMs[resource] = timeMs;
      this.owedCount++;
      if (dueAtMs < this.nearestDueAtMs) this.nearestDueAtMs = dueAtMs;
    }
  }

  /** End of the run: reads owed with a deadline inside it fail. */
  finish(endMs: number): void {
    this.judgeDue(endMs);
  }

  private judgeDue(timeMs: number): void {
    this.nearestDueAtMs = Infinity;
    if (this.owedCount === 0) return;
    for (let resource = 0; resource < this.dueAtMs.length; resource++) {
      const dueAtMs = this.dueAtMs[resource]!;
      if (dueAtMs === notOwed) continue;
      if (dueAtMs >= timeMs) {
        if (dueAtMs < this.nearestDueAtMs) this.nearestDueAtMs = dueAtMs;
        continue;
      }
      this.release(resource);
      this.judged++;
      this.failedCount++;
      this.sink.checked('reappeared_reread');
      const uri = this.uris[resource]!;
      const lastRead = this.readAtMs[resource]! < 0 ? 'none' : `${this.readAtMs[resource]} ms`;
      this.sink.violate(
        'reappeared_reread',
        dueAtMs,
        uri,
        `${uri}, held TOMBSTONE_PENDING and re-created at ${this.recreatedAtMs[resource]} ms, listed by the catalog published at ${this.owedSinceMs[resource]} ms: no resources/read of it sent by ${dueAtMs} ms (its next catalog listing it, or the catalog's review period; last read sent: ${lastRead})`,
      );
    }
  }

  private owes(resource: number): boolean {
    if (this.wanted[resource] === 0 || this.off[resource] === 1 || this.existence.exists[resource] === 0) return false;
    if (this.tombstoned[resource] === 0 || this.readsOut[resource]!.length > 0 || this.recreatedAtMs[resource]! < 0) return false;
    return this.readAtMs[resource]! < this.recreatedAtMs[resource]!;
  }

  /** Nothing owed for `resource` any more. */
  private release(resource: number): void {
    if (this.dueAtMs[resource] === notOwed) return;
    this.dueAtMs[resource] = notOwed;
    this.owedCount--;
  }

  private forget(resource: number): void {
    this.tombstoned[resource] = 0;
    this.release(resource);
  }

  private clearReadsOut(): void {
    for (const out of this.readsOut) out.length = 0;
  }

  private forgetAll(): void {
    for (let resource = 0; resource < this.tombstoned.length; resource++) this.forget(resource);
  }
}
