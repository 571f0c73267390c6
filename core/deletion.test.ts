/**
 * Deletion confirmation (SPEC §3.3, §3.6; core/scan.ts reconcileTombstones): a not-found only makes a resource
 * TOMBSTONE_PENDING; a proven catalog that lacks it asks for a not-found read issued after it, and the next
 * proven catalog begun after that evidence confirms the deletion, once. Driven through `step`; effects asserted.
 */
import { describe, expect, it } from 'vitest';
import { initialState, timerKinds, type CoreState } from './state.js';
import { ackOutcome, contentOutcome, effectsOf, notFoundOutcome, readsSent, responded, runInputs, subscribeCommanded, testConfig, timerFired, updated } from './testing.js';
import type { ClientEffect, ClientInput, ServerCapabilities } from './types.js';

const uri = 'file:///a.txt';
const session = 1;
const snapshotCapabilities: ServerCapabilities = { resources: true, subscribe: true, listChanged: true, snapshotId: true };

interface At {
  state: CoreState;
  effects: ClientEffect[];
  nowMs: number;
}

function feed(at: At, nowMs: number, inputs: (nowMs: number) => ClientInput[]): At {
  const result = runInputs(at.state, inputs(nowMs));
  return { state: result.state, effects: result.effects, nowMs };
}

function onlyRequest(effects: readonly ClientEffect[], method: string): number {
  const sent = effectsOf(effects, 'RequestSent').filter((request) => request.method === method);
  expect(sent, `one ${method} sent`).toHaveLength(1);
  return sent[0]!.requestId;
}

/** Subscribed, one version accepted, then a read answered not-found: TOMBSTONE_PENDING on a snapshot-ID server. */
function tombstonePending(): At {
  let at: At = { state: initialState(testConfig()), effects: [], nowMs: 0 };
  at = feed(at, 1, (nowMs) => [{ type: 'Connected', nowMs, jitter: 0, sessionGeneration: session, capabilities: snapshotCapabilities }, subscribeCommanded(nowMs, uri)]);
  at = feed(at, 2, (nowMs) => [responded(nowMs, session, onlyRequest(at.effects, 'resources/subscribe'), ackOutcome)]);
  at = feed(at, 3, (nowMs) => [responded(nowMs, session, readsSent(at.effects)[0]!.requestId, contentOutcome(uri, 'v1'))]);
  at = feed(at, 1_000, (nowMs) => [updated(nowMs, session, uri)]);
  at = feed(at, 1_001, (nowMs) => [responded(nowMs, session, readsSent(at.effects)[0]!.requestId, notFoundOutcome)]);
  expect(effectsOf(at.effects, 'TombstonePending')).toHaveLength(1);
  return at;
}

/** One proven catalog without the URI: a discovery round (command or review timer) answered by one empty snapshot page. */
function provenCatalogWithout(at: At, nowMs: number, snapshotId: string): { at: At; reads: number[] } {
  const review = effectsOf(at.effects, 'TimerArmed').find((timer) => timer.timer.kind === 'discover');
  const start = review === undefined ? feed(at, nowMs, (now) => [{ type: 'DiscoverCommanded', nowMs: now, jitter: 0 }]) : feed(at, review.deadlineMs, (now) => [timerFired(now, review.timer, review.deadlineMs)]);
  const listed = feed(start, start.nowMs + 1, (now) => [responded(now, session, onlyRequest(start.effects, 'resources/list'), { type: 'result', result: { resources: [], snapshotId } })]);
  expect(effectsOf(listed.effects, 'CatalogPublished').map((catalog) => catalog.status)).toEqual(['SNAPSHOT_PROVEN']);
  return { at: listed, reads: readsSent(listed.effects).map((read) => read.requestId) };
}

