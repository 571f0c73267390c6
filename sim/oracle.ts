/**
 * The oracle judges a client only by its effects against the simulator's ground truth (SPEC §6). It never
 * reads the client's state. For each step the world tells it what the input really was (which request a
 * response answered, on which session, what the server really served) and the oracle checks the effects.
 *
 * Causes: every event carries the root cause of the chain that produced it (a workload command, a
 * connection event, a current-session notification, an old-session notification). Effects inherit the
 * cause of the step that produced them, requests carry it to the server and back, timers carry it to
 * their firing. That is how `old_session_effect` and `read_amplification` are attributed without asking
 * the client why it did something.
 *
 * Families live in their own checkers: catalog and deletion (checkers/catalog.ts), revocation and lineage
 * (checkers/revocation.ts), crash (checkers/crash.ts); what each effect is checked for (checkers/checks.ts).
 */
import { WatchChecker } from './checkers/era2026-watch.js';
import { canonicalizeUri } from '../core/uri.js';
import type { ClientEffect } from '../core/types.js';
import { CatalogChecker } from './checkers/catalog.js';
import { ContentRegistry } from './checkers/content.js';
import { CrashChecker } from './checkers/crash.js';
import { RevocationChecker } from './checkers/revocation.js';
import { checksOf } from './checkers/checks.js';
import { invariantIndex, livenessInvariants, safetyInvariants, type InvariantName } from './invariants.js';
import type { TruthEvent } from './kernel/truth.js';

export { allInvariants, invariantExplanations, invariantIndex, livenessInvariants, safetyInvariants, type InvariantName, type LivenessInvariant, type SafetyInvariant } from './invariants.js';

export const causeWorkload = 0;
export const causeConnection = 1;
export const causeNotification = 2;
export const causeOldNotification = 3;
/** A list_changed notification of the current session (not counted as an update notification). */
export const causeListChanged = 4;

export interface Violation {
  invariant: InvariantName;
  timeMs: number;
  uri: string;
  detail: string;
}

/** What the world knows about the input of the step being judged. */
export interface StepTruth {
  timeMs: number;
  cause: number;
  currentSession: number;
  /** Response steps: the request's session and send time, and what the server really answered. */
  requestSession: number;
  requestSentAtMs: number;
  /** Resource index the response's content really belongs to (-1 when none). */
  servedResource: number;
  servedVersion: number;
  servedExists: boolean;
}

const convergenceWindowMs = 60_000;

/** Accepted (digest, truth version) pairs remembered per resource, to date served content (a small ring). */
const acceptedDigestSlots = 4;

export class Oracle {
  readonly violations: Violation[] = [];
  readonly counts = new Int32Array(safetyInvariants.length + livenessInvariants.length);
  /** Per invariant (allInvariants order): how many times it was checked (sim/checks.ts; convergence: changes judged). */
  readonly checks = new Float64Array(safetyInvariants.length + livenessInvariants.length);
  readonly edgeHits: Int32Array;
  notificationReads = 0;
  totalReads = 0;
  notifiedChanges = 0;
  changesTracked = 0;
  changesConverged = 0;
  staleReceipts = 0;
  audits = 0;
  rejections = 0;
  accepts = 0;
  /** ContentServed of content older than the resource's truth at serve time (or content the oracle cannot date). */
  staleServes = 0;
  readonly catalog: CatalogChecker;
  readonly revocation: RevocationChecker;
  readonly crash: CrashChecker;
  readonly era2026Watch: WatchChecker;
  /** Per change reflected in accepted content: how long it took (never reflected: end of run minus change, >= 60 s). */
  readonly convergenceLatenciesMs: number[] = [];

