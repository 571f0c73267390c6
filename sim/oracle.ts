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
 * are kept by its base class (oracle-accounts.ts).
 */
import type { ClientEffect } from '../core/types.js';
import type { StepTruth } from './checkers/step-truth.js';
import { checksOf } from './checkers/checks.js';
import { causeOldNotification } from './causes.js';
import { invariantIndex } from './invariants.js';
import type { TruthEvent } from './kernel/truth.js';
import { OracleCheckers } from './oracle-checkers.js';

export { allInvariants, checkerFamilies, failingLivenessInvariants, invariantExplanations, invariantIndex, livenessInvariants, safetyInvariants, type InvariantName, type LivenessInvariant, type SafetyInvariant } from './invariants.js';
export { causeConnection, causeListChanged, causeNotification, causeOldNotification, causeWorkload } from './causes.js';
export type { StepTruth } from './checkers/step-truth.js';
export type { Violation } from './oracle-accounts.js';

export class Oracle extends OracleCheckers {
  /** The truth stream (kernel/truth.ts): the one way the world tells the checkers what really happened. */
  observe(event: TruthEvent): void {
    switch (event.kind) {
      case 'content':
        this.registerContent(event.text, event.resource, event.version);
        break;
      case 'changed':
        this.onChange(event.resource, event.version, event.timeMs, event.exists);
        break;
      case 'subscribed':
        this.onSubscribeCommand(event.resource, event.timeMs);
        break;
      case 'unsubscribed':
        this.onUnsubscribeCommand(event.resource, event.timeMs);
        break;
      case 'notified':
        this.onNotificationDelivered(event.resource, event.version, event.current);
        this.notifiedReads.onNotified(event.resource, event.version, event.current);
        if (event.current) this.availability.onNotified(event.resource);
        break;
      case 'revoked':
        this.onRevoked(event.resource, event.subject, event.timeMs);
        this.availability.onRevoked(event.resource, event.subject);
        break;
      case 'learned':
        this.revocation.onLearned(event.resource, event.subject, event.timeMs);
        break;
      case 'pass-completed':
        this.catalog.onPassCompleted(event.pass, event.proof, event.startMs);
        this.catalogAb.onPassCompleted(event.pass, event.served, event.startMs);
        this.taskAge.onPassCompleted(event.startMs);
        this.era2026Serving.catalogHints.onPassCompleted(event.hint ?? null);
        this.catalogDecisions.onPassCompleted(event.pass, event.proof);
        break;
      case 'list-changed':
        this.catalogAb.onListChanged(event.timeMs);
        this.catalogDecisions.onListChanged(event.timeMs);
        break;
      case 'discovery-asked':
        this.catalogLiveness.onDiscoveryAsked();
        break;
      case 'task-asked':
        this.catalogDecisions.onTaskAsked();
        break;
      case 'list-page':
        this.catalogDecisions.onListPage(event.nextCursor);
        break;
      case 'server-held':
        this.serverSubscriptions.onServerHeld(event.resource, event.held, event.timeMs);
        this.subscriptionHeld.onServerHeld(event.resource, event.held, event.timeMs);
        break;
      case 'crashed':
        this.onCrash(event.timeMs);
        break;
      case 'session-ended':
        this.notifiedReads.onSessionEnded();
        this.renewal.onSessionEnded();
        this.subscriptionHeld.onSessionEnded(event.timeMs);
        break;
      case 'era2026':
        this.era2026Watch.onEra(event.generation);
        break;
      case 'listen-acked':
        this.listenAcks++;
        this.era2026Watch.onAcked(event.generation, event.listenId, event.resource);
        if (event.requested) this.era2026Serving.notification.onAckedAsRequested(event.listenId, event.resource);
        break;
      case 'listen-ended':
        this.onListenEnding(event.listenId);
        break;
      case 'listen-updated':
        if (this.era2026Serving.notification.onUpdated(event.generation, event.listenId, event.resource, event.version)) this.notifiedReads.onBinding(event.resource);
        break;
      case 'cache-hint':
        this.era2026Serving.entries.onHint(event.requestSentAtMs, event.ttlMs, event.scope, event.subject);
        break;
      case 'serve':
        this.availability.onServe(event, this.convergence.boundOf(event.resource));
        break;
      case 'healed':
        this.convergence.onHealed(event.timeMs);
        this.deletion.onHealed(event.timeMs);
        this.catalogLiveness.onHealed(event.timeMs);
        break;
      case 'spelled':
        this.names.onSpelled(event.spelling, event.resource);
        break;
    }
  }