describe('deletion confirmation', () => {
  it('a not-found, a proven catalog without the URI, a tombstone-check not-found, a later proven catalog: confirmed once, and later catalogs do not confirm it again', () => {
    let at = tombstonePending();
    const confirmations: ClientEffect[] = [];
    const deletes: ClientEffect[] = [];
    let tombstoneChecks = 0;
    for (let round = 0; round < 6; round++) {
      const catalog = provenCatalogWithout(at, at.nowMs + 30_000, `snapshot-${round}`);
      at = catalog.at;
      confirmations.push(...effectsOf(at.effects, 'TombstoneConfirmed'));
      deletes.push(...effectsOf(at.effects, 'OutboxEntryWritten').filter((entry) => entry.operation === 'delete'));
      for (const requestId of catalog.reads) {
        tombstoneChecks++;
        const answered = feed(at, at.nowMs + 5, (nowMs) => [responded(nowMs, session, requestId, notFoundOutcome)]);
        at = { ...answered, effects: [...at.effects, ...answered.effects] };
      }
      if (round === 1) expect(confirmations, 'confirmed by the second proven catalog').toHaveLength(1);
    }
    expect(confirmations).toHaveLength(1);
    expect(deletes).toHaveLength(1);
    // The first catalog asks for evidence; once confirmed, nothing is left to check.
    expect(tombstoneChecks).toBe(1);
  });

  it('a later not-found that lands while the next catalog is being listed does not move the evidence: that catalog confirms', () => {
    const first = provenCatalogWithout(tombstonePending(), 30_000, 'snapshot-0');
    expect(first.reads).toHaveLength(1);
    let at = feed(first.at, first.at.nowMs + 5, (nowMs) => [responded(nowMs, session, first.reads[0]!, notFoundOutcome)]);
    at = { ...at, effects: [...first.at.effects, ...at.effects] };
    // The second catalog's pass begins; a poll (here an updated-free reconcile read) is answered not-found before its page.
    const review = effectsOf(at.effects, 'TimerArmed').find((timer) => timer.timer.kind === 'discover')!;
    const started = feed(at, review.deadlineMs, (nowMs) => [timerFired(nowMs, review.timer, review.deadlineMs)]);
    const reconcileMs = started.state.volatile.uris[uri]!.deadlines[timerKinds.indexOf('reconcile')]!;
    expect(reconcileMs).toBeGreaterThan(0);
    const polled = feed(started, started.nowMs + 1, (nowMs) => [timerFired(nowMs, { kind: 'reconcile', uri }, reconcileMs)]);
    const pollRead = readsSent(polled.effects);
    expect(pollRead, 'a reconcile read of the TOMBSTONE_PENDING resource').toHaveLength(1);
    const answered = feed(polled, polled.nowMs + 1, (nowMs) => [responded(nowMs, session, pollRead[0]!.requestId, notFoundOutcome)]);
    const listed = feed(answered, answered.nowMs + 1, (nowMs) => [responded(nowMs, session, onlyRequest(started.effects, 'resources/list'), { type: 'result', result: { resources: [], snapshotId: 'snapshot-1' } })]);
    expect(effectsOf(listed.effects, 'TombstoneConfirmed')).toEqual([{ type: 'TombstoneConfirmed', uri }]);
  });

  it('a proven catalog published while a read of the TOMBSTONE_PENDING resource is in flight still asks for evidence: one read after it, then the next catalog confirms', () => {
    let at = tombstonePending();
    at = feed(at, 30_000, (nowMs) => [{ type: 'DiscoverCommanded', nowMs, jitter: 0 }]);
    const list = onlyRequest(at.effects, 'resources/list');
    const reconcileMs = at.state.volatile.uris[uri]!.deadlines[timerKinds.indexOf('reconcile')]!;
    at = feed(at, 30_001, (nowMs) => [timerFired(nowMs, { kind: 'reconcile', uri }, reconcileMs)]);
    const poll = readsSent(at.effects);
    expect(poll, 'a reconcile read in flight').toHaveLength(1);
    at = feed(at, 30_002, (nowMs) => [responded(nowMs, session, list, { type: 'result', result: { resources: [], snapshotId: 'snapshot-0' } })]);
    expect(effectsOf(at.effects, 'CatalogPublished')).toHaveLength(1);
    const review = effectsOf(at.effects, 'TimerArmed').find((timer) => timer.timer.kind === 'discover')!;
    expect(readsSent(at.effects), 'no second read while one is in flight').toEqual([]);
    // The read in flight was sent before the catalog: its not-found is no evidence, and a follow-up read is sent.
    at = feed(at, 30_003, (nowMs) => [responded(nowMs, session, poll[0]!.requestId, notFoundOutcome)]);
    const check = readsSent(at.effects);
    expect(check.map((read) => read.reason)).toEqual(['tombstone-check']);
    at = feed(at, 30_004, (nowMs) => [responded(nowMs, session, check[0]!.requestId, notFoundOutcome)]);
    at = feed(at, review.deadlineMs, (nowMs) => [timerFired(nowMs, review.timer, review.deadlineMs)]);
    const listed = feed(at, at.nowMs + 1, (nowMs) => [responded(nowMs, session, onlyRequest(at.effects, 'resources/list'), { type: 'result', result: { resources: [], snapshotId: 'snapshot-1' } })]);
    expect(effectsOf(listed.effects, 'TombstoneConfirmed')).toEqual([{ type: 'TombstoneConfirmed', uri }]);
  });
});
