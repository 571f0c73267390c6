/**
 * Runs a gate over the SDK transport (`gate --transport sdk`): chunks of interleavings on this thread, or
 * on worker threads (cli/worker.ts runs a chunk with the transport its run spec names), merged in chunk
 * order as the pure gate does, so the report does not depend on --workers.
 */
import { runSdkRange, SdkInterleavingError } from '../adapters/mcp-sdk/sdk-gate.js';
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { GateAccumulator, type RunSpec } from '../sim/gate.js';
import type { ShardRange } from '../sim/shard.js';
import { runOnWorkers } from './pool.js';
import { chunkSize, InterleavingCrash } from './run-gate.js';

export async function runSdkGate(
  spec: RunSpec,
  scenario: Scenario,
  client: ClientUnderTest<any>,
  onProgress: (done: number) => void,
  workers: number,
  range: ShardRange,
): Promise<GateAccumulator> {
  const count = range.end - range.start;
  const size = chunkSize(count);
  if (workers > 1 && count > size) return runOnWorkers(spec, range, workers, size, onProgress, (_start, _end, error) => crashOf(error));
  const total = new GateAccumulator(spec);
  for (let start = range.start; start < range.end; start += size) {
    const end = Math.min(range.end, start + size);
    try {
      total.merge(await runSdkRange(spec, scenario, client, start, end, (done) => onProgress(start - range.start + done)));
    } catch (error) {
      throw crashOf(error);
    }
    onProgress(end - range.start);
  }
  return total;
}

/** The crashing interleaving, from the error of this thread or the text a worker sent back. */
function crashOf(error: unknown): Error {
  if (error instanceof SdkInterleavingError) return new InterleavingCrash(error.index, error.seed, error.error);
  const located = SdkInterleavingError.locate(error instanceof Error ? error.message : String(error));
  if (located !== null) return new InterleavingCrash(located.index, located.seed, error);
  return error instanceof Error ? error : new Error(String(error));
}
