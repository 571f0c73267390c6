/** Test support: run `main` with a captured Io (no child process, no build). */
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
