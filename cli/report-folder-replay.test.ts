/**
 * The failing report's replay command works from a copy of the report folder (issue 15): a real failing
 * gate writes its folder, the folder is copied elsewhere and the original deleted, and the command that
 * report.html leads with, run in the copy by the built CLI (bin/fencesim.js), reproduces the violation.
 */
import { cp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuilt, runCli, scratchWithBuild } from '../test/cli-io.js';

const scratch = scratchWithBuild('fencesim-folder-replay-');

describe('the replay command of a failing report', () => {
  it('works from a copy of the report folder, with the original gone', async () => {
    const original = join(scratch(), 'gate-out');
    const gate = await runCli(['gate', '--scenario', 'read-race', '--client', 'naive-overwrite', '--interleavings', '60', '--seed', '3', '--workers', '1', '--out', original]);
    expect(gate.code).toBe(1);
    const html = await readFile(join(original, 'report.html'), 'utf8');
    const command = /<pre class="command" data-replay="file"><code>([^<]+)<\/code><\/pre>/.exec(html)?.[1];
    expect(command).toMatch(/^npx fencesim replay --file shrunk-[0-9]+\.json$/);
    const copy = join(scratch(), 'downloaded', 'fencesim-report');
    await cp(original, copy, { recursive: true });
    await rm(original, { recursive: true, force: true });
    const argv = command!.replace(/^npx fencesim /, '').split(' ');
    const replay = await runBuilt(argv, { cwd: copy, timeoutMs: 60_000 });
    expect(replay.code, replay.stderr).toBe(1);
    const invariant = JSON.parse(await readFile(join(copy, 'report.json'), 'utf8')).failures[0].invariant;
    expect(replay.stdout).toContain(`!! ${invariant}`);
  });
});
