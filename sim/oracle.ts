/**
 * The oracle judges a client only by its effects against the simulator's ground truth (SPEC §6). It never
 * reads the client's state. For each step the world tells it what the input really was (which request a
 * response answered, on which session, what the server really served) and the oracle checks the effects.
 *
 * Causes (causes.ts): every event carries the root cause of the chain that produced it. That is how
 * `old_session_effect` and `read_amplification` are attributed without asking the client why it did something.
 *
 * The oracle only routes: each invariant family is its own checker in checkers/ (versions, close, sessions,
 * URIs, convergence and freshness, deletion, amplification, catalog, revocation, crash), built by the base class
 * (oracle-checkers.ts); what each effect is checked for is checkers/checks.ts, which checker owns which
 * invariant is `checkerFamilies` (invariants.ts). What was checked, what was violated and the effect counters
 * are kept by its base class (oracle-accounts.ts). What the world tells it really happened arrives through its truth
 * side (oracle-truth.ts); this file judges the client's effects.
 */
import type { ClientEffect } from '../core/types.js';
import type { StepTruth } from './checkers/step-truth.js';
import { checksOf } from './checkers/checks.js';
import { causeOldNotification } from './causes.js';
import { invariantIndex } from './invariants.js';
import { OracleTruth } from './oracle-truth.js';

export { allInvariants, checkerFamilies, failingLivenessInvariants, invariantExplanations, invariantIndex, livenessInvariants, safetyInvariants, type InvariantName, type LivenessInvariant, type SafetyInvariant } from './invariants.js';
export { causeConnection, causeListChanged, causeNotification, causeOldNotification, causeWorkload } from './causes.js';
export type { StepTruth } from './checkers/step-truth.js';
export type { Violation } from './oracle-accounts.js';

