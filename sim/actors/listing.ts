/**
 * The server side of `resources/list`: sorted URI order, server-chosen page sizes, opaque cursors, and the
 * optional snapshot-ID extension. What each page really was (which pass, served from which snapshot) is
 * recorded as ground truth for the oracle; the client only ever sees the page.
 *
 * A pass starts with a request without cursor. Without the extension its pages are served from live data
 * by offset among the resources that exist at serve time, so mutations between pages cause gaps and
 * duplicates. With the extension the first page takes a real snapshot and every page of the pass is served
 * from it under one snapshot ID. Faults:
 * - cursor-cycle: a nextCursor equal to a cursor already returned earlier in the pass. Every cursor keeps
 *   the nextCursor it was first answered with, so the pages from the repeated cursor on lead back to it
 *   again: a real cycle, as long as the pages between (1 to the pass's length), never a finite detour;
 * - cursor-invalid: a page request answered with the invalid-cursor error;
 * - forged-snapshot-id: without negotiation, a snapshot ID on every page anyway; with negotiation, a
 *   multi-page pass served from live data whose ID changes on a later page, vanishes from a later page on, or
 *   appears only on a later page (in turn: a run's first forged pass changes it).
 * On a 2026-07-28 session every page also carries `ttlMs` and `cacheScope` (one pair per pass, drawn on its
 * first page; the truth of what the pass really sent rides on each page as `ListPageTruth.hint`), and:
 * - list-empty-cursor: a nextCursor that is the empty string (pagination.mdx: a valid cursor, not the end;
 *   at most once per pass, so a cycle back to it still leads where it first did);
 * - list-page-hint-mismatch: a later page of the pass carries another `cacheScope` and/or `ttlMs` (the server
 *   breaks a MUST; a client folds the pages into the most private scope and the shortest TTL).
 * And in any era, malformed-list-page: a page whose `resources` is not an array; one of whose entries has no string
 * uri, no string name, is not an object, or repeats the URI of the entry before it; or whose nextCursor is not a
 * string, or whose snapshotId is empty, not a string, or longer than a ledger text (core/protocol.ts LEDGER_TEXT_CHARS_MAX); the kind is
 * drawn, its variant taken in turn. The whole pass is then `malformed` in truth (no catalog may
 * rest on it).
 * And list-page-edge (listing-edges.ts): a pass at an edge of the contract, its kind in turn.
 * With the plan's `server.uriShapes` (scenario uri-shapes) passes are taken in turn, no draw: an honest pass spells
 * every entry with one of its resource's spellings made by construction (told to the oracle as `spelled`), one page
 * each; a `malformed` pass lists one resource twice (itself, then a spelling of it), or one string that is not a URI
 * among the resources (`UriShapesListing` in sim/plan.ts); in the heal phase only honest passes.
 */
import type { ResponseOutcome, ScanAbandonReason } from '../../core/types.js';
import { LEDGER_TEXT_CHARS_MAX } from '../../core/protocol.js';
import type { Chooser } from '../chooser.js';
import type { FaultName } from '../faults.js';
import type { ListProof } from '../checkers/catalog.js';
import type { Era2026Plan, ResourceSpec, UriShapesListing } from '../plan.js';
import { invalidParamsCode, type ServerModel } from './server.js';
import { edgeKind, endlessPagesMax, listEdgeError, malformPage, type EdgeKind } from './listing-edges.js';
import type { ListResult, PageEntry } from './list-page.js';

export type { ListResult, PageEntry } from './list-page.js';
import type { ListHintTruth } from '../checkers/era2026-catalog-hints.js';

/** Ground truth of one served list page. */
export interface ListPageTruth {
  pass: number;
  /** The page has no nextCursor: delivering it completes the pass. */
  last: boolean;
  /** How the pass was really served ('snapshot': every page from one real snapshot, nothing forged). */
  proof: ListProof;
  passStartMs: number;
  /** Last page only: the resources the whole pass served (sorted, unique), else null. */
  served: Int32Array | null;
  /** 2026-07-28 session: the hints of the pass's pages up to this one; null on 2025-11-25. */
  hint: ListHintTruth | null;
  /** The break the server made in this page (malformed-list-page, a uri-shapes duplicate or non-URI), or null. */
  broken: ScanAbandonReason | null;
}

