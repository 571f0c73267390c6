/**
 * `fencesim merge DIR... [--out DIR] [--allow-partial]`: combine the reports of `gate --shard i/n` runs
 * into the report of the whole run (identical to an unsharded run's apart from `timing`, see
 * reports/merge.ts), write it with its rendered formats, print the summary, and exit like the gate:
 * 0 passed, 1 failed, 4 nondeterministic; 2 for reports that do not merge (named in the message).
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../reports/atomic-file.js';
import { mergeReports } from '../../reports/merge.js';
import { parseOptions, UsageError } from '../args.js';
import type { Io } from '../io.js';
import { claimOutDir } from '../out-dir.js';
import { splitOperands } from '../positional.js';
import { loadReportFile } from '../report-files.js';
import { summaryLines } from '../summary.js';
import { writeAllReports } from '../write-reports.js';
import { gateExitCode } from './gate.js';

export const mergeOptions = {
  out: 'path',
  'allow-partial': 'flag',
} as const;

export const mergeDefaults = { out: './fencesim-report' };

export async function mergeCommand(argv: readonly string[], io: Io): Promise<number> {
  const { operands, options: rest } = splitOperands(argv, mergeOptions);
  const options = parseOptions('merge', rest, mergeOptions);
  if (operands.length === 0) throw new UsageError('no reports given: fencesim merge DIR... (the --out directories of gate --shard runs)', 'merge');
  const out = options.out ?? mergeDefaults.out;
  const loaded = [];
  for (const operand of operands) loaded.push(await loadReportFile(operand, 'merge'));
  for (const input of loaded) {
    if (resolve(input.dir) === resolve(out)) throw new UsageError(`--out ${JSON.stringify(out)} is also an input (${input.path}); merge into another directory`, 'merge');
  }
  const result = mergeReports(
    loaded.map((input) => ({ name: input.path, report: input.report })),
    options['allow-partial'] === true,
  );
  if (!result.ok) throw new UsageError(result.reason, 'merge');
  const { report, shrunkFrom } = result.output;
  const claim = await claimOutDir(out, 'out', 'merge', report.runSpec, `npx fencesim merge ${operands.join(' ')} --out ${out}`, io);
  try {
    if (shrunkFrom !== null) {
      const source = loaded.find((input) => input.path === shrunkFrom.input.name)!;
      const from = join(source.dir, shrunkFrom.file);
      await readFile(from)
        .then((bytes) => writeFileAtomic(join(out, shrunkFrom.file), bytes))
        .catch((error: Error) => io.stderr(`fencesim merge: warning: cannot copy the shrunk replay file ${from}: ${error.message}\n`));
    }
    const [path, ...rendered] = await writeAllReports(out, report, {}, io);
    const shards = loaded.map((input) => input.report.runSpec.shard).map((shard) => (shard === undefined ? 'whole run' : `${shard.index}/${shard.count}`));
    io.stdout(`fencesim merge: ${loaded.length} report${loaded.length === 1 ? '' : 's'} (shards ${shards.join(', ')}) into ${out}\n`);
    io.stdout(`${summaryLines(report, path!).join('\n')}\nrendered: ${rendered.join(', ')}\n`);
    await claim.complete();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--out: cannot write the merged report into ${JSON.stringify(out)}: ${error instanceof Error ? error.message : String(error)}`, 'merge');
  } finally {
    claim.abandon();
  }
  return gateExitCode(report);
}
