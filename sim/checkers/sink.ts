/** Where a checker reports what it found: the oracle's violation list and counts. */
import type { InvariantName } from '../invariants.js';

export interface ViolationSink {
  violate(invariant: InvariantName, timeMs: number, uri: string, detail: string): void;
}
