/**
 * The Markdown summary, sized for a CI job summary (GitHub `$GITHUB_STEP_SUMMARY`): the verdict and run
 * spec in the first line, why it failed, the command that reproduces the run, each failing invariant with
 * copy-pasteable replay commands, then the metric table, safety counters, "sometimes" faults, transition
 * coverage and totals. Sections that are all green collapse into one line with the table in <details>.
 * Rendered from report.json only (see digest.ts), like every other report.
 */
import { applicabilityMarkdown } from './applicability-section.js';
import { indexerMarkdown } from './indexer-render.js';
import { eraMarkdown } from './era-section.js';
import { observeMarkdown } from './observe-markdown.js';
import {
  determinismOf,
  determinismText,
  failingInvariants,
  findingCountText,
  gateCommand,
  grouped,
  livenessFailureText,
  metricRows,
  mismatchReplay,
  mismatchText,
  safetyNames,
  shrinkOf,
  shrinkSummaryText,
  shrunkReplayCommand,
  shrunkTimelineText,
  sometimesRows,
  timingText,
  totalsRows,
  verdictWord,
  type InvariantFinding,
  type RenderOptions,
  noTableText,
  usesReferenceTable,
  allSafetyZeroText,
} from './digest.js';
import { sometimesMinimumInterleavings } from '../sim/gate.js';
import type { Report } from './json.js';

/** Replay commands shown per failing invariant; report.json holds every recorded one. */
export const replaysShownPerInvariant = 3;
/** Gate reasons listed under the verdict; the sections below carry every one of them. */
const reasonsShown = 5;
/** Unreached edges listed inline; more than this go into a collapsed list. */
const unreachedShownInline = 8;

export function renderMarkdown(report: Report, options: RenderOptions = {}): string {
  const blocks = [
    headline(report),
    reproduceBlock(report),
    nondeterminismSection(report),
    failingSection(report),
    shrinkSection(report, options),
    applicabilityMarkdown(report),
    metricsSection(report),
    safetySection(report),
    sometimesSection(report),
    coverageSection(report),
    totalsSection(report),
    eraMarkdown(report),
    observeMarkdown(report),
    indexerMarkdown(report),
  ];
  return `${blocks.filter((block) => block !== '').join('\n\n')}\n`;
}

function headline(report: Report): string {
  const spec = report.runSpec;
  const mark = report.passed ? '✅' : '❌';
  const first = `## ${mark} fencesim gate ${verdictWord(report)}: ${grouped(report.interleavings)} interleavings of ${code(spec.scenario)} against ${code(spec.client)}, seed ${code(String(spec.seed))}`;
  if (report.passed) return first;
  const shown = report.reasons.slice(0, reasonsShown);
  const rest = report.reasons.length - shown.length;
  const more = rest > 0 ? [`- … and ${rest} more (see the sections below)`] : [];
  return [first, '', ...shown.map((reason) => `- ${inline(reason)}`), ...more].join('\n');
}

function reproduceBlock(report: Report): string {
  return ['Reproduce this run:', fenced('sh', gateCommand(report))].join('\n');
}

function failingSection(report: Report): string {
  const findings = failingInvariants(report);
  if (findings.length === 0) return '';
  return ['### Failing invariants', ...findings.map((finding) => failingInvariant(report, finding))].join('\n\n');
}

function failingInvariant(report: Report, finding: InvariantFinding): string {
  const counted = findingCountText(finding);
  const explanation = finding.explanation === '' ? '' : `: ${inline(finding.explanation)}`;
  const lines = [`**${code(finding.name)}** (${finding.kind}): ${counted}${explanation}.`];
  const failures = finding.failures;
  if (failures.length === 0) {
    lines.push(
      '',
      `No replay recorded for it: report.json keeps the first failing violation of the first ${report.runSpec.maxFailures} failing interleavings. Re-run with a larger \`--max-failures\` to record one.`,
    );
    return lines.join('\n');
  }
  const shown = failures.slice(0, replaysShownPerInvariant);
  const more = failures.length > shown.length ? ` (first ${shown.length} of ${failures.length} recorded; all are in report.json)` : '';
  const commands = shown.flatMap((failure) => [`# ${oneLine(`${grouped(failure.timeMs)} ms, ${failure.uri}: ${failure.detail}`)}`, failure.replay]);
  lines.push('', `Replay${more}:`, fenced('sh', commands.join('\n')));
  return lines.join('\n');
}

/** Replays listed per nondeterministic seed group. */
const mismatchesShown = 3;

function nondeterminismSection(report: Report): string {
  const determinism = determinismOf(report);
  if (determinism === undefined || determinism.nondeterministic_interleavings === 0) return '';
  const shown = determinism.mismatches.slice(0, mismatchesShown);
  const commands = shown.flatMap((mismatch) => [`# ${oneLine(mismatchText(mismatch))}`, mismatchReplay(report, mismatch)]);
  return [
    '### ❌ Nondeterminism',
    `The determinism self-check ${inline(determinismText(determinism))}: the same seed gave two different traces, so no result of this run can be trusted to replay.`,
    fenced('sh', commands.join('\n')),
  ].join('\n\n');
}

function shrinkSection(report: Report, options: RenderOptions): string {
  const view = shrinkOf(report);
  if (view === undefined) return '';
  if (view.kind === 'skipped') return `First failure not shrunk: ${inline(view.reason)}.`;
  const shrunk = view.shrunk;
  const timeline = fenced('text', shrunk.timeline.join('\n'));
  return [
    `### First failure, shrunk: ${code(shrunk.invariant)}`,
    `${shrinkSummaryText(shrunk)}. Replay the minimal run:`,
    fenced('sh', shrunkReplayCommand(shrunk, options)),
    details(`Minimal timeline (${shrunkTimelineText(shrunk)})`, timeline),
  ].join('\n\n');
}

