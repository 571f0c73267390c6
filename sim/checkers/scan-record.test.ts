/**
 * The scan record (sim/checkers/scan-record.ts) with hand-built truth and effects, through the oracle: a pass's label
 * (SNAPSHOT when negotiated, B right after a complete pass without a catalog, else A), one scan at a time, and the
 * fate a list answer gives its pass in its step (the abandonment reason, the MalformedListPage rejection). Each case
 * asserts the whole violation-count vector (test/oracle-steps.ts `fired`); removing any one of the rules fails one.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect, ScanAbandonReason } from '../../core/types.js';
import { Oracle } from '../oracle.js';
import { fired, truth } from '../../test/oracle-steps.js';
import type { ListAnswerTruth } from './scan-record.js';

const uris = ['test://static/resource/1'];

const started = (scanId: number, pass: 'A' | 'B' | 'SNAPSHOT'): ClientEffect => ({ type: 'ScanStarted', scanId, pass });
const abandoned = (scanId: number, reason: ScanAbandonReason): ClientEffect => ({ type: 'ScanAbandoned', scanId, reason, detail: 'd' });
const rejected: ClientEffect = { type: 'ProtocolRejected', rejection: { kind: 'MalformedListPage', detail: 'd' } };
const published = (scanId: number, status: 'SNAPSHOT_PROVEN' | 'SNAPSHOT_UNPROVEN' = 'SNAPSHOT_UNPROVEN'): ClientEffect => ({ type: 'CatalogPublished', scanId, status, uris, digest: 'd', measuredAtMs: 0, stalenessBoundMs: 1, nextReviewAtMs: 1 });
const page = (nextCursor: string | undefined, more: Partial<ListAnswerTruth> = {}): ListAnswerTruth => ({ errorCode: null, broken: null, nextCursor, last: nextCursor === undefined, ...more });

let oracle: Oracle;
let timeMs = 0;
let passes = 0;
let negotiated = false;
/** A step at the next millisecond: the list answer delivered in it (or none; a well-formed last page completes a pass), then the client's effects. */
function step(answer: ListAnswerTruth | null, effects: ClientEffect[]): void {
  timeMs++;
  if (answer !== null) oracle.observe({ kind: 'list-answer', answer });
  if (answer !== null && answer.last && answer.errorCode === null && answer.broken === null) {
    oracle.observe({ kind: 'pass-completed', pass: ++passes, proof: negotiated ? 'snapshot' : 'live', startMs: timeMs - 1, served: Int32Array.of(0), timeMs });
  }
  oracle.judge(effects, truth({ timeMs }));
}

function claim(scanPagesMax = 256, snapshot = false): void {
  negotiated = snapshot;
  oracle = new Oracle(uris, 1);
  oracle.effectShape.judges = true; // a step client's effects (sim/world.ts)
  oracle.catalogLiveness.claim(30_000);
  oracle.scanRecord.claim(scanPagesMax, snapshot);
}

beforeEach(() => {
  timeMs = 0;
  passes = 0;
  claim();
});

describe('scan_record_untrue: labels and one scan at a time', () => {
  it('A, B after a complete pass without a catalog, A again after a catalog: passes', () => {
    step(null, [started(1, 'A')]);
    step(page('c1'), []);
    step(page(undefined), [started(2, 'B')]);
    step(page(undefined), [published(2)]);
    step(null, [started(3, 'A')]);
    expect(fired(oracle)).toEqual({});
    expect(oracle.scanRecord.scansJudged).toBe(3);
  });

  it('a pass labelled B with no complete pass before it in its step, or A right after one, or SNAPSHOT unnegotiated, is untrue', () => {
    step(null, [started(1, 'B')]);
    step(page(undefined), [started(2, 'A')]);
    step(page(undefined), [published(2)]);
    step(null, [started(3, 'SNAPSHOT')]);
    expect(fired(oracle)).toEqual({ scan_record_untrue: 3 });
  });

  it('with snapshot IDs negotiated every pass is SNAPSHOT', () => {
    claim(256, true);
    step(null, [started(1, 'SNAPSHOT')]);
    step(page(undefined), [published(1, 'SNAPSHOT_PROVEN')]);
    step(null, [started(2, 'A')]);
    expect(fired(oracle)).toEqual({ scan_record_untrue: 1 });
  });

  it('a scan started over a running one, or an abandonment naming another scan, is untrue', () => {
    step(null, [started(1, 'A')]);
    step(null, [started(2, 'A')]);
    step(null, [abandoned(7, 'SESSION_LOST')]);
    expect(fired(oracle)).toEqual({ scan_record_untrue: 2 });
  });

  it('a complete pass after which no pass starts (a round given up) ends the scan', () => {
    step(null, [started(1, 'A')]);
    step(page(undefined), []);
    step(null, [started(2, 'A')]);
    expect(fired(oracle)).toEqual({});
  });

  it('a client that claims no catalogs is not judged', () => {
    oracle = new Oracle(uris, 1);
    step(null, [started(1, 'B'), started(2, 'SNAPSHOT')]);
    expect(fired(oracle)).toEqual({});
  });
});

