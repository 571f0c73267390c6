/** One hostile input the harness hands a step client, and what must come of it (sim/actors/hostile-inputs.ts). */
import type { Rejection } from '../../core/types.js';

/**
 * rejected: one typed rejection and nothing else; inert: no effect at all; same: answered as the input it spells;
 * pair: `input` and `other` are two spellings of one input, each stepped from the client's state (neither kept),
 * answered alike (the real input follows as usual).
 */
export type HostileExpectation = 'rejected' | 'inert' | 'same' | 'pair';

export interface HostileInput {
  kind: string;
  /** What the client is handed (not always an object). */
  input: unknown;
  /** `pair`: the other spelling. */
  other?: unknown;
  expect: HostileExpectation;
  /** `rejected`: the kind of the rejection and the texts its detail must show. */
  rejection: Rejection['kind'] | null;
  shows: readonly string[];
}
