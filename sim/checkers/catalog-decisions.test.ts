/**
 * The catalog decisions (sim/checkers/catalog-decisions.ts) with hand-built truth and effects, through the oracle:
 * an honest snapshot pass owes a SNAPSHOT_PROVEN catalog in its step (proven_withheld); a commanded task owes one
 * decision in its step, an acceptance while the latest catalog is honestly proven and before its review time
 * (completeness_refused); cursors go back as received, once per pass (cursor_misused); a list_changed with no
 * pass running owes a pass within the declared debounce (list_changed_unscanned).
 * Each case asserts the whole violation-count vector (test/oracle-steps.ts `fired`).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import type { ListProof } from './catalog.js';
import { Oracle } from '../oracle.js';
import { fired, truth } from '../../test/oracle-steps.js';

const uriA = 'test://static/resource/1';
const uris = [uriA];
const reviewMs = 30_000;

function catalog(status: 'SNAPSHOT_PROVEN' | 'SNAPSHOT_UNPROVEN', measuredAtMs: number): ClientEffect {
  return { type: 'CatalogPublished', scanId: 3, status, uris: [uriA], digest: 'd', measuredAtMs, stalenessBoundMs: reviewMs, nextReviewAtMs: measuredAtMs + reviewMs };
}

function decision(accepted: boolean): ClientEffect {
  return { type: 'CompletenessTaskDecided', task: 'cleanup', accepted, catalogStatus: accepted ? 'SNAPSHOT_PROVEN' : 'NONE', reason: 'r' };
}

/** The last page of pass `pass` (`proof`) is delivered at `timeMs` and the client steps with `effects`. */
function completePass(pass: number, proof: ListProof, timeMs: number, effects: ClientEffect[]): void {
  oracle.observe({ kind: 'pass-completed', pass, proof, startMs: timeMs - 100, served: Int32Array.of(0), timeMs });
  oracle.judge(effects, truth({ timeMs }));
}

/** The application commands a task at `timeMs` and the client steps with `effects`. */
function task(timeMs: number, effects: ClientEffect[]): void {
  oracle.observe({ kind: 'task-asked', timeMs });
  oracle.judge(effects, truth({ timeMs }));
}

let oracle: Oracle;
beforeEach(() => {
  oracle = new Oracle(uris, 1);
  oracle.catalogLiveness.claim(reviewMs);
});

describe('proven_withheld', () => {
  it('an honest snapshot pass published SNAPSHOT_PROVEN in its step passes', () => {
    completePass(1, 'snapshot', 1_000, [catalog('SNAPSHOT_PROVEN', 900)]);
    expect(fired(oracle)).toEqual({});
    expect(oracle.catalogDecisions.passesJudged).toBe(1);
  });

  it('an honest snapshot pass published as SNAPSHOT_UNPROVEN, or not at all, withholds the proof', () => {
    completePass(1, 'live', 500, []);
    completePass(2, 'snapshot', 1_000, [catalog('SNAPSHOT_UNPROVEN', 400)]);
    completePass(3, 'snapshot', 2_000, []);
    expect(fired(oracle)).toEqual({ proven_withheld: 2 });
    expect(oracle.violations.map((violation) => violation.detail)).toEqual([
      'list pass #2 was served from one real snapshot under the negotiated snapshot ID, and the client published it as SNAPSHOT_UNPROVEN (scan 3)',
      'list pass #3 was served from one real snapshot under the negotiated snapshot ID, and the client published no catalog when it completed',
    ]);
  });

  it('passes not served from one real snapshot owe nothing; a replayed last page is judged once', () => {
    for (const [pass, proof] of [[1, 'live'], [2, 'forged-live'], [3, 'forged-unnegotiated'], [4, 'malformed']] as const) completePass(pass, proof, 1_000 * pass, []);
    completePass(5, 'snapshot', 6_000, [catalog('SNAPSHOT_PROVEN', 5_900)]);
    completePass(5, 'snapshot', 6_100, []);
    expect(fired(oracle)).toEqual({});
  });

  it('a client that does not claim catalogs is not judged', () => {
    oracle = new Oracle(uris, 1);
    completePass(1, 'snapshot', 1_000, []);
    task(2_000, []);
    expect(fired(oracle)).toEqual({});
  });
});

