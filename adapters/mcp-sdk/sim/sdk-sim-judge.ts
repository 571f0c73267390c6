/**
 * The client side of the SDK world: every step of the client under test (as the fenced cache reports it)
 * is judged by the simulator's `Oracle` with the ground truth the pure world would give it.
 *
 * Causes follow the pure world's rules: a request carries the cause of the step that sent it and its
 * response inherits it; a timer carries the cause of the step that armed it; a notification is
 * `causeNotification` on the current session and `causeOldNotification` on an ended one; workload commands
 * come with the cause the workload gave. Ground truth that travels with a message (which resource and
 * version a response or notification really was) is recorded off the wire: responses by the client's
 * request id (the server side fills it in), notifications in delivery order per session.
 */
import type { ClientEffect, ClientInput } from '../../../core/types.js';
import { interpretEffects, timerKeyOf, type EffectPort, type RequestEffect, type TimerEffect } from '../../../sim/kernel/effects.js';
import type { NotificationMessage, ResponseMessage } from '../../../sim/kernel/events.js';
import { causeConnection, causeListChanged, causeNotification, causeOldNotification, causeWorkload, type Oracle, type StepTruth } from '../../../sim/oracle.js';
import type { Timeline } from '../../../sim/timeline.js';
import { fillStepTruth, learnFromResponse, newStepTruth } from '../../../sim/kernel/step-truth.js';
import { subscriptionIdMetaKey } from '../../../core/era.js';

export interface RequestRecord {
  cause: number;
  sentAtMs: number;
  /** What the server really answered (set when it serves the request). */
  response: ResponseMessage | null;
}

/** What the world says about the moment of a step. */
export interface StepContext {
  nowMs: number;
  /** The server model's current session generation, and whether it is alive. */
  sessionGeneration: number;
  sessionAlive: boolean;
  /** The cause the workload gave its command (used for command inputs). */
  commandCause: number;
  /** World generation = the client's generation + this (a client restarted from scratch numbers anew). */
  generationOffset: number;
}

export class StepJudge implements EffectPort {
  steps = 0;
  /**
   * The client end may drop a delivered update without surfacing it (the SDK v2 Client does during its era
   * negotiation): the next update it surfaces is matched past the dropped ones, which are discarded (never
   * observed as notified). Off (SDK 1.x): every delivered update must surface, in order.
   */
  dropsUnsurfaced = false;
  private readonly requests = new Map<unknown, RequestRecord>();
  private readonly timerCauses = new Map<string, number>();
  /** Per session generation: notifications handed to its client end and not yet stepped, in order. */
  private readonly notificationsInFlight: NotificationMessage[][] = [];
  private readonly truth: StepTruth = newStepTruth();
  /** The time of the step being judged (for the effect port). */
  private nowMs = 0;

  constructor(
    private readonly oracle: Oracle,
    private readonly timeline: Timeline | null,
  ) {}

  /** The client's record of request `requestId` (cause, send time), for the server side. */
  requestRecord(requestId: unknown): RequestRecord | undefined {
    return this.requests.get(requestId);
  }

  /** A notification reached the client end of session `generation` (its handler runs in this order). */
  notificationDelivered(generation: number, truth: NotificationMessage): void {
    (this.notificationsInFlight[generation] ??= []).push(truth);
  }

  /** Judges one step; returns the cause it was attributed to. */
  judge(input: ClientInput, effects: readonly ClientEffect[], context: StepContext): number {
    this.steps++;
    const oracle = this.oracle;
    const violationsBefore = oracle.violations.length;
    const offset = context.generationOffset;
    const current = (generation: number): boolean => context.sessionAlive && generation + offset === context.sessionGeneration;
    let cause = causeConnection;
    let response: ResponseMessage | null = null;
    switch (input.type) {
      case 'ResponseArrived': {
        const record = this.requests.get(input.requestId);
        cause = record?.cause ?? causeWorkload;
        response = record?.response ?? null;
        if (response !== null && current(input.sessionGeneration)) learnFromResponse(oracle, this.timeline, response, context.nowMs, cause);
        break;
      }
      case 'NotificationArrived':
        cause = this.notificationArrived(input, input.sessionGeneration + offset, current(input.sessionGeneration));
        break;
      case 'TimerFired':
        cause = this.timerCauses.get(timerKeyOf(input)) ?? causeWorkload;
        break;
      case 'Connected':
        if (input.sessionGeneration + offset !== context.sessionGeneration) {
          throw new Error(`SDK world: Connected for session ${input.sessionGeneration} (+${offset}), the server model is at ${context.sessionGeneration}`);
        }
        break;
      case 'Disconnected':
        break;
      default:
        cause = context.commandCause;
        break;
    }
    this.timeline?.input(context.nowMs, input, response, context.sessionGeneration);
    oracle.judge(effects, fillStepTruth(this.truth, context.nowMs, cause, context.sessionGeneration, response));
    this.nowMs = context.nowMs;
    interpretEffects(effects, cause, oracle, this);
    this.timeline?.effects(context.nowMs, effects, oracle, violationsBefore);
    return cause;
  }

