/**
 * Binding a report to its run and its code: report.json's `integrity` section names the fencesim version
 * that wrote it and carries a SHA-256 over its content; `timing.sha256` binds the timing to that content.
 *
 * `integrity.contentSha256` covers every byte of report.json's serialization except the `integrity` and
 * `timing` sections: schema, runSpec (seed, interleavings, scenario, client, max failures, transport,
 * shard), the verdict and reasons, counters, liveness, metrics, thresholds, coverage, faults, sometimes,
 * totals, distributions, failures (with the shrunk timeline and the replay file's name, not the replay
 * file's bytes), the determinism self-check and the raw accumulator. It is deterministic, so identical
 * runs still write identical reports apart from `timing`. `timing.sha256` covers the other timing fields
 * and the content digest. Both are unkeyed: they detect edits, truncation and corruption by anything that
 * does not recompute them; the verdict itself is recomputed from the accumulator on every read (verify.ts).
 */
import { createHash } from 'node:crypto';
import { fencesimVersion } from './version.js';

export interface ReportIntegrity {
  fencesimVersion: string;
  /** What the digest covers, in words, so a reader of report.json need not look it up. */
  covers: string;
  contentSha256: string;
}

export const integrityCovers = 'contentSha256: SHA-256 of this report.json serialized without its integrity and timing sections; timing.sha256: SHA-256 of the other timing fields and contentSha256';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What sealing needs of a report (reports/json.ts Report), kept structural so this module imports nothing of it. */
interface Sealable {
  integrity?: ReportIntegrity;
  timing: { sha256?: string };
}

/** The digest of a report's content, from its serialization without `integrity` and `timing`. */
export function contentSha256<R extends Sealable>(report: R, serialize: (report: R) => string): string {
  const { integrity: _integrity, timing: _timing, ...content } = report;
  return sha256(serialize(content as unknown as R));
}

/** The digest binding `timing` to the content: its fields other than sha256, in order, then the content digest. */
export function timingSha256(timing: { sha256?: string }, content: string): string {
  const { sha256: _sha, ...fields } = timing;
  return sha256(`${JSON.stringify(fields)}\n${content}`);
}

/** The report with this version's integrity section and timing digest, as report.json is written. */
export function sealedReport<R extends Sealable>(report: R, serialize: (report: R) => string): R {
  const content = contentSha256(report, serialize);
  const { integrity: _integrity, timing, ...rest } = report;
  const integrity: ReportIntegrity = { fencesimVersion, covers: integrityCovers, contentSha256: content };
  const { sha256: _sha, ...timingFields } = timing;
  return { ...rest, integrity, timing: { ...timingFields, sha256: timingSha256(timingFields, content) } } as unknown as R;
}
