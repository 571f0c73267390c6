/**
 * Validation of the fields a caller fills in on every input (SPEC §11): times, session numbers, timer
 * identities, capabilities, subjects, flags. Like protocol.ts it never throws and never coerces a value
 * (coercing an object calls its `toString`, which can throw): a bad field becomes a typed rejection naming
 * the field, and `step` then returns the state unchanged.
 *
 * Protocol payloads (request ids, outcomes, notification methods and params, URIs) are checked where they
 * are interpreted (protocol.ts, scan.ts); here only their presence is irrelevant.
 */
import { LEDGER_TEXT_CHARS_MAX, isObject, typeName } from './protocol.js';
import { timerKinds, type Rejection, type ServerCapabilities } from './types.js';

/** Times are finite ms within ±2^53, so `nowMs + any configured duration` stays finite (JSON-safe). */
function checkTime(value: unknown, field: string): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) {
    return `${field} must be a finite number of ms within ±2^53, got ${describe(value)}`;
  }
  return Object.is(value, -0) ? `${field} must not be -0` : null;
}

function checkGeneration(value: unknown, field: string): string | null {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || Object.is(value, -0)) {
    return `${field} must be a safe integer, got ${describe(value)}`;
  }
  return null;
}

function checkText(value: unknown, field: string): string | null {
  if (typeof value !== 'string') return `${field} must be a string, got ${typeName(value)}`;
  if (value.length > LEDGER_TEXT_CHARS_MAX) return `${field} has ${value.length} characters, more than ${LEDGER_TEXT_CHARS_MAX}`;
  return null;
}

function checkBoolean(value: unknown, field: string): string | null {
  return typeof value === 'boolean' ? null : `${field} must be a boolean, got ${typeName(value)}`;
}

function checkTimer(value: unknown): string | null {
  if (!isObject(value)) return `timer must be {kind, uri}, got ${typeName(value)}`;
  if (typeof value.kind !== 'string' || !(timerKinds as readonly string[]).includes(value.kind)) {
    return `timer.kind must be one of ${timerKinds.join(', ')}, got ${describe(value.kind)}`;
  }
  return typeof value.uri === 'string' ? null : `timer.uri must be a string, got ${typeName(value.uri)}`;
}

function checkCapabilities(value: unknown): string | null {
  if (!isObject(value)) return `capabilities must be an object, got ${typeName(value)}`;
  for (const field of ['subscribe', 'listChanged', 'snapshotId'] as const) {
    const problem = checkBoolean(value[field], `capabilities.${field}`);
    if (problem !== null) return problem;
  }
  return value.resources === undefined ? null : checkBoolean(value.resources, 'capabilities.resources');
}

/**
 * The capabilities the core keeps: a fresh plain object (never the caller's), `resources` absent meaning
 * true (callers written before it existed), and no sub-capability without `resources`.
 */
export function normalizeCapabilities(value: ServerCapabilities): ServerCapabilities {
  const resources = (value.resources as unknown) !== false;
  return {
    resources,
    subscribe: resources && value.subscribe,
    listChanged: resources && value.listChanged,
    snapshotId: resources && value.snapshotId,
  };
}

/** Problems of the type-specific fields, or null. */
function checkFields(input: Record<string, unknown>): string | null {
  switch (input.type) {
    case 'Connected':
      return checkGeneration(input.sessionGeneration, 'sessionGeneration') ?? checkCapabilities(input.capabilities);
    case 'Disconnected':
    case 'ResponseArrived':
    case 'NotificationArrived':
      return checkGeneration(input.sessionGeneration, 'sessionGeneration');
    case 'TimerFired':
      return checkTimer(input.timer) ?? checkTime(input.deadlineMs, 'deadlineMs');
    case 'SubscribeCommanded':
      return input.subject === undefined ? null : checkText(input.subject, 'subject');
    case 'ServeCommanded':
      return checkText(input.subject, 'subject');
    case 'AuthorizationChanged':
      return checkText(input.subject, 'subject') ?? checkBoolean(input.allowed, 'allowed');
    case 'CompletenessTaskCommanded':
      return typeof input.task === 'string' ? null : `task must be a string, got ${typeName(input.task)}`;
    case 'UnsubscribeCommanded':
    case 'DiscoverCommanded':
      return null;
    default:
      return `unknown input type ${describe(input.type)}`;
  }
}

/**
 * A typed rejection for an input whose caller-filled fields are malformed, or null when they are fine.
 * Besides MalformedInput: a command URI that is not a string is InvalidUri (its syntax is checked where
 * it is canonicalized), and a response outcome that is not `{type: 'result' | 'error'}` (the envelope the
 * host builds from a JSON-RPC message) is MalformedResponse.
 */
export function checkInput(input: unknown): Rejection | null {
  if (!isObject(input)) return malformedInput(`an input must be an object, got ${typeName(input)}`);
  const problem =
    checkTime(input.nowMs, 'nowMs') ??
    (typeof input.jitter === 'number' ? null : `jitter must be a number, got ${typeName(input.jitter)}`) ??
    checkFields(input);
  if (problem !== null) return malformedInput(`${typeof input.type === 'string' ? input.type.slice(0, 64) : 'input'}: ${problem}`);
  if (commandsWithUri.has(input.type as string) && typeof input.uri !== 'string') {
    return { kind: 'InvalidUri', detail: `${input.type as string}: uri must be a string, got ${typeName(input.uri)}` };
  }
  if (input.type === 'ResponseArrived' && !isOutcome(input.outcome)) {
    return { kind: 'MalformedResponse', detail: 'response outcome must be {type: "result" | "error"}' };
  }
  return null;
}

const commandsWithUri = new Set(['SubscribeCommanded', 'UnsubscribeCommanded', 'ServeCommanded', 'AuthorizationChanged']);

function isOutcome(value: unknown): boolean {
  return isObject(value) && (value.type === 'result' || value.type === 'error');
}

function malformedInput(detail: string): Rejection {
  return { kind: 'MalformedInput', detail };
}

/** A value shown in a message without coercing it (strings cut to 64 characters). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? value.slice(0, 64) + '…' : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined) return String(value);
  return typeName(value);
}
