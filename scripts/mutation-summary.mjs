// Summarises the Stryker batches of `npm run mutation` (mutation-report/NAME.json, written by
// scripts/mutation-batch.sh or `stryker run`): per file killed / survived / timeout / no coverage / checker
// rejected (compile error) / ignored, the score, and the kill rate of the non-equivalent mutants, where the
// equivalent ones are those listed in mutation-equivalents.md (one line each: `- core/FILE.ts:LINE:COLUMN
// MUTATOR `replacement`: why`). Prints every survivor not listed there.
// Usage: node scripts/mutation-summary.mjs [REPORT.json...] [--verdicts FILE...]
// A file's mutants come from the LAST report that holds it (a whole-core run, then a newer batch of one file: the
// composite of the two). --verdicts FILE...: output of scripts/mutation-survivors.mts (`core/F.ts:L:C MUTATOR "replacement"
// <tab> killed by ...` or `killed (throws: ...)`, a TransformError excepted): an open mutant it names as killed counts
// as killed (a re-judge under the current gate of a report whose file has not changed since, or of a remapped report:
// scripts/mutation-remap.mjs). A verdict keyed by span (`core/F.ts:L:C-L:C`, a whole-report re-judge with MUTATION_ALL=1)
// that says `survives` makes a mutant Stryker killed count as open: today's gate no longer kills it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const verdictsAt = argv.indexOf('--verdicts');
const verdictFiles = verdictsAt < 0 ? [] : argv.slice(verdictsAt + 1);
const reportArgs = verdictsAt < 0 ? argv : argv.slice(0, verdictsAt);
const reports = reportArgs.length > 0
  ? reportArgs
  : existsSync('mutation-report') ? readdirSync('mutation-report').filter((name) => name.endsWith('.json') && !name.endsWith('.stryker.json')).map((name) => `mutation-report/${name}`) : [];
if (reports.length === 0) {
  console.error('mutation summary: no reports (run scripts/mutation-batch.sh NAME FILE... or npm run mutation first)');
  process.exit(2);
}

const equivalents = new Set();
if (existsSync('mutation-equivalents.md')) {
  for (const line of readFileSync('mutation-equivalents.md', 'utf8').split('\n')) {
    // An optional end (`core/FILE.ts:LINE:COLUMN-LINE:COLUMN`) tells apart mutants that share a start, mutator and replacement.
    const match = /^- (core\/[\w./-]+:\d+:\d+(?:-\d+:\d+)?) (\w+) `([^`]*)`/.exec(line);
    if (match) equivalents.add(`${match[1]} ${match[2]} ${match[3]}`);
  }
}

const killedByVerdict = new Set();
/** Mutants a whole-report re-judge (MUTATION_ALL=1: verdicts keyed by span) found surviving today's gate, whatever Stryker said. */
const survivingByVerdict = new Set();
for (const verdictFile of verdictFiles) {
  for (const line of readFileSync(verdictFile, 'utf8').split('\n')) {
    // `killed by PART`, or `killed (throws: ...)` (the core crashed in the gate: Stryker counts it detected), but not a
    // TransformError, which is the re-judge tool failing to plant the mutant, not the mutant failing.
    const match = /^(core\/[\w./-]+:\d+:\d+(?:-\d+:\d+)?) (\w+) ("(?:[^"\\]|\\.)*")\t(killed (?:by [^(]|\(throws: (?!TransformError))|survives)/.exec(line);
    if (match === null) continue;
    const key = `${match[1]} ${match[2]} ${JSON.parse(match[3])}`;
    if (match[4] !== 'survives') killedByVerdict.add(key);
    else if (match[1].includes('-')) survivingByVerdict.add(key);
  }
}

const statuses = ['Killed', 'Survived', 'Timeout', 'NoCoverage', 'CompileError', 'RuntimeError', 'Ignored'];
const rows = new Map();
const survivorsByFile = new Map();
for (const report of reports) {
  const files = JSON.parse(readFileSync(report, 'utf8')).files;
  for (const [file, { mutants }] of Object.entries(files)) {
    const row = Object.fromEntries([...statuses, 'Equivalent'].map((status) => [status, 0]));
    const survivors = [];
    for (const mutant of mutants) {
      const where = `${file}:${mutant.location.start.line}:${mutant.location.start.column}`;
      const span = `${where}-${mutant.location.end.line}:${mutant.location.end.column}`;
      const keyed = (at) => `${at} ${mutant.mutatorName} ${mutant.replacement ?? ''}`;
      if (mutant.status === 'Killed' && survivingByVerdict.has(keyed(span))) mutant.status = 'Survived';
      const open = mutant.status === 'Survived' || mutant.status === 'NoCoverage';
      const listed = (at) => equivalents.has(keyed(at));
      if (open && (listed(where) || listed(span))) row.Equivalent++;
      else if (open && (killedByVerdict.has(keyed(where)) || killedByVerdict.has(keyed(span)))) row.Killed++;
      else {
        row[mutant.status] = (row[mutant.status] ?? 0) + 1;
        if (open) survivors.push(`${where} ${mutant.mutatorName} ${mutant.status}: ${JSON.stringify(mutant.replacement ?? '')}`);
      }
    }
    rows.set(file, row);
    survivorsByFile.set(file, survivors);
  }
}
const survivors = [...survivorsByFile.values()].flat();

const header = ['file', 'killed', 'timeout', 'survived', 'no-cov', 'compile', 'ignored', 'equivalent', 'score', 'non-equiv killed'];
console.log(header.join('\t'));
const total = Object.fromEntries([...statuses, 'Equivalent'].map((status) => [status, 0]));
const line = (name, row) => {
  const detected = row.Killed + row.Timeout + row.RuntimeError;
  const open = row.Survived + row.NoCoverage;
  const scored = detected + open + row.Equivalent;
  const percent = (value) => (value * 100).toFixed(1) + ' %';
  console.log([name, row.Killed, row.Timeout, row.Survived, row.NoCoverage, row.CompileError, row.Ignored, row.Equivalent, percent(detected / Math.max(1, scored)), percent(detected / Math.max(1, detected + open))].join('\t'));
};
for (const [file, row] of [...rows].sort()) {
  line(file, row);
  for (const status of Object.keys(total)) total[status] += row[status] ?? 0;
}
line('all', total);
if (survivors.length > 0) console.log(`\nsurvivors not shown equivalent (${survivors.length}):\n${survivors.join('\n')}`);
