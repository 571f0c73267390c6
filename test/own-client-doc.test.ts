/**
 * docs/own-client.md: the way it tells a user to gate and replay their own reducer client works. A copy of
 * a naive client under a name the CLI does not know stands in for the user's client.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findClient, findScenario, runInterleaving, runRange, verdictOf, type ClientUnderTest } from '../index.js';
import { runCli } from './cli-io.js';

const doc = readFileSync(new URL('../docs/own-client.md', import.meta.url), 'utf8');

describe('docs/own-client.md', () => {
  it('its gate-then-replay example finds a failure and replays it with the breaking line marked', () => {
    expect(doc).toContain("runInterleaving(failure.seed, scenario, mine, { trace: true, record: false })");
    const naive = findClient('naive-overwrite')!;
    const mine: ClientUnderTest<any> = { ...naive, name: 'mine', description: 'my client' };
    const scenario = findScenario('read-race')!;
    const spec = { seed: 1, interleavings: 200, scenario: scenario.name, client: mine.name, maxFailures: 5 };
    const accumulator = runRange(spec, scenario, mine, 0, spec.interleavings);
    expect(verdictOf(accumulator, scenario).passed).toBe(false);
    const failure = accumulator.failures[0]!;
    const run = runInterleaving(failure.seed, scenario, mine, { trace: true, record: false });
    expect(run.oracle.violations[0]!.invariant).toBe(failure.invariant);
    expect(run.timeline!.some((line) => line.includes(`!! ${failure.invariant}`))).toBe(true);
  });

  it('is right that the CLI takes a client by module path, and refuses a name it does not know', async () => {
    expect(doc).toContain('`npx fencesim gate --client ./my-reducer.mjs`');
    const run = await runCli(['replay', '--seed', '1', '--scenario', 'read-race', '--client', 'mine']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--client: unknown client "mine"');
  });

  it('names the not-found codes the core uses', async () => {
    const { resourceNotFoundCode, invalidParamsCode } = await import('../core/protocol.js');
    expect(doc).toContain(`\`${resourceNotFoundCode}\``);
    expect(doc).toContain(`\`${invalidParamsCode}\``);
    const { permissionDeniedCode } = await import('../sim/actors/server.js');
    expect(doc).toContain(`\`${permissionDeniedCode}\``);
  });
});
