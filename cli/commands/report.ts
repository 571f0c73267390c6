/**
 * `fencesim report DIR [--format md|junit|html|all] [--strategies FILE]`: re-render DIR/report.json into
 * summary.md, junit.xml and/or report.html beside it (the HTML with the strategy benchmark when given its
 * `bench --strategies --json` output), and print the paths written.
 */
import { closest, parseOptions, UsageError } from '../args.js';
import type { Io } from '../io.js';
import { splitOperands } from '../positional.js';
import { loadReportFile } from '../report-files.js';
import { loadStrategies, renderedFormats, writeRenderedReports, type RenderedFormat } from '../write-reports.js';

export const reportOptions = {
  format: 'word',
  strategies: 'file',
} as const;

const formatNames = [...renderedFormats, 'all'] as const;

export async function reportCommand(argv: readonly string[], io: Io): Promise<number> {
  const { operands, options: rest } = splitOperands(argv, reportOptions);
  const options = parseOptions('report', rest, reportOptions);
  if (operands.length === 0) throw new UsageError('missing the report directory: fencesim report DIR (the --out of a gate or merge)', 'report');
  if (operands.length > 1) throw new UsageError(`one report directory at a time, got ${operands.length}: ${operands.join(' ')}`, 'report');
  const formats = formatsOf(options.format ?? 'all');
  const strategies = options.strategies === undefined ? undefined : await loadStrategies(options.strategies, 'strategies', 'report');
  const loaded = await loadReportFile(operands[0]!, 'report');
  // --format html asks for HTML explicitly (exit 2 without vega); all renders what this installation can.
  const htmlRequired = options.format === 'html';
  const paths = await writeRenderedReports(loaded.dir, loaded.report, formats, strategies === undefined ? {} : { strategies }, io, htmlRequired);
  io.stdout(`${paths.join('\n')}\n`);
  return 0;
}

function formatsOf(format: string): readonly RenderedFormat[] {
  if (format === 'all') return renderedFormats;
  if ((renderedFormats as readonly string[]).includes(format)) return [format as RenderedFormat];
  const guess = closest(format, formatNames);
  throw new UsageError(`--format: unknown format ${JSON.stringify(format)}${guess === null ? '' : `; did you mean ${guess}?`} (formats: ${formatNames.join(', ')})`, 'report');
}
