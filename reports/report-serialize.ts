/**
 * The exact bytes of report.json and its atomic write: two-space indented JSON, arrays of numbers on one
 * line, a final newline, sealed by integrity.ts.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import { sealedReport } from './integrity.js';
import { reportFileName, type Report } from './report-schema.js';

/** Writes `dir/report.json` (through a temporary file and a rename), creating `dir` first; returns the file's path. */
export async function writeReport(dir: string, report: Report): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, reportFileName);
  await writeFileAtomic(path, serializeReport(report));
  return path;
}

/**
 * The exact bytes of report.json: two-space indented JSON, arrays of numbers on one line, a final newline,
 * sealed with this version's `integrity` section and `timing.sha256` (whatever the report held before).
 */
export function serializeReport(report: Report): string {
  return serializeFields(sealedReport(report, serializeFields));
}

/** The serialization itself, of exactly the fields given. */
export function serializeFields(report: Report): string {
  const text = JSON.stringify(report, (_key, value: unknown) => (isNumberArray(value) ? `${numbersMarker}[${value.join(', ')}]` : value), 2);
  return `${text.replace(markedNumbers, '$1')}\n`;
}

/** Arrays of numbers (the histograms run to 1,200 entries) are written inline through a marked string. */
const numbersMarker = '\u0001fencesim-numbers\u0001';
const markedNumbers = /"\\u0001fencesim-numbers\\u0001(\[[-0-9., e+E]*\])"/g;

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number' && Number.isFinite(item));
}
