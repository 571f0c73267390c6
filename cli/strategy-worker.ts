/**
 * Worker thread for `fencesim bench --strategies --workers K`: runs the benchmark cells it is sent (by
 * index into strategyCells()) and posts back each row. A cell's result depends only on its seeds.
 */
import { parentPort } from 'node:worker_threads';
import { runStrategyCell, strategyCells } from './strategy-bench.js';

export interface StrategyTask {
  cell: number;
  seed: number;
  interleavings: number;
}

const cells = strategyCells();

parentPort?.on('message', (task: StrategyTask) => {
  try {
    parentPort!.postMessage({ ok: true, cell: task.cell, row: runStrategyCell(cells[task.cell]!, task.seed, task.interleavings) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, cell: task.cell, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
