/**
 * malformed-input: the harness, like a buggy embedding application (or, for a notification, a server that breaks
 * the schema), hands the client a copy of the input it is about to deliver with one field broken, then the input
 * itself (SPEC §11: a typed rejection naming the field, the state unchanged). Or it hands a valid input that must
 * change nothing (a timer firing at a deadline never armed, a session end of a session that is not current, a
 * grant to a subject never revoked), or, in place of the input, an equivalent spelling of it, or two spellings of
 * one input, each stepped from the client's state and neither kept. Judged in
 * sim/checkers/inputs.ts; carried out by the step driver (sim/kernel/reducer-driver.ts), so only step clients.
 *
 * The kind is drawn among those of the input's type (`hostileKindsOf`) and of every input (`everyInputKinds`).
 * A `shows` entry is text the rejection's detail must contain: the field, and what it got (a string quoted and
 * cut to 64 characters, a number or boolean as written, anything else by its type).
 */
import type { ClientInput, Rejection } from '../../core/types.js';
import { LEDGER_TEXT_CHARS_MAX } from '../../core/protocol.js';
import { ackKinds, eraKinds, paramsExtra2026, subscriptionIdKinds } from './hostile-inputs-2026.js';
import type { HostileExpectation, HostileInput } from './hostile-input.js';

export type { HostileExpectation, HostileInput } from './hostile-input.js';

type Input = Record<string, unknown> & { type: ClientInput['type'] };
type Make = (real: Input) => Omit<HostileInput, 'kind'>;

/** A string longer than any detail may quote: its display is cut at 64 characters. */
const longText = (letter: string): string => letter.repeat(2 * LEDGER_TEXT_CHARS_MAX);
const cut = (letter: string): string => `"${letter.repeat(64)}…"`;

function broken(real: Input, field: string, value: unknown, rejection: Rejection['kind'], shows: readonly string[]): Omit<HostileInput, 'kind'> {
  return { input: { ...real, [field]: value }, expect: 'rejected', rejection, shows };
}

const malformed = (field: string, value: unknown, ...shows: string[]): Make => (real) => broken(real, field, value, 'MalformedInput', [`${real.type}: ${field}`, ...shows]);

/** Kinds of every input type. */
const everyInputKinds: Record<string, Make> = {
  'input-null': () => ({ input: null, expect: 'rejected', rejection: 'MalformedInput', shows: ['an input must be an object, got null'] }),
  'input-array': (real) => ({ input: [real], expect: 'rejected', rejection: 'MalformedInput', shows: ['an input must be an object, got array'] }),
  'input-text': (real) => ({ input: real.type, expect: 'rejected', rejection: 'MalformedInput', shows: ['an input must be an object, got string'] }),
  'now-nan': malformed('nowMs', Number.NaN, 'got NaN'),
  'now-infinite': malformed('nowMs', Number.NEGATIVE_INFINITY, 'got -Infinity'),
  'now-beyond-2^53': malformed('nowMs', 2 ** 53, 'got 9007199254740992'),
  'now-text': malformed('nowMs', 'soon', 'got "soon"'),
  'now-boolean': malformed('nowMs', true, 'got true'),
  'now-array': malformed('nowMs', [], 'got array'),
  'now-negative-zero': malformed('nowMs', -0, 'must not be -0'),
  'jitter-text': malformed('jitter', '7', 'got string'),
  'type-unknown': (real) => ({ input: { ...real, type: 'ResourcesReset' }, expect: 'rejected', rejection: 'MalformedInput', shows: ['ResourcesReset: unknown input type "ResourcesReset"'] }),
  'type-long': (real) => ({ input: { ...real, type: longText('T') }, expect: 'rejected', rejection: 'MalformedInput', shows: [`${'T'.repeat(64)}: unknown input type ${cut('T')}`] }),
  'type-64': (real) => ({ input: { ...real, type: 'U'.repeat(64) }, expect: 'rejected', rejection: 'MalformedInput', shows: [`${'U'.repeat(64)}: unknown input type "${'U'.repeat(64)}"`] }),
  'type-number': (real) => ({ input: { ...real, type: 7 }, expect: 'rejected', rejection: 'MalformedInput', shows: ['input: unknown input type 7'] }),
};

const sessionKinds: Record<string, Make> = {
  'session-fraction': malformed('sessionGeneration', 1.5, 'got 1.5'),
  'session-nan': malformed('sessionGeneration', Number.NaN, 'got NaN'),
  'session-text': malformed('sessionGeneration', '1', 'got "1"'),
  'session-negative-zero': malformed('sessionGeneration', -0, 'must be a safe integer'),
};

