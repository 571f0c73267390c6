/**
 * `fencesim probe` through `main`, against the real `@modelcontextprotocol/server-everything` over stdio
 * (real time, bounded), plus its usage errors and the server command splitting.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../adapters/mcp-sdk/probe.js';
import { splitCommandLine } from './commands/probe.js';
import type { Io } from './io.js';
import { main } from './main.js';

const require = createRequire(import.meta.url);
const serverEverything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    stderrIsTty: false,
    stderrColumns: 100,
    nowMs: () => 0,
    randomSeed: () => 4242,
    peakRssBytes: () => 1_000_000,
  };
  const code = await main(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('fencesim probe', () => {
  it('against server-everything: exit 0, no invariant violated, updates observed, and the process is gone', async () => {
    const command = `"${process.execPath}" '${serverEverything}' stdio`;
    const startMs = performance.now();
    const result = await run(['probe', '--server-cmd', command, '--seed', '42', '--duration-ms', '2500', '--timeout-ms', '30000', '--json']);
    const report = JSON.parse(result.stdout);
    expect(result.code, JSON.stringify({ outcome: report.outcome, error: report.error, invariants: report.invariants, expectations: report.expectations })).toBe(0);
    expect(report.spec.serverCommand).toEqual([process.execPath, serverEverything, 'stdio']);
    expect(report.spec.seed).toBe(42);
    expect(report.server.name).toBe('mcp-servers/everything');
    expect(report.invariants.every((check: { ok: boolean }) => check.ok)).toBe(true);
    expect(report.subscriptions.every((subscription: { updatesOnWire: number }) => subscription.updatesOnWire > 0)).toBe(true);
    expect(report.cleanup.processGone).toBe(true);
    expect(isAlive(report.server.pid)).toBe(false);
    expect(performance.now() - startMs).toBeLessThan(25_000);
  }, 35_000);

  it('a server that cannot start: exit 3 (command after --), text report, nothing left running', async () => {
    const result = await run(['probe', '--seed', '1', '--duration-ms', '500', '--timeout-ms', '8000', '--', process.execPath, '-e', 'process.exit(7)']);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^fencesim probe: /);
    expect(result.stdout).toMatch(/probe FAILED: the server could not be started/);
    const pid = /pid (\d+)/.exec(result.stdout);
    if (pid !== null) expect(isAlive(Number(pid[1]))).toBe(false);
    const missing = await run(['probe', '--seed', '1', '--timeout-ms', '8000', '--server-cmd', '/nonexistent/fencesim-no-such-server --stdio']);
    expect(missing.code).toBe(3);
  }, 20_000);

  it('bad usage exits 2 naming the problem', async () => {
    const cases: [string[], RegExp][] = [
      [['probe'], /missing the server command/],
      [['probe', '--server-cmd', ''], /--server-cmd: the value is empty/],
      [['probe', '--server-cmd', '   '], /--server-cmd: the command is empty/],
      [['probe', '--server-cmd', 'node "server.js'], /--server-cmd: unterminated double quote/],
      [['probe', '--server-cmd', 'node x.js', '--', 'node', 'y.js'], /not both/],
      [['probe', '--'], /no server command after --/],
      [['probe', '--server-cmd', 'node', '--duration-ms', '0'], /--duration-ms/],
      [['probe', '--server-cmd', 'node', '--seed', 'x'], /--seed/],
    ];
    for (const [argv, message] of cases) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toMatch(message);
    }
  });

  it('splits a command line as a shell splits simple quoting', () => {
    expect(splitCommandLine('node  server.js stdio')).toEqual({ ok: true, words: ['node', 'server.js', 'stdio'] });
    expect(splitCommandLine(`"/opt/my node/bin/node" 'a b.js' c\\ d "x\\"y" 'it''s'`)).toEqual({ ok: true, words: ['/opt/my node/bin/node', 'a b.js', 'c d', 'x"y', 'its'] });
    expect(splitCommandLine('node ""')).toEqual({ ok: true, words: ['node', ''] });
    expect(splitCommandLine("node 'x")).toMatchObject({ ok: false, reason: expect.stringMatching(/unterminated single quote/) });
    expect(splitCommandLine('node x\\')).toMatchObject({ ok: false, reason: expect.stringMatching(/lone backslash/) });
  });
});
