/**
 * Availability (SPEC §3.3, §3.5, §3.8; issue 10): `refused_fresh`. A cache that refuses everything is safe
 * and useless; every other serving checker passes a client that never serves. This one fails a serve command
 * the client answered with a refusal (or with nothing at all) although, by ground truth and its own declared
 * configuration, no reason to refuse existed. Judged only from the truth and the client's effects.
 *
 * A serve of resource R to subject S at time t must be answered with content when all of these hold:
 * - S is the subject the application reads R as (the serve is for the subject the content was read for);
 *   the truth never revoked S's access to R; the connection is up;
 * - R is wanted (subscribed and not given up) and the client accepted, after that subscribe, content whose
 *   truth version is R's current truth version (no change, delete or re-create since), from a read sent and
 *   answered on the current session; no client crash since that read was sent;
 * - no `updated` of R reached the client after that read was sent (a client may stop serving while it
 *   re-reads), and no read sent after it was answered not-found (a pending deletion may be refused);
 * - t is within the first half of the shorter of its authorization lease and its published staleness bound,
 *   counted from when that read was sent (the reference revalidates after three quarters of the lease; the
 *   half leaves room for any client that revalidates early, and for polling's shorter bound).
 * On a 2026-07-28 connection R must also be watched, with no watch gap since that read, and t must also be
 * within the first half of the read's TTL from receipt (availability-era2026.ts).
 * Each serve that had to be answered is one check ("checked N"); a refusal of one is a violation.
 *
 * A serve is settled by the step that judges its command. The module observer (adapters/mcp-sdk/module)
 * judges what a serve changed (an accept, a purge) before the serve itself: a step whose effects name the
 * served URI without serving or refusing it leaves the serve pending for the next step.
 */
import type { ClientEffect } from '../../core/types.js';
import { defaultClientConfig } from '../../core/types.js';
import { subjects } from '../actors/server.js';
import { Era2026Availability } from './availability-era2026.js';
import type { WatchChecker } from './era2026-watch.js';
import type { ViolationSink } from './sink.js';
import type { StepTruth } from './step-truth.js';
import type { TruthEvent } from '../kernel/truth.js';

export interface AvailabilitySink extends ViolationSink {
  resourceOf(uri: string): number;
  checked(invariant: 'refused_fresh' | 'answer_unrecorded'): void;
  /** A time that also orders events within one virtual ms (oracle.ts); this step's requests are stamped after the step is judged. */
  stamp(timeMs: number): number;
}

/** A serve command the world is about to hand the client (truth event 'serve', kernel/truth.ts). */
export type ServeTruth = Extract<TruthEvent, { kind: 'serve' }>;

const none = -1;
const subjectCount = subjects.length;

export class AvailabilityChecker {
  /** Serves that had to be answered with content, and those refused. */
  servesJudged = 0;
  refusals = 0;
  /** Of those, the serves judged on a 2026-07-28 connection. */
  servesJudgedEra2026 = 0;
  private readonly truthVersion: Int32Array;
  private readonly exists: Uint8Array;
  private readonly wantedSinceMs: Float64Array;
  private readonly acceptedVersion: Int32Array;
  private readonly acceptedAtMs: Float64Array;
  private readonly acceptedReadSentAtMs: Float64Array;
  private readonly acceptedSession: Float64Array;
  private readonly notifiedAtMs: Float64Array;
  private readonly notFoundReadSentAtMs: Float64Array;
  private readonly revoked: Uint8Array;
  /** What 2026-07-28 connections add (watch, watch gaps, TTL). */
  readonly era2026: Era2026Availability;
  private crashedAtMs = none;
  /** A notification observed, to be dated by the step that delivers it. */
  private notifiedResource = none;
  /** The serve command waiting for its step (resource, or none), and whether it must be served. */
  pendingResource = none;
  private pendingSubject = '';
  private pendingMust = false;
  private pendingDetail = '';
  private pendingTimeMs = 0;
  /**
   * Step clients (the world tells): a serve command is answered in its own step by a ContentServed or a
   * ContentRefused of that URI and subject; silence leaves the application without an answer (`answer_unrecorded`).
   */
  answersRequired = false;