const capabilities = (real: Input): Record<string, unknown> => real.capabilities as Record<string, unknown>;
const brokenCapability = (field: string, value: unknown, shown: string): Make => (real) => broken(real, 'capabilities', { ...capabilities(real), [field]: value }, 'MalformedInput', [`Connected: capabilities.${field} must be a boolean, got ${shown}`]);

const connectedKinds: Record<string, Make> = {
  ...sessionKinds,
  'capabilities-null': malformed('capabilities', null, 'must be an object, got null'),
  'capabilities-array': malformed('capabilities', [], 'must be an object, got array'),
  'capability-text': brokenCapability('subscribe', 'yes', 'string'),
  'capability-missing': (real) => {
    const { listChanged: _dropped, ...rest } = capabilities(real);
    return broken(real, 'capabilities', rest, 'MalformedInput', ['Connected: capabilities.listChanged must be a boolean, got undefined']);
  },
  'capability-number': brokenCapability('snapshotId', 1, 'number'),
  'resources-text': brokenCapability('resources', 'yes', 'string'),
  // Callers written before `resources` existed leave it out: it means true.
  'resources-implied': (real) => {
    const { resources: _implied, ...rest } = capabilities(real);
    return { input: { ...real, capabilities: rest }, expect: 'same', rejection: null, shows: [] };
  },
  // An era the client does not speak: a typed rejection, never a session in an era taken for another.
  'era-unknown': (real) => broken(real, 'era', '2024-11-05', 'MalformedInput', ['Connected.era must be one of', '"2024-11-05"']),
  // A server without the resources capability has none of its sub-capabilities (MCP: they are fields of `resources`).
  'sub-capabilities-without-resources': (real) => ({
    input: { ...real, capabilities: { resources: false, subscribe: true, listChanged: true, snapshotId: true } },
    other: { ...real, capabilities: { resources: false, subscribe: false, listChanged: false, snapshotId: false } },
    expect: 'pair',
    rejection: null,
    shows: [],
  }),
};

const subscribeKinds: Record<string, Make> = {
  // core/inputs.ts: a subscribe without a subject reads as the subject 'default'.
  'subject-absent-is-default': (real) => {
    const { subject: _absent, ...rest } = real;
    return { input: rest, other: { ...real, subject: 'default' }, expect: 'pair', rejection: null, shows: [] };
  },
};

const disconnectedKinds: Record<string, Make> = {
  ...sessionKinds,
  // Generations start at 1: session 0 is never current, and the largest safe integer is a valid generation.
  'session-zero': (real) => ({ input: { ...real, sessionGeneration: 0 }, expect: 'inert', rejection: null, shows: [] }),
  'session-max': (real) => ({ input: { ...real, sessionGeneration: Number.MAX_SAFE_INTEGER }, expect: 'inert', rejection: null, shows: [] }),
};

const responseKinds: Record<string, Make> = {
  ...sessionKinds,
  'outcome-null': (real) => broken(real, 'outcome', null, 'MalformedResponse', ['outcome']),
  'outcome-array': (real) => broken(real, 'outcome', [real.outcome], 'MalformedResponse', ['outcome']),
  // The real payload under an envelope type that is neither result nor error: not a result to read.
  'outcome-untyped': (real) => broken(real, 'outcome', { ...(real.outcome as object), type: 'answer' }, 'MalformedResponse', ['outcome']),
  'request-id-zero': (real) => broken(real, 'requestId', 0, 'MalformedResponse', ['id']),
  'request-id-negative': (real) => broken(real, 'requestId', -(real.requestId as number), 'MalformedResponse', ['id']),
  'request-id-fraction': (real) => broken(real, 'requestId', (real.requestId as number) + 0.5, 'MalformedResponse', ['id']),
  'request-id-text': (real) => broken(real, 'requestId', String(real.requestId), 'MalformedResponse', ['id']),
  'request-id-beyond-2^53': (real) => broken(real, 'requestId', 2 ** 53, 'MalformedResponse', ['id']),
};

const updatedUri = (real: Input): string => {
  const params = real.params as { uri?: unknown } | undefined;
  return typeof params?.uri === 'string' ? params.uri : 'file:///a.txt';
};
const notification = (method: unknown, params: unknown, rejection: Rejection['kind'], ...shows: string[]): Make => (real) => ({
  input: { ...real, method, params },
  expect: 'rejected',
  rejection,
  shows,
});
const longMethod = 'notifications/' + longText('m');

