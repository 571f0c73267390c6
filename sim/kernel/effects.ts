/**
 * The one effect interpreter of the simulator: what a client step's effects mean to the world, whatever
 * carries them. Requests go to the port with the cause of the step that sent them, timers with the
 * cause of the step that armed them (keyed by `timerKeyOf`, re-arming a key replaces its timer), and
 * every `Transitioned` is recorded as an edge of the transition table for coverage.
 */
import { edgeIndexOf } from '../../core/transitions.js';
import { timerName, type ClientEffect, type TimerId } from '../../core/types.js';
import type { Oracle } from '../oracle.js';
import { isEffectType } from '../checkers/effect-shape.js';

export type RequestEffect = Extract<ClientEffect, { type: 'RequestSent' }>;
export type TimerEffect = Extract<ClientEffect, { type: 'TimerArmed' }>;

/** The map key of a timer: the one place that knows how a timer is named. */
export function timerKeyOf(armedOrFired: { timer: TimerId }): string {
  return timerName(armedOrFired.timer);
}

/** Where the interpreter sends what the client asked for. */
export interface EffectPort {
  request(effect: RequestEffect, cause: number): void;
  /** Arms (or re-arms, replacing) the timer `timerKeyOf(effect)`. */
  timer(effect: TimerEffect, cause: number): void;
  /** 2026-07-28: the client cancelled a listen (`notifications/cancelled`). */
  cancelListen?(effect: ListenCancelEffect, cause: number): void;
}

export type ListenCancelEffect = Extract<ClientEffect, { type: 'ListenCancelled' }>;

export function interpretEffects(effects: readonly ClientEffect[], cause: number, oracle: Oracle, port: EffectPort): void {
  for (let index = 0; index < effects.length; index++) {
    const effect = effects[index]!;
    switch (effect.type) {
      case 'RequestSent':
        port.request(effect, cause);
        break;
      case 'TimerArmed':
        port.timer(effect, cause);
        break;
      case 'Transitioned':
        oracle.recordEdge(edgeIndexOf(effect.from, effect.event));
        break;
      case 'ListenCancelled':
        port.cancelListen?.(effect, cause);
        break;
      default:
        break;
    }
  }
}

/**
 * A step's effects must all be of the vocabulary: an effect the harness cannot name cannot be judged or carried
 * out, so it is a broken client contract (like a malformed step result), reported at once with the client's name.
 * The vocabulary is effect_malformed's table (sim/checkers/effect-shape.ts), which then judges the fields of each.
 */
export function assertKnownEffects(client: string, effects: readonly ClientEffect[]): void {
  for (let index = 0; index < effects.length; index++) {
    const effect = effects[index] as { type?: unknown } | null;
    const type = effect !== null && typeof effect === 'object' ? effect.type : undefined;
    if (isEffectType(type)) continue;
    throw new TypeError(`client ${client}: effect ${index} of a step is not of the effect vocabulary (type ${JSON.stringify(type) ?? 'missing'}): ${JSON.stringify(effect)?.slice(0, 200)}`);
  }
}
