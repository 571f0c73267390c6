/** Every indexer invariant, in report order; each must be 0 over the gate. */
import type { Checker } from './checker.js';
import { deletedServed, indexRegression, mixedModelRead, tornRead } from './read-checkers.js';
import { crossModelComparison, metadataBlocked, migrationSwitch, staleCommit } from './step-checkers.js';
import { lostVectorWrite, resurrection, syncedWrong } from './end-checkers.js';
import { rollbackLost } from './rollback-checker.js';

export const checkerFactories: readonly (() => Checker)[] = [
  indexRegression, tornRead, mixedModelRead, crossModelComparison, resurrection, deletedServed, staleCommit, syncedWrong,
  lostVectorWrite, metadataBlocked, migrationSwitch, rollbackLost,
];

export const indexerInvariants: readonly string[] = checkerFactories.map((factory) => factory().invariant);
