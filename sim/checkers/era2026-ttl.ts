/**
 * TTL-bounded staleness (2026-07-28, caching.mdx C3/C4) and the `staleness_at_serve` metric.
 *
 * - `ttl_staleness`: while a resource is not watched (no live listen acknowledged with it on the current
 *   connection), content served at `now` must be at least the truth at `now − ttlMs − (received − sent)`:
 *   the entry is fresh for `ttlMs` from receipt, and the read's round trip is the most it could have aged
 *   before it arrived. `ttlMs` is what the server really sent (0 when absent or negative).
 * - staleness at serve: for every serve on a 2026-07-28 connection, how long the truth had moved past the
 *   served version (0 when current); gated as `staleness_at_serve_p99_ms` (sim/gate-verdict.ts).
 */
import type { CachedEntry } from './era2026-entries.js';
import type { ViolationSink } from './sink.js';
import type { WatchChecker } from './era2026-watch.js';

export class TtlChecker {
  /** Staleness at serve of each 2026-07-28 serve of this run (ms). */
  readonly stalenessAtServeMs: number[] = [];
  /** Per resource: every change [version, timeMs], ascending. */
  private readonly changes: number[][];

  constructor(
    private readonly sink: ViolationSink & { checked(invariant: 'ttl_staleness'): void },
    private readonly watch: WatchChecker,
    private readonly uris: readonly string[],
  ) {
    this.changes = uris.map(() => []);
  }

  onChanged(resource: number, version: number, timeMs: number): void {
    this.changes[resource]!.push(version, timeMs);
  }

  /** The truth version of `resource` after every change at or before `timeMs` (1 before any change). */
  private truthAt(resource: number, timeMs: number): number {
    const changes = this.changes[resource]!;
    for (let index = changes.length - 2; index >= 0; index -= 2) if (changes[index + 1]! <= timeMs) return changes[index]!;
    return 1;
  }

  /** How long the truth has been past `version` at `timeMs` (0: `version` is current). */
  private stalenessMs(resource: number, version: number, timeMs: number): number {
    const changes = this.changes[resource]!;
    let firstAfterMs = -1;
    for (let index = changes.length - 2; index >= 0 && changes[index]! > version; index -= 2) firstAfterMs = changes[index + 1]!;
    return firstAfterMs < 0 ? 0 : timeMs - firstAfterMs;
  }

  judgeServed(resource: number, entry: CachedEntry, generation: number, timeMs: number): void {
    this.stalenessAtServeMs.push(this.stalenessMs(resource, entry.version, timeMs));
    if (entry.ttlMs < 0 || this.watch.isWatched(resource, generation)) return;
    this.sink.checked('ttl_staleness');
    const boundMs = timeMs - entry.ttlMs - (entry.receivedAtMs - entry.sentAtMs);
    const truth = this.truthAt(resource, boundMs);
    if (entry.version >= truth) return;
    const uri = this.uris[resource]!;
    this.sink.violate('ttl_staleness', timeMs, uri, `served v${entry.version} of ${uri} (received at ${entry.receivedAtMs} ms, ttlMs ${entry.ttlMs}, read sent at ${Math.floor(entry.sentAtMs)} ms) while unwatched; the truth was v${truth} already at ${Math.floor(boundMs)} ms`);
  }
}