  private readonly uris: readonly string[];
  /** What content the server produced (to date accepted texts without a map of every text ever served). */
  private readonly content: ContentRegistry;
  private readonly indexByUri = new Map<string, number>();
  /** Per resource: highest truth version (content or deletion) the client accepted. */
  private readonly acceptedVersion: Int32Array;
  /** Per resource: time the latest unsubscribe command was delivered, or -1. */
  private readonly closeBeganMs: Float64Array;
  /** Per resource: subscribed per the workload (subscribe delivered, no unsubscribe since). */
  private readonly tracked: Uint8Array;
  /** Per resource: pending changes [timeMs, version] waiting to be reflected. */
  private readonly pending: number[][];
  private readonly notified: Set<number>[];
  /** Per resource: truth revoked for its subject, so it leaves the convergence metric. */
  private readonly convergenceOff: Uint8Array;
  /** Per resource: the truth version now (the latest change), for the freshness of served content. */
  private readonly truthVersion: Int32Array;
  /** Per resource, acceptedDigestSlots slots: digests of recent accepts and their truth versions; head = next slot. */
  private readonly acceptedDigests: string[];
  private readonly acceptedDigestVersions: Int32Array;
  private readonly acceptedDigestHead: Uint8Array;

  constructor(uris: readonly string[], edgeCount: number) {
    this.uris = uris;
    uris.forEach((uri, index) => this.indexByUri.set(uri, index));
    this.acceptedVersion = new Int32Array(uris.length).fill(-1);
    this.closeBeganMs = new Float64Array(uris.length).fill(-1);
    this.tracked = new Uint8Array(uris.length);
    this.pending = uris.map(() => []);
    this.notified = uris.map(() => new Set<number>());
    this.edgeHits = new Int32Array(edgeCount);
    this.convergenceOff = new Uint8Array(uris.length);
    this.content = new ContentRegistry(uris);
    this.truthVersion = new Int32Array(uris.length).fill(1);
    this.acceptedDigests = new Array<string>(uris.length * acceptedDigestSlots).fill('');
    this.acceptedDigestVersions = new Int32Array(uris.length * acceptedDigestSlots).fill(-1);
    this.acceptedDigestHead = new Uint8Array(uris.length);
    this.catalog = new CatalogChecker(this, uris.length);
    this.revocation = new RevocationChecker(this, uris);
    this.crash = new CrashChecker(this, uris.length);
    this.era2026Watch = new WatchChecker(this);
  }

  /** The resource index of a URI as the client named it (any spelling), or -1. */
  resourceOf(uri: string): number {
    const direct = this.indexByUri.get(uri);
    if (direct !== undefined) return direct;
    const canonical = canonicalizeUri(uri);
    if (!canonical.ok) return -1;
    return this.indexByUri.get(canonical.uri) ?? -1;
  }

  /** Ground truth of a content text, for timelines: `uri vN`, or '' when the server never served it. */
  describeContent(text: string): string {
    return this.content.describe(text);
  }

