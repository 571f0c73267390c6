/**
 * `gate --transport sdk` and `replay --transport sdk` through `main`: the scenarios over real JSON-RPC
 * between an SDK Client and Server, deterministic reports, failures that replay, refused scenarios.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/cli-io.js';

const run = (argv: string[]) => runCli(argv);

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fencesim-sdk-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function report(dir: string): Promise<Record<string, any>> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
}

const gateArgs = (out: string, client: string): string[] => [
  'gate', '--transport', 'sdk', '--scenario', 'read-race', '--client', client, '--interleavings', '24', '--seed', '77', '--workers', '1', '--self-check-ratio', '10', '--out', out,
];

describe('gate --transport sdk', () => {
  it('passes the reference client, and two identical runs write identical reports apart from timing', async () => {
    const first = await run(gateArgs(join(scratch, 'a'), 'reference'));
    expect(first.stderr).not.toMatch(/internal error/);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/transport\s+sdk \(JSON-RPC between a real SDK Client and Server/);
    expect(first.stdout).toContain('--transport sdk');
    const second = await run(gateArgs(join(scratch, 'b'), 'reference'));
    expect(second.code).toBe(0);
    const [a, b] = [await report(join(scratch, 'a')), await report(join(scratch, 'b'))];
    delete a.timing;
    delete b.timing;
    expect(b).toEqual(a);
    expect(a.passed).toBe(true);
    expect(a.interleavings).toBe(24);
    expect(a.totals.reads).toBeGreaterThan(200);
    expect(a.determinism).toMatchObject({ checked: 3, nondeterministic_interleavings: 0 });
  });

  it('fails naive-overwrite (exit 1) with a replay command that reproduces the violation over the SDK', async () => {
    const dir = join(scratch, 'naive');
    const gate = await run(gateArgs(dir, 'naive-overwrite'));
    expect(gate.code).toBe(1);
    const failure = (await report(dir)).failures[0];
    expect(failure.invariant).toBe('version_regression');
    expect(failure.replay).toMatch(/--transport sdk$/);
    expect(failure.shrunk.skipped).toMatch(/not shrunk/);
    const replay = await run(failure.replay.replace(/^npx fencesim /, '').split(' '));
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/transport\s+sdk/);
    expect(replay.stdout).toContain(`verdict: VIOLATION version_regression at ${failure.timeMs} ms on ${failure.uri}`);
    expect(replay.stdout).toContain('<== version_regression');
  });

  it('runs era-both (each interleaving on its era\'s SDK, client-crash included) when no scenario is named; bad transports and replay files are refused (exit 2)', async () => {
    const dir = join(scratch, 'swarm');
    const swarm = await run(['gate', '--transport', 'sdk', '--client', 'reference', '--interleavings', '30', '--seed', '5', '--workers', '1', '--out', dir]);
    expect(swarm.stderr).not.toMatch(/internal error/);
    expect(swarm.code).toBe(0);
    const written = await report(dir);
    expect(written.runSpec).toMatchObject({ scenario: 'era-both', transport: 'sdk' });
    const transport = await run(['gate', '--transport', 'grpc', '--interleavings', '5']);
    expect(transport.code).toBe(2);
    expect(transport.stderr).toMatch(/--transport: unknown transport "grpc"; valid transports: pure, sdk/);
    const file = await run(['replay', '--file', join(scratch, 'none.json'), '--transport', 'sdk']);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/--transport sdk replays an interleaving by --seed/);
  });

  it.each(['interop-v1-client-v2-server', 'interop-v2-client-v1-server'])('runs the interop pair %s over the SDKs (both ends speak 2025-11-25); the pure transport refuses it (exit 2)', async (scenario) => {
    const dir = join(scratch, scenario);
    const gate = await run(['gate', '--transport', 'sdk', '--scenario', scenario, '--interleavings', '4', '--seed', '2', '--workers', '1', '--out', dir]);
    expect(gate.stderr).not.toMatch(/internal error/);
    expect(gate.code).toBe(0);
    const written = await report(dir);
    expect(written.runSpec).toMatchObject({ scenario, transport: 'sdk' });
    const pure = await run(['gate', '--scenario', scenario, '--interleavings', '4']);
    expect(pure.code).toBe(2);
    expect(pure.stderr).toContain(`scenario ${scenario} is an interop pair`);
  });
});
