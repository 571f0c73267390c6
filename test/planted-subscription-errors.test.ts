/**
 * Planted bugs of a client whose subscribe and unsubscribe can fail (scenario subscription-errors: a quarter of those
 * answers are transient server errors, and the server did not act on them): a copy of the reference core that takes an
 * error answering an unsubscribe for its acknowledgement (so the server keeps notifying a subscription the application
 * gave up); one that takes an older generation's unsubscribe answer for the current one's; and the reference as it was
 * before this scenario, which forgot an older generation's unacknowledged unsubscribe when the application
 * re-subscribed during the close, so a close from RECONCILIATION_REQUIRED (the new subscribe failed) sent nothing
 * while the server still held the URI. Each is caught by server_subscription_kept on a seed where the unpatched copy
 * violates nothing, and shrinks to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'unsubscribe-error-taken-as-ack',
    description: 'an error answering an unsubscribe closes the subscription as if acknowledged',
    patches: [{ file: 'reducer-responses.ts', find: "  // An error, or an answer that is no ACK: stays closing; the timer retries.\n  if (outcome.type === 'error' || broken) return;", replace: '  if (broken) return;' }],
    scenarios: ['subscription-errors'],
    invariants: ['server_subscription_kept'],
  },
  {
    name: 'unsubscribe-answer-of-any-generation',
    description: "an older generation's unsubscribe answer closes the current generation's close",
    patches: [
      {
        file: 'reducer-responses.ts',
        find: "  if (sub === undefined || sub.subscriptionGeneration !== request.subscriptionGeneration) return;\n  if (sub.state !== 'UNSUBSCRIBING' && sub.state !== 'UNSUBSCRIBE_UNKNOWN') return;",
        replace: "  if (sub === undefined) return;\n  if (sub.state !== 'UNSUBSCRIBING' && sub.state !== 'UNSUBSCRIBE_UNKNOWN') return;",
      },
    ],
    scenarios: ['subscription-errors'],
    invariants: ['server_subscription_kept'],
  },
  {
    name: 'unsubscribe-owed-forgotten',
    description: "a re-subscribe during a close forgets that close's unacknowledged unsubscribe",
    patches: [{ file: 'reducer.ts', find: 'd.setUnsubscribeOwed(uri, true);', replace: 'void 0;' }],
    scenarios: ['subscription-errors'],
    invariants: ['server_subscription_kept'],
  },
];

describePlantedBugs('planted bugs of a client whose subscribe and unsubscribe fail', 'subscription-errors', 0x5eed_0f15, bugs, 600);
