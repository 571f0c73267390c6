/**
 * The simulated `resources/list`: sorted order, server-chosen page sizes, opaque cursors, live pages vs a
 * real snapshot, and the listing faults (cursor cycle, invalid cursor, forged snapshot ID, a lagging live index).
 */
import { describe, expect, it } from 'vitest';

import { Chooser } from '../chooser.js';
import type { FaultName } from '../faults.js';
import { Lister, type ServedPage } from './listing.js';
import { ServerModel } from './server.js';

const resources = ['test://r/5', 'test://r/1', 'test://r/4', 'test://r/2', 'test://r/3', 'test://r/6'].map((uri) => ({ uri, mimeType: 'text/plain' }));
const sorted = ['test://r/1', 'test://r/2', 'test://r/3', 'test://r/4', 'test://r/5', 'test://r/6'];

interface Page {
  uris: string[];
  nextCursor: string | undefined;
  snapshotId: string | undefined;
}

function pageOf(served: ServedPage): Page {
  expect(served.outcome.type).toBe('result');
  const result = (served.outcome as { result: { resources: { uri: string; name: string; mimeType: string }[]; nextCursor?: string; snapshotId?: string } }).result;
  for (const entry of result.resources) expect(entry.mimeType).toBe('text/plain');
  return { uris: result.resources.map((entry) => entry.uri), nextCursor: result.nextCursor, snapshotId: result.snapshotId };
}

function setup(snapshot: boolean, forced: FaultName[] = [], seed = 7): { server: ServerModel; lister: Lister; fired: FaultName[] } {
  const server = new ServerModel(resources);
  const fired: FaultName[] = [];
  const faults = {
    fires: (fault: FaultName): boolean => {
      if (!forced.includes(fault)) return false;
      fired.push(fault);
      return true;
    },
  };
  return { server, lister: new Lister(server, Chooser.seeded(seed, false), faults, snapshot, 3, seed), fired };
}

/** Walks a whole pass (bounded), returning its pages and truths. */
function walk(lister: Lister, session = 1, between: (page: number) => void = () => {}): { pages: Page[]; served: ServedPage[] } {
  const pages: Page[] = [];
  const served: ServedPage[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = lister.serve(session, cursor, 1_000 + page);
    served.push(answer);
    const current = pageOf(answer);
    pages.push(current);
    if (current.nextCursor === undefined) break;
    between(page);
    cursor = current.nextCursor;
  }
  return { pages, served };
}

describe('listing: live pages', () => {
  it('lists every existing resource once in URI order, 1-3 per page, the last page without nextCursor', () => {
    for (let seed = 1; seed < 20; seed++) {
      const { lister } = setup(false, [], seed);
      const { pages, served } = walk(lister);
      expect(pages.flatMap((page) => page.uris)).toEqual(sorted);
      for (const page of pages) expect(page.uris.length).toBeGreaterThanOrEqual(1);
      for (const page of pages) expect(page.uris.length).toBeLessThanOrEqual(3);
      expect(pages.every((page) => page.snapshotId === undefined)).toBe(true);
      expect(served.map((answer) => answer.truth!.last)).toEqual(pages.map((_, index) => index === pages.length - 1));
      expect(served.every((answer) => answer.truth!.proof === 'live' && answer.truth!.passStartMs === 1_000)).toBe(true);
    }
  });

  it('cursors are opaque tokens, different for every page', () => {
    const { lister } = setup(false, [], 3);
    const cursors = walk(lister).pages.flatMap((page) => (page.nextCursor === undefined ? [] : [page.nextCursor]));
    expect(new Set(cursors).size).toBe(cursors.length);
    for (const cursor of cursors) expect(cursor).not.toMatch(/^\d+$/);
  });

  it('a deletion between live pages shifts the offsets: a resource that exists throughout is skipped (a gap)', () => {
    let gaps = 0;
    for (let seed = 1; seed < 20; seed++) {
      const { server, lister } = setup(false, [], seed);
      const { pages } = walk(lister, 1, (page) => {
        if (page === 0) server.delete(server.lookup('test://r/1'));
      });
      const listed = pages.flatMap((page) => page.uris);
      if (sorted.some((uri) => uri !== 'test://r/1' && !listed.includes(uri))) gaps++;
    }
    expect(gaps).toBeGreaterThan(0);
  });

  it('a re-create between live pages shows a resource twice (a duplicate)', () => {
    let duplicates = 0;
    for (let seed = 1; seed < 20; seed++) {
      const { server, lister } = setup(false, [], seed);
      server.delete(server.lookup('test://r/1'));
      const { pages } = walk(lister, 1, (page) => {
        if (page === 0) server.write(server.lookup('test://r/1'));
      });
      const listed = pages.flatMap((page) => page.uris);
      if (new Set(listed).size < listed.length) duplicates++;
    }
    expect(duplicates).toBeGreaterThan(0);
  });
});

