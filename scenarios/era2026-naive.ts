/**
 * Naive 2026-07-28 clients: the reference core with one rule of the listen era broken, so each is caught
 * by exactly the invariant that rule protects.
 * - naive-2026-no-ack-wait starts the watch when it sends the listen, not at the ack: it claims the URI
 *   watched and does its re-read before the server even holds the listen, so changes between that read
 *   and the ack are never reported (phantom_watch).
 * - naive-2026-wait-forever has no read deadline: a read lost on a broken response stream is never
 *   re-issued, and without a notification to prompt another read it waits forever (convergence_60s).
 */
import { referenceClient } from '../core/reducer.js';
import { subscriptionIdMetaKey } from '../core/era.js';
import type { CoreState } from '../core/state.js';
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest, StepResult } from '../core/types.js';

/** A read deadline no run reaches. */
const foreverMs = Number.MAX_SAFE_INTEGER;

function withoutDeadline(config: ClientConfig): ClientConfig {
  return { ...config, readReissueMs: foreverMs };
}

export const naive2026WaitForever: ClientUnderTest<CoreState> = {
  name: 'naive-2026-wait-forever',
  description: '2026-07-28: never re-issues a read lost on a broken response stream (no read deadline)',
  init: (config) => referenceClient.init(withoutDeadline(config)),
  step: referenceClient.step,
  durable: referenceClient.durable!,
  recover: (config, durable) => referenceClient.recover!(withoutDeadline(config), durable),
};

/** Each listen the step sent is answered at once by the client itself, as if the ack had come. */
function stepAssumingAcks(state: CoreState, input: ClientInput): StepResult<CoreState> {
  let result = referenceClient.step(state, input);
  const effects: ClientEffect[] = [...result.effects];
  for (const effect of result.effects) {
    if (effect.type !== 'RequestSent' || effect.method !== 'subscriptions/listen') continue;
    const ack: ClientInput = {
      type: 'NotificationArrived',
      nowMs: input.nowMs,
      jitter: input.jitter,
      sessionGeneration: effect.sessionGeneration,
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { resourceSubscriptions: [effect.uri] }, _meta: { [subscriptionIdMetaKey]: effect.requestId } },
    };
    result = referenceClient.step(result.state, ack);
    effects.push(...result.effects);
  }
  return { state: result.state, effects };
}

export const naive2026NoAckWait: ClientUnderTest<CoreState> = {
  name: 'naive-2026-no-ack-wait',
  description: '2026-07-28: treats a listen as acknowledged when it is sent, so its re-read comes before the ack',
  init: referenceClient.init,
  step: stepAssumingAcks,
  durable: referenceClient.durable!,
  recover: referenceClient.recover!,
};

export const era2026NaiveClients: readonly ClientUnderTest<CoreState>[] = [naive2026NoAckWait, naive2026WaitForever];