/** A pass's hint on a 2026-07-28 session: what its pages carry unless mismatched, and what they really carried. */
interface PassHint {
  ttlMs: number;
  scope: 'public' | 'private';
  sent: ListHintTruth;
  pagesServed: number;
}

interface Pass {
  id: number;
  session: number;
  startMs: number;
  /** Resource indices of the snapshot in listing order, or null: served from live data. */
  snapshot: Int32Array | null;
  /** The snapshot ID the pages carry (real or forged), or null. */
  snapshotId: string | null;
  /** Forged with negotiation: the ID still has to change on a later page. */
  idMustChange: boolean;
  /** Forged with negotiation, how the ID changes: 0 to a new one, 1 it vanishes, 2 it appears (the first page had none); in turn. */
  idForgery: number;
  proof: ListProof;
  /** Cursors returned to the client in this pass (the cursor-cycle fault picks one of them). */
  cursors: string[];
  /** Per resource: served on a page of this pass (the truth of what the pass listed). */
  served: Uint8Array;
  hint: PassHint | null;
  /** uri-shapes: what this pass lists, and the honest pass's turn (which spelling each entry takes); null otherwise. */
  shape: ShapePass | null;
  shapeTurn: number;
  /** list-page-edge: the pass's edge of the contract, or null. */
  edge: EdgeKind | null;
}

interface CursorEntry {
  pass: Pass;
  offset: number;
  /** The nextCursor this cursor's page was first answered with (undefined: not served yet). */
  next: string | undefined;
}

export interface ListingFaults {
  fires(fault: FaultName, label: string): boolean;
  /** The world's plan (2026-07-28 hints when it has `era2026`; URI shapes with `server.uriShapes`); absent: 2025-11-25 pages only. */
  readonly plan?: {
    readonly era2026?: Era2026Plan;
    readonly server?: { readonly uriShapes?: UriShapesListing };
    readonly workload?: { readonly resources: readonly ResourceSpec[] };
  };
  /** The heal phase has begun: no more malformed uri-shapes passes (like the faults, which stop then). */
  readonly healing?: boolean;
  /** The server listed `resource` under `spelling`, an equivalent spelling made by construction (uri-shapes). */
  spelled?(spelling: string, resource: number): void;
}

/** What a uri-shapes pass lists (sim/plan.ts UriShapesListing), in turn. */
type ShapePass = 'honest' | 'duplicate' | 'nonUri';
const shapePassOrder: readonly ShapePass[] = ['honest', 'duplicate', 'nonUri', 'duplicate', 'nonUri'];

export interface ServedPage {
  outcome: ResponseOutcome;
  truth: ListPageTruth | null;
}

export class Lister {
  private readonly cursors = new Map<string, CursorEntry>();
  private nextPass = 1;
  /** Malformed pages served so far: which variant of the drawn kind the next one takes. */
  private malformations = 0;
  /** list-page-edge passes served so far: which kind the next one takes. */
  private edges = 0;
  /** Forged negotiated passes served so far: how the next one's ID changes (Pass.idForgery). */
  private forgeries = 0;
  private nextToken = 1;
  /** uri-shapes passes served, honest ones, duplicate and non-URI entries served (each taken in turn). */
  private shapePasses = 0;
  private shapeHonest = 0;
  private shapeDuplicates = 0;
  private shapeNonUris = 0;
  /** uri-shapes: every (resource, spelling) pair, in plan order (built on the first duplicate pass). */
  private shapeSpellings: { resource: number; spelling: string }[] | null = null;

  constructor(
    private readonly server: ServerModel,
    private readonly chooser: Chooser,
    private readonly faults: ListingFaults,
    /** The snapshot-ID extension was negotiated. */
    private readonly snapshotNegotiated: boolean,
    private readonly pageSizeMax: number,
    private readonly tokenSeed: number,
  ) {}

