/**
 * The oracle's truth side: what the world tells it really happened (the truth stream, kernel/truth.ts, and the
 * workload's commands), routed to the checkers that need it. The effect side, what the client did, is oracle.ts.
 */
import type { TruthEvent } from './kernel/truth.js';
import { OracleCheckers } from './oracle-checkers.js';

export class OracleTruth extends OracleCheckers {
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
      case 'subscribe-acked':
        // An ACK of a subscribe sent before the application last gave the resource up acknowledges nothing it wants now.
        if (!this.close.closedSinceSent(event.resource, event.requestSentAtMs)) this.notifiedReads.onSubscribeAcked(event.resource, event.timeMs);
        break;
      case 'read-answered':
        this.notifiedReads.onReadAnswered(event.resource, event.requestSentAtMs, event.failed, event.timeMs);
        if (event.failed) this.amplification.onReadFailed(event.cause);
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
      case 'list-answer':
        this.scanRecord.onListAnswer(event.answer);
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
  protected onListenEnding(listenId: number): void {
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
    this.oweNothing(resource, timeMs);
  }

  /** The server declares no resources capability for the whole run: no resource can converge, be confirmed deleted or catalogued. */
  onNothingOffered(): void {
    for (let resource = 0; resource < this.resourceCount; resource++) this.oweNothing(resource, 0);
    this.catalogLiveness.unclaim();
  }

  /** From `timeMs` on the client can no longer read `resource`: the liveness checkers owe it nothing more. */
  private oweNothing(resource: number, timeMs: number): void {
    this.convergence.onRevoked(resource);
    this.deletion.onRevoked(resource);
    this.reappearance.onRevoked(resource);
    this.notifiedReads.onRevoked(resource);
    this.renewal.onRevoked(resource);
    this.subscriptionHeld.onRevoked(resource, timeMs);
  }

  /** The client crashed and restarted at `timeMs`. */
  onCrash(timeMs: number): void {
    this.crash.onCrash(this.stamp(timeMs));
    this.availability.onCrash(timeMs);
    this.answers.onCrash(timeMs);
    this.reappearance.onCrash();
    this.catalogDecisions.onCrash();
    this.scanRecord.onCrash();
    this.offered.onCrash();
    this.notifiedReads.onCrash();
    this.renewal.onCrash();
    this.subscriptionHeld.onSessionEnded(timeMs);
  }
}
