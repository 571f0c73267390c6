/**
 * Naive 2026-07-28 clients: the reference core with one rule of the listen era broken, so each is caught
 * by exactly the invariant that rule protects.
 * - naive-2026-no-ack-wait never re-reads after the ack: it starts the watch when it sends the listen,
 *   claims the URI watched and does its one re-read before the server even holds the listen, so changes
 *   between that read and the ack are never reported (phantom_watch).
 * - naive-2026-wait-forever waits forever on a broken stream: it has no read deadline, so a read lost on a
 *   broken response stream is never re-issued, and without a notification to prompt another read it
 *   waits forever (convergence_60s).
 * - naive-2026-trusts-any-id trusts every `updated` whatever its subscription id: it takes any updated of
 *   a URI as coming from that URI's listen, and as proof that the listen is established, so a notification
 *   before the ack (or with another listen's id) starts a watch no ack ever confirmed (phantom_watch).
 * - naive-2026-shared-cache keeps one cache for every subject: whoever asks gets what was read, whatever
 *   its cacheScope (scope_isolation).
 * - naive-2026-empty-cursor-end treats an empty-string nextCursor as the end of the list, so a pass that
 *   stopped halfway counts as complete and a catalog rests on passes the server never finished
 *   (unreconciled_catalog, catalog_untrue).
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
  description: '2026-07-28: waits forever on a broken stream: never re-issues a read lost on it (no read deadline)',
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
  description: '2026-07-28: never re-reads after the ack: treats a listen as acknowledged when it is sent, so its one re-read comes before the ack',
  init: referenceClient.init,
  step: stepAssumingAcks,
  durable: referenceClient.durable!,
  recover: referenceClient.recover!,
};

/** The reference core with a little bookkeeping of its own around it (what the naive rule needs). */
interface Wrapped<B> {
  core: CoreState;
  book: B;
}

function wrapReference<B>(name: string, description: string, emptyBook: () => B, step: (state: Wrapped<B>, input: ClientInput) => StepResult<Wrapped<B>>): ClientUnderTest<Wrapped<B>> {
  return {
    name,
    description,
    init: (config) => ({ core: referenceClient.init(config), book: emptyBook() }),
    step,
    durable: (state) => referenceClient.durable!(state.core),
    recover: (config, durable) => {
      const recovered = referenceClient.recover!(config, durable);
      return { state: { core: recovered.state, book: emptyBook() }, effects: recovered.effects };
    },
  };
}

/** Steps the reference core inside a wrapped state, keeping the book. */
function stepCore<B>(state: Wrapped<B>, input: ClientInput, book: B = state.book): StepResult<Wrapped<B>> {
  const result = referenceClient.step(state.core, input);
  return { state: { core: result.state, book }, effects: result.effects };
}

interface ListenBook {
  /** The latest listen id sent per URI, and whether an ack for it was seen (or assumed). */
  listens: Record<string, { id: number; acked: boolean }>;
}

function uriOfParams(params: unknown): string | undefined {
  const uri = (params as { uri?: unknown } | null)?.uri;
  return typeof uri === 'string' ? uri : undefined;
}

/** Records the listens a step sent, on a copy of the book. */
function bookListens(book: ListenBook, effects: readonly ClientEffect[]): ListenBook {
  let listens = book.listens;
  for (const effect of effects) {
    if (effect.type !== 'RequestSent' || effect.method !== 'subscriptions/listen') continue;
    listens = { ...listens, [effect.uri]: { id: effect.requestId, acked: false } };
  }
  return listens === book.listens ? book : { listens };
}

function stepTrustingAnyId(state: Wrapped<ListenBook>, input: ClientInput): StepResult<Wrapped<ListenBook>> {
  if (input.type !== 'NotificationArrived' || input.method !== 'notifications/resources/updated') {
    const result = stepCore(state, input);
    return { state: { core: result.state.core, book: bookListens(state.book, result.effects) }, effects: result.effects };
  }
  const uri = uriOfParams(input.params);
  const listen = uri === undefined ? undefined : state.book.listens[uri];
  if (uri === undefined || listen === undefined) return stepCore(state, input);
  const effects: ClientEffect[] = [];
  let current = state;
  if (!listen.acked) {
    const ack: ClientInput = { ...input, method: 'notifications/subscriptions/acknowledged', params: { notifications: { resourceSubscriptions: [uri] }, _meta: { [subscriptionIdMetaKey]: listen.id } } };
    const acked = stepCore(current, ack, { listens: { ...current.book.listens, [uri]: { id: listen.id, acked: true } } });
    effects.push(...acked.effects);
    current = acked.state;
  }
  const retagged: ClientInput = { ...input, params: { uri, _meta: { [subscriptionIdMetaKey]: listen.id } } };
  const result = stepCore(current, retagged);
  effects.push(...result.effects);
  return { state: { core: result.state.core, book: bookListens(current.book, result.effects) }, effects };
}

export const naive2026TrustsAnyId = wrapReference<ListenBook>(
  'naive-2026-trusts-any-id',
  "2026-07-28: trusts every updated whatever its subscription id, as its URI's listen and as proof the listen is established",
  () => ({ listens: {} }),
  stepTrustingAnyId,
);

interface SubjectBook {
  /** The subject each URI was subscribed (and so read) as. */
  readAs: Record<string, string>;
}

function stepSharingCache(state: Wrapped<SubjectBook>, input: ClientInput): StepResult<Wrapped<SubjectBook>> {
  if (input.type === 'SubscribeCommanded' && input.subject !== undefined) return stepCore(state, input, { readAs: { ...state.book.readAs, [input.uri]: input.subject } });
  if (input.type !== 'ServeCommanded') return stepCore(state, input);
  const readAs = state.book.readAs[input.uri];
  if (readAs === undefined || readAs === input.subject) return stepCore(state, input);
  const result = stepCore(state, { ...input, subject: readAs });
  // It hands what it found to whoever asked.
  return { state: result.state, effects: result.effects.map((effect) => (effect.type === 'ContentServed' ? { ...effect, subject: input.subject } : effect)) };
}

export const naive2026SharedCache = wrapReference<SubjectBook>(
  'naive-2026-shared-cache',
  '2026-07-28: one cache for every subject: serves whatever was read to whoever asks, whatever its cacheScope',
  () => ({ readAs: {} }),
  stepSharingCache,
);

/** A list page whose nextCursor is '' read as the last page: the cursor is dropped before the core sees it. */
function withoutEmptyCursor(input: ClientInput): ClientInput {
  if (input.type !== 'ResponseArrived' || input.outcome.type !== 'result') return input;
  const result = input.outcome.result as { resources?: unknown; nextCursor?: unknown } | null;
  if (result === null || typeof result !== 'object' || !Array.isArray(result.resources) || result.nextCursor !== '') return input;
  const { nextCursor: _ended, ...page } = result;
  return { ...input, outcome: { type: 'result', result: page } };
}

export const naive2026EmptyCursorEnd: ClientUnderTest<CoreState> = {
  name: 'naive-2026-empty-cursor-end',
  description: "2026-07-28: treats an empty-string nextCursor as the end of the list (pagination.mdx: '' is a cursor)",
  init: referenceClient.init,
  step: (state, input) => referenceClient.step(state, withoutEmptyCursor(input)),
  durable: referenceClient.durable!,
  recover: referenceClient.recover!,
};

export const era2026NaiveClients: readonly ClientUnderTest<any>[] = [naive2026NoAckWait, naive2026WaitForever, naive2026TrustsAnyId, naive2026SharedCache, naive2026EmptyCursorEnd];