  /** Serves one page request of `session` at `nowMs` (`era2026`: the session speaks 2026-07-28). */
  serve(session: number, cursor: string | undefined, nowMs: number, era2026 = false): ServedPage {
    if (cursor === undefined) return this.firstPage(session, nowMs, era2026);
    const entry = this.cursors.get(cursor);
    if (entry === undefined || entry.pass.session !== session || this.faults.fires('cursor-invalid', 'invalid cursor?')) {
      return { outcome: { type: 'error', code: invalidParamsCode, message: 'Invalid cursor', data: { cursor } }, truth: null };
    }
    const pass = entry.pass;
    if (pass.edge === 'endless') return this.answer(pass, [], pass.cursors.length < endlessPagesMax ? (entry.next ??= this.nextCursor(pass, entry.offset)) : null);
    const page = this.page(pass, entry.offset, this.pageSizeMax, false, nowMs);
    if (pass.idMustChange && (page.last || this.chooser.draw('server', 'forged id changes on this page?', 2) === 1)) {
      pass.snapshotId = pass.idForgery === 1 ? null : this.token('snap-');
      pass.idMustChange = false;
    }
    if (page.last) return this.answer(pass, page.entries, null);
    entry.next ??= this.nextCursor(pass, entry.offset + page.entries.length);
    return this.answer(pass, page.entries, entry.next);
  }

  private firstPage(session: number, nowMs: number, era2026: boolean): ServedPage {
    const pass: Pass = { id: this.nextPass++, session, startMs: nowMs, snapshot: null, snapshotId: null, idMustChange: false, idForgery: 0, proof: 'live', cursors: [], served: new Uint8Array(this.server.uris.length), hint: era2026 ? this.passHint() : null, shape: null, shapeTurn: 0, edge: null };
    const shapes = this.faults.plan?.server?.uriShapes;
    if (shapes !== undefined) pass.shape = this.faults.healing === true ? 'honest' : shapePassOrder[this.shapePasses++ % shapePassOrder.length]!;
    if (pass.shape === 'honest') pass.shapeTurn = this.shapeHonest++;
    let sizeMax = this.pageSizeMax;
    if (this.snapshotNegotiated) {
      const existing = this.existingCount();
      // Forged with negotiation only on a pass of two pages or more, so a changing ID can show it.
      if (existing >= 2 && this.faults.fires('forged-snapshot-id', 'forge snapshot id (live pages, changing id)?')) {
        pass.idMustChange = true;
        pass.idForgery = this.forgeries++ % 3; // in turn, no draw: a run's first forged pass is served as before
        pass.proof = 'forged-live';
        sizeMax = Math.min(sizeMax, existing - 1);
      } else {
        pass.snapshot = this.takeSnapshot();
        pass.proof = 'snapshot';
      }
      pass.snapshotId = pass.idForgery === 2 ? null : this.token('snap-');
    } else if (this.faults.fires('forged-snapshot-id', 'forge snapshot id (never negotiated)?')) {
      pass.snapshotId = this.token('snap-');
      pass.proof = 'forged-unnegotiated';
    }
    if (shapes === undefined && this.faults.fires('list-page-edge', 'list pass at an edge of the contract?')) {
      const edge = (pass.edge = edgeKind(this.edges++, pass.hint !== null, pass.proof === 'snapshot'));
      if (edge === 'error') return { outcome: listEdgeError, truth: null };
      if (edge === 'long-snapshot-id') pass.snapshotId = 's'.repeat(LEDGER_TEXT_CHARS_MAX);
      else pass.proof = 'malformed'; // no catalog may rest on a pass whose page broke or that never ends
      if (edge === 'null-result') return { outcome: { type: 'result', result: null }, truth: { pass: pass.id, last: false, proof: pass.proof, passStartMs: nowMs, served: null, hint: null, broken: 'MALFORMED_PAGE' } };
    }
    // uri-shapes passes are one page: a pass abandoned on an early page is never judged, one page is always complete.
    const malformed = pass.shape === 'duplicate' || pass.shape === 'nonUri';
    const page = this.page(pass, 0, sizeMax, pass.shape !== null, nowMs);
    if (pass.edge === 'empty-cursor') return this.answer(pass, page.entries, '', 'EMPTY_CURSOR');
    let broken: ScanAbandonReason | null = null;
    if (malformed && this.malformUris(pass, page.entries, shapes!)) {
      pass.proof = 'malformed';
      broken = pass.shape === 'nonUri' ? 'MALFORMED_PAGE' : 'DUPLICATE_URI';
    }
    return this.answer(pass, page.entries, page.last && pass.edge !== 'endless' ? null : this.nextCursor(pass, page.entries.length), broken);
  }

