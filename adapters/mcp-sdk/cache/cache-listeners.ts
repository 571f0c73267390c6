/** The fenced cache's listeners (onEffect, onInput, onStep): a listener that throws is counted, never propagated. */
import type { CacheDiagnostics, EffectListener, EffectMeta, InputListener, StepListener } from './cache-types.js';
import type { ClientEffect } from '../../../core/types.js';

export class CacheListeners {
  readonly effect: EffectListener[] = [];
  readonly input: InputListener[] = [];
  readonly step: StepListener[] = [];

  constructor(private readonly diagnostics: CacheDiagnostics) {}

  /** Runs `call`; a throw counts in `listenerErrors`. */
  call(call: () => void): void {
    try {
      call();
    } catch {
      this.diagnostics.listenerErrors++;
    }
  }

  /** Every effect listener, for one effect. */
  callEffect(effect: ClientEffect, meta: EffectMeta): void {
    for (const listener of this.effect) this.call(() => listener(effect, meta));
  }
}

/** Adds `listener` to `list`; returns its unsubscribe. */
export function addListener<T>(list: T[], listener: T): () => void {
  list.push(listener);
  return () => {
    const index = list.indexOf(listener);
    if (index >= 0) list.splice(index, 1);
  };
}
