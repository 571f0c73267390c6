/**
 * Completeness-task age (SPEC §3.6): `task_catalog_expired`. A catalog is published with a staleness bound
 * and a next review time; a completeness task (cleanup, revocation sweep) that consumes it must be decided
 * while the catalog is younger than that bound, measured in truth from the instant its listing was really
 * taken (the start of its snapshot pass, or of the first of its A/B passes, as the server served them),
 * and before the review time the client itself published. A task accepted later acts on a listing the
 * client no longer vouches for.
 */
import type { ClientEffect } from '../../core/types.js';
import type { ViolationSink } from './sink.js';

type CatalogEffect = Extract<ClientEffect, { type: 'CatalogPublished' }>;
type TaskEffect = Extract<ClientEffect, { type: 'CompletenessTaskDecided' }>;

export class TaskAgeChecker {
  tasksJudged = 0;
  private latestPassStartMs = -1;
  private previousPassStartMs = -1;
  private catalogScan = -1;
  /** When the latest catalog's listing was really taken (-1: no catalog, or none from a complete pass). */
  private catalogTakenAtMs = -1;
  private catalogBoundMs = 0;
  private catalogReviewAtMs = 0;

  constructor(private readonly sink: ViolationSink) {}

  onPassCompleted(startMs: number): void {
    this.previousPassStartMs = this.latestPassStartMs;
    this.latestPassStartMs = startMs;
  }

  onPublished(effect: CatalogEffect): void {
    this.catalogScan = effect.scanId;
    const taken = effect.status === 'SNAPSHOT_PROVEN' ? this.latestPassStartMs : this.previousPassStartMs;
    this.catalogTakenAtMs = taken;
    this.catalogBoundMs = effect.stalenessBoundMs;
    this.catalogReviewAtMs = effect.nextReviewAtMs;
  }

  judgeTask(effect: TaskEffect, timeMs: number): void {
    if (!effect.accepted || this.catalogTakenAtMs < 0) return;
    this.tasksJudged++;
    const ageMs = timeMs - this.catalogTakenAtMs;
    if (ageMs > this.catalogBoundMs) {
      this.sink.violate('task_catalog_expired', timeMs, '', `completeness task ${effect.task} accepted at ${timeMs} ms on catalog ${this.catalogScan}, whose listing was taken at ${this.catalogTakenAtMs} ms: ${ageMs} ms old, beyond its published staleness bound ${this.catalogBoundMs} ms`);
    } else if (timeMs >= this.catalogReviewAtMs) {
      this.sink.violate('task_catalog_expired', timeMs, '', `completeness task ${effect.task} accepted at ${timeMs} ms on catalog ${this.catalogScan}, past its published review time ${this.catalogReviewAtMs} ms`);
    }
  }
}