  /**
   * uri-shapes: one page (the whole pass) gets a resource's second spelling right after it, or a non-URI entry;
   * true when it did (a duplicate needs its resource on the page; every resource exists in that scenario).
   */
  private malformUris(pass: Pass, entries: PageEntry[], shapes: UriShapesListing): boolean {
    if (pass.shape === 'nonUri') {
      const nonUri = shapes.nonUris[this.shapeNonUris++ % shapes.nonUris.length]!;
      entries.splice(this.shapeNonUris % (entries.length + 1), 0, { uri: nonUri, name: 'not a URI', mimeType: 'text/plain' });
      return true;
    }
    const spellings = (this.shapeSpellings ??= this.spellingPairs());
    if (spellings.length === 0) return false;
    const { resource, spelling } = spellings[this.shapeDuplicates++ % spellings.length]!;
    const at = entries.findIndex((entry) => entry.uri === this.server.uris[resource]);
    if (at < 0) return false;
    this.faults.spelled?.(spelling, resource);
    entries.splice(at + 1, 0, { uri: spelling, name: this.server.names[resource]!, mimeType: this.server.mimeTypes[resource]! });
    return true;
  }

  private spellingPairs(): { resource: number; spelling: string }[] {
    const pairs: { resource: number; spelling: string }[] = [];
    const resources = this.faults.plan?.workload?.resources ?? [];
    resources.forEach((spec, resource) => {
      for (const spelling of spec.spellings ?? []) pairs.push({ resource, spelling });
    });
    return pairs;
  }

  /** `broken`: the break uri-shapes made in the page (uri-shapes draws no malformed-list-page, so never both). */
  private answer(pass: Pass, entries: PageEntry[], nextCursor: string | null, broken: ScanAbandonReason | null = null): ServedPage {
    const last = nextCursor === null;
    const result: ListResult = { resources: entries };
    if (nextCursor !== null) result.nextCursor = nextCursor;
    if (pass.snapshotId !== null) result.snapshotId = pass.snapshotId;
    const hint = pass.hint === null ? null : this.pageHint(pass.hint, result);
    if (this.shouldMalformPage()) {
      broken ??= this.malform(result, entries);
      pass.proof = 'malformed';
    }
    return {
      outcome: { type: 'result', result },
      truth: { pass: pass.id, last, proof: pass.proof, passStartMs: pass.startMs, served: last ? servedOf(pass.served) : null, hint, broken },
    };
  }

  private shouldMalformPage(): boolean {
    return this.faults.fires('malformed-list-page', 'malformed list page?');
  }

  /** malformed-list-page: breaks one rule of the page's schema (listing-edges.ts malformPage), the kind drawn, its variant in turn. */
  private malform(result: ListResult, entries: PageEntry[]): ScanAbandonReason {
    const kind = this.chooser.draw('server', 'malformed: 0 resources not an array, 1 an entry without a string uri, 2 a non-string nextCursor', 3);
    return malformPage(result, entries, kind, this.malformations++ % 4);
  }

  /** 2026-07-28 session: the pass's TTL and scope, drawn once per pass (null without the plan's era2026). */
  private passHint(): PassHint | null {
    const era = this.faults.plan?.era2026;
    if (era === undefined) return null;
    const scope = this.chooser.chance('server', 'list cacheScope public?', 1, 4) ? 'public' : 'private';
    const ttlMs = this.chooser.between('server', 'list ttlMs', era.ttlMsMin, era.ttlMsMax);
    return { ttlMs, scope, sent: { ttlMsMin: ttlMs, private: scope === 'private' }, pagesServed: 0 };
  }

  /** Puts the page's hint on `result` (list-page-hint-mismatch: another scope and/or TTL); returns the pass's truth so far. */
  private pageHint(hint: PassHint, result: { ttlMs?: number; cacheScope?: string }): ListHintTruth {
    let { ttlMs, scope } = hint;
    if (hint.pagesServed++ > 0 && this.faults.fires('list-page-hint-mismatch', 'page hint differs from the first page?')) {
      const kind = this.chooser.draw('server', 'mismatch: 0 scope, 1 ttl, 2 both', 3);
      if (kind !== 1) scope = scope === 'public' ? 'private' : 'public';
      if (kind !== 0) ttlMs = this.chooser.between('server', 'mismatched ttlMs', 0, Math.max(0, hint.ttlMs - 1));
    }
    result.ttlMs = ttlMs;
    result.cacheScope = scope;
    hint.sent = { ttlMsMin: Math.min(hint.sent.ttlMsMin, ttlMs), private: hint.sent.private || scope === 'private' };
    return hint.sent;
  }