const notificationKinds: Record<string, Make> = {
  ...sessionKinds,
  'params-null': (real) => notification('notifications/resources/updated', null, 'MalformedNotification', 'params must be an object, got null')(real),
  'params-text': (real) => notification('notifications/resources/updated', updatedUri(real), 'MalformedNotification', 'params must be an object, got string')(real),
  'params-array': (real) => notification('notifications/resources/updated', [{ uri: updatedUri(real) }], 'MalformedNotification', 'params must be an object, got array')(real),
  'params-uri-number': notification('notifications/resources/updated', { uri: 42 }, 'InvalidUri', 'params.uri', 'number'),
  'params-uri-invalid': (real) => notification('notifications/resources/updated', { uri: updatedUri(real) + ' x' }, 'InvalidUri', 'params.uri')(real),
  'method-unknown': (real) => notification('notifications/resources/deleted', { uri: updatedUri(real) }, 'UnknownNotification', 'unknown notification method notifications/resources/deleted')(real),
  'method-number': (real) => notification(7, { uri: updatedUri(real) }, 'UnknownNotification', 'unknown notification method number')(real),
  'method-long': (real) => notification(longMethod, { uri: updatedUri(real) }, 'UnknownNotification', `unknown notification method ${longMethod.slice(0, 200)}`)(real),
  // Extra params (and _meta) beside the uri: the same notification.
  'params-extra': (real) => ({ input: { ...real, params: { ...(real.params as object), _meta: { progressToken: 1 }, reason: 'edited' } }, expect: 'same', rejection: null, shows: [] }),
};

const timer = (real: Input): Record<string, unknown> => real.timer as Record<string, unknown>;
const timerKinds: Record<string, Make> = {
  'timer-null': malformed('timer', null, 'must be {kind, uri}, got null'),
  'timer-array': (real) => broken(real, 'timer', [timer(real)], 'MalformedInput', ['TimerFired: timer must be {kind, uri}, got array']),
  'timer-kind-unknown': (real) => broken(real, 'timer', { ...timer(real), kind: 'planted' }, 'MalformedInput', ['TimerFired: timer.kind must be one of', 'got "planted"']),
  'timer-kind-number': (real) => broken(real, 'timer', { ...timer(real), kind: 3 }, 'MalformedInput', ['TimerFired: timer.kind must be one of', 'got 3']),
  'timer-kind-long': (real) => broken(real, 'timer', { ...timer(real), kind: longText('k') }, 'MalformedInput', ['TimerFired: timer.kind must be one of', `got ${cut('k')}`]),
  'timer-uri-number': (real) => broken(real, 'timer', { ...timer(real), uri: 42 }, 'MalformedInput', ['TimerFired: timer.uri must be a string, got number']),
  'deadline-nan': malformed('deadlineMs', Number.NaN, 'got NaN'),
  'deadline-text': malformed('deadlineMs', 'later', 'got "later"'),
  // The largest times a caller may give: valid, and never a deadline the client armed.
  'deadline-max': (real) => ({ input: { ...real, deadlineMs: Number.MAX_SAFE_INTEGER }, expect: 'inert', rejection: null, shows: [] }),
  'deadline-min': (real) => ({ input: { ...real, deadlineMs: -Number.MAX_SAFE_INTEGER }, expect: 'inert', rejection: null, shows: [] }),
  // -1, the mark of a disarmed timer, for a timer never armed (the review timer under a resource's URI): no timer fires.
  'deadline-disarmed': (real) => ({ input: { ...real, timer: { kind: 'discover', uri: timer(real).uri }, deadlineMs: -1 }, expect: 'inert', rejection: null, shows: [] }),
};

/** Where a command's URI is checked, as its rejection names it (core/reducer.ts). */
const uriPlaces: Partial<Record<ClientInput['type'], string>> = { SubscribeCommanded: 'subscribe command', UnsubscribeCommanded: 'unsubscribe command', ServeCommanded: 'serve command', AuthorizationChanged: 'authorization feed' };
const uriKinds: Record<string, Make> = {
  'uri-number': (real) => broken(real, 'uri', 42, 'InvalidUri', [`${real.type}: uri must be a string, got number`]),
  'uri-null': (real) => broken(real, 'uri', null, 'InvalidUri', [`${real.type}: uri must be a string, got null`]),
  // A string that is no URI (a space is never allowed): rejected where it is canonicalized, naming the command.
  'uri-invalid': (real) => broken(real, 'uri', `${String(real.uri)} x`, 'InvalidUri', [`${uriPlaces[real.type]}: `]),
};
const subjectKinds: Record<string, Make> = {
  'subject-number': malformed('subject', 42, 'must be a string, got number'),
  'subject-too-long': malformed('subject', 's'.repeat(LEDGER_TEXT_CHARS_MAX + 1), `has ${LEDGER_TEXT_CHARS_MAX + 1} characters`),
};

