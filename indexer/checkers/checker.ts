/**
 * The checkers' contract: each invariant is one small file that judges what the indexer's read path
 * returns and what it commits against the simulator's ground truth (never against the indexer's own
 * bookkeeping), counting checked and violated. Adding an invariant is one file and one registry line.
 */
import type { ReadResult } from '../read-path.js';
import type { DocumentModel } from '../text.js';
import type { ChunkRow, IndexerEffect, IndexerInput, IndexerState } from '../types.js';

export interface Violation {
  invariant: string;
  timeMs: number;
  uri: string;
  detail: string;
}

export interface TruthResource {
  sequence: number;
  deleted: boolean;
  digest: string;
  model: DocumentModel | null;
}

/** Ground truth and delivery facts, as the simulator knows them. */
export interface TruthView {
  readonly nowMs: number;
  readonly uris: readonly string[];
  truth(uri: string): TruthResource | undefined;
  /** The document model of one version (null for deletions and unknown versions). */
  versionModel(uri: string, sequence: number): DocumentModel | null;
  /** Highest delete or invalidation sequence delivered to the indexer (0: none). */
  deliveredDeletion(uri: string): number;
  /** Highest delete or invalidation sequence at the source, delivered or not (0: none). */
  sourceDeletion(uri: string): number;
  /** Whether the store ever applied a whole row write of this model for this URI. */
  applied(uri: string, model: string): boolean;
  /** Highest upsert sequence delivered to the indexer (0: none). */
  deliveredUpsert(uri: string): number;
  /** When the store lost every row of this URI (a data-loss fault), if it did. */
  storeLossAtMs?(uri: string): number | undefined;
  readonly store: { rowsOf(uri: string): ChunkRow[] };
  readonly state: IndexerState;
}

export interface Checker {
  readonly invariant: string;
  checked: number;
  violated: number;
  onRead?(truth: TruthView, uri: string, result: ReadResult): Violation | null;
  /** Before the step's input is applied to the truth's delivery record. */
  onStep?(truth: TruthView, input: IndexerInput, effects: readonly IndexerEffect[]): Violation | null;
  atEnd?(truth: TruthView): Violation | null;
}

export function violation(invariant: string, truth: TruthView, uri: string, detail: string): Violation {
  return { invariant, timeMs: truth.nowMs, uri, detail };
}
