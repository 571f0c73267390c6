/**
 * One timeline entry as a record: when, who, what kind of line, the resources and requests it names, the
 * decision it shows and the invariants it broke. The timeline (timeline.ts) builds entries; focusing
 * (timeline-focus.ts) filters them; `renderEntry` turns one into its line of text, last.
 */
import type { InvariantName } from './invariants.js';

export type TimelineEntryKind =
  /** A world note: phases, faults, ground truth about listing and access. */
  | 'note'
  /** Ground truth: a resource changed or was deleted on the server. */
  | 'truth'
  /** An input reaching the client, with what the client did about it folded in. */
  | 'input'
  /** A client decision or action not folded into an input's line. */
  | 'client'
  /** The explanation of a violated invariant (under the line that broke it). */
  | 'explanation'
  /** Several similar lines folded into one (timeline-focus.ts foldRepeats). */
  | 'fold';

export interface TimelineEntry {
  timeMs: number;
  /** Who acted or which way a message went: `server→client`, `workload`, `client`, `sim`, ... ('' for explanations and folds). */
  actor: string;
  kind: TimelineEntryKind;
  /** The resource the line is about (null when none). */
  uri: string | null;
  /** The rendered text after the actor column, folded effects included, without the violation marks. */
  text: string;
  /** Every resource URI the line names, as spelled (the line's own, folded requests and moves, truth, free-text details). */
  uris: string[];
  /** Request ids the line names (a request sent, a response answering one). */
  requestIds: number[];
  /** The effect type of the first client decision on the line (VersionAccepted, StaleReceiptWritten, ...), or null. */
  decision: string | null;
  /** Invariants this line broke (rendered as `<== NAME` at its end). */
  invariants: InvariantName[];
  /** An explanation line: the invariant it explains. */
  explains: InvariantName | null;
  /** Resource listing traffic: list_changed, list pages and passes, the discover timer and command, scans, catalogs. */
  listing: boolean;
  /** Ground truth that a resource was deleted. */
  deletion: boolean;
}

const whoWidth = 14;
/** The line that broke an invariant ends with `<== NAME`; the explanation line under it starts with `!! `. */
export const violationMarker = '<==';
export const explanationPrefix = '!! ';
const indent = ' '.repeat(7);

export function newEntry(timeMs: number, actor: string, kind: TimelineEntryKind, text: string, uri: string | null): TimelineEntry {
  return { timeMs, actor, kind, uri, text, uris: uri === null || uri === '' ? [] : [uri], requestIds: [], decision: null, invariants: [], explains: null, listing: false, deletion: false };
}

/** The entry as its line of text. */
export function renderEntry(entry: TimelineEntry): string {
  if (entry.kind === 'explanation') return `${indent}${explanationPrefix}${entry.text}`;
  if (entry.kind === 'fold') return `${indent}${entry.text}`;
  let line = `${String(entry.timeMs).padStart(7)} ms  ${entry.actor.padEnd(whoWidth)}  ${entry.text}`;
  for (const invariant of entry.invariants) line += `   ${violationMarker} ${invariant}`;
  return line;
}

export function renderEntries(entries: readonly TimelineEntry[]): string[] {
  return entries.map(renderEntry);
}

/** Adds `uri` to the URIs the entry names (once; the empty discovery key is no resource). */
export function nameUri(entry: TimelineEntry, uri: string | null | undefined): void {
  if (uri === null || uri === undefined || uri === '' || entry.uris.includes(uri)) return;
  entry.uris.push(uri);
}

/**
 * The URI-like tokens of a free-text detail (a rejection's or audit's detail, a note): the one place text is
 * scanned, when the entry is built, because such details are prose from the core or an actor. A `kind:uri`
 * timer key gives its URI.
 */
export function urisInText(text: string): string[] {
  const found: string[] = [];
  for (const token of text.split(/[\s()[\],]+/)) {
    const scheme = token.indexOf('://');
    if (scheme < 0) continue;
    const prefix = token.lastIndexOf(':', scheme - 1);
    const trimmed = token.replace(/[:.;]+$/, '');
    found.push(trimmed);
    if (prefix >= 0 && token.lastIndexOf(':', prefix - 1) < 0 && /^[a-z-]+$/.test(token.slice(0, prefix))) found.push(token.slice(prefix + 1).replace(/[:.;]+$/, ''));
  }
  return found;
}
