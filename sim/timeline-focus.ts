/**
 * How a failing run's timeline is shown after shrinking: cut right after the violation, focused on the
 * resources the violation is about (lines only about other resources are hidden and counted), and, when
 * it is still long (a liveness failure runs to the end), with repeated lines folded.
 */
import { canonicalizeUri } from '../core/uri.js';
import type { InvariantName } from './oracle.js';
import { explanationPrefix, violationMarker } from './timeline.js';

/**
 * The timeline cut right after the explanations of the step that first violated `invariant` (all of it
 * when none). Of that step's explanations, the first per invariant is kept and the rest are counted.
 */
export function timelineUpTo(lines: readonly string[], invariant: InvariantName): string[] {
  const first = lines.findIndex((line) => line.trimStart().startsWith(`${explanationPrefix}${invariant}:`));
  if (first < 0) return [...lines];
  let start = first;
  while (start > 0 && lines[start - 1]!.trimStart().startsWith(explanationPrefix)) start--;
  let end = first;
  while (end + 1 < lines.length && lines[end + 1]!.trimStart().startsWith(explanationPrefix)) end++;
  const kept = lines.slice(0, start);
  const more = new Map<string, number>();
  for (const line of lines.slice(start, end + 1)) {
    const name = line.trimStart().slice(explanationPrefix.length).split(':')[0]!;
    if (more.has(name)) more.set(name, more.get(name)! + 1);
    else {
      more.set(name, 0);
      kept.push(line);
    }
  }
  for (const [name, count] of more) if (count > 0) kept.push(`${' '.repeat(7)}${explanationPrefix}… and ${count} more ${name} violations at this point`);
  return kept;
}

export interface FocusedTimeline {
  lines: string[];
  /** Lines left out because they are only about other resources. */
  hidden: number;
}

/**
 * The lines that matter to a violation about `uris`: every line that names one of them (in any spelling)
 * or names no resource at all (connections, phases, violations), and none that is only about other
 * resources. With no URI to focus on, every line is kept.
 */
export function focusTimeline(lines: readonly string[], uris: readonly string[], knownUris: readonly string[]): FocusedTimeline {
  const focus = new Set(uris.map(canonical).filter((uri) => uri !== ''));
  const known = new Set(knownUris.map(canonical));
  if (focus.size === 0) return { lines: [...lines], hidden: 0 };
  const kept: string[] = [];
  for (const line of lines) {
    const named = namedResources(line, known);
    if (named.some((uri) => focus.has(uri)) || (named.length === 0 && !isDiscoveryLine(line))) kept.push(line);
  }
  return { lines: kept, hidden: lines.length - kept.length };
}

/** Resource listing traffic that names no resource: noise when the violation is about one resource. */
function isDiscoveryLine(line: string): boolean {
  return /(notifications\/resources\/list_changed|response #\d+ \(list\)|\[truth\] list pass|timer discover|discover: list all|scan \d+ starts|CATALOG|SCAN \d+)/.test(line);
}

/** Canonical forms of the known resource URIs a line names (tokens split on spaces and brackets; `kind:uri` timer keys too). */
function namedResources(line: string, known: ReadonlySet<string>): string[] {
  const named: string[] = [];
  for (const token of line.split(/[\s()[\],]+/)) {
    const scheme = token.indexOf('://');
    if (scheme < 0) continue;
    const prefix = token.lastIndexOf(':', scheme - 1);
    const trimmed = (prefix >= 0 && token.lastIndexOf(':', prefix - 1) < 0 && /^[a-z-]+$/.test(token.slice(0, prefix)) ? token.slice(prefix + 1) : token).replace(/[:.;]+$/, '');
    for (const candidate of [token.replace(/[:.;]+$/, ''), trimmed]) {
      const uri = canonical(candidate);
      if (known.has(uri)) {
        named.push(uri);
        break;
      }
    }
  }
  return named;
}

function canonical(uri: string): string {
  const result = canonicalizeUri(uri);
  return result.ok ? result.uri : uri;
}

/**
 * How a shrunk failure is shown: the timeline up to the first violation of `invariant`, focused on the
 * violation's URI and every resource its breaking line names (so a URI confusion keeps both resources).
 */
export function violationTimeline(lines: readonly string[], invariant: InvariantName, violationUri: string, knownUris: readonly string[]): FocusedTimeline {
  const upTo = timelineUpTo(lines, invariant);
  const known = new Set(knownUris.map(canonical));
  const breaking = upTo.filter((line) => line.includes(`${violationMarker} ${invariant}`));
  const focus = [violationUri, ...breaking.flatMap((line) => namedResources(line, known))];
  const focused = catalogInvariants.includes(invariant) && violationUri === '' ? focusOnListing(upTo, known) : focusTimeline(upTo, focus, knownUris);
  if (focused.lines.length <= foldAboveLines) return focused;
  const requestIds = new Set(breaking.flatMap((line) => line.match(/#\d+\b/g) ?? []));
  const folded = foldRepeats(focused.lines, (line) => (line.match(/#\d+\b/g) ?? []).some((id) => requestIds.has(id)));
  return { lines: folded, hidden: focused.hidden };
}

/** Invariants about the resource listing rather than one resource. */
const catalogInvariants: readonly InvariantName[] = ['unreconciled_catalog', 'unproven_completeness'];

/** For a listing failure: the listing traffic, deletions and re-creations, and lines about no resource. */
function focusOnListing(lines: readonly string[], known: ReadonlySet<string>): FocusedTimeline {
  const kept = lines.filter((line) => isDiscoveryLine(line) || /\[truth \S+ deleted/.test(line) || namedResources(line, known).length === 0);
  return { lines: kept, hidden: lines.length - kept.length };
}

/** Timelines longer than this (liveness failures run to the end) get their repeated lines folded. */
export const foldAboveLines = 30;
/** How many lines of one shape are shown before further ones are folded. */
const shapeShownMax = 2;

/**
 * Folds runs of lines whose shape (the text without its time, every number replaced by #) was already
 * shown twice into one `… N more lines like the ones above` line. Violation lines, their explanations and
 * lines `keep` picks are never folded.
 */
export function foldRepeats(lines: readonly string[], keep: (line: string) => boolean = () => false): string[] {
  const shown = new Map<string, number>();
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length === 1) out.push(run[0]!);
    else if (run.length > 1) out.push(`${' '.repeat(7)}… ${run.length} more lines like the ones above, from ${timeOf(run[0]!)} to ${timeOf(run.at(-1)!)} ms`);
    run = [];
  };
  for (const line of lines) {
    const shape = line.replace(/^\s*\d+ ms\s+/, '').replace(/\d+/g, '#');
    const count = shown.get(shape) ?? 0;
    shown.set(shape, count + 1);
    const marked = line.includes(violationMarker) || line.trimStart().startsWith(explanationPrefix) || keep(line);
    if (count >= shapeShownMax && !marked) {
      run.push(line);
      continue;
    }
    flush();
    out.push(line);
  }
  flush();
  return out;
}

function timeOf(line: string): string {
  return /^\s*(\d+) ms/.exec(line)?.[1] ?? '?';
}
