/**
 * Runs a gate's chunks on `node:worker_threads`. Chunks are handed out in index order to whichever worker
 * is free; results are merged in chunk order, so the report is identical to a single-threaded run.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GateAccumulator, type RunSpec } from '../sim/gate.js';
import type { ShardRange } from '../sim/shard.js';
import { accumulatorFromData, type AccumulatorData } from './accumulator-data.js';

type WorkerReply = { ok: true; start: number; data: AccumulatorData } | { ok: false; start: number; message: string };

/** The compiled worker script (dist/cli/worker.js), also when this module runs from TypeScript sources. */
function workerPath(): string {
  const beside = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL('../dist/cli/worker.js', import.meta.url));
}

export async function runOnWorkers(
  spec: RunSpec,
  range: ShardRange,
  workerCount: number,
  chunk: number,
  onProgress: (done: number) => void,
  locateCrash: (start: number, end: number, error: unknown) => Error,
): Promise<GateAccumulator> {
  const starts: number[] = [];
  for (let start = range.start; start < range.end; start += chunk) starts.push(start);
  const results = new Map<number, GateAccumulator>();
  let next = 0;
  let done = 0;
  const path = workerPath();
  const workers = Array.from({ length: Math.min(workerCount, starts.length) }, () => new Worker(path));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const sendNext = (): void => {
              if (next >= starts.length) return resolve();
              const start = starts[next++]!;
              worker.postMessage({ spec, start, end: Math.min(range.end, start + chunk) });
            };
            worker.on('message', (reply: WorkerReply) => {
              const end = Math.min(range.end, reply.start + chunk);
              if (!reply.ok) return reject(locateCrash(reply.start, end, new Error(reply.message)));
              results.set(reply.start, accumulatorFromData(spec, reply.data));
              done += end - reply.start;
              onProgress(done);
              sendNext();
            });
            worker.on('error', reject);
            sendNext();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  const total = new GateAccumulator(spec);
  for (const start of starts) total.merge(results.get(start)!);
  return total;
}
