/**
 * The fenced cache's requests: the core's `RequestSent` effects carried out on the connection of the session
 * that emitted them (through its SDK binding), and their outcomes stepped back as `ResponseArrived` for that
 * session. A read the content limit holds (content-limit.ts) is answered without the wire, after the step that
 * sent it, like a response; a read's result is shown to the content limit before the core sees it.
 */
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ResponseOutcome } from '../../../core/types.js';
import type { CacheDiagnostics, CacheInput, FencedResourceCacheOptions, RequestEffect } from './cache-types.js';
import type { Clock } from '../transport/clock.js';
import type { CacheConnections, Connection } from './cache-connections.js';
import type { ContentLimitMemory } from './content-limit.js';

export class CacheRequests {
  constructor(
    private readonly connections: CacheConnections,
    private readonly contentLimit: ContentLimitMemory,
    private readonly clock: Clock,
    private readonly diagnostics: CacheDiagnostics,
    private readonly options: Pick<FencedResourceCacheOptions, 'requestMeta'>,
    private readonly requestOptions: RequestOptions,
    /** Steps an input through the core (the cache's dispatch). */
    private readonly dispatch: (input: CacheInput) => void,
  ) {}

  /** Carries out `effect` on the current connection, if it is the session that sent it. */
  send(effect: RequestEffect): void {
    const connection = this.connections.current;
    if (connection === null || !connection.open || connection.generation !== effect.sessionGeneration) {
      this.diagnostics.requestsWithoutConnection++;
      return;
    }
    const held = effect.method === 'resources/read' ? this.contentLimit.holdRead(effect.uri, this.clock.nowMs()) : null;
    if (held !== null) {
      void Promise.resolve().then(() => this.respond(connection, effect, held)); // answered like a response: after this step
      return;
    }
    connection.sdk.send(effect, this.options.requestMeta?.(effect), this.requestOptions, () => connection.open);
  }

  /** The outcome the SDK binding of `connection` reported for `effect`. */
  outcome(connection: Connection, effect: RequestEffect, outcome: ResponseOutcome): void {
    if (effect.method === 'resources/read' && outcome.type === 'result') this.contentLimit.observeRead(effect.uri, outcome.result, this.clock.nowMs());
    this.respond(connection, effect, outcome);
  }

  private respond(connection: Connection, effect: RequestEffect, outcome: ResponseOutcome): void {
    this.dispatch({ type: 'ResponseArrived', sessionGeneration: connection.generation, requestId: effect.requestId, outcome });
  }
}