describe('completeness_refused', () => {
  it('a task refused with no catalog, or on an unproven one, passes; accepted on an honest proven one passes', () => {
    task(500, [decision(false)]);
    completePass(1, 'live', 1_000, []);
    completePass(2, 'live', 2_000, [catalog('SNAPSHOT_UNPROVEN', 900)]);
    task(2_500, [decision(false)]);
    completePass(3, 'snapshot', 3_000, [catalog('SNAPSHOT_PROVEN', 2_900)]);
    task(3_500, [decision(true)]);
    expect(fired(oracle)).toEqual({});
    expect(oracle.catalogDecisions.tasksJudged).toBe(3);
  });

  it('a task refused while the honest proven catalog is before its review time fails; at the review time it may be refused', () => {
    completePass(1, 'snapshot', 1_000, [catalog('SNAPSHOT_PROVEN', 900)]);
    task(30_899, [decision(false)]);
    task(30_900, [decision(false)]);
    expect(fired(oracle)).toEqual({ completeness_refused: 1 });
    expect(oracle.violations[0]!.detail).toBe('completeness task cleanup refused (client claims catalog NONE), but the latest catalog is an honest SNAPSHOT_PROVEN until its review time 30900 ms');
  });

  it('a dishonest proven catalog may be refused; a crash forgets the catalog', () => {
    completePass(1, 'forged-live', 1_000, [catalog('SNAPSHOT_PROVEN', 900)]);
    task(1_500, [decision(false)]);
    completePass(2, 'snapshot', 2_000, [catalog('SNAPSHOT_PROVEN', 1_900)]);
    oracle.observe({ kind: 'crashed', timeMs: 2_100 });
    task(2_500, [decision(false)]);
    expect(fired(oracle)).toEqual({ unreconciled_catalog: 1 });
  });

  it('a task not decided in its step, or decided without a command, fails', () => {
    task(500, []);
    oracle.judge([decision(false)], truth({ timeMs: 600 }));
    task(700, [decision(false), decision(false)]);
    expect(fired(oracle)).toEqual({ completeness_refused: 3 });
    expect(oracle.violations.map((violation) => violation.detail)).toEqual([
      '1 completeness task(s) commanded and not decided',
      'completeness task cleanup decided (refused) without a command',
      'completeness task cleanup decided (refused) without a command',
    ]);
  });
});

describe('cursor_misused', () => {
  function list(timeMs: number, cursor?: unknown): void {
    const effect = { type: 'RequestSent', requestId: 1, sessionGeneration: 1, method: 'resources/list', uri: '', ...(cursor === undefined ? {} : { cursor }) } as ClientEffect;
    oracle.judge([effect], truth({ timeMs }));
  }

  it('cursors sent back as received pass, once each per pass; a new pass may send one again', () => {
    list(100);
    oracle.observe({ kind: 'list-page', nextCursor: 'c1' });
    list(200, 'c1');
    oracle.observe({ kind: 'list-page', nextCursor: '' });
    list(300, '');
    oracle.observe({ kind: 'list-page', nextCursor: undefined });
    list(400);
    list(500, 'c1');
    expect(fired(oracle)).toEqual({});
    expect(oracle.catalogDecisions.cursorsJudged).toBe(3);
  });

  it('a cursor the server never sent, one that is not a string, or one sent twice in a pass fails', () => {
    list(100);
    oracle.observe({ kind: 'list-page', nextCursor: 7 });
    list(200, 7);
    list(300, 'made-up');
    oracle.observe({ kind: 'list-page', nextCursor: 'c1' });
    list(400, 'c1');
    oracle.observe({ kind: 'list-page', nextCursor: 'c1' });
    list(500, 'c1');
    expect(fired(oracle)).toEqual({ cursor_misused: 3 });
    expect(oracle.violations.map((violation) => violation.detail)).toEqual([
      'resources/list sent with cursor 7, which the server never sent as a nextCursor',
      'resources/list sent with cursor "made-up", which the server never sent as a nextCursor',
      'resources/list sent with cursor "c1" a second time in one pass: a cursor cycle followed instead of abandoning the pass',
    ]);
  });
});

describe('list_changed_unscanned', () => {
  function step(timeMs: number, effects: ClientEffect[], currentSession = 1): void {
    oracle.judge(effects, truth({ timeMs, currentSession }));
  }
  const firstPage: ClientEffect = { type: 'RequestSent', requestId: 1, sessionGeneration: 1, method: 'resources/list', uri: '' };
  const started: ClientEffect = { type: 'ScanStarted', scanId: 1, pass: 'A' };

  it('a list_changed with no pass running owes a pass within the declared debounce (500 ms by default)', () => {
    oracle.observe({ kind: 'list-changed', timeMs: 1_000 });
    step(1_000, []);
    step(1_500, [started, firstPage]);
    oracle.observe({ kind: 'list-changed', timeMs: 2_000 }); // the pass runs: it is tainted, nothing owed
    step(2_000, []);
    step(2_100, [{ type: 'ScanAbandoned', scanId: 1, reason: 'LIST_ERROR', detail: 'd' }]);
    oracle.observe({ kind: 'list-changed', timeMs: 3_000 });
    step(3_000, []);
    step(3_501, [firstPage]);
    expect(fired(oracle)).toEqual({ list_changed_unscanned: 1 });
    expect(oracle.violations[0]!.detail).toBe('a list_changed reached the client at 3000 ms with no pass running, and its next pass began only at 3501 ms, after its declared debounce (by 3500 ms)');
    expect(oracle.catalogDecisions.rescansJudged).toBe(2);
  });

  it('a new session or a crash releases the re-scan owed', () => {
    oracle.observe({ kind: 'list-changed', timeMs: 1_000 });
    step(1_000, []);
    step(9_000, [firstPage], 2);
    oracle.observe({ kind: 'list-changed', timeMs: 10_000 });
    step(10_000, [], 2);
    oracle.observe({ kind: 'crashed', timeMs: 10_100 });
    step(19_000, [firstPage], 2);
    expect(fired(oracle)).toEqual({});
  });
});
