/**
 * The applicability section of report.md and report.html: for a client loaded by path, what it claims, the
 * faults not applicable to it (switched off, not failures) and which invariants are judged for it. Registry
 * clients have no such section (every fault and invariant applies).
 */
import { notApplicableText, type ReportApplicability } from '../sim/applicability.js';
import type { Report } from './json.js';

export const applicabilityTitle = 'Applicability to the client under test';

/** The section's lines (plain text), or null when the report has no applicability. */
export function applicabilityLines(report: Report): string[] | null {
  const applicability: ReportApplicability | undefined = report.applicability;
  if (applicability === undefined) return null;
  const claims = Object.entries(applicability.claims)
    .map(([feature, on]) => `${feature} ${on ? 'claimed' : 'not claimed'}`)
    .join(', ');
  const off = notApplicableText(applicability.notApplicable);
  const kind = applicability.clientKind === 'module' ? 'module client, judged as a black box (wire + get)' : 'reducer client loaded by path, judged on its effects';
  return [
    `Client: ${kind}; ${claims}.`,
    `Faults not applicable: ${off.length === 0 ? 'none' : off.join(', ')}.`,
    `Invariants judged: ${applicability.invariantsJudged.join(', ')}.`,
    `Invariants not judged (they need the reducer vocabulary): ${applicability.invariantsNotJudged.length === 0 ? 'none' : applicability.invariantsNotJudged.join(', ')}.`,
  ];
}

export function applicabilityMarkdown(report: Report): string {
  const lines = applicabilityLines(report);
  return lines === null ? '' : [`### ${applicabilityTitle}`, lines.map((line) => `- ${line}`).join('\n')].join('\n\n');
}

export function applicabilityHtml(report: Report, escape: (text: string) => string): string {
  const lines = applicabilityLines(report);
  if (lines === null) return '';
  return `<section id="applicability"><h2>${escape(applicabilityTitle)}</h2><ul>${lines.map((line) => `<li>${escape(line)}</li>`).join('')}</ul></section>`;
}
