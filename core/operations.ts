/**
 * The named fence operations as pure functions of a CoreState (for embedding and for tests); the reducer
 * uses the same code through a step's Draft.
 */
import { acceptResourceVersion, beginUnsubscribe, issueRead } from './fence.js';
import { Draft, type CoreState } from './state.js';
import type { ClientEffect, ReadReason } from './types.js';

export interface OperationResult<T> {
  state: CoreState;
  effects: ClientEffect[];
  value: T;
}

function run<T>(state: CoreState, nowMs: number, body: (d: Draft) => T): OperationResult<T> {
  const d = new Draft(state, nowMs, 0);
  const value = body(d);
  return { state: d.commit(), effects: d.effects, value };
}

/** Allocates the next readOrdinal for an open subscription and sends the read; null once closing began. */
export function issueReadOperation(state: CoreState, uri: string, reason: ReadReason, nowMs: number): OperationResult<number | null> {
  return run(state, nowMs, (d) => issueRead(d, uri, reason));
}

/** The only place a version is accepted: fence checks, then watermark, version receipt and outbox entry. */
export function acceptResourceVersionOperation(
  state: CoreState,
  requestId: number,
  text: string,
  mimeType: string,
  nowMs: number,
): OperationResult<boolean> {
  return run(state, nowMs, (d) => {
    const request = d.inflight(requestId);
    if (request === undefined) return false;
    d.removeInflight(request);
    return acceptResourceVersion(d, requestId, request, text, mimeType);
  });
}

/** CAS open -> UNSUBSCRIBING with closeOrdinal frozen at lastIssuedOrdinal. */
export function beginUnsubscribeOperation(state: CoreState, uri: string, nowMs: number): OperationResult<boolean> {
  return run(state, nowMs, (d) => beginUnsubscribe(d, uri));
}
