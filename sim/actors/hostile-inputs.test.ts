/**
 * The malformed-input fault (hostile-inputs.ts) and the read kinds of malformed-read-response: every kind is made
 * within the interleavings the mutation gate runs (scripts/mutation-gate.ts), and the reference answers each one as
 * its checker wants (the scenario passes); a kind the draw never reaches would be a part of the gate that judges nothing.
 */
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../../core/reducer.js';
import type { ClientInput } from '../../core/types.js';
import { findScenario } from '../../scenarios/catalog.js';
import { deriveSeed } from '../prng.js';
import { runInterleaving } from '../world.js';
import { hostileInputFor, hostileKindCount, hostileKindsOf, type HostileTable } from './hostile-inputs.js';
import { malformedReadKinds } from './malformed-reads.js';

const inputTypes: readonly ClientInput['type'][] = [
  'Connected',
  'Disconnected',
  'ResponseArrived',
  'NotificationArrived',
  'TimerFired',
  'SubscribeCommanded',
  'UnsubscribeCommanded',
  'ServeCommanded',
  'AuthorizationChanged',
  'CompletenessTaskCommanded',
  'DiscoverCommanded',
];

/** The kinds named in the timelines of interleavings [0, count) of `scenario` (its `[truth]` notes), and whether each passed. */
function kindsMade(scenario: string, count: number, note: RegExp): { kinds: Set<string>; failures: string[] } {
  const kinds = new Set<string>();
  const failures: string[] = [];
  for (let index = 0; index < count; index++) {
    const result = runInterleaving(deriveSeed(1, index), findScenario(scenario)!, referenceClient, { trace: true, record: false });
    if (result.oracle.violations.length > 0) failures.push(`${index}: ${result.oracle.violations[0]!.invariant}`);
    for (const line of result.timeline!) {
      const match = note.exec(line);
      if (match !== null) kinds.add(match[1]!);
    }
  }
  return { kinds, failures };
}

describe('malformed-input', () => {
  it('every draw of an input type names one of its kinds, each of its own kinds drawn four times as often as each shared one', () => {
    for (const type of inputTypes) {
      const counts = new Map<string, number>();
      const real = { type, nowMs: 0, jitter: 0, sessionGeneration: 1, capabilities: { resources: true, subscribe: true, listChanged: true, snapshotId: false }, timer: { kind: 'debounce', uri: 'file:///a' }, deadlineMs: 5, uri: 'file:///a', subject: 'alice', allowed: false, requestId: 3, outcome: { type: 'result', result: {} }, method: 'notifications/resources/updated', params: { uri: 'file:///a' }, task: 't' } as unknown as ClientInput;
      for (let drawn = 0; drawn < hostileKindCount(type); drawn++) {
        const made = hostileInputFor(real, drawn);
        counts.set(made.kind, (counts.get(made.kind) ?? 0) + 1);
        if (made.expect === 'rejected') expect(made.rejection, made.kind).not.toBeNull();
      }
      expect([...counts.keys()].sort(), type).toEqual([...hostileKindsOf(type)].sort());
      const shared = hostileKindsOf('Connected').filter((kind) => inputTypes.every((other) => hostileKindsOf(other).includes(kind)));
      const own = hostileKindsOf(type).length - shared.length;
      for (const [kind, count] of counts) expect(count, `${type} ${kind}`).toBe(hostileKindsOf(type).indexOf(kind) < own ? 4 : 1);
    }
  });

  // The gate runs [0, 9), 11, 22 and 29 (scripts/mutation-gate.ts): the first of each kind that kills a mutant there;
  // the rarest kinds (AuthorizationChanged's allowed-text at 25, allowed-missing at 54) kill none the others do not.
  it('interleavings [0, 60) make every kind, and the reference passes each', () => {
    const all = new Set(inputTypes.flatMap((type) => hostileKindsOf(type)));
    const { kinds, failures } = kindsMade('malformed-input', 60, /the harness hands the client (\S+)/);
    expect(failures).toEqual([]);
    expect([...all].filter((kind) => !kinds.has(kind))).toEqual([]);
  }, 60_000);
});

describe('malformed-input on 2026-07-28 (era2026-malformed-input, sim/actors/hostile-inputs-2026.ts)', () => {
  const tables2026: readonly HostileTable[] = ['Connected2026', 'Notification2026', 'Ack2026'];

  it('the era tables hold their type\'s kinds and the era\'s, each of them four times as often as a shared one', () => {
    const base: Record<string, HostileTable> = { Connected2026: 'Connected', Notification2026: 'NotificationArrived', Ack2026: 'NotificationArrived' };
    const real = { type: 'NotificationArrived', nowMs: 0, jitter: 0, sessionGeneration: 1, method: 'notifications/subscriptions/acknowledged', params: { notifications: { resourceSubscriptions: ['file:///a'] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 5 } }, capabilities: { resources: true, subscribe: true, listChanged: true, snapshotId: false }, era: '2026-07-28' } as unknown as ClientInput;
    for (const table of tables2026) {
      for (const kind of hostileKindsOf(base[table]!)) expect(hostileKindsOf(table), `${table} ${kind}`).toContain(kind);
      const counts = new Map<string, number>();
      for (let drawn = 0; drawn < hostileKindCount(table); drawn++) {
        const made = hostileInputFor(real, drawn, table);
        counts.set(made.kind, (counts.get(made.kind) ?? 0) + 1);
      }
      expect([...counts.keys()].sort(), table).toEqual([...hostileKindsOf(table)].sort());
    }
  });

  // The gate runs [0, 3) and 32 (scripts/mutation-gate.ts); every kind of the era's tables is made by 33 (era-long at 32).
  it('interleavings [0, 33) make every kind of the era, and the reference passes each', () => {
    const own = new Set(tables2026.flatMap((table) => hostileKindsOf(table)).filter((kind) => /^(era|subscription-id|ack)-/.test(kind)));
    expect(own.size).toBe(17);
    const { kinds, failures } = kindsMade('era2026-malformed-input', 33, /the harness hands the client (\S+)/);
    expect(failures).toEqual([]);
    expect([...own].filter((kind) => !kinds.has(kind))).toEqual([]);
  }, 60_000);
});

describe('malformed-read-response', () => {
  it('the mutation gate interleavings [0, 10) serve every kind and a not-found spelled -32602, and the reference passes each', () => {
    const { kinds, failures } = kindsMade('malformed-read-response', 10, /\[truth\] read answer of \S+ served (\S+)/);
    expect(failures).toEqual([]);
    expect(malformedReadKinds.filter((kind) => !kinds.has(kind))).toEqual([]);
    const spelled = kindsMade('malformed-read-response', 10, /\[truth\] not-found answer of \S+ (spelled) -32602/).kinds;
    expect(spelled.has('spelled')).toBe(true);
  }, 60_000);
});
