/**
 * The project's benchmark suite (`npm run bench`): prints the machine and the run spec, then
 *   a. the full model on one thread: `read-race` and `swarm` with the reference client (sim/gate.ts runRange),
 *      median interleavings/s and events/s over repetitions after a warm-up, events per interleaving, peak RSS;
 *   b. the same-model comparison: the read-race peer model on fencesim's queue + chooser (bench/peer-model.ts)
 *      against fast-check's scheduler (bench/fastcheck-peer.ts), at 1 resource (11 events) and 5 (55 events),
 *      plus the negative controls (fence removed) of both;
 *   c. micro-benchmarks of the core's hot operations (bench/micro.ts).
 * Everything runs on this thread. `--json` prints one JSON object instead of the tables; progress goes to
 * stderr either way. Timing uses `performance.now()` (allowed in bench/, never in core/ or sim/).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';

import { OPERATIONS_PER_SAMPLE, runMicro } from './micro.js';
import { runFull } from './suite-full.js';
import { parseArguments, UsageError } from './suite-options.js';
import { CHILD_FLAG, runChild, runPeerControls, runPeers } from './suite-peers.js';
import { machine, printText, type SuiteReport } from './suite-print.js';
import { peakRssMiB, progress } from './suite-progress.js';

async function main(): Promise<void> {
  const first = process.argv[2];
  if (first !== undefined && first.startsWith(CHILD_FLAG)) return runChild(first);
  const options = parseArguments(process.argv.slice(2));
  const suiteStartMs = performance.now();
  const loadAverageStart = os.loadavg()[0]!;
  const { json, ...specOptions } = options;
  const spec = { ...specOptions, fastCheckVersion: fc.__version, microOperationsPerSample: OPERATIONS_PER_SAMPLE };
  progress(`run spec ${JSON.stringify(spec)}`);
  const full = options.scenarios.map((scenario) => runFull(options, scenario));
  const peakRssMiBAfterFull = peakRssMiB();
  const peers = runPeers(options, fileURLToPath(import.meta.url));
  const peerControls = await runPeerControls(options);
  progress('c. micro-benchmarks');
  const micro = await runMicro(options.microTimeMs);
  const report: SuiteReport = {
    machine: machine(),
    spec,
    full,
    peakRssMiBAfterFull,
    peers,
    peerControls,
    micro,
    peakRssMiB: peakRssMiB(),
    wallSeconds: (performance.now() - suiteStartMs) / 1_000,
    loadAverageStart,
    loadAverageEnd: os.loadavg()[0]!,
  };
  if (json) console.log(JSON.stringify(report));
  else printText(report);
  if (full.some((row) => row.crash !== null)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(error.message);
    process.exitCode = 2;
  } else {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  }
});
