/**
 * The ground truth a client step is judged with, and the small pure helpers both worlds use around a
 * step: what a current-session response tells the oracle, the trace hash, the per-step jitter.
 */
import { responseIdKind, type ResponseMessage } from './events.js';
import { readAnswerExpectations, type MalformedReadKind } from '../actors/malformed-reads.js';
import type { Oracle, StepTruth } from '../oracle.js';
import type { Timeline } from '../timeline.js';
import { mix32 } from '../prng.js';

/** A fresh, reusable step-truth record. */
export function newStepTruth(): StepTruth {
  return { timeMs: 0, cause: 0, currentSession: 0, requestSession: -1, requestSentAtMs: -1, servedResource: -1, servedVersion: 0, servedExists: true, malformedRead: null };
}

/** Fills `truth` for one step at `timeMs` on `currentSession`, answering `response` (null for any other input). */
export function fillStepTruth(truth: StepTruth, timeMs: number, cause: number, currentSession: number, response: ResponseMessage | null): StepTruth {
  truth.timeMs = timeMs;
  truth.cause = cause;
  truth.currentSession = currentSession;
  truth.requestSession = response === null ? -1 : response.requestSession;
  truth.requestSentAtMs = response === null ? -1 : response.requestSentAtMs;
  truth.servedResource = response === null ? -1 : response.resource;
  truth.servedVersion = response === null ? 0 : response.version;
  truth.servedExists = response === null ? true : response.exists;
  truth.malformedRead = response === null ? null : response.malformed;
  return truth;
}

/** What a current-session response tells the client, recorded before its step is judged; `cause`: the root cause of the step that sent the request. */
export function learnFromResponse(oracle: Oracle, timeline: Timeline | null, message: ResponseMessage, nowMs: number, cause: number): void {
  if (message.deniedSubject >= 0) oracle.observe({ kind: 'learned', resource: message.resource, subject: message.deniedSubject, timeMs: nowMs });
  else if (message.method === 'resources/subscribe' && message.resource >= 0 && message.outcome.type === 'result' && message.malformed === null) {
    oracle.observe({ kind: 'subscribe-acked', resource: message.resource, requestSentAtMs: message.requestSentAtMs, timeMs: nowMs });
  } else if (message.read && message.resource >= 0 && message.malformed !== responseIdKind) {
    oracle.observe({ kind: 'read-answered', resource: message.resource, cause, requestSentAtMs: message.requestSentAtMs, failed: answerFailed(message), timeMs: nowMs });
  }
  if (message.method !== 'resources/list') return;
  const list = message.list;
  const outcome = message.outcome;
  const nextCursor = outcome.type === 'result' ? (outcome.result as { nextCursor?: unknown } | null)?.nextCursor : undefined;
  oracle.observe({ kind: 'list-answer', answer: { errorCode: outcome.type === 'error' ? (typeof outcome.code === 'number' ? outcome.code : Number.NaN) : null, broken: list?.broken ?? null, nextCursor, last: list?.last ?? false } });
  if (list === null) return;
  oracle.observe({ kind: 'list-page', nextCursor });
  if (list.last) oracle.observe({ kind: 'pass-completed', pass: list.pass, proof: list.proof, startMs: list.passStartMs, served: list.served!, timeMs: nowMs, hint: list.hint });
  timeline?.note(nowMs, `[truth] list pass ${list.pass} page${list.last ? ' (last)' : ''}: ${list.proof}`);
}

/** A read answer the client can take nothing from: an error where the resource exists, or one broken by construction. */
function answerFailed(message: ResponseMessage): boolean {
  if (message.malformed !== null) return readAnswerExpectations[message.malformed as MalformedReadKind] !== 'accept';
  return message.outcome.type === 'error' && message.exists;
}

/** One FNV-1a-style step of a trace hash. */
export function mix(hash: number, value: number): number {
  return Math.imul(hash ^ (value | 0), 0x01000193);
}

/** The jitter handed to the client on each step: a pure function of the jitter seed and the step (or draw) number. */
export function jitterFor(seed: number, step: number): number {
  return mix32(seed ^ Math.imul(step + 1, 0x9e3779b1));
}
