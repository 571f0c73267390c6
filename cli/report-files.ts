/**
 * Reading report.json files back for `fencesim report` and `fencesim merge`: a directory (its report.json)
 * or the file itself. Every problem is a UsageError naming the file and what is wrong with it (exit 2):
 * unreadable, corrupt, of another schema, contradicting its own accumulator or digest (reports/verify.ts),
 * or sitting beside the `incomplete.json` of a gate or merge that was interrupted or did not finish.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Report } from '../reports/json.js';
import { reportFileName } from '../reports/json.js';
import { parseReport } from '../reports/validate.js';
import { reportProblem } from '../reports/verify.js';
import { UsageError } from './args.js';
import { incompleteFileName, type IncompleteMarker } from './out-dir.js';

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
  await refuseIncomplete(dir, command);
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
  const problem = reportProblem(parsed.report, path);
  if (problem !== null) throw new UsageError(`refused report: ${problem}`, command);
  return { dir, path, report: parsed.report };
}

/** A directory with incomplete.json holds no current report, whatever else is in it. */
async function refuseIncomplete(dir: string, command: string): Promise<void> {
  const markerPath = join(dir, incompleteFileName);
  const text = await readFile(markerPath, 'utf8').catch(() => null);
  if (text === null) return;
  let marker: Partial<IncompleteMarker> = {};
  try {
    marker = JSON.parse(text) as Partial<IncompleteMarker>;
  } catch {
    // a torn marker still means the run did not finish
  }
  const what = `fencesim ${typeof marker.command === 'string' ? marker.command : 'gate'}`;
  const state =
    marker.state === 'interrupted'
      ? `was interrupted${typeof marker.signal === 'string' ? ` by ${marker.signal}` : ''}`
      : 'did not finish (it is still running, crashed, or was killed)';
  const rerun = typeof marker.reproduce === 'string' ? `; run it again: ${marker.reproduce}` : '';
  throw new UsageError(`no current report in ${JSON.stringify(dir)}: the ${what} writing into it ${state} (${markerPath})${rerun}`, command);
}