export class Oracle extends OracleTruth {
  judge(effects: readonly ClientEffect[], truth: StepTruth): void {
    const checks = this.checks;
    this.reappearance.onStep(truth);
    this.notifiedReads.beginStep(truth);
    this.outboxLineage.beginStep();
    this.closeRecord.beginStep();
    this.renewal.beginStep(truth);
    if (this.serverSubscriptions.pendingCount > 0) this.serverSubscriptions.flush(truth.timeMs);
    if (this.subscriptionHeld.pendingCount > 0) this.subscriptionHeld.flush(truth.timeMs);
    // An answer after close is fenced off (the client must not act on it), so it is not a not-found it knows of.
    if (truth.servedResource >= 0 && !this.close.closedSince(truth.servedResource, truth)) {
      this.serving.onAnswer(truth);
      this.availability.onAnswer(truth);
    }
    this.effectShape.count(effects.length);
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      const checked = checksOf(effect);
      for (let at = 0; at < checked.length; at++) checks[checked[at]!]! += 1;
      this.effectShape.judge(effect, truth.timeMs);
      this.judgeEffect(effect, truth);
    }
    this.availability.afterStep(effects, truth);
    this.catalogDecisions.afterStep(truth.timeMs, truth.currentSession);
    this.scanRecord.afterStep(truth.timeMs);
    this.notifiedReads.afterStep(truth.timeMs);
    this.outboxLineage.afterStep(truth.timeMs);
    this.closeRecord.afterStep(truth.timeMs);
    this.renewal.afterStep(truth.timeMs);
  }

  private judgeEffect(effect: ClientEffect, truth: StepTruth): void {
    switch (effect.type) {
      case 'StalenessBoundPublished':
        if (effect.mode === 'subscription') this.era2026Watch.judgeClaim(effect.uri, truth.currentSession, truth.timeMs);
        this.convergence.onBoundPublished(this.resourceOf(effect.uri), effect.boundMs);
        break;
      case 'ListenCancelled':
        this.onListenEnding(effect.requestId);
        break;
      case 'RequestSent':
        this.sessions.judgeRequest(effect.sessionGeneration, effect.uri, effect.method, truth.timeMs);
        this.offered.judgeReason(effect, truth.timeMs);
        if (effect.method === 'subscriptions/listen') this.renewal.onListenSent(this.resourceOf(effect.uri));
        if (effect.method === 'resources/unsubscribe') this.serverSubscriptions.onUnsubscribeSent(this.resourceOf(effect.uri), truth.timeMs);
        if (effect.method === 'resources/subscribe') this.subscriptionHeld.onSubscribeSent(this.resourceOf(effect.uri), truth.timeMs);
        if (effect.method === 'resources/list') this.catalogDecisions.judgeListRequest(effect.cursor, truth.currentSession, truth.timeMs);
        if (effect.method !== 'resources/read') break;
        this.closeRecord.onReadSent(effect.uri, effect.readOrdinal);
        this.amplification.onRead(truth.cause);
        this.reappearance.onReadSent(this.resourceOf(effect.uri), truth.timeMs);
        this.notifiedReads.onReadSent(this.resourceOf(effect.uri), truth.timeMs);
        if (truth.cause === causeOldNotification) this.sessions.violateCause(truth, effect.uri, `read of ${effect.uri} issued because of an old session's notification`);
        break;
      case 'VersionAccepted': {
        // A blob's content is the bytes it encodes (the server's texts are ASCII: malformed-read-response's blob-valid).
        const text = effect.encoding === 'blob' ? textOfBlob(effect.text) : effect.text;
        this.versions.judgeAccept(effect.uri, text, effect.digest, truth);
        this.judgeAcceptTruth(effect.uri, text, effect.digest, truth);
        this.crash.judgeAccepted(effect.uri, effect.readOrdinal, truth.requestSentAtMs, truth.timeMs);
        this.outboxLineage.onAccepted(effect.uri, effect.digest);
        break;
      }
      case 'TombstonePending':
        this.versions.judgeTombstone(effect.uri, truth);
        this.onTombstoned(effect.uri);
        this.crash.judgeAccepted(effect.uri, effect.readOrdinal, truth.requestSentAtMs, truth.timeMs);
        break;
      case 'TombstoneConfirmed':
        this.outboxLineage.onConfirmed(effect.uri);
        this.catalog.judgeDeletion(effect.uri, truth.timeMs, 'deletion confirmed');
        this.deletion.onConfirmed(this.resourceOf(effect.uri), truth.timeMs);
        this.onTombstoned(effect.uri);
        break;
      case 'OutboxEntryWritten':
        this.outboxLineage.onOutbox(effect, truth.timeMs);
        // Invalidations (revocation purges) must be written whatever the subscription's state.
        if (effect.operation !== 'invalidate') this.judgeOutbox(effect.uri, truth);
        if (effect.operation === 'delete') this.catalog.judgeDeletion(effect.uri, truth.timeMs, 'outbox delete entry');
        this.revocation.judgeOutbox(effect);
        break;
      case 'DerivedEntryWritten':
        this.outboxLineage.onDerived(effect.entryId, effect.uri, effect.digest);
        this.revocation.judgeDerived(effect.entryId, effect.uri, effect.subject);
        break;
      case 'ContentServed':
        this.revocation.judgeServed(effect.uri, effect.subject, truth.timeMs);
        this.judgeServed(effect.uri, effect.digest, truth.timeMs);
        this.era2026Serving.judgeServed(this.resourceOf(effect.uri), effect.subject, effect.digest, truth);
        break;
      case 'ContentRefused':
        this.revocation.refused++;
        break;
      case 'PurgeDone':
        this.revocation.judgePurge(effect.uri, effect.subject, truth.timeMs);
        break;
      case 'CatalogPublished':
        this.scanRecord.onEffect(effect, truth.timeMs);
        this.judgeCatalog(effect, truth.timeMs);
        break;
      case 'CompletenessTaskDecided':
        this.judgeCatalog(effect, truth.timeMs);
        break;
      case 'StaleReceiptWritten':
        this.staleReceipts++;
        this.judgeStaleReceipt(effect.uri, truth);
        break;
      case 'Transitioned':
        this.reappearance.onTransitioned(this.resourceOf(effect.uri), effect.to);
        this.offered.onTransitioned(effect.uri, effect.to);
        if (effect.to === 'CLOSED') this.closeRecord.onMovedClosed(effect.uri, effect.event);
        else this.closeRecord.onMoved(effect.uri, effect.to);
        break;
      case 'SubscriptionClosed':
        this.closeRecord.onClosed(effect, truth.timeMs);
        break;
      case 'AuditWritten':
        this.audits++;
        break;
      case 'ScanStarted':
      case 'ScanAbandoned':
        this.catalogDecisions.onScan(effect.type === 'ScanStarted');
        this.scanRecord.onEffect(effect, truth.timeMs);
        break;
      case 'ProtocolRejected':
        this.rejections++;
        this.scanRecord.onEffect(effect, truth.timeMs);
        break;
      default:
        break;
    }
  }

  /** A published catalog or a completeness task's decision, for the catalog families. */
  private judgeCatalog(effect: Extract<ClientEffect, { type: 'CatalogPublished' | 'CompletenessTaskDecided' }>, timeMs: number): void {
    if (effect.type === 'CompletenessTaskDecided') {
      this.catalog.judgeTask(effect, timeMs);
      this.taskAge.judgeTask(effect, timeMs);
      this.catalogDecisions.judgeTask(effect, timeMs);
      return;
    }
    this.catalog.judgePublished(effect, timeMs);
    this.catalogDecisions.judgePublished(effect, this.catalog.latestHonest, timeMs);
    this.deletion.onPublished(effect, timeMs);
    this.reappearance.onPublished(effect, timeMs);
    this.catalogAb.judgePublished(effect, timeMs);
    this.catalogTruth.judgePublished(effect, timeMs);
    this.catalogLiveness.judgePublished(effect, timeMs);
    this.era2026Serving.catalogHints.judgePublished(effect, timeMs);
    this.taskAge.onPublished(effect);
  }

  private judgeServed(uri: string, digest: string, timeMs: number): void {
    const resource = this.resourceOf(uri);
    const ageMs = this.convergence.judgeServed(resource, digest, timeMs);
    if (ageMs >= 0) this.stalenessBound.judge(uri, ageMs, this.convergence.boundOf(resource), timeMs);
    this.serving.judgeServed(resource, uri, timeMs);
    this.deletion.onServed(resource, timeMs);
  }

  /** What an accept really was (the server's content of that resource at a truth version), for the checkers that need it. */
  private judgeAcceptTruth(uri: string, text: string, digest: string, truth: StepTruth): void {
    const content = this.content.truthOf(text);
    const resource = this.resourceOf(uri);
    if (resource < 0) return;
    this.deletion.onAccepted(resource);
    const own = content !== undefined && content.resource === resource;
    if (own) this.era2026Serving.onAccepted(resource, digest, content.version, truth);
    const entry = own ? this.era2026Serving.entries.entryOf(resource, digest) : undefined;
    const ttlMs = entry !== undefined && entry.sentAtMs === truth.requestSentAtMs && truth.requestSentAtMs >= 0 ? entry.ttlMs : -1;
    this.availability.onAccepted(resource, own ? content.version : -1, truth, ttlMs);
  }

  private onTombstoned(uri: string): void {
    const resource = this.resourceOf(uri);
    if (resource >= 0) this.availability.onTombstoned(resource);
  }

  private judgeOutbox(uri: string, truth: StepTruth): void {
    const resource = this.resourceOf(uri);
    if (resource < 0) return;
    if (truth.cause === causeOldNotification) this.sessions.violateCause(truth, uri, `outbox entry for ${uri} caused by an old session's notification`);
    this.close.judgeOutbox(resource, uri, truth);
  }

  /** Over-rejection: a current-session, still-open answer with content newer than anything accepted, refused. */
  private judgeStaleReceipt(uri: string, truth: StepTruth): void {
    const resource = this.resourceOf(uri);
    if (resource < 0 || truth.servedResource !== resource || !truth.servedExists) return;
    if (this.sessions.sessionEnded(truth) || this.close.closedSince(resource, truth)) return;
    this.convergence.onStaleReceipt(resource, truth.servedVersion);
  }

  /** End of the run: liveness judged over the whole run (convergence, the healed phase, derived entries). */
  finish(endMs: number): void {
    this.revocation.finish(endMs);
    this.serverSubscriptions.finish(endMs);
    this.convergence.finish(endMs);
    this.deletion.finish(endMs);
    this.reappearance.finish(endMs);
    this.notifiedReads.finish(endMs);
    this.renewal.finish(endMs);
    this.subscriptionHeld.finish(endMs);
    this.checks[invariantIndex.convergence_60s] = this.convergence.changesTracked;
    this.checks[invariantIndex.healed_convergence] = this.convergence.healedJudged;
    this.checks[invariantIndex.healed_deletion] = this.deletion.deletionsJudged;
    this.catalogLiveness.finish(endMs);
  }
}

/** The ASCII text a base64 blob encodes, or the blob itself when it is not base64 (then no content the server served). */
function textOfBlob(blob: string): string {
  try {
    return atob(blob);
  } catch {
    return blob;
  }
}
