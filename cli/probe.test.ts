/**
 * `fencesim probe` through `main`, against the real `@modelcontextprotocol/server-everything` over stdio
 * (real time, bounded), plus its usage errors and the server command splitting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, processGroupMembers } from '../adapters/mcp-sdk/probe/probe.js';
import { splitCommandLine } from './commands/probe.js';
import type { Io } from './io.js';
import { main } from './main.js';

const require = createRequire(import.meta.url);
const serverPath = (name: string): string => join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
const serverEverything = serverPath('server-everything');

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
    expect(result.stdout).toMatch(/\nprobe FAILED: the server exited during initialize \(code 7\)\n$/);
    const pid = /pid (\d+)/.exec(result.stdout);
    expect(pid).not.toBeNull();
    expect(processGroupMembers(Number(pid![1]))).toEqual([]);
    const missing = await run(['probe', '--seed', '1', '--timeout-ms', '8000', '--server-cmd', '/nonexistent/fencesim-no-such-server --stdio']);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toMatch(/probe FAILED: the server could not be started: spawn \/nonexistent\/fencesim-no-such-server ENOENT/);
    const module = await run(['probe', '--seed', '1', '--timeout-ms', '8000', '--', process.execPath, '/nonexistent/fencesim-server.js']);
    expect(module.code).toBe(3);
    expect(module.stdout).toMatch(/server stderr \(the lines naming a cause, then the last lines\):\n {2}Error: Cannot find module '\/nonexistent\/fencesim-server\.js'/);
  }, 30_000);

  it('a tools-only server (server-filesystem): exit 4, no resources capability', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fencesim-fs-'));
    try {
      const result = await run(['probe', '--seed', '1', '--timeout-ms', '15000', '--', process.execPath, serverPath('server-filesystem'), root]);
      expect(result.code, result.stdout).toBe(4);
      expect(result.stdout).toMatch(/\nprobe: NO RESOURCES: the server declares no resources capability \(it declares: [^)]*tools[^)]*\); nothing to probe\n$/);
      expect(result.stdout).not.toMatch(/subscribe_acked/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 20_000);

  it('server-memory: exit 5 "nothing observed" without --trigger; exit 0 with --trigger create_entities', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fencesim-memory-'));
    const command = ['env', `MEMORY_FILE_PATH=${join(dir, 'memory.jsonl')}`, process.execPath, serverPath('server-memory')];
    const common = ['probe', '--seed', '5', '--duration-ms', '2000', '--quiet-ms', '500', '--timeout-ms', '20000'];
    try {
      const idle = await run([...common, '--', ...command]);
      expect(idle.code, idle.stdout).toBe(5);
      expect(idle.stdout).toMatch(/\nprobe: NOTHING OBSERVED \(not a pass\): .*give --trigger/);
      const entity = JSON.stringify({ entities: [{ name: 'cli', entityType: 'test', observations: ['x'] }] });
      const triggered = await run([...common, '--trigger', `create_entities ${entity}`, '--trigger-every-ms', '500', '--json', '--', ...command]);
      const report = JSON.parse(triggered.stdout);
      expect(triggered.code, JSON.stringify([report.error, report.expectations])).toBe(0);
      expect(report.spec.trigger).toEqual({ tool: 'create_entities', arguments: JSON.parse(entity), everyMs: 500 });
      expect(report.trigger.calls).toBeGreaterThanOrEqual(3);
      expect(report.changesObserved).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

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
      [['probe', '--server-cmd', 'node', '--trigger', '{"a":1}'], /--trigger: expected a tool name before the arguments/],
      [['probe', '--server-cmd', 'node', '--trigger', 'bump {nope'], /--trigger: the arguments of bump are not valid JSON/],
      [['probe', '--server-cmd', 'node', '--trigger', 'bump [1]'], /--trigger: the arguments of bump must be a JSON object/],
      [['probe', '--server-cmd', 'node', '--trigger-every-ms', '100'], /--trigger-every-ms needs --trigger/],
      [['probe', '--server-cmd', 'node', '--content-chars-max', '0'], /--content-chars-max/],
      [['probe', '--server-cmd', 'node', '--request-timeout-ms', 'soon'], /--request-timeout-ms/],
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
