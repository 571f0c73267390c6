/**
 * Planted bugs of a 2026-07-28 client that trusts what it is handed (scenario era2026-malformed-input, the era's hostile
 * inputs of sim/actors/hostile-inputs-2026.ts): a copy of the reference core that takes any text for a protocol era
 * (core/era.ts checkEra), one that takes any positive number for a subscription id (subscriptionIdOf: a fraction or an
 * id beyond 2^53 is then audited as an unknown listen, not as no id), and one that checks an ack's shape only for a
 * listen waiting for it (core/listen.ts routeAck, as the reference had it: a malformed ack for another listen is
 * audited, not rejected); and (scenario era2026-tags) one that ignores an updated naming no live acknowledged listen
 * of its URI without the LISTEN_MISMATCH audit, and (era2026-listen-ends) one that takes an ack honoring a URI its
 * listen did not ask for without one, and (era2026-swarm) one whose audit of an updated without an id carries a
 * request id that is no number (notification_unrecorded). Each is caught on a seed where the unpatched copy
 * violates nothing, and shrinks to at most 30 timeline lines.
 */
import { describePlantedBugs } from './planted-search.js';
import type { PlantedBug } from './planting.js';

const bugs: readonly PlantedBug[] = [
  {
    name: 'era-any-text',
    description: 'Connected.era is any text: only a non-string is rejected',
    patches: [{ file: 'era.ts', find: "(typeof value === 'string' && (protocolEras as readonly string[]).includes(value))", replace: "typeof value === 'string'" }],
    scenarios: ['era2026-malformed-input'],
    invariants: ['malformed_input_accepted'],
  },
  {
    name: 'subscription-id-any-number',
    description: 'a listen notification whose subscription id is a positive number that is no safe integer names a listen',
    patches: [{ file: 'era.ts', find: "typeof id === 'number' && Number.isSafeInteger(id) && id > 0", replace: "typeof id === 'number' && id > 0" }],
    scenarios: ['era2026-malformed-input'],
    invariants: ['malformed_input_not_inert'],
  },
  {
    name: 'listen-ack-shape-checked-late',
    description: 'an ack whose notifications is no object is rejected only when it names a listen waiting for its ack',
    patches: [
      { file: 'listen.ts', find: '  const honored = honoredUris(params);\n  if (honored === null) {', replace: '  const early = 0;\n  if (early !== 0) {' },
      { file: 'listen.ts', find: "    return mismatch(d, uri, id, `ack for a listen that is not waiting for one (${sub?.state ?? 'none'})`);\n  }\n", replace: "    return mismatch(d, uri, id, `ack for a listen that is not waiting for one (${sub?.state ?? 'none'})`);\n  }\n  const honored = honoredUris(params);\n  if (honored === null) {\n    d.emit({ type: 'ProtocolRejected', rejection: { kind: 'MalformedNotification', detail: 'subscriptions/acknowledged params.notifications must be an object' } });\n    return none;\n  }\n" },
    ],
    scenarios: ['era2026-malformed-input'],
    invariants: ['malformed_input_accepted'],
  },
  {
    name: 'listen-mismatch-unaudited',
    description: 'a 2026-07-28 updated that names no live acknowledged listen of its URI is ignored without an audit',
    patches: [{ file: 'listen.ts', find: "  d.emit({ type: 'AuditWritten', kind: 'LISTEN_MISMATCH', uri, requestId, detail });", replace: '  void [uri, requestId, detail];' }],
    scenarios: ['era2026-tags'],
    invariants: ['notification_unrecorded'],
  },
  {
    name: 'ack-wider-unaudited',
    description: 'an ack honoring a URI its listen did not ask for is taken without an audit',
    patches: [{ file: 'listen.ts', find: '  if (extra.length > 0) mismatch(', replace: '  if (extra.length < 0) mismatch(' }],
    scenarios: ['era2026-listen-ends'],
    invariants: ['notification_unrecorded'],
  },
  {
    name: 'listen-mismatch-id-null',
    description: 'an updated without a subscription id is audited with a request id that is no number (null)',
    patches: [{ file: 'listen.ts', find: "  if (id === null) return mismatch(d, uri, 0, 'updated without a subscription id');", replace: "  if (id === null) return mismatch(d, uri, id as unknown as number, 'updated without a subscription id');" }],
    scenarios: ['era2026-swarm'],
    invariants: ['notification_unrecorded'],
  },
];

describePlantedBugs('planted bugs of a 2026-07-28 client that trusts its era, its subscription ids and its acks, or ignores a mismatch silently', 'era-inputs', 0x5eed_0f16, bugs, 200);
