/** Test support: run `main` with a captured Io (no child process, no build), or the built CLI in a child process. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Io } from '../cli/io.js';
import { main } from '../cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function capturedIo(overrides: Partial<Io> = {}): { io: Io; stdout: () => string; stderr: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  let clockMs = 0;
  const io: Io = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    stderrIsTty: false,
    stderrColumns: 100,
    nowMs: () => (clockMs += 1),
    randomSeed: () => 4242,
    peakRssBytes: () => 1_000_000,
    ...overrides,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

export async function runCli(argv: string[], overrides: Partial<Io> = {}): Promise<CliRun> {
  const captured = capturedIo(overrides);
  const code = await main(argv, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** The built CLI, run as a user runs it (`node bin/fencesim.js ...`): for tests of what only a real process shows. */
export const builtBin = fileURLToPath(new URL('../bin/fencesim.js', import.meta.url));

/**
 * Runs the built CLI in a child process, outside vitest (VITEST unset: the CLI then loads a `.ts` client through tsx,
 * as for a user), in `cwd` (default: this one). Resolves with the exit code and the output; never rejects.
 */
export function runBuilt(argv: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  const env = { ...process.env };
  delete env.VITEST;
  return new Promise((resolve) => {
    execFile(process.execPath, [builtBin, ...argv], { cwd: options.cwd, timeout: options.timeoutMs ?? 120_000, env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/**
 * A scratch folder for one test file (made before its tests, removed after), whose tests also need the build
 * (bin/fencesim.js runs dist/): the getter returns the folder's path once the tests run.
 */
export function scratchWithBuild(prefix: string): () => string {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
    expect(existsSync(fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))), 'build first (npm run build; npm test does it)').toBe(true);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return () => folder;
}
