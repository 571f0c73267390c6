/**
 * The output directory of a gate or merge. Claiming it, before any work starts:
 * - creates it, failing fast with a UsageError naming it (node's recursive mkdir never returns for a path
 *   under /proc, so each missing level is created on its own, after checking the nearest existing one);
 * - removes the reports a previous run left there (report.json, summary.md, junit.xml, report.html), so
 *   that nothing in it can read as the result of this run while it runs;
 * - writes `incomplete.json` (schema fencesim.incomplete.v1: state "running", the command and run spec),
 *   rewritten to state "interrupted" with the signal on SIGINT or SIGTERM (the signal is then re-raised, so
 *   the process ends as signalled, 130 / 143 in a shell). `fencesim report` and `merge` refuse a directory
 *   holding this marker. Releasing the claim after the reports are written removes it.
 */
import { access, constants, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from '../reports/atomic-file.js';
import { reportFileName } from '../reports/json.js';
import { UsageError } from './args.js';
import type { Io } from './io.js';
import { renderedFileNames } from './write-reports.js';

export const incompleteFileName = 'incomplete.json';
export const incompleteSchema = 'fencesim.incomplete.v1';

export interface IncompleteMarker {
  schema: typeof incompleteSchema;
  state: 'running' | 'interrupted';
  /** The signal that interrupted the run (state "interrupted"). */
  signal?: string;
  command: string;
  runSpec: unknown;
  /** The command that runs it again. */
  reproduce: string;
}

export interface OutDirClaim {
  /** The reports are written: remove the marker and stop watching for signals. */
  complete(): Promise<void>;
  /** Stop watching for signals, leaving the marker (the run ended without a report, e.g. a crash). */
  abandon(): void;
}

const signals = ['SIGINT', 'SIGTERM'] as const;

export async function claimOutDir(outDir: string, option: string, command: string, runSpec: unknown, reproduce: string, io: Io): Promise<OutDirClaim> {
  await createDirectory(outDir, option, command);
  const markerPath = join(outDir, incompleteFileName);
  const marker: IncompleteMarker = { schema: incompleteSchema, state: 'running', command, runSpec, reproduce };
  try {
    await writeFileAtomic(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
    for (const file of [reportFileName, ...Object.values(renderedFileNames)]) await rm(join(outDir, file), { force: true });
  } catch (error) {
    throw new UsageError(`--${option}: cannot write into directory ${JSON.stringify(outDir)}: ${messageOf(error)}`, command);
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    detach();
    try {
      writeFileAtomicSync(markerPath, `${JSON.stringify({ ...marker, state: 'interrupted', signal }, null, 2)}\n`);
      io.stderr(`\nfencesim ${command}: interrupted by ${signal}; no report was written (${markerPath} says so)\n`);
    } finally {
      process.kill(process.pid, signal);
    }
  };
  const detach = (): void => {
    for (const signal of signals) process.off(signal, onSignal);
  };
  for (const signal of signals) process.on(signal, onSignal);
  return {
    complete: async () => {
      detach();
      await rm(markerPath, { force: true });
    },
    abandon: detach,
  };
}

/** Creates `outDir` level by level below its nearest existing ancestor, which must be a writable directory. */
async function createDirectory(outDir: string, option: string, command: string): Promise<void> {
  const fail = (why: string): never => {
    throw new UsageError(`--${option}: cannot use directory ${JSON.stringify(outDir)}: ${why}`, command);
  };
  const missing: string[] = [];
  let current = resolve(outDir);
  for (;;) {
    const info = await stat(current).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : fail(`${current}: ${error.message}`)));
    if (info !== null) {
      if (!info.isDirectory()) fail(`${current} exists and is not a directory`);
      break;
    }
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) fail('no part of the path exists');
    current = parent;
  }
  await access(current, constants.W_OK).catch(() => fail(`${current} is not writable`));
  for (const dir of missing) await mkdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : fail(`cannot create ${dir}: ${error.message}`)));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
