// The small, fixed gate that `npm run mutation` (Stryker's command runner) runs against each mutant of core/.
// It runs the CLI in-process on the TypeScript sources (through tsx, so Stryker's instrumented sources are what runs)
// and exits non-zero as soon as one gate fails: a mutant is killed when any part of the gate catches it.
// By default: swarm (every fault, randomized), 400 interleavings, seed 1, one worker, no shrinking, no self-check.
// FENCESIM_MUTATION_GATE="swarm:400,*:60" adds every targeted scenario (60 interleavings each; about 4x slower).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../cli/main.ts';

const parts = (process.env['FENCESIM_MUTATION_GATE'] ?? 'swarm:400').split(',');
const scenarioNames = ['read-race', 'close-race', 'reconnect', 'duplicate-storm', 'uri-spelling', 'multi-page-lost-notifications', 'cursor-cycle', 'forged-snapshot-id', 'lost-unsubscribe-ack', 'late-content-after-close', 'old-session-notification', 'permission-revocation', 'no-subscribe-capability', 'client-crash'];

const out = mkdtempSync(join(tmpdir(), 'fencesim-mutation-'));
let code = 0;
try {
  for (const part of parts) {
    const [name, count] = part.split(':');
    for (const scenario of name === '*' ? scenarioNames : [name]) {
      const args = ['gate', '--scenario', scenario, '--interleavings', count, '--seed', '1', '--workers', '1', '--no-shrink', '--self-check-ratio', '0', '--out', out];
      code = await main(args);
      if (code !== 0) {
        console.error(`mutation gate: ${scenario} exited ${code}`);
        process.exit(code);
      }
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exit(code);
