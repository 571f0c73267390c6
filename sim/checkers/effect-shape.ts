/**
 * Effects are plain data of the documented shape (SPEC §4, core/effects.ts): `effect_malformed`. Every effect a
 * client returns is an object whose `type` is one of the effect types, with each field that type requires present
 * and of its type (a string, a finite number, a boolean, an array, an object), and each field of a closed set of
 * values (a polling or subscription bound, a close's outcome, an outbox operation...) one of them. The oracle and
 * the application act on effects by these fields: an effect without them (an empty record, a bound without its
 * number) is one the host cannot carry out or record, whatever else the client did right.
 */
import type { ClientEffect } from '../../core/types.js';
import { isObject } from '../../core/protocol.js';
import type { CheckingSink } from './sink.js';

/** 's' string, 'n' finite number, 'b' boolean, 'a' array, 'o' object, or the values the field may take. */
export type FieldShape = 's' | 'n' | 'b' | 'a' | 'o' | readonly string[];

export const effectShapes: Readonly<Record<ClientEffect['type'], Readonly<Record<string, FieldShape>>>> = {
  RequestSent: { requestId: 'n', sessionGeneration: 'n', method: 's', uri: 's' },
  TimerArmed: { timer: 'o', deadlineMs: 'n' },
  VersionAccepted: { uri: 's', text: 's', encoding: ['text', 'blob'], mimeType: 's', digest: 's', readOrdinal: 'n', watermarkBefore: 'n', subscriptionGeneration: 'n', sessionGeneration: 'n' },
  StaleReceiptWritten: { uri: 's', requestId: 'n', readOrdinal: 'n', watermark: 'n', reason: 's' },
  AuditWritten: { kind: 's', uri: 's', requestId: 'n', detail: 's' },
  TombstonePending: { uri: 's', readOrdinal: 'n' },
  TombstoneConfirmed: { uri: 's' },
  OutboxEntryWritten: { uri: 's', sequence: 'n', operation: ['upsert', 'delete', 'invalidate'], digest: 's', derivedEntries: 'a', supersedes: 'a' },
  DerivedEntryWritten: { entryId: 's', uri: 's', digest: 's', subject: 's' },
  CatalogPublished: { scanId: 'n', status: 's', uris: 'a', digest: 's', measuredAtMs: 'n', stalenessBoundMs: 'n', nextReviewAtMs: 'n' },
  ScanStarted: { scanId: 'n', pass: ['A', 'B', 'SNAPSHOT'] },
  ScanAbandoned: { scanId: 'n', reason: 's', detail: 's' },
  CompletenessTaskDecided: { task: 's', accepted: 'b', catalogStatus: 's', reason: 's' },
  ContentServed: { uri: 's', subject: 's', digest: 's' },
  ContentRefused: { uri: 's', subject: 's', reason: 's' },
  RevocationLearned: { uri: 's', subject: 's', source: ['feed', 'read'] },
  PurgeDone: { uri: 's', subject: 's', invalidatedEntries: 'n' },
  StalenessBoundPublished: { uri: 's', boundMs: 'n', mode: ['subscription', 'polling'] },
  SubscriptionClosed: { uri: 's', closeEpoch: 'n', closeOrdinal: 'n', outcome: ['ACKED', 'SESSION_ENDED'] },
  Transitioned: { uri: 's', from: 's', to: 's', event: 's' },
  ProtocolRejected: { rejection: 'o' },
  ListenCancelled: { requestId: 'n', sessionGeneration: 'n', uri: 's' },
};

/** Per type, its fields as [name, shape] pairs (built once: the check runs on every effect). */
const fieldsByType = new Map<string, readonly (readonly [string, FieldShape])[]>(Object.entries(effectShapes).map(([type, fields]) => [type, Object.entries(fields)]));

/** `type` names an effect of the vocabulary (SPEC §4; the table above, which the compiler keeps complete). */
export function isEffectType(type: unknown): type is ClientEffect['type'] {
  return typeof type === 'string' && fieldsByType.has(type);
}

function fieldProblem(value: unknown, shape: FieldShape): string | null {
  switch (shape) {
    case 's':
      return typeof value === 'string' ? null : 'a string';
    case 'n':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a finite number';
    case 'b':
      return typeof value === 'boolean' ? null : 'a boolean';
    case 'a':
      return Array.isArray(value) ? null : 'an array';
    case 'o':
      return isObject(value) ? null : 'an object';
    default:
      return typeof value === 'string' && shape.includes(value) ? null : `one of ${shape.join(', ')}`;
  }
}

const str = (value: unknown): boolean => typeof value === 'string';
const num = (value: unknown): boolean => Number.isFinite(value);
const bool = (value: unknown): boolean => typeof value === 'boolean';
const arr = (value: unknown): boolean => Array.isArray(value);

/**
 * Whether `effect` has the shape of its type: the table above, written out per type with each field read by its name.
 * The judgement runs on every effect of every step, and the table's loop reads fields by a name held in a variable (a
 * lookup per field whatever the effect's shape); this reads each effect type's fields at a site of its own: about 5 %
 * less CPU for the whole default gate, measured side by side (scripts/perf-s18.txt). `effectShapeProblem` stays the table's word: it names what is wrong,
 * and sim/checkers/effect-shape.test.ts checks that the two agree on every type, field by field.
 */