  /** Listen `listenId` ends (the server's end delivered, or the client's cancel): the watch checkers, the watch itself last. */
  private onListenEnding(listenId: number): void {
    this.availability.era2026.onListenEnding(listenId);
    this.notifiedReads.onListenEnding(listenId);
    this.renewal.onListenEnding(listenId);
    this.era2026Watch.onEnded(listenId);
  }

  onSubscribeCommand(resource: number, timeMs = 0): void {
    this.close.onSubscribed(resource);
    this.convergence.onSubscribed(resource, timeMs);
    this.deletion.onSubscribed(resource, timeMs);
    this.reappearance.onSubscribed(resource);
    this.serverSubscriptions.onWanted(resource, timeMs);
    this.availability.onSubscribed(resource, timeMs);
    this.notifiedReads.onSubscribed(resource);
    this.renewal.onSubscribed(resource);
    this.unsubscribeAcks.onCommanded(resource);
    this.subscriptionHeld.onWanted(resource, true, timeMs);
  }

  onUnsubscribeCommand(resource: number, timeMs: number): void {
    this.close.onUnsubscribed(resource, this.stamp(timeMs));
    this.convergence.onUnsubscribed(resource);
    this.deletion.onUnsubscribed(resource);
    this.reappearance.onUnsubscribed(resource);
    this.serverSubscriptions.onGivenUp(resource, timeMs);
    this.availability.onUnsubscribed(resource);
    this.notifiedReads.onUnsubscribed(resource);
    this.renewal.onUnsubscribed(resource);
    this.unsubscribeAcks.onCommanded(resource);
    this.subscriptionHeld.onWanted(resource, false, timeMs);
  }

  /** A change (edit, delete or re-create) happened to the truth; `exists` is the resource's existence after it. */
  onChange(resource: number, version: number, timeMs: number, exists = true): void {
    this.catalog.onExistence(resource, exists, timeMs);
    const changed = this.existence.onExistence(resource, exists, timeMs);
    this.deletion.onExistence(resource, exists, timeMs);
    this.reappearance.onExistence(resource, exists, changed, timeMs);
    this.convergence.onChanged(resource, version, timeMs);
    this.era2026Serving.ttl.onChanged(resource, version, timeMs);
    this.availability.onChanged(resource, version, exists);
  }

  onNotificationDelivered(resource: number, version: number, current: boolean): void {
    this.amplification.onNotified(resource, version, current);
  }

  /** Truth: `subject` (index into `subjects`) lost access to `resource`. It can no longer converge. */
  onRevoked(resource: number, subject: number, timeMs: number): void {
    this.revocation.onRevoked(resource, subject, timeMs, this.close.tracked[resource] === 1);
    this.convergence.onRevoked(resource);
    this.deletion.onRevoked(resource);
    this.reappearance.onRevoked(resource);
    this.notifiedReads.onRevoked(resource);
    this.renewal.onRevoked(resource);
    this.subscriptionHeld.onRevoked(resource, timeMs);
  }

  /** The server declares no resources capability for the whole run: no resource can converge, be confirmed deleted or catalogued. */
  onNothingOffered(): void {
    for (let resource = 0; resource < this.resourceCount; resource++) {
      this.convergence.onRevoked(resource);
      this.deletion.onRevoked(resource);
      this.reappearance.onRevoked(resource);
      this.notifiedReads.onRevoked(resource);
      this.subscriptionHeld.onRevoked(resource, 0);
    }
    this.catalogLiveness.unclaim();
  }

  /** The client crashed and restarted at `timeMs`. */
  onCrash(timeMs: number): void {
    this.crash.onCrash(this.stamp(timeMs));
    this.availability.onCrash(timeMs);
    this.answers.onCrash(timeMs);
    this.reappearance.onCrash();
    this.catalogDecisions.onCrash();
    this.notifiedReads.onCrash();
    this.renewal.onCrash();
    this.subscriptionHeld.onSessionEnded(timeMs);
  }

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
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      const checked = checksOf(effect);
      for (let at = 0; at < checked.length; at++) checks[checked[at]!]! += 1;
      this.judgeEffect(effect, truth);
    }
    this.availability.afterStep(effects, truth);
    this.catalogDecisions.afterStep(truth.timeMs, truth.currentSession);
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
        this.outboxLineage.onDerived(effect.entryId);
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
      case 'CompletenessTaskDecided':
        this.judgeCatalog(effect, truth.timeMs);
        break;
      case 'StaleReceiptWritten':
        this.staleReceipts++;
        this.judgeStaleReceipt(effect.uri, truth);
        break;
      case 'Transitioned':
        this.reappearance.onTransitioned(this.resourceOf(effect.uri), effect.to);
        if (effect.to === 'CLOSED') this.closeRecord.onMovedClosed(effect.uri);
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
        break;
      case 'ProtocolRejected':
        this.rejections++;
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