  private notificationArrived(input: Extract<ClientInput, { type: 'NotificationArrived' }>, generation: number, current: boolean): number {
    const truth = takeDelivered(this.notificationsInFlight[generation], input, this.dropsUnsurfaced);
    const uri = (input.params as { uri?: unknown } | undefined)?.uri;
    if (truth === undefined || (truth.listChanged ? input.method !== 'notifications/resources/list_changed' : !isListenControl(truth) && uri !== truth.uri)) {
      const expected = truth === undefined ? 'none' : truth.listChanged ? 'list_changed' : truth.uri;
      throw new Error(`SDK world: ${String(input.method)} ${String(uri)} on session ${input.sessionGeneration} does not match the next notification delivered (${expected})`);
    }
    if (truth.listChanged) {
      if (current) this.oracle.observe({ kind: 'list-changed', timeMs: input.nowMs });
      return current ? causeListChanged : causeOldNotification;
    }
    // A 2026 ack (or remote cancel) answers the listen: it keeps the cause of the step that sent it (as the pure world does).
    if (isListenControl(truth)) return current ? (this.requests.get(listenIdOf(input))?.cause ?? causeNotification) : causeOldNotification;
    this.oracle.observe({ kind: 'notified', resource: truth.resource, version: truth.version, current });
    return current ? causeNotification : causeOldNotification;
  }

  request(effect: RequestEffect, cause: number): void {
    this.requests.set(effect.requestId, { cause, sentAtMs: this.oracle.stamp(this.nowMs), response: null });
  }

  timer(effect: TimerEffect, cause: number): void {
    this.timerCauses.set(timerKeyOf(effect), cause);
  }
}

/** A 2026-07-28 ack or cancel: the SDK v2 Client consumes these and its binding reports them (maybe later). */
function isListenControl(truth: NotificationMessage): boolean {
  return truth.listen !== undefined && truth.listen.method !== 'notifications/resources/updated';
}

/** The core's listen id a control notification names (ack: `_meta` subscription id; cancel: `requestId`). */
function listenIdOf(input: Extract<ClientInput, { type: 'NotificationArrived' }>): unknown {
  const params = (input.params ?? {}) as { requestId?: unknown; _meta?: Record<string, unknown> };
  return input.method === 'notifications/cancelled' ? params.requestId : params._meta?.[subscriptionIdMetaKey];
}

/**
 * The delivered notification a step reports, taken from the session's queue. Updates and list_changed are
 * handed to the client in delivery order (the first one that is not a listen control message). A listen
 * control message is matched by method and listen id wherever it is: the SDK v2 Client consumes acks and
 * cancels itself (a duplicate never surfaces) and its binding reports them a few promise jobs later.
 */
function takeDelivered(queue: NotificationMessage[] | undefined, input: Extract<ClientInput, { type: 'NotificationArrived' }>, dropsUnsurfaced: boolean): NotificationMessage | undefined {
  if (queue === undefined) return undefined;
  const control = input.method === 'notifications/subscriptions/acknowledged' || input.method === 'notifications/cancelled';
  const id = control ? listenIdOf(input) : undefined;
  const uri = (input.params as { uri?: unknown } | undefined)?.uri;
  let first = -1;
  for (let index = 0; index < queue.length; index++) {
    const truth = queue[index]!;
    if (isListenControl(truth) !== control) continue;
    if (control && (truth.listen!.method !== input.method || truth.listen!.subscriptionId !== id)) continue;
    if (first < 0) first = index;
    const matches = control || (truth.listChanged ? input.method === 'notifications/resources/list_changed' : input.method !== 'notifications/resources/list_changed' && truth.uri === uri);
    if (!matches && !dropsUnsurfaced) break;
    if (!matches) continue;
    // Updates before this one that never surfaced were dropped by the client end.
    if (!control) for (let dropped = index - 1; dropped >= first; dropped--) if (!isListenControl(queue[dropped]!)) queue.splice(dropped, 1);
    queue.splice(control ? index : queue.indexOf(truth), 1);
    return truth;
  }
  if (first >= 0 && !control) return queue.splice(first, 1)[0]; // a mismatch: the caller reports it
  return undefined;
}
