/**
 * Planted bugs of a client that takes any answer to a subscribe or unsubscribe for an acknowledgement (scenario
 * malformed-acks: a third of those answers carry a result that is not an object): a copy of the reference core that
 * never checks the result's shape (core/reducer-responses.ts brokenAck always false), so such an answer starts a
 * subscription or closes one without a typed rejection; and one that checks it only for answers it still waits for
 * (the shape test after the generation test, as the reference had it), so a broken answer to a superseded request
 * goes unrecorded. Each is caught on a seed where the unpatched copy violates nothing, and shrinks to at most 30
 * timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'ack-shape-unchecked',
    description: 'a subscribe or unsubscribe answer is an acknowledgement whatever its result',
    patches: [{ file: 'reducer-responses.ts', find: "  if (outcome.type !== 'result' || isObject(outcome.result)) return false;", replace: '  if (outcome.type !== null) return false;' }],
    scenarios: ['malformed-acks'],
    invariants: ['malformed_response_unrejected'],
  },
  {
    name: 'ack-shape-checked-late',
    description: 'a subscribe answer is checked for its shape only when it answers the subscription the client still waits for',
    patches: [
      { file: 'reducer-responses.ts', find: "  const broken = brokenAck(d, 'resources/subscribe', outcome);\n  const sub = d.subscription(request.uri);", replace: '  const sub = d.subscription(request.uri);' },
      { file: 'reducer-responses.ts', find: "  if (outcome.type === 'error' || broken) {\n    subscribeFailed(d, request.uri);", replace: "  if (outcome.type === 'error' || brokenAck(d, 'resources/subscribe', outcome)) {\n    subscribeFailed(d, request.uri);" },
    ],
    scenarios: ['malformed-acks'],
    invariants: ['malformed_response_unrejected'],
  },
];

describePlantedBugs('planted bugs of a client that takes any answer for an acknowledgement', 'acks', 0x5eed_0f14, bugs, 600);
