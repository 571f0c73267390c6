/**
 * Naive client strategies a user would plausibly write (from the source documents `002_*`), each missing
 * one guard the reference has. They implement the same client-under-test interface; the harness must
 * catch every one of them with a seed that replays.
 *
 * Every naive client serves cached content when asked (whatever it last accepted for the URI) and refuses
 * when it has nothing cached; only the scanning one takes part in discovery.
 */
import type { ClientUnderTest } from '../core/types.js';
import { referenceClient } from '../core/reducer.js';
import type { CoreState } from '../core/state.js';
import { stepNaive, type NaiveFlags, type NaiveState } from './naive-step.js';

export type { NaiveFlags, NaiveState } from './naive-step.js';

/** Builds a naive client. State is copied per step (these clients are small and not on the hot path). */
export function naiveClient(name: string, description: string, flags: NaiveFlags): ClientUnderTest<NaiveState> {
  return {
    name,
    description,
    init: (config) => ({
      config,
      connected: false,
      everConnected: false,
      session: 0,
      nextRequestId: 1,
      outboxSequence: 0,
      subscriptions: {},
      inflight: {},
      timers: {},
      cache: {},
      derived: {},
      scan: null,
      scanPages: 0,
      nextScanId: 1,
      catalogPublished: false,
    }),
    step: (previous, input) => stepNaive(flags, previous, input),
  };
}

export const naiveOverwrite = naiveClient(
  'naive-overwrite',
  'reads on every notification and overwrites the cache with whatever response arrives (no ordinal fence, keys by decoded URI)',
  { decodeKeys: true, ordinalFence: false, closeFence: true, resubscribe: true, sessionCheck: true, reconcile: false },
);

export const naiveNoResubscribe = naiveClient(
  'naive-no-resubscribe',
  'never re-subscribes after a reconnect and trusts notifications from any session',
  { decodeKeys: false, ordinalFence: true, closeFence: true, resubscribe: false, sessionCheck: false, reconcile: false },
);

export const naiveNoCloseFence = naiveClient(
  'naive-no-close-fence',
  'still accepts read responses (content or 404) that arrive after unsubscribe began',
  { decodeKeys: false, ordinalFence: true, closeFence: false, resubscribe: true, sessionCheck: true, reconcile: true },
);

const carefulOtherwise = { decodeKeys: false, ordinalFence: true, closeFence: true, resubscribe: true, sessionCheck: true, reconcile: true, subjects: true };

export const naiveSingleScan = naiveClient(
  'naive-single-scan',
  'lists once, follows nextCursor to the end, publishes that single pass as a SNAPSHOT_PROVEN catalog and runs completeness tasks on it',
  { ...carefulOtherwise, singleScan: true },
);

export const naiveCacheAfterRevoke = naiveClient(
  'naive-cache-after-revoke',
  'records revocations (feed events and permission errors) but keeps serving the cached content',
  { ...carefulOtherwise, learnRevocations: true },
);

export const naiveTrust404 = naiveClient(
  'naive-trust-404',
  'tombstones on any not-found, even one older than an accepted version, and confirms the deletion without list reconciliation',
  { ...carefulOtherwise, trustNotFound: true },
);

/**
 * The reference in every respect but one: asked to serve, it answers nothing (no content, no refusal). Safe
 * and useless; only the availability checker (sim/checkers/availability.ts, `refused_fresh`) catches it.
 */
export const naiveNeverServe: ClientUnderTest<CoreState> = {
  ...referenceClient,
  name: 'naive-never-serve',
  description: 'the reference, except that it refuses every serve command: it never serves cached content, however fresh',
  step: (state, input) =>
    input.type === 'ServeCommanded'
      ? { state, effects: [{ type: 'ContentRefused', uri: input.uri, subject: input.subject, reason: 'this client never serves' }] }
      : referenceClient.step(state, input),
};