const authorizationKinds: Record<string, Make> = {
  ...uriKinds,
  ...subjectKinds,
  'allowed-text': malformed('allowed', 'false', 'must be a boolean, got string'),
  'allowed-missing': malformed('allowed', undefined, 'must be a boolean, got undefined'),
  // A grant to a subject no one reads as, named with exactly the longest text kept: valid, and it changes nothing.
  'grant-subject-at-limit': (real) => ({ input: { ...real, subject: 'g'.repeat(LEDGER_TEXT_CHARS_MAX), allowed: true }, expect: 'inert', rejection: null, shows: [] }),
};

const kindsByType: Record<ClientInput['type'], Record<string, Make>> = {
  Connected: connectedKinds,
  Disconnected: disconnectedKinds,
  ResponseArrived: responseKinds,
  NotificationArrived: notificationKinds,
  TimerFired: timerKinds,
  SubscribeCommanded: { ...uriKinds, ...subjectKinds, ...subscribeKinds },
  UnsubscribeCommanded: uriKinds,
  ServeCommanded: { ...uriKinds, ...subjectKinds, 'subject-missing': malformed('subject', undefined, 'must be a string, got undefined') },
  AuthorizationChanged: authorizationKinds,
  CompletenessTaskCommanded: { 'task-number': malformed('task', 42, 'must be a string, got number') },
  // `era` is a field of Connected only: on any other input it is no field of the input, and changes nothing.
  DiscoverCommanded: { 'era-elsewhere-ignored': (real) => ({ input: { ...real, era: '2024-11-05' }, expect: 'same', rejection: null, shows: [] }) },
};

/**
 * The tables a hostile input is drawn from: one per input type, and on a 2026-07-28 run (sim/actors/hostile-inputs-2026.ts)
 * three more: Connected with the era's kinds, notifications with subscription ids that are not ids, and acks.
 */
export type HostileTable = ClientInput['type'] | 'Connected2026' | 'Notification2026' | 'Ack2026';

const notification2026Kinds: Record<string, Make> = { ...notificationKinds, 'params-extra': paramsExtra2026, ...subscriptionIdKinds };
const kindsByTable: Record<HostileTable, Record<string, Make>> = {
  ...kindsByType,
  Connected2026: { ...connectedKinds, ...eraKinds },
  Notification2026: notification2026Kinds,
  Ack2026: { ...notification2026Kinds, ...ackKinds },
};

/** The table of `real`: its type's, or on a 2026-07-28 run (`era2026`) the era's for a Connected or a notification. */
export function hostileTableOf(real: ClientInput, era2026: boolean): HostileTable {
  if (!era2026) return real.type;
  if (real.type === 'Connected') return 'Connected2026';
  if (real.type !== 'NotificationArrived') return real.type;
  return real.method === 'notifications/subscriptions/acknowledged' ? 'Ack2026' : 'Notification2026';
}

/** Per table: the kind names that apply (its own, then every input's), built once. */
const namesByTable = Object.fromEntries(
  Object.entries(kindsByTable).map(([table, kinds]) => [table, [...Object.keys(kinds), ...Object.keys(everyInputKinds)]]),
) as unknown as Record<HostileTable, readonly string[]>;
const everyInputCount = Object.keys(everyInputKinds).length;

/**
 * How many draws an input of `table` has: its own kinds four times each, every input's once (most inputs are
 * reads, notifications and timers: the rarer types, Connected or a feed event, still get their own kinds soon).
 */
export function hostileKindCount(table: HostileTable): number {
  return 4 * namesByTable[table].length - 3 * everyInputCount;
}

/** The names of the kinds that apply to an input of `table` (tests: every kind is reached). */
export function hostileKindsOf(table: HostileTable): readonly string[] {
  return namesByTable[table];
}

/** Kind `drawn` (an index below hostileKindCount(table)) made from `real`, the input about to be delivered. */
export function hostileInputFor(real: ClientInput, drawn: number, table: HostileTable = real.type): HostileInput {
  const names = namesByTable[table];
  const own = names.length - everyInputCount;
  const index = drawn < 4 * own ? drawn % own : own + ((drawn - 4 * own) % everyInputCount);
  const kind = names[index]!;
  const make = kindsByTable[table][kind] ?? everyInputKinds[kind]!;
  return { kind, ...make(real as unknown as Input) };
}
