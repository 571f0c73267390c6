/**
 * Writing a file so that readers see either the old content or the new, never a torn one: write a
 * temporary file beside it, then rename it over the target (atomic on one file system). A failed write
 * removes its temporary file.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

let sequence = 0;

/** The temporary name of `path` while it is being written: hidden, beside it, unique within this process. */
export function temporaryPathOf(path: string): string {
  sequence++;
  return join(dirname(path), `.${basename(path)}.${process.pid}.${sequence}.tmp`);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryPathOf(path);
  try {
    await writeFile(temporary, data);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The same, synchronously: for a signal handler, which must finish before the process ends. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const temporary = temporaryPathOf(path);
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