  private nextCursor(pass: Pass, offset: number): string {
    if (pass.cursors.length > 0 && this.faults.fires('cursor-cycle', 'cursor cycle?')) {
      return pass.cursors[this.chooser.draw('server', 'cycle back to cursor', pass.cursors.length)]!;
    }
    // '' at most once per pass: its entry is per cursor value, so a second '' would move the first.
    const empty = pass.hint !== null && !pass.cursors.includes('') && this.faults.fires('list-empty-cursor', "empty-string nextCursor?");
    const cursor = empty ? '' : this.token('c');
    this.cursors.set(cursor, { pass, offset, next: undefined });
    pass.cursors.push(cursor);
    return cursor;
  }

  /** One page from `offset`: a snapshot's entries, or the resources the live index shows at `nowMs` (list-index-lag). */
  private page(pass: Pass, offset: number, sizeMax: number, whole: boolean, nowMs: number): { entries: PageEntry[]; last: boolean } {
    const size = whole ? Number.MAX_SAFE_INTEGER : this.chooser.betweenFromHigh('server', 'page size', 1, sizeMax);
    const entries: PageEntry[] = [];
    const server = this.server;
    if (pass.snapshot !== null) {
      const snapshot = pass.snapshot;
      const end = Math.min(snapshot.length, offset + size);
      for (let index = offset; index < end; index++) entries.push(this.entry(pass, snapshot[index]!));
      return { entries, last: end >= snapshot.length };
    }
    let seen = 0;
    let more = false;
    for (let index = 0; index < server.sortedOrder.length; index++) {
      const resource = server.sortedOrder[index]!;
      if (server.exists[resource] === 0 || server.listedFromMs[resource]! > nowMs) continue;
      if (seen++ < offset) continue;
      if (entries.length === size) {
        more = true;
        break;
      }
      entries.push(this.entry(pass, resource));
    }
    return { entries, last: !more };
  }

  private entry(pass: Pass, resource: number): PageEntry {
    pass.served[resource] = 1;
    const uri = pass.shape === 'honest' ? this.honestSpelling(resource, pass.shapeTurn) : this.server.uris[resource]!;
    return { uri, name: this.server.names[resource]!, mimeType: this.server.mimeTypes[resource]! };
  }

  /** uri-shapes honest pass `turn`: the resource's own URI or one of its spellings, in turn (offset per resource). */
  private honestSpelling(resource: number, turn: number): string {
    const uri = this.server.uris[resource]!;
    const spellings = this.faults.plan?.workload?.resources[resource]?.spellings ?? [];
    const choice = (turn + resource) % (spellings.length + 1);
    if (choice === spellings.length) return uri;
    const spelling = spellings[choice]!;
    this.faults.spelled?.(spelling, resource);
    return spelling;
  }

  private takeSnapshot(): Int32Array {
    const server = this.server;
    const snapshot = new Int32Array(this.existingCount());
    let next = 0;
    for (let index = 0; index < server.sortedOrder.length; index++) {
      const resource = server.sortedOrder[index]!;
      if (server.exists[resource] === 1) snapshot[next++] = resource;
    }
    return snapshot;
  }

  private existingCount(): number {
    let count = 0;
    for (let index = 0; index < this.server.exists.length; index++) count += this.server.exists[index]!;
    return count;
  }

  /** An opaque, random-looking token from a counter (deterministic per interleaving). */
  private token(prefix: string): string {
    let x = (this.tokenSeed ^ Math.imul(this.nextToken++, 0x9e3779b1)) >>> 0;
    x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
    x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
    x = (x ^ (x >>> 16)) >>> 0;
    return prefix + x.toString(36).padStart(7, '0') + (this.nextToken - 1).toString(36);
  }
}

/** The resources a pass served, in index order. */
function servedOf(served: Uint8Array): Int32Array {
  let count = 0;
  for (let index = 0; index < served.length; index++) count += served[index]!;
  const resources = new Int32Array(count);
  let next = 0;
  for (let index = 0; index < served.length; index++) if (served[index] === 1) resources[next++] = index;
  return resources;
}