describe('listing: list-index-lag (the live index shows a resource from listedFromMs on)', () => {
  it('a live pass leaves out a resource the index does not show yet, then lists it; a snapshot pass lists it at once', () => {
    const { server, lister } = setup(false);
    server.listedFromMs[2] = 1_050; // test://r/4
    expect(walk(lister).pages.flatMap((page) => page.uris)).toEqual(sorted.filter((uri) => uri !== 'test://r/4'));
    server.listedFromMs[2] = 900;
    expect(walk(lister).pages.flatMap((page) => page.uris)).toEqual(sorted);
    const snapshot = setup(true);
    snapshot.server.listedFromMs[2] = 1_050;
    expect(walk(snapshot.lister).pages.flatMap((page) => page.uris)).toEqual(sorted);
  });
});

describe('listing: snapshot-ID extension', () => {
  it('every page of a pass carries the same snapshot ID and comes from the snapshot, whatever changes meanwhile', () => {
    for (let seed = 1; seed < 20; seed++) {
      const { server, lister } = setup(true, [], seed);
      const { pages, served } = walk(lister, 1, () => {
        server.delete(server.lookup('test://r/1'));
        server.delete(server.lookup('test://r/6'));
      });
      expect(pages.flatMap((page) => page.uris)).toEqual(sorted);
      expect(new Set(pages.map((page) => page.snapshotId)).size).toBe(1);
      expect(pages[0]!.snapshotId).toBeDefined();
      expect(served.every((answer) => answer.truth!.proof === 'snapshot')).toBe(true);
    }
  });

  it('a new pass takes a new snapshot with a new ID', () => {
    const { server, lister } = setup(true);
    const first = walk(lister).pages;
    server.delete(server.lookup('test://r/3'));
    const second = walk(lister).pages;
    expect(second.flatMap((page) => page.uris)).toEqual(sorted.filter((uri) => uri !== 'test://r/3'));
    expect(second[0]!.snapshotId).not.toBe(first[0]!.snapshotId);
  });
});

