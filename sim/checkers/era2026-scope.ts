/**
 * `scope_isolation` (2026-07-28, caching.mdx C5): a response the server marked `cacheScope: private` may be
 * reused only for the authorization context it was read for; serving it to another subject is a
 * cross-partition leak. `public` content may go to anyone. Judged against the hint the server really sent
 * and the subject the read really named (era2026-entries.ts).
 */
import type { CachedEntry } from './era2026-entries.js';
import type { ViolationSink } from './sink.js';

export class ScopeChecker {
  constructor(
    private readonly sink: ViolationSink & { checked(invariant: 'scope_isolation'): void },
    private readonly uris: readonly string[],
  ) {}

  judgeServed(resource: number, subject: string, entry: CachedEntry, timeMs: number): void {
    if (entry.ttlMs < 0) return; // no 2026 hint: not a scoped response
    this.sink.checked('scope_isolation');
    if (entry.scope !== 'private' || entry.subject === subject) return;
    const readAs = entry.subject === '' ? 'no authorization context' : entry.subject;
    this.sink.violate('scope_isolation', timeMs, this.uris[resource]!, `served private v${entry.version} of ${this.uris[resource]} read as ${readAs} to ${subject}`);
  }
}
