/**
 * Runs a gate over the SDK transport (`gate --transport sdk`): chunks of interleavings on this thread, or
 * on worker threads (cli/worker.ts runs a chunk with the transport its run spec names), merged in chunk
 * order as the pure gate does, so the report does not depend on --workers.
 */
import { runSdkRange } from '../adapters/mcp-sdk/sim/sdk-gate.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { GateAccumulator, type RunSpec } from '../sim/gate.js';
import type { ShardRange } from '../sim/shard.js';
import { refuseUnrebuildable, runOnWorkers } from './pool.js';
import { chunkSize } from './run-gate.js';

export function runSdkGate(
  spec: RunSpec,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  onProgress: (done: number) => void,
  workers: number,
  range: ShardRange,
): Promise<GateAccumulator> {
  const rebuildable = (): void => refuseUnrebuildable(spec, scenario, client);
  return runAsyncGate(spec, (start, end, progress) => runSdkRange(spec, scenario, client, start, end, progress), rebuildable, onProgress, workers, range);
}

/** Chunks of an async gate (SDK transport, module clients) on this thread or on workers, merged in chunk order. */
export async function runAsyncGate(
  spec: RunSpec,
  runChunk: (start: number, end: number, progress: (done: number) => void) => Promise<GateAccumulator>,
  refuseUnrebuildableRun: () => void,
  onProgress: (done: number) => void,
  workers: number,
  range: ShardRange,
): Promise<GateAccumulator> {
  const count = range.end - range.start;
  const size = chunkSize(count);
  if (workers > 1 && count > size) refuseUnrebuildableRun();
  if (workers > 1 && count > size) return runOnWorkers(spec, range, workers, size, onProgress, (_start, _end, error) => asError(error));
  const total = new GateAccumulator(spec);
  for (let start = range.start; start < range.end; start += size) {
    const end = Math.min(range.end, start + size);
    try {
      total.merge(await runChunk(start, end, (done) => onProgress(start - range.start + done)));
    } catch (error) {
      throw asError(error);
    }
    onProgress(end - range.start);
  }
  return total;
}

/** An InterleavingCrash (from this thread or, rebuilt from its fields, a worker) passes through as it is. */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
