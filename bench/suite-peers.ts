/**
 * Part b of the bench suite: the same-model comparison, the read-race peer model on fencesim's queue +
 * chooser (bench/peer-model.ts) against fast-check's scheduler (bench/fastcheck-peer.ts), each repetition in
 * its own child process, plus the negative controls (fence removed) of both.
 */
import { execFileSync } from 'node:child_process';

import { runFastCheckPeer, unfencedControlFailsAt } from './fastcheck-peer.js';
import { median } from './median.js';
import { peerModelStaleReceipts, peerModelUnfencedControl, runPeerModel, type PeerModelResult } from './peer-model.js';
import type { SuiteOptions } from './suite-options.js';
import { integer, progress } from './suite-progress.js';

export interface PeerRow {
  resources: number;
  eventsPerInterleaving: number;
  fencesimInterleavingsPerSecond: number;
  fencesimEventsPerSecond: number;
  fastCheckInterleavingsPerSecond: number;
  fastCheckEventsPerSecond: number;
  /** fencesim / fast-check medians (interleavings/s; events/s gives the same ratio). */
  ratio: number;
  /** Range of the per-repetition ratios (the harnesses alternate repetition by repetition). */
  pairedRatioMin: number;
  pairedRatioMax: number;
}

export interface PeerControls {
  interleavings: number;
  fencesimUnfencedCaught: number;
  fencesimUnfencedFirstCaughtIndex: number;
  fencesimStaleReceiptsPerInterleaving: number;
  fastCheckUnfencedFailsAtRun: number | null;
}

type PeerHarness = 'fencesim' | 'fast-check';
export const CHILD_FLAG = '--child=';

/**
 * One repetition of one harness (warm-up, then one timed run) in a fresh child process, so neither
 * harness pays for the other's heap (fast-check leaves a large one behind, which made the fencesim model's
 * GC measurably slower in the same process) or JIT state.
 * `script` is the suite's own file, which runs `runChild` when given the child flag.
 */
function runPeerChild(script: string, harness: PeerHarness, resources: number, interleavings: number, seed: number): PeerModelResult {
  const output = execFileSync(process.execPath, [script, `${CHILD_FLAG}${harness}:${resources}:${interleavings}:${seed}`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output) as PeerModelResult;
}

export async function runChild(argument: string): Promise<void> {
  const [harness, resourcesText, interleavingsText, seedText] = argument.slice(CHILD_FLAG.length).split(':');
  const resources = Number(resourcesText);
  const interleavings = Number(interleavingsText);
  const seed = Number(seedText);
  let result: PeerModelResult;
  if (harness === 'fencesim') result = runPeerModel({ interleavings, repetitions: 1, resources, rootSeed: seed });
  else if (harness === 'fast-check') result = await runFastCheckPeer({ numRuns: interleavings, repetitions: 1, resources, seed });
  else throw new Error(`unknown child harness ${harness ?? '(none)'}`);
  console.log(JSON.stringify(result));
}

/**
 * The two harnesses alternate repetition by repetition (fencesim, fast-check, fencesim, ...), so a change
 * in machine load during the run hits both alike; each repetition runs in its own child process.
 */
export function runPeers(options: SuiteOptions, script: string): PeerRow[] {
  const rows: PeerRow[] = [];
  for (const resources of options.peerResources) {
    const fencesim: number[] = [];
    const fastCheck: number[] = [];
    const paired: number[] = [];
    let eventsPerInterleaving = 0;
    for (let repetition = 0; repetition < options.repetitions; repetition++) {
      const ours = runPeerChild(script, 'fencesim', resources, options.peerFencesimInterleavings, options.seed);
      const theirs = runPeerChild(script, 'fast-check', resources, options.peerInterleavings, options.seed);
      if (ours.eventsPerInterleaving !== theirs.eventsPerInterleaving) {
        throw new Error(`peer models differ: ${ours.eventsPerInterleaving} vs ${theirs.eventsPerInterleaving} events per interleaving`);
      }
      eventsPerInterleaving = ours.eventsPerInterleaving;
      fencesim.push(ours.interleavingsPerSecondMedian);
      fastCheck.push(theirs.interleavingsPerSecondMedian);
      paired.push(ours.interleavingsPerSecondMedian / theirs.interleavingsPerSecondMedian);
      progress(
        `b. ${resources} resource(s): repetition ${repetition + 1}/${options.repetitions}: fencesim ${integer(ours.interleavingsPerSecondMedian)} il/s, ` +
          `fast-check ${integer(theirs.interleavingsPerSecondMedian)} il/s`,
      );
    }
    const fencesimMedian = median(fencesim);
    const fastCheckMedian = median(fastCheck);
    rows.push({
      resources,
      eventsPerInterleaving,
      fencesimInterleavingsPerSecond: fencesimMedian,
      fencesimEventsPerSecond: fencesimMedian * eventsPerInterleaving,
      fastCheckInterleavingsPerSecond: fastCheckMedian,
      fastCheckEventsPerSecond: fastCheckMedian * eventsPerInterleaving,
      ratio: fencesimMedian / fastCheckMedian,
      pairedRatioMin: Math.min(...paired),
      pairedRatioMax: Math.max(...paired),
    });
  }
  return rows;
}

export async function runPeerControls(options: SuiteOptions): Promise<PeerControls> {
  progress('b. negative controls (fence removed)');
  const interleavings = options.peerInterleavings;
  const control = peerModelUnfencedControl(interleavings, 1, options.seed);
  return {
    interleavings,
    fencesimUnfencedCaught: control.caught,
    fencesimUnfencedFirstCaughtIndex: control.firstCaughtIndex,
    fencesimStaleReceiptsPerInterleaving: peerModelStaleReceipts(interleavings, 1, options.seed) / interleavings,
    fastCheckUnfencedFailsAtRun: await unfencedControlFailsAt(interleavings, options.seed),
  };
}