describe('listing: faults', () => {
  it('invalid cursor: unknown, from another session, or the cursor-invalid fault', () => {
    const { lister } = setup(false);
    const unknown = lister.serve(1, 'not-a-cursor', 1_000);
    expect(unknown).toEqual({ outcome: { type: 'error', code: -32602, message: 'Invalid cursor', data: { cursor: 'not-a-cursor' } }, truth: null });
    const cursor = pageOf(lister.serve(1, undefined, 1_000)).nextCursor!;
    expect(lister.serve(2, cursor, 1_100).outcome).toMatchObject({ type: 'error', code: -32602 });
    expect(lister.serve(1, cursor, 1_100).outcome.type).toBe('result');
    const faulty = setup(false, ['cursor-invalid']);
    const first = pageOf(faulty.lister.serve(1, undefined, 1_000));
    expect(faulty.lister.serve(1, first.nextCursor!, 1_100).outcome).toMatchObject({ type: 'error', code: -32602, message: 'Invalid cursor' });
    expect(faulty.fired).toEqual(['cursor-invalid']);
  });

  it('cursor-cycle: a nextCursor equal to a cursor already returned in the pass (never on the first page)', () => {
    const { lister, fired } = setup(false, ['cursor-cycle'], 5);
    const seen: string[] = [];
    let cursor: string | undefined;
    let cycled = false;
    for (let page = 0; page < 10 && !cycled; page++) {
      const next = pageOf(lister.serve(1, cursor, 1_000)).nextCursor;
      if (next === undefined) break;
      if (seen.includes(next)) cycled = true;
      seen.push(next);
      cursor = next;
    }
    expect(cycled).toBe(true);
    expect(fired.length).toBeGreaterThan(0);
  });

  it('cursor-cycle is a real cycle: following the cursors never ends, and cycles of several lengths occur', () => {
    const lengths = new Set<number>();
    for (let seed = 1; seed < 40; seed++) {
      // The cycle fires on one page in three (from the second page on), then the pass is followed 30 pages.
      let calls = 0;
      const server = new ServerModel(resources.concat(['test://r/7', 'test://r/8', 'test://r/9'].map((uri) => ({ uri, mimeType: 'text/plain' }))));
      const lister = new Lister(server, Chooser.seeded(seed, false), { fires: (fault) => fault === 'cursor-cycle' && ++calls % 3 === 0 }, false, 2, seed);
      const order: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 30; page++) {
        const next = pageOf(lister.serve(1, cursor, 1_000)).nextCursor;
        if (next === undefined) break;
        order.push(next);
        cursor = next;
      }
      const first = order.findIndex((next, index) => order.indexOf(next) !== index);
      if (first < 0) continue; // the pass ended before the fault fired
      expect(order.length).toBe(30); // a cycle never ends
      const start = order.indexOf(order[first]!);
      lengths.add(first - start);
      // From the repeated cursor on, the same cursors come back in the same order, forever.
      for (let index = first; index < order.length; index++) expect(order[index]).toBe(order[index - (first - start)]);
    }
    expect(lengths.size).toBeGreaterThanOrEqual(2);
  });

  it('forged-snapshot-id without negotiation: a snapshot ID on live pages', () => {
    const { lister, fired } = setup(false, ['forged-snapshot-id']);
    const { pages, served } = walk(lister);
    expect(pages.every((page) => page.snapshotId !== undefined && page.snapshotId === pages[0]!.snapshotId)).toBe(true);
    expect(served.every((answer) => answer.truth!.proof === 'forged-unnegotiated')).toBe(true);
    expect(fired).toEqual(['forged-snapshot-id']);
  });

  it('forged-snapshot-id with negotiation: live pages, at least two, and the ID changes, vanishes or appears by the last page', () => {
    for (let seed = 1; seed < 20; seed++) {
      const { server, lister } = setup(true, ['forged-snapshot-id'], seed);
      // The kind is taken in turn (no draw): a lister's first forged pass changes its ID, as before kinds existed.
      const order: string[] = [];
      for (let pass = 0; pass < 3; pass++) {
        const { pages, served } = walk(lister, 1, (page) => {
          if (pass === 0 && page === 0) server.delete(server.lookup('test://r/6'));
        });
        expect(pages.length).toBeGreaterThanOrEqual(2);
        expect(new Set(pages.map((page) => page.snapshotId)).size).toBeGreaterThan(1);
        expect(pages.flatMap((page) => page.uris)).not.toContain('test://r/6'); // live data, not a snapshot
        expect(served.every((answer) => answer.truth!.proof === 'forged-live')).toBe(true);
        const ids = pages.map((page) => page.snapshotId);
        order.push(ids[0] === undefined ? 'appears' : ids.includes(undefined) ? 'vanishes' : 'changes');
      }
      expect(order).toEqual(['changes', 'vanishes', 'appears']);
    }
  });

  it('malformed-list-page: every kind and variant of a broken page is served, each marking its pass malformed', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed < 40; seed++) {
      const { lister } = setup(true, ['malformed-list-page'], seed);
      for (let pass = 0; pass < 4; pass++) {
        const answer = lister.serve(1, undefined, 1_000 * pass);
        expect(answer.truth!.proof).toBe('malformed');
        const result = (answer.outcome as { result: { resources: unknown; nextCursor?: unknown; snapshotId?: unknown } }).result;
        const resources = result.resources;
        if (!Array.isArray(resources)) seen.add('resources not an array');
        else if (resources.includes(null)) seen.add('entry not an object');
        else if (resources.some((entry: { uri?: unknown }) => typeof entry.uri !== 'string')) seen.add('entry without uri');
        else if (resources.some((entry: { name?: unknown }) => typeof entry.name !== 'string')) seen.add('entry without name');
        else if (new Set(resources.map((entry: { uri: string }) => entry.uri)).size < resources.length) seen.add('duplicate uri');
        else if (result.nextCursor !== undefined && typeof result.nextCursor !== 'string') seen.add('nextCursor not a string');
        else if (result.snapshotId === '') seen.add('snapshotId empty');
        else if (typeof result.snapshotId === 'number') seen.add('snapshotId not a string');
        else if (typeof result.snapshotId === 'string' && result.snapshotId.length > 1_024) seen.add('snapshotId too long');
      }
    }
    expect([...seen].sort()).toEqual(['duplicate uri', 'entry not an object', 'entry without name', 'entry without uri', 'nextCursor not a string', 'resources not an array', 'snapshotId empty', 'snapshotId not a string', 'snapshotId too long']);
  });
});
