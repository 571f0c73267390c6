/**
 * `monotonic_reads` (2026-07-28): the content a client serves one subject for one resource never goes back
 * to an older truth version. A replayed response (response-replay) or another partition's entry
 * (serve-other-subject) is how a cache breaks it. Judged on serves while the connection speaks 2026-07-28.
 */
import type { ViolationSink } from './sink.js';

export class MonotonicChecker {
  /** Per subject: per resource, the highest truth version served to it (0: none). */
  private readonly servedMax = new Map<string, Int32Array>();

  constructor(
    private readonly sink: ViolationSink & { checked(invariant: 'monotonic_reads'): void },
    private readonly uris: readonly string[],
  ) {}

  judgeServed(resource: number, subject: string, version: number, timeMs: number): void {
    let served = this.servedMax.get(subject);
    if (served === undefined) {
      served = new Int32Array(this.uris.length);
      this.servedMax.set(subject, served);
    }
    this.sink.checked('monotonic_reads');
    const max = served[resource]!;
    if (version >= max) {
      served[resource] = version;
      return;
    }
    this.sink.violate('monotonic_reads', timeMs, this.uris[resource]!, `served v${version} of ${this.uris[resource]} to ${subject} after serving it v${max}`);
  }
}
