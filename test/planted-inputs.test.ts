/**
 * Planted bugs for inputs with a malformed field (the malformed-input fault, scenario of the same name;
 * sim/actors/hostile-inputs.ts) and for the read answers malformed-read-response gained with it (errors, blobs,
 * limits, a not-found spelled -32602): a copy of the reference core that is lenient, or strict, where SPEC §11 says
 * otherwise. Each is caught by the invariant named, on a seed where the unpatched copy violates nothing, and
 * shrinks to at most 30 lines.
 */
import { beforeAll, describe, it } from 'vitest';
import type { ClientUnderTest } from '../core/types.js';
import { expectCaughtAndShrunk } from './planted-search.js';
import { plantedClient, unpatchedControl, type PlantedBug } from './planting.js';

const rootSeed = 0x5eed_0f12;
const searchInterleavings = 200;

const inputBugs: readonly PlantedBug[] = [
  {
    name: 'capabilities-not-checked',
    description: 'Connected checks its session number but not its capabilities (null, an array, a string for a flag)',
    patches: [{ file: 'input-check.ts', find: "checkGeneration(input.sessionGeneration, 'sessionGeneration') ?? checkCapabilities(input.capabilities);", replace: "checkGeneration(input.sessionGeneration, 'sessionGeneration');" }],
    scenarios: ['malformed-input'],
    invariants: ['malformed_input_accepted'],
  },
  {
    name: 'deadline-not-checked',
    description: 'TimerFired checks its timer but not its deadline (NaN, a string)',
    patches: [{ file: 'input-check.ts', find: "checkTimer(input.timer) ?? checkTime(input.deadlineMs, 'deadlineMs');", replace: 'checkTimer(input.timer);' }],
    scenarios: ['malformed-input'],
    invariants: ['malformed_input_accepted'],
  },
  {
    name: 'response-envelope-any-object',
    description: 'any object is taken as a response envelope, whatever its type (neither result nor error)',
    patches: [{ file: 'input-check.ts', find: "return isObject(value) && (value.type === 'result' || value.type === 'error');", replace: 'return isObject(value);' }],
    scenarios: ['malformed-input'],
    invariants: ['malformed_input_accepted'],
  },
  {
    name: 'unknown-notification-is-list-changed',
    description: 'every notification method other than resources/updated is taken as list_changed',
    patches: [{ file: 'protocol.ts', find: "  if (method === 'notifications/resources/list_changed') return { type: 'list-changed' };", replace: "  if (typeof method === 'string') return { type: 'list-changed' };" }],
    scenarios: ['malformed-input'],
    invariants: ['malformed_input_accepted'],
  },
  {
    name: 'absent-resources-is-false',
    description: 'capabilities without `resources` are taken as a server without resources (it means true: callers written before it existed)',
    patches: [{ file: 'input-check.ts', find: 'const resources = (value.resources as unknown) !== false;', replace: 'const resources = (value.resources as unknown) === true;' }],
    scenarios: ['malformed-input'],
    invariants: ['malformed_input_not_inert'],
  },
  {
    name: 'updated-extra-params-rejected',
    description: 'an updated notification whose params carry more than uri and _meta is rejected (the schema allows more)',
    patches: [
      {
        file: 'protocol.ts',
        find: "    const uri = checkUri(params.uri, 'resources/updated params.uri');",
        replace:
          "    if (Object.keys(params).some((key) => key !== 'uri' && key !== '_meta')) return { type: 'rejected', rejection: { kind: 'MalformedNotification', detail: 'resources/updated params has unknown fields' } };\n    const uri = checkUri(params.uri, 'resources/updated params.uri');",
      },
    ],
    scenarios: ['malformed-input'],
    invariants: ['malformed_input_not_inert'],
  },
];

const readBugs: readonly PlantedBug[] = [
  {
    name: 'read-blob-rejected',
    description: 'only text content items are read: a base64 blob is taken as an item without a body',
    patches: [{ file: 'protocol.ts', find: ": typeof item.blob === 'string' ? 'blob' : null;", replace: ': null;' }],
    scenarios: ['malformed-read-response'],
    invariants: ['read_answer_misjudged'],
  },
  {
    name: 'read-error-code-not-checked',
    description: 'a read error whose code is not an integer is taken as a failure, not a malformed answer',
    patches: [{ file: 'protocol.ts', find: "    if (typeof outcome.code !== 'number' || !Number.isInteger(outcome.code)) {", replace: "    if (typeof outcome.code !== 'number') {" }],
    scenarios: ['malformed-read-response'],
    invariants: ['read_answer_misjudged', 'answer_unrecorded'],
  },
  {
    name: 'read-not-found-message-ignored',
    description: 'any -32602 error is taken as not-found, whatever its message (an invalid-params failure pends a tombstone)',
    patches: [{ file: 'protocol.ts', find: "return code === invalidParamsCode && typeof message === 'string' && /not found/i.test(message);", replace: 'return code === invalidParamsCode;' }],
    scenarios: ['malformed-read-response'],
    invariants: ['malformed_read_accepted', 'late_tombstone'],
  },
];

/** SPEC §3.2, §3.5: a client polls only where the server offers no subscribe (`subscribe_unsent`, sim/checkers/offered.ts). */
const subscribeBugs: readonly PlantedBug[] = [
  {
    name: 'subscribe-deferred-to-reconnect',
    description: 'a subscribe command while connected only records the subscription; it is sent at the next (re)connect',
    patches: [{ file: 'reducer.ts', find: "  if (d.v.connected) startSubscription(d, uri, 'subscribe_sent');", replace: '' }],
    scenarios: ['swarm'],
    invariants: ['subscribe_unsent'],
  },
  {
    name: 'subscribe-capability-dropped',
    description: 'the normalized capabilities lose subscribe: the client polls on every server',
    patches: [{ file: 'input-check.ts', find: '    subscribe: resources && value.subscribe,', replace: '    subscribe: false,' }],
    scenarios: ['swarm'],
    invariants: ['subscribe_unsent'],
  },
];

const loaded = new Map<string, ClientUnderTest<any>>();
beforeAll(async () => {
  for (const bug of [unpatchedControl, ...inputBugs, ...readBugs, ...subscribeBugs]) loaded.set(bug.name, await plantedClient(bug));
});

describe('planted bugs of input and read-answer validation', () => {
  it.each([...inputBugs, ...readBugs, ...subscribeBugs].map((bug) => [bug.name, bug] as const))('%s: its scenario catches it and it shrinks to <= 30 timeline lines', (_name, bug) => {
    expectCaughtAndShrunk('inputs', rootSeed, searchInterleavings, bug, loaded.get(bug.name)!, loaded.get(unpatchedControl.name)!, bug.scenarios[0]!);
  });
}, 600_000);
