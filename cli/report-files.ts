/**
 * Reading report.json files back for `fencesim report` and `fencesim merge`: a directory (its report.json)
 * or the file itself. Every problem is a UsageError naming the file and what is wrong with it (exit 2).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Report } from '../reports/json.js';
import { reportFileName } from '../reports/json.js';
import { parseReport } from '../reports/validate.js';
import { UsageError } from './args.js';

export interface LoadedReport {
  /** The directory holding report.json (shrunk replay files sit beside it). */
  dir: string;
  path: string;
  report: Report;
}

export async function loadReportFile(location: string, command: string): Promise<LoadedReport> {
  const isFile = await stat(location).then(
    (info) => info.isFile(),
    () => false,
  );
  const path = isFile ? location : join(location, reportFileName);
  const dir = isFile ? dirname(location) : location;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? `no ${basename(path)} there (expected ${path}, written by fencesim gate or merge)` : (error as Error).message;
    throw new UsageError(`cannot read the report in ${JSON.stringify(location)}: ${why}`, command);
  }
  const parsed = parseReport(text, path);
  if (!parsed.ok) throw new UsageError(`corrupt report: ${parsed.reason}`, command);
  return { dir, path, report: parsed.report };
}
