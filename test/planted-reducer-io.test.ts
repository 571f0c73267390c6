/**
 * Planted bugs for what a reducer does with the responses and notifications it receives (core/reducer-responses.ts,
 * core/reducer-notifications.ts; survivors of scripts/mutation-core-s13.txt that no invariant judged before):
 * - `unsubscribe_after_ack` (sim/checkers/unsubscribe-acks.ts, SPEC §3.4 "Unsubscribe ACK → CLOSED"): a client that
 *   ignores the ACK of its unsubscribe (in UNSUBSCRIBING, or whatever the state) keeps retrying it after the timeout;
 * - `server_subscription_missing` (sim/checkers/subscription-held.ts, SPEC §3.5): a client that takes a subscribe answered
 *   with an error as its ACK never retries it, and the server holds no subscription of a resource it wants;
 * - `malformed_response_unrejected` (sim/checkers/answers.ts, SPEC §11) and the malformed-response-id fault (in scenario
 *   malformed-read-response): a client that audits a response whose id is not a positive integer instead of rejecting it;
 * - `notification_unrecorded` (sim/checkers/notification-records.ts, SPEC §3.5 "audited and ignored") and the
 *   stray-notification fault (in scenario old-session-notification): a client that ignores an ended session's updated,
 *   or one of a URI it never subscribed, without its audit, or names no URI in the ended session's audit, or drops one
 *   whose uri is not a URI without its rejection, or (2026-07-28) routes an ended connection's updated like a current one,
 *   so that its audit, if any, is not the OLD_SESSION_NOTIFICATION one;
 * - `notified_unread` on a server seen to duplicate (sim/checkers/notification-reads.ts coalesceWindowMs): a client
 *   that coalesces a pulse whatever the time since its resource's last read (coalescedIntoLeadingRead without its
 *   window test) swallows pulses no read covers.
 * Each is caught in its scenario on a seed where the unpatched copy violates nothing, and shrinks to at most 30 lines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { findScenario } from '../scenarios/catalog.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_0ac4;
/** The coalescing bug needs a long storm to show: from this root its first catch shrinks to 30 lines (38 from the other). */
const rootSeedOf: Record<string, number> = { 'coalesce-outside-window': 0x5eed_c0a1 };
const searchInterleavings = 100;
const stateTest = "  if (sub.state !== 'UNSUBSCRIBING' && sub.state !== 'UNSUBSCRIBE_UNKNOWN') return;";