  /** The server produced `text` (its content convention, see actors/server.ts) for `resource` at `version`. */
  registerContent(text: string, resource: number, version: number): void {
    this.content.register(text, resource, version);
  }

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
        this.onSubscribeCommand(event.resource);
        break;
      case 'unsubscribed':
        this.onUnsubscribeCommand(event.resource, event.timeMs);
        break;
      case 'notified':
        this.onNotificationDelivered(event.resource, event.version, event.current);
        break;
      case 'revoked':
        this.onRevoked(event.resource, event.subject, event.timeMs);
        break;
      case 'learned':
        this.revocation.onLearned(event.resource, event.subject, event.timeMs);
        break;
      case 'pass-completed':
        this.catalog.onPassCompleted(event.pass, event.proof, event.startMs);
        break;
      case 'crashed':
        this.onCrash(event.timeMs);
        break;
      case 'era2026':
        this.era2026Watch.onEra(event.generation);
        break;
      case 'listen-acked':
        this.era2026Watch.onAcked(event.generation, event.listenId, event.resource);
        break;
      case 'listen-ended':
        this.era2026Watch.onEnded(event.listenId);
        break;
    }
  }

  onSubscribeCommand(resource: number): void {
    this.tracked[resource] = 1;
  }

  onUnsubscribeCommand(resource: number, timeMs: number): void {
    this.tracked[resource] = 0;
    this.closeBeganMs[resource] = timeMs;
    // Not continuously subscribed any more: its pending changes leave the convergence metric.
    this.dropPending(resource);
  }

  private dropPending(resource: number): void {
    this.changesTracked -= this.pending[resource]!.length / 2;
    this.pending[resource]!.length = 0;
  }

  /** A change (edit, delete or re-create) happened to the truth; `exists` is the resource's existence after it. */
  onChange(resource: number, version: number, timeMs: number, exists = true): void {
    this.catalog.onExistence(resource, exists, timeMs);
    this.truthVersion[resource] = version;
    if (this.tracked[resource] === 1 && this.convergenceOff[resource] === 0) {
      this.pending[resource]!.push(timeMs, version);
      this.changesTracked++;
    }
  }

  onNotificationDelivered(resource: number, version: number, current: boolean): void {
    if (!current || resource < 0) return;
    const seen = this.notified[resource]!;
    if (!seen.has(version)) {
      seen.add(version);
      this.notifiedChanges++;
    }
  }

  /** Truth: `subject` (index into `subjects`) lost access to `resource`. It can no longer converge. */
  onRevoked(resource: number, subject: number, timeMs: number): void {
    this.revocation.onRevoked(resource, subject, timeMs, this.tracked[resource] === 1);
    this.convergenceOff[resource] = 1;
    this.dropPending(resource);
  }

  /** The client crashed and restarted at `timeMs`. */
  onCrash(timeMs: number): void {
    this.crash.onCrash(timeMs);
  }

  get crashes(): number {
    return this.crash.crashes;
  }

  violate(invariant: InvariantName, timeMs: number, uri: string, detail: string): void {
    this.counts[invariantIndex[invariant]]! += 1;
    if (this.violations.length < 16) this.violations.push({ invariant, timeMs, uri, detail });
  }

  /** True when this step answers a request issued before the subscription's latest close began. */
  private closedSince(resource: number, truth: StepTruth): boolean {
    const closeMs = this.closeBeganMs[resource]!;
    if (this.tracked[resource] === 0) return true;
    return truth.requestSentAtMs >= 0 && closeMs >= 0 && truth.requestSentAtMs <= closeMs;
  }

  private sessionEnded(truth: StepTruth): boolean {
    return truth.requestSession >= 0 && truth.requestSession !== truth.currentSession;
  }

  judge(effects: readonly ClientEffect[], truth: StepTruth): void {
    const checks = this.checks;
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      const checked = checksOf(effect);
      for (let at = 0; at < checked.length; at++) checks[checked[at]!]! += 1;
      switch (effect.type) {
        case 'StalenessBoundPublished':
          if (effect.mode === 'subscription') this.era2026Watch.judgeClaim(effect.uri, truth.currentSession, truth.timeMs);
          break;
        case 'ListenCancelled':
          this.era2026Watch.onEnded(effect.requestId);
          break;
        case 'RequestSent':
          if (effect.method !== 'resources/read') break;
          this.totalReads++;
          if (truth.cause === causeNotification) this.notificationReads++;
          else if (truth.cause === causeOldNotification) {
            this.violate('old_session_effect', truth.timeMs, effect.uri, `read of ${effect.uri} issued because of an old session's notification`);
          }
          break;
        case 'VersionAccepted':
          this.judgeAccept(effect.uri, effect.text, effect.digest, truth);
          this.crash.judgeAccepted(effect.uri, effect.readOrdinal, truth.requestSentAtMs, truth.timeMs);
          break;
        case 'TombstonePending':
          this.judgeTombstone(effect.uri, truth);
          this.crash.judgeAccepted(effect.uri, effect.readOrdinal, truth.requestSentAtMs, truth.timeMs);
          break;
        case 'TombstoneConfirmed':
          this.catalog.judgeDeletion(effect.uri, truth.timeMs, 'deletion confirmed');
          break;
        case 'OutboxEntryWritten':
          // Invalidations (revocation purges) must be written whatever the subscription's state.
          if (effect.operation !== 'invalidate') this.judgeOutbox(effect.uri, truth);
          if (effect.operation === 'delete') this.catalog.judgeDeletion(effect.uri, truth.timeMs, 'outbox delete entry');
          this.revocation.judgeOutbox(effect);
          break;
        case 'DerivedEntryWritten':
          this.revocation.judgeDerived(effect.entryId, effect.uri, effect.subject);
          break;
        case 'ContentServed':
          this.revocation.judgeServed(effect.uri, effect.subject, truth.timeMs);
          this.judgeFreshness(effect.uri, effect.digest);
          break;
        case 'ContentRefused':
          this.revocation.refused++;
          break;
        case 'PurgeDone':
          this.revocation.judgePurge(effect.uri, effect.subject, truth.timeMs);
          break;
        case 'CatalogPublished':
          this.catalog.judgePublished(effect, truth.timeMs);
          break;
        case 'CompletenessTaskDecided':
          this.catalog.judgeTask(effect, truth.timeMs);
          break;
        case 'StaleReceiptWritten':
          this.staleReceipts++;
          break;
        case 'AuditWritten':
          this.audits++;
          break;
        case 'ProtocolRejected':
          this.rejections++;
          break;
        default:
          break;
      }
    }
  }

  private judgeAccept(uri: string, text: string, digest: string, truth: StepTruth): void {
    this.accepts++;
    const resource = this.resourceOf(uri);
    const content = this.content.truthOf(text);
    if (content === undefined || resource !== content.resource) {
      const really = content === undefined ? 'content the server never served' : `content of ${this.uris[content.resource]} v${content.version}`;
      this.violate('uri_confusion', truth.timeMs, uri, `accepted ${really} as ${uri}`);
      return;
    }
    if (truth.cause === causeOldNotification) {
      this.violate('old_session_effect', truth.timeMs, uri, `accepted v${content.version} because of an old session's notification`);
    }
    if (this.closedSince(resource, truth)) {
      this.violate('accept_when_not_active', truth.timeMs, uri, `accepted v${content.version} after its subscription began closing`);
    } else if (this.sessionEnded(truth)) {
      this.violate('accept_when_not_active', truth.timeMs, uri, `accepted v${content.version} from a read of session ${truth.requestSession} after it ended (now session ${truth.currentSession})`);
    }
    this.rememberDigest(resource, digest, content.version);
    this.raiseAccepted(resource, content.version, uri, truth.timeMs);
  }

  /** Dates accepted content by the digest the client will serve it under (no allocation: a fixed ring). */
  private rememberDigest(resource: number, digest: string, version: number): void {
    const base = resource * acceptedDigestSlots;
    const head = this.acceptedDigestHead[resource]!;
    const newest = base + ((head + acceptedDigestSlots - 1) % acceptedDigestSlots);
    if (this.acceptedDigests[newest] === digest) return;
    this.acceptedDigests[base + head] = digest;
    this.acceptedDigestVersions[base + head] = version;
    this.acceptedDigestHead[resource] = (head + 1) % acceptedDigestSlots;
  }

  /** Served content is stale when its truth version is below the resource's truth now (undatable counts as stale). */
  private judgeFreshness(uri: string, digest: string): void {
    const resource = this.resourceOf(uri);
    if (resource < 0) return;
    const base = resource * acceptedDigestSlots;
    let version = -1;
    for (let slot = 0; slot < acceptedDigestSlots; slot++) {
      if (this.acceptedDigests[base + slot] === digest) version = Math.max(version, this.acceptedDigestVersions[base + slot]!);
    }
    if (version < this.truthVersion[resource]!) this.staleServes++;
  }

  private judgeTombstone(uri: string, truth: StepTruth): void {
    const resource = this.resourceOf(uri);
    if (resource < 0) {
      this.violate('uri_confusion', truth.timeMs, uri, `tombstoned ${uri}, which the server never had`);
      return;
    }
    if (truth.servedResource !== resource || truth.servedExists) {
      this.violate('late_tombstone', truth.timeMs, uri, `tombstoned ${uri} without a not-found for it in this step`);
      return;
    }
    if (this.closedSince(resource, truth)) {
      this.violate('late_tombstone', truth.timeMs, uri, `tombstoned ${uri} from a not-found that arrived after close`);
      this.violate('accept_when_not_active', truth.timeMs, uri, `tombstone for ${uri} after its subscription began closing`);
    } else if (this.acceptedVersion[resource]! > truth.servedVersion) {
      this.violate('late_tombstone', truth.timeMs, uri, `tombstoned ${uri} from a not-found at v${truth.servedVersion}, older than accepted v${this.acceptedVersion[resource]}`);
    } else if (this.sessionEnded(truth)) {
      this.violate('accept_when_not_active', truth.timeMs, uri, `tombstone from a read of ended session ${truth.requestSession}`);
    }
    if (truth.servedVersion >= this.acceptedVersion[resource]!) this.raiseAccepted(resource, truth.servedVersion, uri, truth.timeMs); // older: already late_tombstone
  }

  private judgeOutbox(uri: string, truth: StepTruth): void {
    const resource = this.resourceOf(uri);
    if (resource < 0) return;
    if (truth.cause === causeOldNotification) {
      this.violate('old_session_effect', truth.timeMs, uri, `outbox entry for ${uri} caused by an old session's notification`);
    }
    if (this.closedSince(resource, truth)) {
      this.violate('post_close_outbox', truth.timeMs, uri, `outbox entry for ${uri} after its subscription began closing`);
    }
  }

  private raiseAccepted(resource: number, version: number, uri: string, timeMs: number): void {
    const previous = this.acceptedVersion[resource]!;
    if (version < previous) {
      this.violate('version_regression', timeMs, uri, `accepted v${version} after v${previous}`);
      return;
    }
    this.acceptedVersion[resource] = version;
    const pending = this.pending[resource]!;
    if (pending.length === 0) return;
    let kept = 0;
    for (let index = 0; index < pending.length; index += 2) {
      const changedAtMs = pending[index]!;
      const changedVersion = pending[index + 1]!;
      if (changedVersion <= version) {
        this.convergenceLatenciesMs.push(timeMs - changedAtMs);
        if (timeMs - changedAtMs <= convergenceWindowMs) this.changesConverged++;
        else this.violate('convergence_60s', changedAtMs + convergenceWindowMs, uri, `v${changedVersion} (changed at ${changedAtMs} ms) accepted only at ${timeMs} ms`);
      } else {
        pending[kept++] = changedAtMs;
        pending[kept++] = changedVersion;
      }
    }
    pending.length = kept;
  }

  /** End of the run: every change whose window has passed and was never reflected is a liveness failure. */
  finish(endMs: number): void {
    this.finishConvergence(endMs);
    this.checks[invariantIndex.convergence_60s] = this.changesTracked;
  }

  private finishConvergence(endMs: number): void {
    this.revocation.finish(endMs);
    for (let resource = 0; resource < this.pending.length; resource++) {
      const pending = this.pending[resource]!;
      for (let index = 0; index < pending.length; index += 2) {
        const changedAtMs = pending[index]!;
        if (changedAtMs + convergenceWindowMs <= endMs) {
          this.violate('convergence_60s', changedAtMs + convergenceWindowMs, this.uris[resource]!, `v${pending[index + 1]} (changed at ${changedAtMs} ms) never reflected`);
          this.convergenceLatenciesMs.push(endMs - changedAtMs);
        } else {
          this.changesTracked--; // not enough time left to judge
        }
      }
    }
  }

  recordEdge(edgeIndex: number): void {
    if (edgeIndex >= 0) this.edgeHits[edgeIndex]! += 1;
  }
}
