/**
 * outbox_lineage_broken (sim/checkers/outbox-lineage.ts) with hand-built steps: for a step client (the world calls
 * expectLineage with its declared derivedEntriesPerVersion) every accepted version writes, in its step, an upsert
 * naming its digest with exactly that many entries, each traced by a DerivedEntryWritten of that URI and digest.
 * Module clients (no expectLineage) keep no outbox and are not judged for it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { Oracle, invariantIndex } from '../oracle.js';
import { truth } from '../../test/oracle-steps.js';

const uri = 'test://static/resource/1';
let oracle: Oracle;
const violated = (): number => oracle.counts[invariantIndex.outbox_lineage_broken]!;

const accepted = (digest: string): ClientEffect => ({
  type: 'VersionAccepted', uri, text: 'x', encoding: 'text', mimeType: 'text/plain', digest, readOrdinal: 1, watermarkBefore: 0, subscriptionGeneration: 1, sessionGeneration: 1,
});
const derived = (entryId: string, digest: string, at = uri): ClientEffect => ({ type: 'DerivedEntryWritten', entryId, uri: at, digest, subject: 'alice' });
const upsert = (sequence: number, digest: string, entries: string[], supersedes: string[] = []): ClientEffect => ({
  type: 'OutboxEntryWritten', uri, sequence, operation: 'upsert', digest, derivedEntries: entries, supersedes,
});

beforeEach(() => {
  oracle = new Oracle([uri], 1);
});

describe('outbox_lineage_broken: an accepted version and its upsert', () => {
  it('passes the declared number of traced entries in the accept step', () => {
    oracle.outboxLineage.expectLineage(2);
    oracle.judge([accepted('d1'), derived('e0', 'd1'), derived('e1', 'd1'), upsert(1, 'd1', ['e0', 'e1'])], truth({ timeMs: 10 }));
    expect(violated()).toBe(0);
  });

  it('fails an accept without an upsert naming its digest', () => {
    oracle.outboxLineage.expectLineage(2);
    oracle.judge([accepted('d1')], truth({ timeMs: 10 }));
    expect(violated()).toBe(1);
    oracle.judge([accepted('d2'), derived('e0', 'd1'), derived('e1', 'd1'), upsert(2, 'd1', ['e0', 'e1'])], truth({ timeMs: 20 }));
    expect(violated()).toBe(2);
  });

  it('fails an upsert with more or fewer entries than declared', () => {
    oracle.outboxLineage.expectLineage(2);
    oracle.judge([accepted('d1'), derived('e0', 'd1'), derived('e1', 'd1'), derived('e2', 'd1'), upsert(1, 'd1', ['e0', 'e1', 'e2'])], truth({ timeMs: 10 }));
    expect(violated()).toBe(1);
    oracle.judge([accepted('d2'), upsert(2, 'd2', [], ['e0', 'e1', 'e2'])], truth({ timeMs: 20 }));
    expect(violated()).toBe(2);
  });

  it('fails an entry traced to another digest or URI', () => {
    oracle.outboxLineage.expectLineage(1);
    oracle.judge([accepted('d1'), derived('e0', 'd0'), upsert(1, 'd1', ['e0'])], truth({ timeMs: 10 }));
    expect(violated()).toBe(1);
    oracle.judge([accepted('d2'), derived('e1', 'd2', 'test://other'), upsert(2, 'd2', ['e1'], ['e0'])], truth({ timeMs: 20 }));
    expect(violated()).toBe(2);
  });

  it('does not judge a client that keeps no outbox (module clients)', () => {
    oracle.judge([accepted('d1')], truth({ timeMs: 10 }));
    expect(violated()).toBe(0);
  });

  it('fails a delete that names another digest than the live upsert (or any when none is live)', () => {
    const remove = (sequence: number, digest: string, entries: string[]): ClientEffect => ({
      type: 'OutboxEntryWritten', uri, sequence, operation: 'delete', digest, derivedEntries: entries, supersedes: [],
    });
    oracle.judge([accepted('d1'), upsert(1, 'd1', [])], truth({ timeMs: 10 }));
    oracle.judge([remove(2, 'd1', [])], truth({ timeMs: 20 }));
    oracle.judge([remove(3, '', [])], truth({ timeMs: 30 }));
    expect(violated()).toBe(0);
    oracle.judge([accepted('d2'), upsert(4, 'd2', [])], truth({ timeMs: 40 }));
    oracle.judge([remove(5, '', [])], truth({ timeMs: 50 }));
    expect(violated()).toBe(1);
    oracle.judge([remove(6, 'd2', [])], truth({ timeMs: 60 }));
    expect(violated()).toBe(2);
  });
});