export function hasEffectShape(effect: unknown): boolean {
  if (!isObject(effect)) return false;
  const e = effect;
  switch (e.type) {
    case 'RequestSent':
      return num(e.requestId) && num(e.sessionGeneration) && str(e.method) && str(e.uri);
    case 'TimerArmed':
      return isObject(e.timer) && num(e.deadlineMs);
    case 'VersionAccepted':
      return str(e.uri) && str(e.text) && (e.encoding === 'text' || e.encoding === 'blob') && str(e.mimeType) && str(e.digest) && num(e.readOrdinal) && num(e.watermarkBefore) && num(e.subscriptionGeneration) && num(e.sessionGeneration);
    case 'StaleReceiptWritten':
      return str(e.uri) && num(e.requestId) && num(e.readOrdinal) && num(e.watermark) && str(e.reason);
    case 'AuditWritten':
      return str(e.kind) && str(e.uri) && num(e.requestId) && str(e.detail);
    case 'TombstonePending':
      return str(e.uri) && num(e.readOrdinal);
    case 'TombstoneConfirmed':
      return str(e.uri);
    case 'OutboxEntryWritten':
      return str(e.uri) && num(e.sequence) && (e.operation === 'upsert' || e.operation === 'delete' || e.operation === 'invalidate') && str(e.digest) && arr(e.derivedEntries) && arr(e.supersedes);
    case 'DerivedEntryWritten':
      return str(e.entryId) && str(e.uri) && str(e.digest) && str(e.subject);
    case 'CatalogPublished':
      return num(e.scanId) && str(e.status) && arr(e.uris) && str(e.digest) && num(e.measuredAtMs) && num(e.stalenessBoundMs) && num(e.nextReviewAtMs);
    case 'ScanStarted':
      return num(e.scanId) && (e.pass === 'A' || e.pass === 'B' || e.pass === 'SNAPSHOT');
    case 'ScanAbandoned':
      return num(e.scanId) && str(e.reason) && str(e.detail);
    case 'CompletenessTaskDecided':
      return str(e.task) && bool(e.accepted) && str(e.catalogStatus) && str(e.reason);
    case 'ContentServed':
      return str(e.uri) && str(e.subject) && str(e.digest);
    case 'ContentRefused':
      return str(e.uri) && str(e.subject) && str(e.reason);
    case 'RevocationLearned':
      return str(e.uri) && str(e.subject) && (e.source === 'feed' || e.source === 'read');
    case 'PurgeDone':
      return str(e.uri) && str(e.subject) && num(e.invalidatedEntries);
    case 'StalenessBoundPublished':
      return str(e.uri) && num(e.boundMs) && (e.mode === 'subscription' || e.mode === 'polling');
    case 'SubscriptionClosed':
      return str(e.uri) && num(e.closeEpoch) && num(e.closeOrdinal) && (e.outcome === 'ACKED' || e.outcome === 'SESSION_ENDED');
    case 'Transitioned':
      return str(e.uri) && str(e.from) && str(e.to) && str(e.event);
    case 'ProtocolRejected':
      return isObject(e.rejection);
    case 'ListenCancelled':
      return num(e.requestId) && num(e.sessionGeneration) && str(e.uri);
    default:
      return false;
  }
}

/** What is wrong with the shape of `effect`, or null when it has the shape of its type. */
export function effectShapeProblem(effect: unknown): string | null {
  if (!isObject(effect)) return `an effect that is not an object (${effect === null ? 'null' : Array.isArray(effect) ? 'array' : typeof effect})`;
  const type = effect.type;
  if (!isEffectType(type)) return `an effect of unknown type ${JSON.stringify(type) ?? 'undefined'}`;
  const fields = fieldsByType.get(type)!;
  for (let index = 0; index < fields.length; index++) {
    const [name, shape] = fields[index]!;
    const wanted = fieldProblem(effect[name], shape);
    if (wanted !== null) return `a ${type} effect whose ${name} is not ${wanted} (got ${JSON.stringify(effect[name])?.slice(0, 60) ?? 'undefined'})`;
  }
  return null;
}

export class EffectShapeChecker {
  /** Step clients only (sim/world.ts sets it): a module client's effects are the harness's account of what it did on the wire. */
  judges = false;

  constructor(private readonly sink: CheckingSink) {}

  /** A step's effects: each is a check of effect_malformed (counted once per step; `judge` then judges each). */
  count(effects: number): void {
    if (this.judges && effects > 0) this.sink.checked('effect_malformed', effects);
  }

  judge(effect: unknown, timeMs: number): void {
    if (!this.judges || hasEffectShape(effect)) return;
    const problem = effectShapeProblem(effect);
    if (problem === null) return;
    const uri = isObject(effect) && typeof effect.uri === 'string' ? effect.uri : '';
    this.sink.violate('effect_malformed', timeMs, uri, `the client returned ${problem}`);
  }
}
