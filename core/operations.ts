/**
 * The named fence operations as pure functions of a CoreState (for embedding and for tests). Each is a
 * thin wrapper over `step()`: it builds the one input that asks for the operation and steps it, so it
 * gives exactly the state and effects `step()` gives (a property test in operations.test.ts proves it).
 */
import { step } from './reducer.js';
import type { CoreState } from './state.js';
import type { ClientEffect, ClientInput } from './types.js';

export interface OperationResult<T> {
  state: CoreState;
  effects: ClientEffect[];
  value: T;
}

/**
 * The response `step()` receives when the read `requestId` (on the current session) is answered with
 * `text`: the content of the URI the read asked for (any URI when no such read is in flight).
 */
export function contentResponseInput(state: CoreState, requestId: number, text: string, mimeType: string, nowMs: number): ClientInput {
  let uri = '';
  for (const key in state.volatile.uris) {
    if (state.volatile.uris[key]!.requests.some((request) => request.requestId === requestId)) uri = key;
  }
  return {
    type: 'ResponseArrived',
    nowMs,
    jitter: 0,
    sessionGeneration: state.volatile.sessionGeneration,
    requestId,
    outcome: { type: 'result', result: { contents: [{ uri, mimeType, text }] } },
  };
}

/**
 * The read `requestId` is answered with this content: the fences (close, session, ordinal, revocation)
 * decide; the value says whether the version was accepted.
 */
export function acceptResourceVersionOperation(
  state: CoreState,
  requestId: number,
  text: string,
  mimeType: string,
  nowMs: number,
): OperationResult<boolean> {
  const result = step(state, contentResponseInput(state, requestId, text, mimeType, nowMs));
  return { ...result, value: result.effects.some((effect) => effect.type === 'VersionAccepted') };
}

/** CAS open -> UNSUBSCRIBING with closeOrdinal frozen at lastIssuedOrdinal; the value says whether it began. */
export function beginUnsubscribeOperation(state: CoreState, uri: string, nowMs: number): OperationResult<boolean> {
  const result = step(state, { type: 'UnsubscribeCommanded', nowMs, jitter: 0, uri });
  const began = result.effects.some((effect) => effect.type === 'Transitioned' && (effect.event === 'unsubscribe_begun' || effect.event === 'unsubscribe_owed'));
  return { ...result, value: began };
}