const ignoringClients: readonly PlantedBug[] = [
  {
    name: 'ack-ignored-while-unsubscribing',
    description: 'an ACK that reaches an UNSUBSCRIBING subscription is ignored (only UNSUBSCRIBE_UNKNOWN closes on one)',
    patches: [{ file: 'reducer-responses.ts', find: stateTest, replace: "  if (sub.state !== 'UNSUBSCRIBE_UNKNOWN') return;" }],
    scenarios: ['close-race'],
    invariants: ['unsubscribe_after_ack'],
  },
  {
    name: 'ack-never-closes',
    description: 'an unsubscribe ACK is never taken: the subscription stays closing and the timer retries',
    patches: [{ file: 'reducer-responses.ts', find: stateTest, replace: '  return;' }],
    scenarios: ['close-race'],
    invariants: ['unsubscribe_after_ack'],
  },
  {
    name: 'subscribe-error-taken-as-ack',
    description: 'a resources/subscribe answered with an error (a restarted server warming up) is taken as its ACK: never retried',
    patches: [{ file: 'reducer-responses.ts', find: "  if (outcome.type === 'error' || broken) {", replace: '  if (broken) {' }],
    scenarios: ['era-both'],
    invariants: ['server_subscription_missing'],
  },
  {
    name: 'bad-response-id-audited',
    description: 'a response whose id is not a positive integer is audited as an unknown answer instead of rejected',
    patches: [{ file: 'reducer-responses.ts', find: '  if (requestId === null) {', replace: '  if (requestId === null && rawRequestId === undefined) {' }],
    scenarios: ['malformed-read-response'],
    invariants: ['malformed_response_unrejected'],
  },
  {
    name: 'old-session-update-unaudited',
    description: "an updated on an ended session's stream is ignored without its OLD_SESSION_NOTIFICATION audit",
    patches: [{ file: 'reducer-notifications.ts', find: "    d.emit({\n      type: 'AuditWritten',\n      kind: 'OLD_SESSION_NOTIFICATION',", replace: "    void ({\n      type: 'AuditWritten',\n      kind: 'OLD_SESSION_NOTIFICATION'," }],
    scenarios: ['old-session-notification'],
    invariants: ['notification_unrecorded'],
  },
  {
    name: 'old-session-audit-without-uri',
    description: "the OLD_SESSION_NOTIFICATION audit of an ended session's updated names no URI",
    patches: [{ file: 'reducer-notifications.ts', find: "      uri: notification.type === 'updated' ? notification.uri : '',", replace: "      uri: ''," }],
    scenarios: ['old-session-notification'],
    invariants: ['notification_unrecorded'],
  },
  {
    name: 'old-connection-update-routed',
    description: "2026-07-28: an updated on an ended connection's stream is routed like a current one (no session test): its audit, if any, says a listen mismatched, not an old session's notification",
    patches: [{ file: 'reducer-notifications.ts', find: '  if (!d.v.connected || sessionGeneration !== d.v.sessionGeneration) {\n    const uri = isObject(params)', replace: '  if (!d.v.connected) {\n    const uri = isObject(params)' }],
    scenarios: ['era2026-swarm'],
    invariants: ['notification_unrecorded'],
  },
  {
    name: 'stray-update-unaudited',
    description: 'an updated of a URI never subscribed is ignored without its UNSUBSCRIBED_NOTIFICATION audit',
    patches: [{ file: 'reducer-notifications.ts', find: "    d.emit({ type: 'AuditWritten', kind: 'UNSUBSCRIBED_NOTIFICATION',", replace: "    if (sub !== undefined) d.emit({ type: 'AuditWritten', kind: 'UNSUBSCRIBED_NOTIFICATION'," }],
    scenarios: ['old-session-notification'],
    invariants: ['notification_unrecorded'],
  },
  {
    name: 'malformed-update-unrejected',
    description: 'an updated whose uri is not a URI is dropped without its typed rejection',
    patches: [{ file: 'reducer-notifications.ts', find: "    d.emit({ type: 'ProtocolRejected', rejection: notification.rejection });", replace: '    void notification.rejection;' }],
    scenarios: ['old-session-notification'],
    invariants: ['notification_unrecorded'],
  },
  {
    name: 'coalesce-outside-window',
    description: 'on a server seen to duplicate, a pulse is coalesced even when no read of its resource opened a window',
    patches: [{ file: 'reducer-notifications.ts', find: " || d.timerDeadline('debounce', uri) <= d.nowMs) return false;", replace: ') return false;' }],
    scenarios: ['duplicate-storm'],
    invariants: ['notified_unread'],
  },
];

/** late-unsubscribe-ack (sim/actors/serving.ts): an ACK that arrives after the retry's own closed the subscription. */
const ackInClosed: PlantedBug = {
  name: 'ack-taken-in-any-state',
  description: "an unsubscribe ACK is taken whatever the subscription's state: a late one reaching a CLOSED subscription asks for a transition that does not exist",
  patches: [{ file: 'reducer-responses.ts', find: stateTest, replace: '  void sub.state;' }],
  scenarios: ['lost-unsubscribe-ack'],
  invariants: [],
};

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ackInClosed, ...ignoringClients]) loaded.set(bug.name, await plantedClient(bug));
});

describe('late-unsubscribe-ack', () => {
  it('reaches a CLOSED subscription with a late ACK: a client that takes it in any state throws, the reference does not', () => {
    const scenario = findScenario('lost-unsubscribe-ack')!;
    let thrown: string | null = null;
    for (let index = 0; index < 100 && thrown === null; index++) {
      const seed = deriveSeed(rootSeed, index);
      runInterleaving(seed, scenario, loaded.get(unpatchedControl.name)!, { trace: false, record: false });
      try {
        runInterleaving(seed, scenario, loaded.get(ackInClosed.name)!, { trace: false, record: false });
      } catch (error) {
        thrown = String(error);
      }
    }
    expect(thrown).toMatch(/no transition from CLOSED on unsubscribe_acked/);
  });
});

describe('planted bugs of unsubscribe_after_ack, server_subscription_missing, notification_unrecorded and notified_unread (coalescing)', () => {
  it.each(ignoringClients.map((bug) => [bug.name, bug] as const))('%s: its scenario catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
    expectCaughtAndShrunk('reducer-io', rootSeedOf[bug.name] ?? rootSeed, searchInterleavings, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, bug.scenarios[0]);
  });
}, 600_000);
