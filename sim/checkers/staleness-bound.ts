/**
 * The client's own staleness promise (SPEC §3.5, issue 10): `served_beyond_bound`. A client publishes, per
 * resource, the staleness bound it keeps (`StalenessBoundPublished`); content it serves must be no older
 * than that: its staleness (the time since the truth moved past the served version, dated by the
 * convergence checker from what the server really produced) must not exceed the bound at serve time.
 * Content the oracle cannot date as anything the client accepted counts as beyond any bound. A client that
 * cannot keep its bound (disconnected, reads failing) must refuse to serve, which the report shows as
 * refusals, never serve stale content as fresh.
 */
import type { ViolationSink } from './sink.js';

/** The staleness of served content that the oracle cannot date (it was never accepted as any version). */
export const undatableAgeMs = Number.POSITIVE_INFINITY;

export class StalenessBoundChecker {
  servesJudged = 0;

  constructor(private readonly sink: ViolationSink) {}

  /** A serve of content `ageMs` stale (0: current) against the bound the client published for it. */
  judge(uri: string, ageMs: number, boundMs: number, timeMs: number): void {
    this.servesJudged++;
    if (ageMs <= boundMs) return;
    const age = ageMs === undatableAgeMs ? 'content it never accepted as any version' : `content ${ageMs} ms stale`;
    this.sink.violate('served_beyond_bound', timeMs, uri, `served ${uri} at ${timeMs} ms: ${age}, beyond the staleness bound ${boundMs} ms it published`);
  }
}
