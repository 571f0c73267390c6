/**
 * Everything the CLI takes from its process: output streams, whether stderr is a terminal, the wall clock
 * (timing only) and the one random draw a gate makes when no --seed is given. Tests pass their own Io to
 * `main` and capture what it writes; nothing else in the CLI touches `process` for these.
 */
import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { SEED_MAX } from '../sim/prng.js';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Progress is drawn as a live bar only on a terminal; otherwise it is printed as plain lines. */
  stderrIsTty: boolean;
  /** Terminal width for the progress bar (80 when unknown). */
  stderrColumns: number;
  /** Milliseconds from an arbitrary origin, for timing only (never inside a simulation). */
  nowMs(): number;
  /** A uniformly random uint32 seed; only called when the user gave no --seed. */
  randomSeed(): number;
  /** Peak resident set size of this process so far, in bytes. */
  peakRssBytes(): number;
  /** An environment variable (GITHUB_STEP_SUMMARY); without it the CLI behaves as if none were set. */
  env?(name: string): string | undefined;
}

export function processIo(): Io {
  ignoreBrokenPipe();
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stderrIsTty: process.stderr.isTTY === true,
    stderrColumns: process.stderr.columns || 80,
    nowMs: () => performance.now(),
    randomSeed: () => randomInt(0, SEED_MAX + 1),
    peakRssBytes: () => process.resourceUsage().maxRSS * 1024,
    env: (name) => process.env[name],
  };
}

let brokenPipeIgnored = false;

/** `fencesim list | head -3` closes stdout early; that is not an error worth a stack trace. */
function ignoreBrokenPipe(): void {
  if (brokenPipeIgnored) return;
  brokenPipeIgnored = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
