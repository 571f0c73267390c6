import { describe, expect, test } from 'vitest';
import { contentDigest } from './kernel-imports.js';
import { readIndex } from './read-path.js';
import { defaultConfig, initialState, recover, step } from './reducer.js';
import type { ChangeEntry, IndexerEffect, IndexerInput, IndexerState } from './types.js';

const uri = 'mcp://docs/a';
const text = (word: string): string => `the kalox ${word} of lomix.\n\nand pamix is here.\n`;
const upsert = (sequence: number, body: string, contentType = 'document'): ChangeEntry => ({
  uri, sequence, operation: 'upsert', digest: contentDigest(body), contentType, text: body, subject: 'alice',
});
const of = <T extends IndexerEffect['type']>(effects: IndexerEffect[], type: T): Extract<IndexerEffect, { type: T }>[] =>
  effects.filter((effect): effect is Extract<IndexerEffect, { type: T }> => effect.type === type);

function run(state: IndexerState, inputs: IndexerInput[]): { state: IndexerState; effects: IndexerEffect[] } {
  let current = state;
  const effects: IndexerEffect[] = [];
  for (const input of inputs) {
    const result = step(current, input);
    current = result.state;
    effects.push(...result.effects);
  }
  return { state: current, effects };
}

const started = (): IndexerState => run(initialState(defaultConfig()), [{ type: 'Started', nowMs: 0 }]).state;