  constructor(
    private readonly sink: AvailabilitySink,
    private readonly uris: readonly string[],
    watch: WatchChecker,
    private readonly leaseMs = defaultClientConfig.authorizationLeaseMs,
  ) {
    const count = uris.length;
    this.truthVersion = new Int32Array(count).fill(1);
    this.exists = new Uint8Array(count).fill(1);
    this.wantedSinceMs = new Float64Array(count).fill(none);
    this.acceptedVersion = new Int32Array(count).fill(none);
    this.acceptedAtMs = new Float64Array(count).fill(none);
    this.acceptedReadSentAtMs = new Float64Array(count).fill(none);
    this.acceptedSession = new Float64Array(count).fill(none);
    this.notifiedAtMs = new Float64Array(count).fill(none);
    this.notFoundReadSentAtMs = new Float64Array(count).fill(none);
    this.revoked = new Uint8Array(count * subjectCount);
    this.era2026 = new Era2026Availability(watch, count);
  }

  onChanged(resource: number, version: number, exists: boolean): void {
    this.truthVersion[resource] = version;
    this.exists[resource] = exists ? 1 : 0;
  }

  onSubscribed(resource: number, timeMs: number): void {
    this.wantedSinceMs[resource] = timeMs;
  }

  onUnsubscribed(resource: number): void {
    this.wantedSinceMs[resource] = none;
  }

  onRevoked(resource: number, subject: number): void {
    this.revoked[resource * subjectCount + subject] = 1;
  }

  onCrash(timeMs: number): void {
    this.crashedAtMs = timeMs;
  }

  /** An `updated` of `resource` reached the client on the current session; dated by the step that delivers it. */
  onNotified(resource: number): void {
    this.notifiedResource = resource;
  }

  /**
   * The client accepted content of `resource` whose truth version is `version` (-1: not the server's content
   * of it); `ttlMs`: the TTL its read's response really carried on a 2026-07-28 connection (-1: none).
   */
  onAccepted(resource: number, version: number, truth: StepTruth, ttlMs = none): void {
    this.era2026.onAccepted(resource, ttlMs, truth.timeMs);
    this.acceptedVersion[resource] = version;
    this.acceptedAtMs[resource] = truth.timeMs;
    const answered = truth.servedResource === resource && truth.requestSession === truth.currentSession;
    this.acceptedReadSentAtMs[resource] = answered ? truth.requestSentAtMs : none;
    this.acceptedSession[resource] = truth.currentSession;
  }

  /** The client gave the resource up as deleted (pending or confirmed): refusing it is its right until it accepts again. */
  onTombstoned(resource: number): void {
    this.acceptedVersion[resource] = none;
  }

  /** A current-session answer: remember a not-found of a read. */
  onAnswer(truth: StepTruth): void {
    const resource = truth.servedResource;
    if (truth.servedExists || truth.requestSentAtMs < 0 || truth.requestSession !== truth.currentSession) return;
    if (truth.requestSentAtMs > this.notFoundReadSentAtMs[resource]!) this.notFoundReadSentAtMs[resource] = truth.requestSentAtMs;
  }

  /** The world is about to hand the client a serve command (`boundMs`: the staleness bound the client published for it). */
  onServe(serve: ServeTruth, boundMs: number): void {
    const { session: currentSession, timeMs } = serve;
    if (this.pendingResource !== none) this.settle(null);
    const resource = serve.resource;
    this.pendingResource = resource;
    this.pendingSubject = subjects[serve.subject]!;
    this.pendingTimeMs = timeMs;
    this.pendingMust = serve.own && serve.connected && this.mustServe(resource, serve.subject, currentSession, timeMs, boundMs);
    if (!this.pendingMust) return;
    this.servesJudged++;
    if (this.era2026.isEra(currentSession)) this.servesJudgedEra2026++;
    this.sink.checked('refused_fresh');
  }

