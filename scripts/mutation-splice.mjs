// Splices a Stryker run over some line ranges into a report of whole files: node scripts/mutation-splice.mjs
// BASE.json NEW.json OUT.json [core/FILE.ts...]. NEW is a batch whose `mutate` named ranges (`core/F.ts:FROM-TO`,
// scripts/mutation-batch.sh NAME core/F.ts:FROM-TO ...), typically the lines that changed since BASE was made and
// remapped (scripts/mutation-remap.mjs leaves those lines' mutants out). For each file of NEW (or only the listed
// ones): BASE's mutants that start on a line NEW's ranges cover are dropped (they tested other code), and NEW's
// mutants are added. NEW's ranges are read from mutation-report/NAME.stryker.json beside it. Prints per file: kept,
// dropped, added. The sources must agree: a file whose text in NEW differs from BASE's is refused.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const [basePath, newPath, outPath, ...only] = process.argv.slice(2);
if (outPath === undefined) {
  console.error('usage: node scripts/mutation-splice.mjs BASE.json NEW.json OUT.json [core/FILE.ts...]');
  process.exit(2);
}
const configPath = newPath.replace(/\.json$/, '.stryker.json');
if (!existsSync(configPath)) {
  console.error(`mutation splice: ${configPath} is missing: it names the ranges NEW mutated`);
  process.exit(2);
}
/** file -> [from, to][] (1-based, inclusive) */
const ranges = new Map();
for (const entry of JSON.parse(readFileSync(configPath, 'utf8')).mutate) {
  const match = /^(.+):(\d+)-(\d+)$/.exec(entry);
  if (match === null) continue; // a whole file: nothing of BASE's survives it, but a whole-file NEW is mutation-summary's case
  if (!ranges.has(match[1])) ranges.set(match[1], []);
  ranges.get(match[1]).push([Number(match[2]), Number(match[3])]);
}
const base = JSON.parse(readFileSync(basePath, 'utf8'));
const fresh = JSON.parse(readFileSync(newPath, 'utf8'));
let refused = false;
for (const [file, entry] of Object.entries(fresh.files)) {
  if (only.length > 0 && !only.includes(file)) continue;
  const into = base.files[file];
  if (into === undefined) {
    base.files[file] = entry;
    console.log(`${file}\tnot in BASE: all ${entry.mutants.length} of NEW`);
    continue;
  }
  if (into.source !== undefined && entry.source !== undefined && into.source !== entry.source) {
    console.error(`mutation splice: ${file}: its source in NEW differs from BASE's (remap BASE to NEW's commit first)`);
    refused = true;
    continue;
  }
  const covered = ranges.get(file) ?? [];
  const inRange = (line) => covered.some(([from, to]) => line >= from && line <= to);
  const kept = into.mutants.filter((mutant) => !inRange(mutant.location.start.line));
  const dropped = into.mutants.length - kept.length;
  into.mutants = [...kept, ...entry.mutants];
  console.log(`${file}\tkept ${kept.length}, dropped ${dropped}, added ${entry.mutants.length}`);
}
if (refused) process.exit(1);
writeFileSync(outPath, JSON.stringify(base));
