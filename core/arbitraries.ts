/**
 * Test support (never imported by non-test code; excluded from the build): fast-check arbitraries of the
 * abstract actions the model-based driver in testing.ts turns into inputs.
 */
import { fc } from '@fast-check/vitest';
import type { Action } from './testing.js';

const advanceMs = fc.oneof(
  { weight: 4, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 500 }) },
  { weight: 1, arbitrary: fc.integer({ min: 500, max: 40_000 }) },
);
const jitter = fc.integer({ min: 0, max: 0xffff_ffff });
const resource = fc.nat({ max: 1 });
const spelling = fc.nat({ max: 2 });
const pick = fc.nat({ max: 30 });

const connectAction = fc.record({
  kind: fc.constant('connect' as const),
  advanceMs,
  jitter,
  subscribe: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
});
const disconnectAction = fc.record({ kind: fc.constant('disconnect' as const), advanceMs, jitter });
const crashAction = fc.record({ kind: fc.constant('crash' as const), advanceMs, jitter });
const subscribeAction = fc.record({ kind: fc.constant('subscribe' as const), advanceMs, jitter, resource, spelling });
const unsubscribeAction = fc.record({ kind: fc.constant('unsubscribe' as const), advanceMs, jitter, resource, spelling });
const notifyAction = (oldSessionWeight: number): fc.Arbitrary<Action> =>
  fc.record({
    kind: fc.constant('notify' as const),
    advanceMs,
    jitter,
    resource,
    spelling,
    oldSession: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: oldSessionWeight, arbitrary: fc.constant(true) }),
  });
const fireAction = fc.record({
  kind: fc.constant('fire' as const),
  advanceMs,
  jitter,
  pick,
  liveOnly: fc.boolean(),
  skewMs: fc.oneof(
    { weight: 5, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: -3_000, max: 3_000 }) },
    { weight: 2, arbitrary: fc.constant(null) },
  ),
});
const respondAction = fc.record({
  kind: fc.constant('respond' as const),
  advanceMs,
  jitter,
  pick,
  liveOnly: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  reply: fc.oneof(
    { weight: 6, arbitrary: fc.constant('ok' as const) },
    { weight: 2, arbitrary: fc.constant('not-found' as const) },
    { weight: 1, arbitrary: fc.constant('error' as const) },
    { weight: 1, arbitrary: fc.constant('drop' as const) },
  ),
  text: fc.nat({ max: 4 }),
  spelling,
});

/** Any action, session churn included. */
export const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: connectAction },
  { weight: 1, arbitrary: disconnectAction },
  { weight: 3, arbitrary: subscribeAction },
  { weight: 2, arbitrary: unsubscribeAction },
  { weight: 4, arbitrary: notifyAction(1) },
  { weight: 5, arbitrary: fireAction },
  { weight: 9, arbitrary: respondAction },
  { weight: 1, arbitrary: crashAction },
);

/** Within one session: reaches deep read races (hedged reads answered out of order, tombstones). */
const calmActionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 1, arbitrary: subscribeAction },
  { weight: 1, arbitrary: unsubscribeAction },
  { weight: 5, arbitrary: notifyAction(0) },
  { weight: 5, arbitrary: fireAction },
  { weight: 9, arbitrary: respondAction },
);

/** A connected session with both resources subscribed, so short runs reach the interesting states. */
const warmPrefix: Action[] = [
  { kind: 'connect', advanceMs: 0, jitter: 0, subscribe: true },
  { kind: 'subscribe', advanceMs: 0, jitter: 0, resource: 0, spelling: 0 },
  { kind: 'subscribe', advanceMs: 0, jitter: 7, resource: 1, spelling: 1 },
];
/** The same, with both subscribe ACKs delivered: both initial reads are in flight. */
const activePrefix: Action[] = [
  ...warmPrefix,
  { kind: 'respond', advanceMs: 5, jitter: 0, pick: 0, liveOnly: true, reply: 'ok', text: 0, spelling: 0 },
  { kind: 'respond', advanceMs: 5, jitter: 0, pick: 0, liveOnly: true, reply: 'ok', text: 0, spelling: 0 },
];

const actions = (arbitrary: fc.Arbitrary<Action>, maxLength: number): fc.Arbitrary<Action[]> =>
  fc.array(arbitrary, { minLength: 1, maxLength, size: 'max' });

export const actionsArbitrary: fc.Arbitrary<Action[]> = fc.oneof(
  { weight: 1, arbitrary: actions(actionArbitrary, 60) },
  { weight: 2, arbitrary: actions(actionArbitrary, 60).map((rest) => [...warmPrefix, ...rest]) },
  {
    weight: 2,
    arbitrary: fc.tuple(actions(calmActionArbitrary, 40), actions(actionArbitrary, 20)).map(([calm, rest]) => [...activePrefix, ...calm, ...rest]),
  },
);