function metricsSection(report: Report): string {
  const rows = metricRows(report).map((row) => [
    code(row.name),
    row.value,
    cell(row.gate),
    row.passed ? `${row.sampled ? '✅' : '⚪'} ${row.result}` : `❌ **${row.result}**`,
    cell(row.note === '' ? row.measured : `${row.measured}; ${row.note}`),
  ]);
  return ['### Metrics', table(['metric', 'value', 'gate', 'result', 'measured'], rows, ['left', 'right', 'left', 'left', 'left'])].join('\n\n');
}

function safetySection(report: Report): string {
  const names = safetyNames(report);
  const failing = names.filter((name) => (report.counters[name] ?? 0) > 0);
  const rows = names.map((name) => {
    const count = report.counters[name] ?? 0;
    return [code(name), grouped(count), count > 0 ? '❌ **FAIL**' : '✅ ok'];
  });
  const body = table(['invariant', 'violations', 'result'], rows, ['left', 'right', 'left']);
  const liveness = Object.entries(report.liveness)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `Liveness ${code(name)}: ${grouped(count)} interleavings ${livenessFailureText(name)}.`);
  const determinism = determinismOf(report);
  const selfCheck =
    determinism === undefined ? [] : [`${determinism.nondeterministic_interleavings > 0 ? '❌' : determinism.checked === 0 ? '⚠️' : '✅'} Determinism self-check: ${inline(determinismText(determinism))}.`];
  if (failing.length === 0) {
    return [`### Safety counters`, `✅ ${allSafetyZeroText(report)}`, ...liveness, ...selfCheck, details('Safety counters', body)].join('\n\n');
  }
  return [`### Safety counters (each must be 0): ${failing.length} of ${names.length} failing`, body, ...liveness, ...selfCheck].join('\n\n');
}

function sometimesSection(report: Report): string {
  const rows = sometimesRows(report);
  const title = '### Sometimes (faults that fired)';
  if (rows.length === 0) return `${title}\n\nNo fault fired and none is required.`;
  const body = table(
    ['fault', 'fired', 'status'],
    rows.map((row) => [code(row.fault), grouped(row.fired), row.status === 'never fired' ? `❌ **${row.text}**` : row.status === 'not enforced' ? `⚠️ ${row.text}` : row.text]),
    ['left', 'right', 'left'],
  );
  const missing = rows.filter((row) => row.status === 'never fired');
  const unenforced = rows.filter((row) => row.status === 'not enforced');
  if (missing.length > 0 || unenforced.length > 0) {
    const names = (list: typeof rows): string => list.map((row) => code(row.fault)).join(', ');
    const lines: string[] = [];
    if (missing.length > 0) lines.push(`❌ ${plural(missing.length, 'required fault')} never fired, so the scenario did not test what it claims: ${names(missing)}.`);
    if (unenforced.length > 0) {
      lines.push(`⚠️ ${plural(unenforced.length, 'required fault')} never fired (not enforced: the run has fewer than ${grouped(sometimesMinimumInterleavings)} interleavings): ${names(unenforced)}.`);
    }
    return [title, ...lines, body].join('\n\n');
  }
  const required = rows.filter((row) => row.required).length;
  return [title, `✅ All ${required} required faults fired (${rows.length} faults fired in total).`, details('Fired counts', body)].join('\n\n');
}

function coverageSection(report: Report): string {
  const coverage = report.coverage;
  const percent = coverage.total === 0 ? 0 : Math.floor((coverage.hit / coverage.total) * 100);
  if (!usesReferenceTable(report)) return `### Transition coverage: not applicable\n\n${noTableText(report)}.`;
  const title = `### Transition coverage: ${coverage.hit}/${coverage.total} edges hit (${percent} %)`;
  if (coverage.unreached.length === 0) return `${title}\n\nEvery edge of the transition table was hit.`;
  const list = coverage.unreached.map((edge) => `- ${code(edge)}`).join('\n');
  const label = `${coverage.unreached.length} unreached edge${coverage.unreached.length === 1 ? '' : 's'}`;
  if (coverage.unreached.length <= unreachedShownInline) return [title, `${label}:`, list].join('\n\n');
  return [title, details(label, list)].join('\n\n');
}

function totalsSection(report: Report): string {
  const totals = totalsRows(report)
    .map(([label, value]) => `${label}: ${value}`) // "label: value": the checker and freshness rows read wrong the other way round
    .join(' · ');
  return ['### Totals', totals, `<sub>timing: ${timingText(report)} · ${report.schema}</sub>`].join('\n\n');
}

type Align = 'left' | 'right';

function plural(count: number, noun: string): string {
  return `${grouped(count)} ${noun}${count === 1 ? '' : 's'}`;
}

function table(header: string[], rows: string[][], align: Align[]): string {
  const rule = align.map((side) => (side === 'right' ? '--:' : '---'));
  return [header, rule, ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

function details(summary: string, body: string): string {
  return `<details><summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

/** A code span that survives backticks and table pipes in its text. */
export function code(text: string): string {
  const flat = oneLine(text).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** A fenced code block whose fence is longer than any backtick run inside it. */
function fenced(language: string, body: string): string {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${body}\n${fence}`;
}

/** Text from the report placed in running Markdown: one line, markup characters escaped. */
function inline(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>|#]/g, (character) => `\\${character}`);
}

function cell(text: string): string {
  return inline(text);
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