  /** After a client step was judged: date a delivered notification, settle a pending serve. */
  afterStep(effects: readonly ClientEffect[], truth: StepTruth): void {
    this.era2026.afterStep(truth.timeMs, this.sink);
    if (this.notifiedResource !== none) {
      // Stamped (oracle.stamp) before the requests of this step are, after those of earlier steps.
      this.notifiedAtMs[this.notifiedResource] = this.sink.stamp(truth.timeMs);
      this.notifiedResource = none;
    }
    if (this.pendingResource === none) return;
    if (this.answersRequired) this.sink.checked('answer_unrecorded');
    let namesUri = false;
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index]!;
      if (!('uri' in effect) || this.sink.resourceOf(effect.uri) !== this.pendingResource) continue;
      if (effect.type === 'ContentServed' && effect.subject === this.pendingSubject) return this.clear();
      if (effect.type === 'ContentRefused' && effect.subject === this.pendingSubject) return this.settle(effect.reason);
      namesUri = true;
    }
    if (this.answersRequired) {
      const uri = this.uris[this.pendingResource]!;
      this.sink.violate('answer_unrecorded', truth.timeMs, uri, `asked to serve ${uri} to ${this.pendingSubject}, the client's step answered with neither ContentServed nor ContentRefused`);
      return this.settle(null);
    }
    if (!namesUri) this.settle(null);
  }

  /** The pending serve was refused (`reason`) or answered with nothing (null). */
  private settle(reason: string | null): void {
    if (this.pendingMust) {
      const resource = this.pendingResource;
      const uri = this.uris[resource]!;
      this.refusals++;
      const answer = reason === null ? 'served nothing' : `refused it ("${reason}")`;
      this.sink.violate('refused_fresh', this.pendingTimeMs, uri, `asked to serve ${uri} to ${this.pendingSubject}, the client ${answer}: ${this.pendingDetail}`);
    }
    this.clear();
  }

  private clear(): void {
    this.pendingResource = none;
    this.pendingMust = false;
  }

  private mustServe(resource: number, subject: number, currentSession: number, timeMs: number, boundMs: number): boolean {
    if (this.revoked[resource * subjectCount + subject] === 1) return false;
    const wantedSinceMs = this.wantedSinceMs[resource]!;
    const version = this.acceptedVersion[resource]!;
    const readSentAtMs = this.acceptedReadSentAtMs[resource]!;
    if (wantedSinceMs === none || version === none || readSentAtMs === none) return false;
    if (this.acceptedAtMs[resource]! < wantedSinceMs || this.acceptedSession[resource] !== currentSession) return false;
    if (this.exists[resource] === 0 || this.truthVersion[resource] !== version) return false;
    if (this.crashedAtMs >= readSentAtMs || this.notifiedAtMs[resource]! >= readSentAtMs || this.notFoundReadSentAtMs[resource]! >= readSentAtMs) return false;
    let windowEndMs = readSentAtMs + Math.min(this.leaseMs, boundMs) / 2;
    const era2026 = this.era2026.isEra(currentSession);
    if (era2026) {
      const ttlEndMs = this.era2026.windowEndMs(resource, currentSession, readSentAtMs);
      if (ttlEndMs === none) return false;
      windowEndMs = Math.min(windowEndMs, ttlEndMs);
    }
    if (timeMs >= windowEndMs) return false;
    const within = era2026 ? 'half its TTL from receipt, lease and staleness bound' : 'half its lease and staleness bound';
    const since = era2026 ? 'update, not-found, crash, watch gap or connection change' : 'update, not-found, crash or session change';
    this.pendingDetail = `its content v${version} (accepted at ${this.acceptedAtMs[resource]} ms from a read sent at ${Math.floor(readSentAtMs)} ms) is current, authorized, ${era2026 ? 'watched, ' : ''}and within ${within} (until ${Math.floor(windowEndMs)} ms); no ${since} since`;
    return true;
  }
}
