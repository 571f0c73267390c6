/**
 * `phantom_watch` (2026-07-28, I5): a URI counts as watched only between an ack whose honored filter holds
 * it and the end of that listen. The client claims a watch when it publishes a `subscription`-mode
 * staleness bound; the claim is judged against what the world delivered to it:
 * - an ack for that URI, on the current connection, of a listen that has not ended since;
 * - a listen ends when the client cancels it (ListenCancelled), when its result (graceful completion or
 *   error) was delivered, or with the connection (acks are kept per connection generation).
 * Only 2026-07-28 connections are judged (2025-11-25 watches start at the subscribe ACK, judged elsewhere).
 */
export interface WatchSink {
  resourceOf(uri: string): number;
  violate(invariant: 'phantom_watch', timeMs: number, uri: string, detail: string): void;
}

export class WatchChecker {
  /** Connection generations that speak 2026-07-28. */
  private readonly eraGenerations = new Set<number>();
  /** listen id -> [connection generation, resource] of a delivered ack holding that resource. */
  private readonly acked = new Map<number, [number, number][]>();

  /** Listens that ended (an ack that arrives after the client cancelled never revives one). */
  private readonly ended = new Set<number>();

  constructor(private readonly sink: WatchSink) {}

  onEra(generation: number): void {
    this.eraGenerations.add(generation);
  }

  onAcked(generation: number, listenId: number, resource: number): void {
    if (this.ended.has(listenId)) return;
    const entries = this.acked.get(listenId) ?? [];
    entries.push([generation, resource]);
    this.acked.set(listenId, entries);
  }

  onEnded(listenId: number): void {
    this.acked.delete(listenId);
    this.ended.add(listenId);
  }

  /** Does connection `generation` speak 2026-07-28? */
  isEra(generation: number): boolean {
    return this.eraGenerations.has(generation);
  }

  /** Is listen `listenId` live, acknowledged with `resource` on connection `generation`? */
  isLiveListen(listenId: number, generation: number, resource: number): boolean {
    const entries = this.acked.get(listenId);
    if (entries === undefined) return false;
    for (const [ackGeneration, ackResource] of entries) if (ackGeneration === generation && ackResource === resource) return true;
    return false;
  }

  /** The connection on which live listen `listenId` was acknowledged with `resource`, or -1. */
  generationOf(listenId: number, resource: number): number {
    const entries = this.acked.get(listenId);
    if (entries === undefined) return -1;
    for (const [ackGeneration, ackResource] of entries) if (ackResource === resource) return ackGeneration;
    return -1;
  }

  /** The resources listen `listenId` was acknowledged with (any connection), while it is live. */
  resourcesOf(listenId: number): number[] {
    const entries = this.acked.get(listenId);
    return entries === undefined ? [] : entries.map((entry) => entry[1]);
  }

  /** Is `resource` watched on connection `generation`: some live listen acknowledged with it there? */
  isWatched(resource: number, generation: number): boolean {
    for (const entries of this.acked.values()) {
      for (const [ackGeneration, ackResource] of entries) if (ackGeneration === generation && ackResource === resource) return true;
    }
    return false;
  }

  /** The client claimed `uri` watched at `timeMs` on connection `generation`. */
  judgeClaim(uri: string, generation: number, timeMs: number): void {
    if (!this.eraGenerations.has(generation)) return;
    if (this.isWatched(this.sink.resourceOf(uri), generation)) return;
    this.sink.violate('phantom_watch', timeMs, uri, `claimed ${uri} watched, but no live listen of connection ${generation} was acknowledged with it`);
  }
}
