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
        if (response !== null && current(input.sessionGeneration)) learnFromResponse(oracle, this.timeline, response, context.nowMs);
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
    const truth = this.notificationsInFlight[generation]?.shift();
    const uri = (input.params as { uri?: unknown } | undefined)?.uri;
    if (truth === undefined || (truth.listChanged ? input.method !== 'notifications/resources/list_changed' : uri !== truth.uri)) {
      const expected = truth === undefined ? 'none' : truth.listChanged ? 'list_changed' : truth.uri;
      throw new Error(`SDK world: ${String(input.method)} ${String(uri)} on session ${input.sessionGeneration} does not match the next notification delivered (${expected})`);
    }
    if (truth.listChanged) {
      if (current) this.oracle.observe({ kind: 'list-changed', timeMs: input.nowMs });
      return current ? causeListChanged : causeOldNotification;
    }
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
