/**
 * Writing a gate's reports (gate, merge, report): report.json is the source; summary.md, junit.xml and
 * report.html are rendered from the Report object next to it. The Markdown also goes to the GitHub job
 * summary ($GITHUB_STEP_SUMMARY, appended) when that variable is set. The strategy benchmark's rows
 * (`bench --strategies --json`) can be handed to the HTML report from a file.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../reports/atomic-file.js';
import type { StrategyResult } from '../reports/html.js';
import { HtmlUnavailable, loadHtmlRenderer } from '../reports/html-loader.js';
import { writeReport, type Report } from '../reports/json.js';
import { renderJunit } from '../reports/junit.js';
import { renderMarkdown } from '../reports/markdown.js';
import { UsageError } from './args.js';
import type { Io } from './io.js';

export const renderedFormats = ['md', 'junit', 'html'] as const;
export type RenderedFormat = (typeof renderedFormats)[number];

export const renderedFileNames: Record<RenderedFormat, string> = { md: 'summary.md', junit: 'junit.xml', html: 'report.html' };

export interface RenderExtras {
  strategies?: StrategyResult[];
}

/**
 * Renders `formats` of `report` into `dir`, each file through a temporary file and a rename; returns the
 * paths written, in format order. Without the optional vega packages report.html is skipped with a warning
 * on stderr, unless `htmlRequired` (then a UsageError, exit 2, naming what to install).
 */
export async function writeRenderedReports(dir: string, report: Report, formats: readonly RenderedFormat[], extras: RenderExtras, io: Io, htmlRequired = false): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const format of formats) {
    const path = join(dir, renderedFileNames[format]);
    let text: string;
    try {
      text = await render(format, dir, report, extras);
    } catch (error) {
      if (!(error instanceof HtmlUnavailable)) throw error;
      if (htmlRequired) throw new UsageError(error.message, 'report');
      io.stderr(`fencesim: warning: ${renderedFileNames.html} not written: ${error.message}\n`);
      continue;
    }
    await writeFileAtomic(path, text);
    paths.push(path);
    if (format === 'md') await appendStepSummary(text, io);
  }
  return paths;
}

/** report.json plus every rendered format: what `gate` and `merge` write. */
export async function writeAllReports(dir: string, report: Report, extras: RenderExtras, io: Io): Promise<string[]> {
  const reportPath = await writeReport(dir, report);
  return [reportPath, ...(await writeRenderedReports(dir, report, renderedFormats, extras, io))];
}

function render(format: RenderedFormat, dir: string, report: Report, extras: RenderExtras): Promise<string> | string {
  if (format === 'md') return renderMarkdown(report, { reportDir: dir });
  if (format === 'junit') return renderJunit(report, { reportDir: dir });
  return loadHtmlRenderer().then((renderHtml) => renderHtml(report, extras.strategies === undefined ? { reportDir: dir } : { reportDir: dir, strategies: extras.strategies }));
}

/** Appends the Markdown summary to $GITHUB_STEP_SUMMARY when it is set; a failure there only warns. */
async function appendStepSummary(markdown: string, io: Io): Promise<void> {
  const path = io.env?.('GITHUB_STEP_SUMMARY');
  if (path === undefined || path === '') return;
  try {
    await appendFile(path, markdown);
  } catch (error) {
    io.stderr(`fencesim: warning: cannot append the summary to $GITHUB_STEP_SUMMARY (${path}): ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

const strategyFields: Record<keyof StrategyResult, 'string' | 'number'> = {
  strategy: 'string',
  condition: 'string',
  duplicateRatePercent: 'number',
  dropRatePercent: 'number',
  readsPerChange: 'number',
  convergenceP50Ms: 'number',
  convergenceP99Ms: 'number',
  staleServedPercent: 'number',
  reconciliationReadsPerMinute: 'number',
};

/**
 * Reads a `bench --strategies --json` file (a StrategyResult array) for report.html; every problem is a
 * UsageError naming the option, including an installation that cannot render HTML (asked for explicitly).
 */
export async function loadStrategies(path: string, option: string, command: string): Promise<StrategyResult[]> {
  await loadHtmlRenderer().catch((error: unknown) => {
    throw error instanceof HtmlUnavailable ? new UsageError(`--${option}: ${error.message}`, command) : error;
  });
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--${option}: cannot read ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`, command);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--${option}: ${JSON.stringify(path)} is not valid JSON (${error instanceof Error ? error.message : String(error)})`, command);
  }
  if (!Array.isArray(value)) throw new UsageError(`--${option}: ${JSON.stringify(path)} is not a JSON array of strategy results (write one with fencesim bench --strategies --json)`, command);
  value.forEach((row: unknown, index) => {
    if (typeof row !== 'object' || row === null) throw new UsageError(`--${option}: ${JSON.stringify(path)}: entry ${index} is not an object`, command);
    for (const [field, type] of Object.entries(strategyFields)) {
      const item = (row as Record<string, unknown>)[field];
      if (typeof item !== type || (type === 'number' && !Number.isFinite(item))) {
        throw new UsageError(`--${option}: ${JSON.stringify(path)}: entry ${index}: ${field} is missing or not a ${type}`, command);
      }
    }
  });
  return value as StrategyResult[];
}