describe("scan_record_untrue: a list answer decides its pass's fate in its step", () => {
  it('an invalid cursor abandons as CURSOR_INVALID, another error as LIST_ERROR', () => {
    step(null, [started(1, 'A')]);
    step(page('c1', { errorCode: -32602, nextCursor: undefined, last: false }), [abandoned(1, 'CURSOR_INVALID'), started(2, 'A')]);
    step(page(undefined, { errorCode: -32603, last: false }), [abandoned(2, 'LIST_ERROR'), started(3, 'A')]);
    step(page(undefined, { errorCode: -32603, last: false }), [abandoned(3, 'CURSOR_INVALID'), started(4, 'A')]);
    step(page(undefined, { errorCode: -32602, last: false }), [abandoned(4, 'LIST_ERROR')]);
    expect(fired(oracle)).toEqual({ scan_record_untrue: 2 });
    expect(oracle.scanRecord.answersJudged).toBe(4);
  });

  it('a broken page is a MalformedListPage rejection and abandons as its break', () => {
    step(null, [started(1, 'A')]);
    step(page('c1', { broken: 'DUPLICATE_URI' }), [rejected, abandoned(1, 'DUPLICATE_URI'), started(2, 'A')]);
    step(page('c2', { broken: 'EMPTY_CURSOR' }), [rejected, abandoned(2, 'EMPTY_CURSOR'), started(3, 'A')]);
    expect(fired(oracle)).toEqual({});
    step(page('c3', { broken: 'MALFORMED_PAGE' }), [abandoned(3, 'MALFORMED_PAGE'), started(4, 'A')]);
    step(page('c4', { broken: 'MALFORMED_PAGE' }), [rejected, abandoned(4, 'DUPLICATE_URI'), started(5, 'A')]);
    // An abandonment that names no scan and no reason (a record emptied): two untruths, and an effect of no documented shape.
    step(page('c5', { broken: 'MALFORMED_PAGE' }), [rejected, { type: 'ScanAbandoned' } as unknown as ClientEffect]);
    expect(fired(oracle)).toEqual({ scan_record_untrue: 4, effect_malformed: 1 });
  });

  it('a well-formed page abandons nothing and is no rejection; a repeated nextCursor abandons as CURSOR_CYCLE', () => {
    step(null, [started(1, 'A')]);
    step(page('c1'), []);
    step(page('c2'), []);
    step(page('c1'), [abandoned(1, 'CURSOR_CYCLE'), started(2, 'A')]);
    expect(fired(oracle)).toEqual({});
    step(page('c1'), [abandoned(2, 'CURSOR_CYCLE'), started(3, 'A')]);
    step(page('c9'), [rejected]);
    step(page('c9'), []);
    expect(fired(oracle)).toEqual({ scan_record_untrue: 3 });
  });

  it('the page that reaches scanPagesMax abandons as PAGE_LIMIT, not one before, not one after', () => {
    claim(3);
    step(null, [started(1, 'A')]);
    step(page('c1'), []);
    step(page('c2'), []);
    step(page('c3'), [abandoned(1, 'PAGE_LIMIT'), started(2, 'A')]);
    expect(fired(oracle)).toEqual({});
    step(page('d1'), []);
    step(page('d2'), [abandoned(2, 'PAGE_LIMIT'), started(3, 'A')]);
    step(page('e1'), []);
    step(page('e2'), []);
    step(page('e3'), []);
    step(page('e4'), [abandoned(3, 'PAGE_LIMIT')]);
    expect(fired(oracle)).toEqual({ scan_record_untrue: 2 });
  });
});
