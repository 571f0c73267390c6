/**
 * `--client ./my-client.ts` loads through tsx whatever the folder's module type (README "Gate your own client"): the
 * built CLI (bin/fencesim.js, outside vitest, which would compile TypeScript itself) gates a module client and a
 * reducer client written in TypeScript in a folder whose package.json says "type": "commonjs", where tsx compiles
 * them to CommonJS and `export default` arrives under `module.exports.default`. With only tsx's ESM hook registered,
 * the first failed with "Cannot require() ES Module ... in a cycle" and a file without imports with "Unexpected token
 * ':'" (exit 2).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBuilt, scratchWithBuild } from '../test/cli-io.js';

const fixtures = fileURLToPath(new URL('../test/fixtures/modules-commonjs/', import.meta.url));
const scratch = scratchWithBuild('fencesim-ts-client-');

function gate(client: string, out: string): ReturnType<typeof runBuilt> {
  return runBuilt(['gate', '--client', client, '--scenario', 'read-race', '--interleavings', '20', '--seed', '1', '--workers', '1', '--out', out]);
}

describe('a TypeScript client in a CommonJS folder', () => {
  it('is a package of type commonjs (the case this test is about)', async () => {
    expect(JSON.parse(await readFile(join(fixtures, 'package.json'), 'utf8')).type).toBe('commonjs');
  });

  it.each(['module-client.ts', 'reducer-client.ts'])('%s loads and passes the gate', async (file) => {
    const out = join(scratch(), file);
    const run = await gate(join(fixtures, file), out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('gate PASSED');
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { runSpec: { client: string }; passed: boolean; interleavings: number };
    expect(report.runSpec.client).toBe(join(fixtures, file));
    expect(report.passed).toBe(true);
    expect(report.interleavings).toBe(20);
  });
});