describe('indexer reducer', () => {
  test('the metadata loop commits at once; the semantic task waits for the debounce window', () => {
    const { state, effects } = run(started(), [{ type: 'ChangeArrived', nowMs: 10, entry: upsert(1, text('vix')) }]);
    expect(of(effects, 'MetadataCommitted')).toMatchObject([{ uri, sequence: 1, status: 'pending' }]);
    expect(of(effects, 'EmbedRequested')).toEqual([]);
    expect(of(effects, 'TimerArmed')).toMatchObject([{ kind: 'debounce', key: uri, atMs: 5_010 }]);
    const fired = step(state, { type: 'TimerFired', nowMs: 5_010, kind: 'debounce', key: uri });
    expect(of(fired.effects, 'EmbedRequested')).toHaveLength(1);
  });

  test('changes inside the window merge into one task on the latest version', () => {
    const { state } = run(started(), [
      { type: 'ChangeArrived', nowMs: 10, entry: upsert(1, text('vix')) },
      { type: 'ChangeArrived', nowMs: 900, entry: upsert(2, text('nekx')) },
    ]);
    const fired = step(state, { type: 'TimerFired', nowMs: 5_010, kind: 'debounce', key: uri });
    const requests = of(fired.effects, 'EmbedRequested');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.texts.join(' ')).toContain('nekx');
  });

  test('version guard: an older event arriving late is ignored and commits nothing', () => {
    const { state } = run(started(), [{ type: 'ChangeArrived', nowMs: 10, entry: upsert(5, text('vix')) }]);
    const late = step(state, { type: 'ChangeArrived', nowMs: 20, entry: upsert(3, text('old')) });
    expect(of(late.effects, 'MetadataCommitted')).toEqual([]);
    expect(of(late.effects, 'EventIgnored')).toHaveLength(1);
    expect(late.state.durable.meta[uri]!.sequence).toBe(5);
  });

  test('a delete bypasses the debounce: tombstone, reads refuse, purge sent, and a late older upsert cannot resurrect', () => {
    const { state } = run(started(), [{ type: 'ChangeArrived', nowMs: 10, entry: upsert(1, text('vix')) }]);
    const deleted = step(state, { type: 'ChangeArrived', nowMs: 20, entry: { ...upsert(2, ''), operation: 'delete', text: null } });
    expect(of(deleted.effects, 'MetadataCommitted')).toMatchObject([{ deleted: true, sequence: 2 }]);
    expect(of(deleted.effects, 'VectorWriteRequested')).toMatchObject([{ write: { purge: true, uri } }]);
    expect(readIndex(deleted.state, uri, []).served).toBe(false);
    const late = step(deleted.state, { type: 'ChangeArrived', nowMs: 30, entry: upsert(1, text('vix')) });
    expect(of(late.effects, 'EventIgnored')).toHaveLength(1);
  });

  test('an embedding outage never blocks metadata: the next change still commits in its own step', () => {
    const { state, effects } = run(started(), [
      { type: 'ChangeArrived', nowMs: 10, entry: upsert(1, text('vix')) },
      { type: 'TimerFired', nowMs: 5_010, kind: 'debounce', key: uri },
    ]);
    const request = of(effects, 'EmbedRequested')[0]!;
    const failed = run(state, [
      { type: 'EmbedFailed', nowMs: 5_100, requestId: request.requestId, reason: 'outage', retryAfterMs: 0 },
      { type: 'ChangeArrived', nowMs: 5_200, entry: upsert(2, text('nekx')) },
    ]);
    expect(of(failed.effects, 'MetadataCommitted')).toMatchObject([{ sequence: 2 }]);
    expect(of(failed.effects, 'TimerArmed').some((timer) => timer.kind === 'embed-retry')).toBe(true);
  });

  test('a stale timer is a no-op, and recovery keeps only the durable state', () => {
    const { state } = run(started(), [{ type: 'ChangeArrived', nowMs: 10, entry: upsert(1, text('vix')) }]);
    const stale = step(state, { type: 'TimerFired', nowMs: 4_000, kind: 'debounce', key: uri });
    expect(stale.effects).toEqual([]);
    const recovered = recover(state);
    expect(recovered.durable).toBe(state.durable);
    expect(recovered.volatile.timers).toEqual({});
    const resumed = step(recovered, { type: 'Started', nowMs: 9_000 });
    expect(of(resumed.effects, 'TimerArmed').some((timer) => timer.kind === 'debounce' && timer.key === uri)).toBe(true);
  });

  test('a write acknowledged after a newer invalidation withdrew its version is not published (index-gate seed 3957169151)', () => {
    // v1's vectors are written; v3 arrives, then v2's invalidation (older than the row, newer than the write): the
    // store's ack of v1's write must not publish v1, which v2 withdrew (deleted_served at 54,000 ms of that seed).
    const first = run(started(), [
      { type: 'ChangeArrived', nowMs: 10, entry: upsert(1, text('vix')) },
      { type: 'TimerFired', nowMs: 5_010, kind: 'debounce', key: uri },
    ]);
    const request = of(first.effects, 'EmbedRequested')[0]!;
    const embedded = step(first.state, { type: 'EmbedResponded', nowMs: 5_100, requestId: request.requestId, model: request.model, vectors: request.texts.map((_, index) => [1, index, 0]) });
    const write = of(embedded.effects, 'VectorWriteRequested').find((effect) => !effect.write.purge)!.write;
    const later = run(embedded.state, [
      { type: 'ChangeArrived', nowMs: 5_200, entry: upsert(3, text('nekx')) },
      { type: 'ChangeArrived', nowMs: 5_300, entry: { ...upsert(2, ''), operation: 'invalidate', text: null } },
    ]);
    const acked = step(later.state, { type: 'StoreAcked', nowMs: 5_400, writeId: Number(write.writeId) });
    expect(of(acked.effects, 'IndexPublished')).toEqual([]);
    expect(acked.state.durable.meta[uri]!.indexed[write.model]).toBeUndefined();
  });

  test('the input state is never mutated', () => {
    const state = started();
    const before = JSON.stringify(state);
    run(state, [{ type: 'ChangeArrived', nowMs: 10, entry: upsert(1, text('vix')) }, { type: 'TimerFired', nowMs: 5_010, kind: 'debounce', key: uri }]);
    expect(JSON.stringify(state)).toBe(before);
  });
});
