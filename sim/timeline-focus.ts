/**
 * How a failing run's timeline is shown after shrinking: cut right after the violation, focused on the
 * resources the violation is about (entries only about other resources are hidden and counted), and, when
 * it is still long (a liveness failure runs to the end), with repeated lines folded. Everything here
 * filters timeline records (timeline-entry.ts) and renders the survivors last.
 */
import { canonicalizeUri } from '../core/uri.js';
import type { InvariantName } from './oracle.js';
import { newEntry, renderEntries, renderEntry, type TimelineEntry } from './timeline-entry.js';

/**
 * The timeline cut right after the explanations of the step that first violated `invariant` (all of it
 * when none). Of that step's explanations, the first per invariant is kept and the rest are counted.
 */
export function timelineUpTo(entries: readonly TimelineEntry[], invariant: InvariantName): TimelineEntry[] {
  const first = entries.findIndex((entry) => entry.explains === invariant);
  if (first < 0) return [...entries];
  let start = first;
  while (start > 0 && entries[start - 1]!.kind === 'explanation') start--;
  let end = first;
  while (end + 1 < entries.length && entries[end + 1]!.kind === 'explanation') end++;
  const kept = entries.slice(0, start);
  const more = new Map<string, number>();
  for (const entry of entries.slice(start, end + 1)) {
    const name = entry.explains ?? '';
    if (more.has(name)) more.set(name, more.get(name)! + 1);
    else {
      more.set(name, 0);
      kept.push(entry);
    }
  }
  for (const [name, count] of more) if (count > 0) kept.push(newEntry(entries[end]!.timeMs, '', 'explanation', `… and ${count} more ${name} violations at this point`, null));
  return kept;
}

export interface FocusedTimeline {
  lines: string[];
  /** Lines left out because they are only about other resources. */
  hidden: number;
}

/**
 * The entries that matter to a violation about `uris`: every entry that names one of them (in any
 * spelling) or names no resource at all (connections, phases, violations) and is no listing traffic, and
 * none that is only about other resources. With no URI to focus on, every entry is kept.
 */
export function focusTimeline(entries: readonly TimelineEntry[], uris: readonly string[], knownUris: readonly string[]): { entries: TimelineEntry[]; hidden: number } {
  const focus = new Set(uris.map(canonical).filter((uri) => uri !== ''));
  const known = new Set(knownUris.map(canonical));
  if (focus.size === 0) return { entries: [...entries], hidden: 0 };
  const kept = entries.filter((entry) => {
    const named = namedResources(entry, known);
    return named.some((uri) => focus.has(uri)) || (named.length === 0 && !entry.listing);
  });
  return { entries: kept, hidden: entries.length - kept.length };
}

/** Canonical forms of the known resource URIs an entry names. */
function namedResources(entry: TimelineEntry, known: ReadonlySet<string>): string[] {
  const named: string[] = [];
  for (const uri of entry.uris) {
    const candidate = canonical(uri);
    if (known.has(candidate) && !named.includes(candidate)) named.push(candidate);
  }
  return named;
}

function canonical(uri: string): string {
  const result = canonicalizeUri(uri);
  return result.ok ? result.uri : uri;
}

/**
 * How a shrunk failure is shown: the timeline up to the first violation of `invariant`, focused on the
 * violation's URI and every resource its breaking entry names (so a URI confusion keeps both resources).
 */
export function violationTimeline(entries: readonly TimelineEntry[], invariant: InvariantName, violationUri: string, knownUris: readonly string[]): FocusedTimeline {
  const upTo = timelineUpTo(entries, invariant);
  const known = new Set(knownUris.map(canonical));
  const breaking = upTo.filter((entry) => entry.invariants.includes(invariant));
  const focus = [violationUri, ...breaking.flatMap((entry) => namedResources(entry, known))];
  const onListing = listingInvariants.includes(invariant) || (catalogInvariants.includes(invariant) && violationUri === '');
  const focused = onListing ? focusOnListing(upTo, known) : focusTimeline(upTo, focus, knownUris);
  if (focused.entries.length <= foldAboveLines) return { lines: renderEntries(focused.entries), hidden: focused.hidden };
  const requestIds = new Set(breaking.flatMap((entry) => entry.requestIds));
  const folded = foldRepeats(focused.entries, (entry) => entry.requestIds.some((id) => requestIds.has(id)));
  return { lines: renderEntries(folded), hidden: focused.hidden };
}

/** Invariants about the resource listing rather than one resource. */
const catalogInvariants: readonly InvariantName[] = ['unreconciled_catalog', 'unproven_completeness'];
/** A catalog judged against the truth breaks on the listing itself, whatever URI it names: shown on the listing. */
const listingInvariants: readonly InvariantName[] = ['catalog_untrue', 'catalog_ab_unsettled', 'task_catalog_expired'];

/** For a listing failure: the listing traffic, deletions and re-creations, and entries about no resource. */
function focusOnListing(entries: readonly TimelineEntry[], known: ReadonlySet<string>): { entries: TimelineEntry[]; hidden: number } {
  const kept = entries.filter((entry) => entry.listing || entry.deletion || entry.kind === 'explanation' || entry.invariants.length > 0 || namedResources(entry, known).length === 0);
  return { entries: kept, hidden: entries.length - kept.length };
}

/** Timelines longer than this (liveness failures run to the end) get their repeated lines folded. */
export const foldAboveLines = 30;
/** How many lines of one shape are shown before further ones are folded. */
const shapeShownMax = 2;

/**
 * Folds runs of entries whose shape (the rendered line without its time, every number replaced by #) was
 * already shown twice into one `… N more lines like the ones above` entry. Entries that broke an
 * invariant, explanations and entries `keep` picks are never folded.
 */
export function foldRepeats(entries: readonly TimelineEntry[], keep: (entry: TimelineEntry) => boolean = () => false): TimelineEntry[] {
  const shown = new Map<string, number>();
  const out: TimelineEntry[] = [];
  let run: TimelineEntry[] = [];
  const flush = (): void => {
    if (run.length === 1) out.push(run[0]!);
    else if (run.length > 1) out.push(newEntry(run[0]!.timeMs, '', 'fold', `… ${run.length} more lines like the ones above, from ${timeOf(run[0]!)} to ${timeOf(run.at(-1)!)} ms`, null));
    run = [];
  };
  for (const entry of entries) {
    const shape = shapeOf(entry);
    const count = shown.get(shape) ?? 0;
    shown.set(shape, count + 1);
    const marked = entry.invariants.length > 0 || entry.kind === 'explanation' || keep(entry);
    if (count >= shapeShownMax && !marked) {
      run.push(entry);
      continue;
    }
    flush();
    out.push(entry);
  }
  flush();
  return out;
}

/** An entry's rendered line without its time, every number replaced by # (so one shape covers a repeated event). */
function shapeOf(entry: TimelineEntry): string {
  return renderEntry({ ...entry, timeMs: 0 }).replace(/^\s*\d+ ms\s+/, '').replace(/\d+/g, '#');
}

function timeOf(entry: TimelineEntry): string {
  return entry.kind === 'explanation' || entry.kind === 'fold' ? '?' : String(entry.timeMs);
}
