/**
 * malformed-input on a 2026-07-28 run (scenario era2026-malformed-input): the kinds of sim/actors/hostile-inputs.ts,
 * plus the era's own (core/era.ts checkEra, subscriptionIdOf; core/listen.ts routeAck, honoredUris):
 *
 * - a Connected whose `era` is no revision (another date, a number, null, an object, a long text): a MalformedInput
 *   rejection naming `Connected.era` and showing what it got (a long text cut: the detail stays within
 *   LEDGER_TEXT_CHARS_MAX);
 * - a listen notification or ack whose `_meta` subscription id is not an id (its text, a fraction, negative, 0, beyond
 *   2^53, null): answered exactly as the same notification without an id (a pair, each stepped from the client's
 *   state): such a value names no listen, and what the client records of it (the LISTEN_MISMATCH audit's request id)
 *   is what it records of no id;
 * - an ack whose `notifications` is not an object: a MalformedNotification rejection whatever listen it names; and two
 *   spellings of one ack (no `resourceSubscriptions` or an empty one; one that is not an array or none; invalid
 *   entries beside the honored URIs or none): answered alike.
 *
 * The 2025 tables are untouched: a 2025-11-25 run (malformed-input) draws exactly as before.
 */
import { subscriptionIdMetaKey } from '../../core/era.js';
import { isObject } from '../../core/protocol.js';
import type { HostileInput } from './hostile-input.js';

type Input = Record<string, unknown>;
type Make = (real: Input) => Omit<HostileInput, 'kind'>;

const ackMethod = 'notifications/subscriptions/acknowledged';

/** A text longer than any rejection detail may be (LEDGER_TEXT_CHARS_MAX is 1,024). */
const longEra = 'e'.repeat(2_048);

const brokenEra = (value: unknown, ...shows: string[]): Make => (real) => ({
  input: { ...real, era: value },
  expect: 'rejected',
  rejection: 'MalformedInput',
  shows: ['Connected.era must be one of', ...shows],
});

/** Connected on a 2026-07-28 run. */
export const eraKinds: Record<string, Make> = {
  'era-unknown': brokenEra('2026-07-29', 'got "2026-07-29"'),
  'era-number': brokenEra(20_260_728, 'got number'),
  'era-null': brokenEra(null, 'got null'),
  'era-object': brokenEra({ revision: '2026-07-28' }, 'got object'),
  // Quoted, cut well below the detail bound (the whole text would be 2,048 characters).
  'era-long': brokenEra(longEra, `got "${'e'.repeat(32)}`),
};

const paramsOf = (real: Input): Input => (isObject(real.params) ? real.params : {});
const metaOf = (real: Input): Input => {
  const meta = paramsOf(real)._meta;
  return isObject(meta) ? meta : {};
};
/** The real id (or 7 when it has none) as a base for the broken values. */
const idOf = (real: Input): number => {
  const id = metaOf(real)[subscriptionIdMetaKey];
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : 7;
};

/** The notification with its subscription id replaced by `broken(real id)`, paired with it without one. */
const idNotAnId = (broken: (id: number) => unknown): Make => (real) => {
  const { [subscriptionIdMetaKey]: _dropped, ...rest } = metaOf(real);
  return {
    input: { ...real, params: { ...paramsOf(real), _meta: { ...rest, [subscriptionIdMetaKey]: broken(idOf(real)) } } },
    other: { ...real, params: { ...paramsOf(real), _meta: rest } },
    expect: 'pair',
    rejection: null,
    shows: [],
  };
};

/** Every 2026-07-28 notification (updated, list_changed, cancelled, ack). */
export const subscriptionIdKinds: Record<string, Make> = {
  'subscription-id-text': idNotAnId((id) => String(id)),
  'subscription-id-fraction': idNotAnId((id) => id + 0.5),
  'subscription-id-negative': idNotAnId((id) => -id),
  'subscription-id-zero': idNotAnId(() => 0),
  'subscription-id-beyond-2^53': idNotAnId(() => 2 ** 53),
  'subscription-id-null': idNotAnId(() => null),
};

/** On a 2026-07-28 run, extra params beside the uri keep the subscription id (the 2025 kind replaces `_meta`). */
export const paramsExtra2026: Make = (real) => ({
  input: { ...real, params: { ...paramsOf(real), _meta: { ...metaOf(real), progressToken: 1 }, reason: 'edited' } },
  expect: 'same',
  rejection: null,
  shows: [],
});

const notificationsOf = (real: Input): Input => {
  const notifications = paramsOf(real).notifications;
  return isObject(notifications) ? notifications : {};
};
const honoredOf = (real: Input): unknown[] => {
  const honored = notificationsOf(real).resourceSubscriptions;
  return Array.isArray(honored) ? honored : [];
};
const withNotifications = (real: Input, notifications: unknown): Input => ({ ...real, method: ackMethod, params: { ...paramsOf(real), notifications } });

const ackNotObject = (value: unknown): Make => (real) => ({
  input: withNotifications(real, value),
  expect: 'rejected',
  rejection: 'MalformedNotification',
  shows: ['params.notifications must be an object'],
});

const ackSpellings = (make: (real: Input) => [unknown, unknown]): Make => (real) => {
  const [one, other] = make(real);
  return { input: withNotifications(real, one), other: withNotifications(real, other), expect: 'pair', rejection: null, shows: [] };
};

/** Acks (`notifications/subscriptions/acknowledged`) on a 2026-07-28 run. */
export const ackKinds: Record<string, Make> = {
  'ack-notifications-null': ackNotObject(null),
  'ack-notifications-array': (real) => ackNotObject([notificationsOf(real)])(real),
  'ack-notifications-text': ackNotObject('resourceSubscriptions'),
  // An ack that honors nothing: resourceSubscriptions left out (the v2 router's spelling) or empty.
  'ack-honors-nothing-spelled': ackSpellings(() => [{}, { resourceSubscriptions: [] }]),
  // resourceSubscriptions that is not an array honors nothing either.
  'ack-honored-not-array': ackSpellings((real) => [{ resourceSubscriptions: honoredOf(real)[0] ?? 'file:///a.txt' }, {}]),
  // Entries that are not URIs are dropped: the same ack as its valid entries alone.
  'ack-honored-invalid-entries': ackSpellings((real) => [{ resourceSubscriptions: [...honoredOf(real), 42, null, 'not a uri'] }, { resourceSubscriptions: honoredOf(real) }]),
};
