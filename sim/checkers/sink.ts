/** Where a checker reports what it found: the oracle's violation list and counts. */
import type { InvariantName } from '../invariants.js';

export interface ViolationSink {
  violate(invariant: InvariantName, timeMs: number, uri: string, detail: string): void;
}

/** A sink that also counts what was checked (the oracle's accounts: "checked N, violated M" per invariant). */
export interface CheckingSink extends ViolationSink {
  /** `times` more checks of `invariant` (default one). */
  checked(invariant: InvariantName, times?: number): void;
}
