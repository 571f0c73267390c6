/**
 * Worker thread for `fencesim bench --strategies --workers K`: runs the benchmark cells it is sent (by
 * index into strategyCells(), or with `client`, into that client module's cells) and posts back each row.
 * A cell's result depends only on its seeds.
 */
import { parentPort } from 'node:worker_threads';
import { loadClientModule } from './client-module.js';
import { runClientStrategyCell } from './module-strategy.js';
import { runStrategyCell, strategyCells } from './strategy-bench.js';

export interface StrategyTask {
  cell: number;
  seed: number;
  interleavings: number;
  /** A client module path (as given on the command line): `clientCell` indexes its cells. */
  client?: string;
  clientCell?: number;
}

const cells = strategyCells();

async function run(task: StrategyTask) {
  if (task.client === undefined) return runStrategyCell(cells[task.cell]!, task.seed, task.interleavings);
  return runClientStrategyCell(await loadClientModule(task.client, 'bench'), task.clientCell!, task.seed, task.interleavings);
}

parentPort?.on('message', (task: StrategyTask) => {
  run(task).then(
    (row) => parentPort!.postMessage({ ok: true, cell: task.cell, row }),
    (error: unknown) => parentPort!.postMessage({ ok: false, cell: task.cell, message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
