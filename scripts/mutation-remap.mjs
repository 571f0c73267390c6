// Moves a Stryker report's mutants of some files to the lines those files have now: node scripts/mutation-remap.mjs
// REPORT.json COMMIT OUT.json [core/FILE.ts...]. COMMIT is the commit the report was made at; each listed file's text
// then and now are aligned line by line (a longest-common-subsequence diff of whole lines), and a mutant on an unchanged
// line moves with it (column unchanged); a mutant on a line that changed or went is left out (its code is not the
// code the report tested). The other files are copied as they are. Prints per file: mutants kept, moved, left out.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [reportPath, commit, outPath, ...files] = process.argv.slice(2);
if (outPath === undefined) {
  console.error('usage: node scripts/mutation-remap.mjs REPORT.json COMMIT OUT.json [core/FILE.ts...]');
  process.exit(2);
}

/** Old line number (1-based) -> new line number, for lines the diff keeps. */
function lineMap(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  // LCS table on whole lines (files here are < 400 lines).
  const table = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const map = new Map();
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      map.set(i + 1, j + 1);
      i++;
      j++;
    } else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return map;
}

const report = JSON.parse(readFileSync(reportPath, 'utf8'));
for (const file of files) {
  const entry = report.files[file];
  if (entry === undefined) continue;
  const map = lineMap(execFileSync('git', ['show', `${commit}:${file}`], { encoding: 'utf8' }), readFileSync(file, 'utf8'));
  let moved = 0;
  const kept = [];
  for (const mutant of entry.mutants) {
    const start = map.get(mutant.location.start.line);
    const end = map.get(mutant.location.end.line);
    if (start === undefined || end === undefined || end - start !== mutant.location.end.line - mutant.location.start.line) continue;
    if (start !== mutant.location.start.line) moved++;
    kept.push({ ...mutant, location: { start: { ...mutant.location.start, line: start }, end: { ...mutant.location.end, line: end } } });
  }
  console.log(`${file}: ${kept.length} kept (${moved} moved), ${entry.mutants.length - kept.length} left out`);
  entry.mutants = kept;
  entry.source = readFileSync(file, 'utf8');
}
writeFileSync(outPath, JSON.stringify(report));
