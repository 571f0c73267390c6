/**
 * An interrupted gate never leaves a report that reads as a current pass (issue 14.4): the real CLI
 * (bin/fencesim.js, built by `npm test`) is started into an --out that holds a passing report, and sent
 * SIGINT or SIGTERM mid-run (on one thread the signal is handled between chunks of interleavings). The old report is gone, incomplete.json says "interrupted", the process ends
 * by that signal, and `fencesim report` refuses the directory with exit 2. A finished gate clears the mark.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtBin as bin, runCli, scratchWithBuild } from '../test/cli-io.js';

const scratch = scratchWithBuild('fencesim-interrupt-');

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts a long gate, waits until it has printed its run spec (its --out is claimed by then), then signals it. */
function interruptedGate(out: string, signal: NodeJS.Signals, workers: string): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'gate', '--scenario', 'read-race', '--interleavings', '5000000', '--seed', '1', '--workers', workers, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const killer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!sent && stdout.includes('reproduce this run:')) {
        sent = true;
        setTimeout(() => child.kill(signal), 500);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, endSignal) => {
      clearTimeout(killer);
      resolve({ code, signal: endSignal, stdout, stderr });
    });
  });
}

describe('an interrupted gate into a reused --out', () => {
  it.each([
    ['SIGINT', '1'],
    ['SIGTERM', '2'],
  ] as const)('%s (--workers %s) removes the old passing report and marks the directory interrupted', async (signal, workers) => {
    const out = join(scratch(), `out-${signal}`);
    const first = await runCli(['gate', '--interleavings', '30', '--seed', '2', '--workers', '1', '--out', out]);
    expect(first.code).toBe(0);
    expect((await runCli(['report', out, '--format', 'md'])).code).toBe(0);

    const ended = await interruptedGate(out, signal, workers);
    expect(ended.signal, ended.stderr).toBe(signal);
    expect(ended.stderr).toContain(`fencesim gate: interrupted by ${signal}; no report was written`);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    for (const file of ['summary.md', 'junit.xml', 'report.html']) expect(existsSync(join(out, file)), file).toBe(false);
    const marker = JSON.parse(await readFile(join(out, 'incomplete.json'), 'utf8'));
    expect(marker).toMatchObject({ schema: 'fencesim.incomplete.v1', state: 'interrupted', signal, command: 'gate', runSpec: { seed: 1, interleavings: 5_000_000 } });
    expect(marker.reproduce).toBe('npx fencesim gate --seed 1 --interleavings 5000000 --scenario read-race --client reference');

    const report = await runCli(['report', out]);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain(`no current report in ${JSON.stringify(out)}: the fencesim gate writing into it was interrupted by ${signal}`);
    const merge = await runCli(['merge', out, '--out', join(scratch(), `merged-${signal}`)]);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toContain('was interrupted');

    const again = await runCli(['gate', '--interleavings', '30', '--seed', '2', '--workers', '1', '--out', out]);
    expect(again.code).toBe(0);
    expect(existsSync(join(out, 'incomplete.json'))).toBe(false);
    expect((await runCli(['report', out, '--format', 'md'])).code).toBe(0);
  });

  it('a directory whose gate never finished (marker still "running") is refused too', async () => {
    const out = join(scratch(), 'running');
    const first = await runCli(['gate', '--interleavings', '10', '--seed', '2', '--workers', '1', '--out', out]);
    expect(first.code).toBe(0);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(out, 'incomplete.json'), JSON.stringify({ schema: 'fencesim.incomplete.v1', state: 'running', command: 'gate' }));
    const report = await runCli(['report', out]);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('did not finish (it is still running, crashed, or was killed)');
  });
});
