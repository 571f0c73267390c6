/**
 * list-page-edge (scenario listing-edges, scenarios/discovery.ts): a list pass at an edge of the contract, its kind
 * taken in turn (no draw), each a fate the client must give the pass in the step of its page (sim/checkers/scan-record.ts):
 * - error: the pass's first page answered with a transient server error (-32603): abandoned as LIST_ERROR, not as an
 *   invalid cursor;
 * - empty-cursor: on a 2025-11-25 session, a first page whose nextCursor is the empty string (a cursor only on
 *   2026-07-28, pagination.mdx): a MalformedListPage, abandoned as EMPTY_CURSOR (on 2026-07-28: null-result instead);
 * - null-result: a first page whose result is null, not an object: a MalformedListPage (MALFORMED_PAGE);
 * - endless: well-formed empty pages under fresh cursors, `endlessPagesMax` of them, more than a client's default
 *   scanPagesMax (core/config.ts, 256): abandoned as PAGE_LIMIT on the page that reaches it, never followed further;
 * - long-snapshot-id: with the extension negotiated, an honest snapshot pass whose ID is exactly as long as a ledger
 *   text (core/protocol.ts LEDGER_TEXT_CHARS_MAX): valid, so proven (proven_withheld); otherwise error instead.
 */
import type { ResponseOutcome, ScanAbandonReason } from '../../core/types.js';
import { LEDGER_TEXT_CHARS_MAX } from '../../core/protocol.js';
import type { ListResult, PageEntry } from './list-page.js';

export type EdgeKind = 'error' | 'empty-cursor' | 'null-result' | 'endless' | 'long-snapshot-id';
const kinds: readonly EdgeKind[] = ['error', 'empty-cursor', 'null-result', 'endless', 'long-snapshot-id'];

/** Pages of an endless pass (its last one ends it): past the default scanPagesMax of 256. */
export const endlessPagesMax = 300;

/** What a server that fails for a moment answers a list request with. */
export const listEdgeError: ResponseOutcome = { type: 'error', code: -32603, message: 'Internal error' };

/** The `turn`th edge pass's kind, on a 2026-07-28 session or not, its pages from a real snapshot or not. */
export function edgeKind(turn: number, era2026: boolean, snapshot: boolean): EdgeKind {
  const kind = kinds[turn % kinds.length]!;
  if (kind === 'empty-cursor' && era2026) return 'null-result';
  if (kind === 'long-snapshot-id' && !snapshot) return 'error';
  return kind;
}

/**
 * malformed-list-page (sim/actors/listing.ts): breaks one rule of the page's schema, `kind` drawn (0 resources not an
 * array, 1 an entry, 2 nextCursor or snapshotId; an entry only when the page has one), `variant` taken in turn (the
 * first variant of each kind is served as before variants existed). Returns the break as a client abandons the pass
 * for it: DUPLICATE_URI for an entry repeated, else MALFORMED_PAGE.
 */
export function malformPage(result: ListResult, entries: PageEntry[], kind: number, variant: number): ScanAbandonReason {
  if (kind === 2) {
    if (variant === 0) result.nextCursor = entries.length;
    else result.snapshotId = variant === 1 ? '' : variant === 2 ? entries.length : 's'.repeat(LEDGER_TEXT_CHARS_MAX + 1);
  } else if (kind === 1 && entries.length > 0) {
    const last = entries[entries.length - 1]!;
    const broken = variant === 0 ? { name: last.name, mimeType: last.mimeType } : variant === 1 ? { uri: last.uri, mimeType: last.mimeType } : null;
    result.resources = variant === 3 ? [...entries, last] : entries.map((entry, index) => (index === entries.length - 1 ? broken : entry));
    if (variant === 3) return 'DUPLICATE_URI';
  } else {
    result.resources = { items: entries };
  }
  return 'MALFORMED_PAGE';
}
