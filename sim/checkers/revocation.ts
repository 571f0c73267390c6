/**
 * Revocation invariants and metric (SPEC §3.8, §6): `served_after_revocation`, `untraced_derived_entry`,
 * `revocation_p99_ms`. Judged from effects against the simulator's truth.
 *
 * - The client learned of the revocation of (S, U) in the step that delivered the authorization-feed event,
 *   or a response (on the current session) to a read by S of U answered with permission denied. A
 *   ContentServed of U to S in or after that step is served_after_revocation.
 * - Lineage: DerivedEntryWritten makes an entry live for (U, S); an outbox 'delete' or 'invalidate' entry
 *   invalidates its derivedEntries, an 'upsert' invalidates the entries it supersedes. At PurgeDone(U, S)
 *   every live entry of (U, S) is untraced, and so is, at the end of the run, every live entry of a (U, S)
 *   whose revocation the client learned more than 30 s before the end.
 * - Latency: per truth revocation of (S, U) while S had U subscribed: first PurgeDone(U, S) after it, minus
 *   the revocation time (end of run minus it when never purged).
 */
import type { ClientEffect } from '../../core/types.js';
import { subjectIndexOf, subjects } from '../actors/server.js';

export interface RevocationSink {
  resourceOf(uri: string): number;
  violate(invariant: 'served_after_revocation' | 'untraced_derived_entry', timeMs: number, uri: string, detail: string): void;
}

type OutboxEffect = Extract<ClientEffect, { type: 'OutboxEntryWritten' }>;

/** Derived entries of a learned revocation must be invalidated within this long. */
export const invalidationWindowMs = 30_000;

const subjectCount = subjects.length;
const measurePending = 1;
const measureDone = 2;

export class RevocationChecker {
  revocations = 0;
  learned = 0;
  purges = 0;
  served = 0;
  refused = 0;
  /** Per measured truth revocation: purge time minus revocation time (end minus it when never purged). */
  readonly latenciesMs: number[] = [];

  private readonly uris: readonly string[];
  /** Per slot (resource * subjects + subject): truth revocation time, or -1. */
  private readonly revokedAtMs: Float64Array;
  /** Per slot: 0 not measured, 1 waiting for its purge, 2 measured. */
  private readonly measure: Uint8Array;
  /** Per slot: when the client learned of the revocation, or -1. */
  private readonly learnedAtMs: Float64Array;
  /** Live derived entries: entry id -> slot. */
  private readonly entries = new Map<string, number>();
  private readonly liveEntries: Int32Array;

  constructor(
    private readonly sink: RevocationSink,
    uris: readonly string[],
  ) {
    this.uris = uris;
    const slots = uris.length * subjectCount;
    this.revokedAtMs = new Float64Array(slots).fill(-1);
    this.measure = new Uint8Array(slots);
    this.learnedAtMs = new Float64Array(slots).fill(-1);
    this.liveEntries = new Int32Array(slots);
  }

  /** Truth: `subject` lost access to `resource` at `timeMs`; measured when it had the resource subscribed. */
  onRevoked(resource: number, subject: number, timeMs: number, subscribed: boolean): void {
    const slot = resource * subjectCount + subject;
    if (this.revokedAtMs[slot]! >= 0) return;
    this.revocations++;
    this.revokedAtMs[slot] = timeMs;
    if (subscribed) this.measure[slot] = measurePending;
  }

  /** The step about to be judged tells the client of the revocation (feed event or permission denied). */
  onLearned(resource: number, subject: number, timeMs: number): void {
    const slot = resource * subjectCount + subject;
    if (this.learnedAtMs[slot]! >= 0 || this.revokedAtMs[slot]! < 0) return;
    this.learned++;
    this.learnedAtMs[slot] = timeMs;
  }

  judgeServed(uri: string, subject: string, timeMs: number): void {
    this.served++;
    const slot = this.slotOf(uri, subject);
    if (slot < 0) return;
    const learnedAtMs = this.learnedAtMs[slot]!;
    if (learnedAtMs >= 0) {
      this.sink.violate('served_after_revocation', timeMs, uri, `served ${uri} to ${subject}, who lost access at ${this.revokedAtMs[slot]} ms; the client learned of it at ${learnedAtMs} ms`);
    }
  }

  judgeDerived(entryId: string, uri: string, subject: string): void {
    const slot = this.slotOf(uri, subject);
    if (slot < 0) return;
    const previous = this.entries.get(entryId);
    if (previous === slot) return;
    if (previous !== undefined) this.liveEntries[previous]! -= 1;
    this.entries.set(entryId, slot);
    this.liveEntries[slot]! += 1;
  }

  judgeOutbox(effect: OutboxEffect): void {
    const written = effect.derivedEntries;
    if (effect.operation === 'upsert') {
      const superseded = effect.supersedes;
      if (superseded === undefined) return;
      // An entry written again under the same id by this upsert stays live.
      for (let index = 0; index < superseded.length; index++) {
        const entryId = superseded[index]!;
        if (written === undefined || !written.includes(entryId)) this.invalidate(entryId);
      }
      return;
    }
    if (written === undefined) return;
    for (let index = 0; index < written.length; index++) this.invalidate(written[index]!);
  }

  judgePurge(uri: string, subject: string, timeMs: number): void {
    this.purges++;
    const slot = this.slotOf(uri, subject);
    if (slot < 0) return;
    if (this.measure[slot] === measurePending) {
      this.measure[slot] = measureDone;
      this.latenciesMs.push(timeMs - this.revokedAtMs[slot]!);
    }
    const live = this.liveEntries[slot]!;
    if (live > 0) {
      this.sink.violate('untraced_derived_entry', timeMs, uri, `purge of ${uri} for ${subject} left ${live} derived entr${live === 1 ? 'y' : 'ies'} without an invalidation: ${this.liveIds(slot)}`);
    }
  }

  finish(endMs: number): void {
    for (let slot = 0; slot < this.measure.length; slot++) {
      if (this.measure[slot] === measurePending) {
        this.measure[slot] = measureDone;
        this.latenciesMs.push(endMs - this.revokedAtMs[slot]!);
      }
      const learnedAtMs = this.learnedAtMs[slot]!;
      const live = this.liveEntries[slot]!;
      if (learnedAtMs >= 0 && learnedAtMs < endMs - invalidationWindowMs && live > 0) {
        const uri = this.uris[Math.floor(slot / subjectCount)]!;
        const subject = subjects[slot % subjectCount]!;
        this.sink.violate('untraced_derived_entry', endMs, uri, `${live} derived entr${live === 1 ? 'y' : 'ies'} of ${uri} for ${subject} never invalidated, ${endMs - learnedAtMs} ms after the client learned of the revocation: ${this.liveIds(slot)}`);
      }
    }
  }

  private invalidate(entryId: string): void {
    const slot = this.entries.get(entryId);
    if (slot === undefined) return;
    this.entries.delete(entryId);
    this.liveEntries[slot]! -= 1;
  }

  private slotOf(uri: string, subject: string): number {
    const subjectIndex = subjectIndexOf(subject);
    if (subjectIndex < 0) return -1;
    const resource = this.sink.resourceOf(uri);
    return resource < 0 ? -1 : resource * subjectCount + subjectIndex;
  }

  private liveIds(slot: number): string {
    const ids: string[] = [];
    for (const [entryId, entrySlot] of this.entries) if (entrySlot === slot && ids.length < 4) ids.push(entryId);
    return ids.join(', ');
  }
}
