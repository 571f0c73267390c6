/**
 * One connection of a `FencedResourceCache`, whatever SDK carries it: the cache hands it the transport and
 * the core's `RequestSent` effects, and it reports outcomes and notifications back as core inputs. The
 * default binding is SDK 1.x (`sdk1Connection`, 2025-11-25 only); the SDK v2 binding
 * (adapters/mcp-sdk/v2/v2-connection.ts) also speaks 2026-07-28 (`subscriptions/listen`).
 *
 * Rules every binding keeps:
 * - `open` resolves after the handshake with the capabilities the core is told in `Connected` (and the
 *   negotiated era), or rejects.
 * - A request's outcome comes back once, through `events.respond`, for the session that sent it; a failure
 *   after the connection ended is not a response (the core forgot the session's requests).
 * - Notifications reach the core raw (`events.notification`); a binding may translate SDK-private ids
 *   (a v2 listen's `'listen:N'`) into the core's ids, never anything else.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientEffect, ProtocolEra, Rejection, ResponseOutcome, ServerCapabilities } from '../../../core/types.js';
import { interpretRequestFailure } from '../sim/sdk-outcomes.js';

type RequestEffect = Extract<ClientEffect, { type: 'RequestSent' }>;

/** The experimental capability key under which a server offers the snapshot-ID list extension. */
export const snapshotIdCapability = 'fencesim/snapshotId';

export interface ConnectionOpened {
  capabilities: ServerCapabilities;
  /** The negotiated era (absent: 2025-11-25). */
  era?: ProtocolEra;
  /** The capabilities as the SDK reported them. */
  raw: unknown;
}

/** What a connection reports to its cache. */
export interface ConnectionEvents {
  notification(method: string, params: unknown): void;
  /** The outcome of request `effect` (a listen's ack is a notification, its end a response). */
  respond(effect: RequestEffect, outcome: ResponseOutcome): void;
  /** A request failed after its connection ended (not fed to the core). */
  closedInFlight(): void;
  /** A typed rejection the adapter observed (an SDK-refused result). */
  rejection(rejection: Rejection): void;
  error(error: Error): void;
  closed(): void;
}

export interface SdkConnection {
  /** The SDK Client of this connection (an SDK 1.x `Client`, or a v2 `Client` with the v2 binding). */
  readonly client: unknown;
  open(transport: Transport, options: RequestOptions): Promise<ConnectionOpened>;
  /** Carries out a `RequestSent` (`meta`: the cache's `requestMeta` for it); `isOpen` is read at failure time. */
  send(effect: RequestEffect, meta: Record<string, unknown> | undefined, options: RequestOptions, isOpen: () => boolean): void;
  /** 2026-07-28: the core ended a listen (`ListenCancelled`). */
  cancelListen?(requestId: number): void;
  close(): Promise<void>;
}

/** Makes the connection of one session; `events` are bound to that session by the cache. */
export type SdkConnectionFactory = (events: ConnectionEvents) => SdkConnection;

/** The SDK 1.x binding: 2025-11-25, `createClient` (default a plain `Client`) per connection. */
export function sdk1Connection(createClient?: () => Client): SdkConnectionFactory {
  return (events) => {
    const client = createClient?.() ?? new Client({ name: 'fencesim-cache', version: '0.1.0' }, { capabilities: {} });
    client.onerror = (error) => events.error(error);
    client.onclose = () => events.closed();
    client.fallbackNotificationHandler = async (notification) => events.notification(notification.method, notification.params);
    return {
      client,
      async open(transport, options) {
        await client.connect(transport, options);
        const capabilities = client.getServerCapabilities();
        return {
          raw: capabilities,
          capabilities: {
            resources: capabilities?.resources !== undefined,
            subscribe: capabilities?.resources?.subscribe === true,
            listChanged: capabilities?.resources?.listChanged === true,
            snapshotId: capabilities?.experimental?.[snapshotIdCapability] !== undefined,
          },
        };
      },
      send(effect, meta, options, isOpen) {
        const withMeta = <T extends object>(params: T): T => (meta === undefined ? params : { ...params, _meta: meta });
        let pending: Promise<unknown>;
        switch (effect.method) {
          case 'resources/read':
            pending = client.readResource(withMeta({ uri: effect.uri }), options);
            break;
          case 'resources/subscribe':
            pending = client.subscribeResource(withMeta({ uri: effect.uri }), options);
            break;
          case 'resources/unsubscribe':
            pending = client.unsubscribeResource(withMeta({ uri: effect.uri }), options);
            break;
          case 'resources/list':
            if (effect.cursor === undefined) pending = client.listResources(meta === undefined ? undefined : { _meta: meta }, options);
            else pending = client.listResources(withMeta({ cursor: effect.cursor }), options);
            break;
          case 'subscriptions/listen':
            // Only on 2026-07-28 connections (the SDK v2 binding); SDK 1.x speaks 2025-11-25.
            pending = Promise.reject(new Error('subscriptions/listen needs a 2026-07-28 connection (SDK v2)'));
            break;
        }
        pending.then(
          (result) => events.respond(effect, { type: 'result', result }),
          (error: unknown) => {
            const failure = interpretRequestFailure(effect.method, error, isOpen());
            if (failure.type === 'not-a-response') {
              events.closedInFlight();
              return;
            }
            if (failure.rejection !== null) events.rejection(failure.rejection);
            events.respond(effect, failure.outcome);
          },
        );
      },
      close: () => client.close(),
    };
  };
}
