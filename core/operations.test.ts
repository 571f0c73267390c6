/**
 * The named operations agree with `step()`: for arbitrary states the model-based driver reaches and
 * arbitrary arguments, each operation gives exactly the state and effects of `step()` on the input a host
 * would deliver for it (built here independently of operations.ts), and its value says what happened.
 */
import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { actionsArbitrary } from './arbitraries.js';
import { acceptResourceVersionOperation, beginUnsubscribeOperation } from './operations.js';
import { step } from './reducer.js';
import type { CoreState } from './state.js';
import { canonicalOf, deepFreeze, drive, spellingOf } from './testing.js';
import type { ClientInput } from './types.js';

/** Every request id in flight in a state (reads, subscribes, unsubscribes, list pages). */
function requestIdsOf(state: CoreState): number[] {
  return Object.values(state.volatile.uris).flatMap((uri) => uri.requests.map((request) => request.requestId));
}

function uriOfRequest(state: CoreState, requestId: number): string | undefined {
  for (const [uri, volatile] of Object.entries(state.volatile.uris)) {
    if (volatile.requests.some((request) => request.requestId === requestId)) return uri;
  }
  return undefined;
}

const stateArbitrary = actionsArbitrary.map((actions) => deepFreeze(drive(actions).final));
const textArbitrary = fc.oneof(fc.constantFrom('alpha', 'beta', ''), fc.string({ maxLength: 20 }));
const mimeArbitrary = fc.constantFrom('text/plain', 'application/json', 'text/html');
const nowArbitrary = fc.integer({ min: 0, max: 10_000_000 });

describe('named operations = step()', () => {
  test.prop([stateArbitrary, fc.nat(), fc.nat({ max: 40 }), textArbitrary, mimeArbitrary, nowArbitrary], { numRuns: 200 })(
    'acceptResourceVersionOperation: identical state and effects to step(ResponseArrived with that content)',
    (state, pick, unknownId, text, mimeType, nowMs) => {
      const inFlight = requestIdsOf(state);
      // Mostly a request in flight (any kind, any subscription state); sometimes an id nothing waits for.
      const requestId = inFlight.length > 0 && pick % 5 !== 0 ? inFlight[pick % inFlight.length]! : unknownId + 1;
      const uri = uriOfRequest(state, requestId) ?? '';
      const input: ClientInput = {
        type: 'ResponseArrived',
        nowMs,
        jitter: 0,
        sessionGeneration: state.volatile.sessionGeneration,
        requestId,
        outcome: { type: 'result', result: { contents: [{ uri, mimeType, text }] } },
      };
      const expected = step(state, input);
      const operation = acceptResourceVersionOperation(state, requestId, text, mimeType, nowMs);
      expect(operation.state).toEqual(expected.state);
      expect(operation.effects).toEqual(expected.effects);
      expect(operation.value).toBe(expected.effects.some((effect) => effect.type === 'VersionAccepted'));
    },
  );

  test.prop([stateArbitrary, fc.nat({ max: 1 }), fc.nat({ max: 2 }), nowArbitrary], { numRuns: 200 })(
    'beginUnsubscribeOperation: identical state and effects to step(UnsubscribeCommanded); true exactly when closing began',
    (state, resource, spelling, nowMs) => {
      const uri = spellingOf(resource, spelling);
      const expected = step(state, { type: 'UnsubscribeCommanded', nowMs, jitter: 0, uri });
      const operation = beginUnsubscribeOperation(state, uri, nowMs);
      expect(operation.state).toEqual(expected.state);
      expect(operation.effects).toEqual(expected.effects);
      const before = state.ledger.subscriptions[canonicalOf(resource)]?.state;
      const open = before !== undefined && before !== 'UNSUBSCRIBING' && before !== 'CLOSED' && before !== 'UNSUBSCRIBE_UNKNOWN';
      expect(operation.value).toBe(open);
    },
  );
});
