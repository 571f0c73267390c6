/**
 * The fenced cache's connections. Every (re)connect is a new session generation: a fresh SDK binding per
 * connection (sdk-connection.ts), its events bound to that generation, `Connected` (with the negotiated
 * capabilities and era) delivered after `initialize`, `Disconnected` when the connection ends; a failed or
 * lost connection schedules a reconnect with exponential backoff and jitter (`options.reconnect`).
 * `resources.subscribe` / `resources.listChanged` come from the negotiated capabilities; the snapshot-ID
 * list extension (SPEC §3.6) is negotiated as the experimental capability `snapshotIdCapability`.
 */
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerCapabilities as SdkServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { sdk1Connection, type ConnectionEvents, type SdkConnection } from './sdk-connection.js';
import { defaultReconnectPolicy, type CacheDiagnostics, type CacheInput, type FencedResourceCacheOptions } from './cache-types.js';
import type { Clock, TimerHandle } from '../transport/clock.js';
import { describeError } from '../sim/sdk-outcomes.js';
import { pushBounded } from './cache-diagnostics.js';

export interface Connection {
  generation: number;
  /** The SDK binding of this connection (sdk-connection.ts). */
  sdk: SdkConnection;
  open: boolean;
  /** 2026-07-28: listen acks and cancels reach the core too. */
  listens?: boolean;
}

/** What the connections need of the cache. */
export interface ConnectionHost {
  /** Steps `Connected` / `Disconnected` through the core. */
  dispatch(input: CacheInput): void;
  /** Forgets every timer of the session that ended. */
  clearTimers(): void;
  drawJitter(): number;
  /** What the SDK binding of `connection` reports, bound to that session. */
  eventsOf(connection: Connection): ConnectionEvents;
}

export class CacheConnections {
  /** The open connection whose `Connected` was delivered, or null. */
  current: Connection | null = null;
  isClosed = false;
  rawCapabilities: SdkServerCapabilities | undefined;
  private connecting: Promise<void> | null = null;
  /** The connection whose `initialize` is in progress. */
  private opening: Connection | null = null;
  private reconnectTimer: TimerHandle | null = null;
  private reconnectAttempts = 0;

  constructor(
    private readonly options: FencedResourceCacheOptions,
    private readonly clock: Clock,
    private readonly requestOptions: RequestOptions,
    private readonly diagnostics: CacheDiagnostics,
    private readonly host: ConnectionHost,
    private lastGeneration: number,
  ) {}

  /** Drops the current connection (if any) and opens a new session. */
  async reconnect(): Promise<void> {
    const current = this.current;
    if (current !== null) {
      this.endConnection(current);
      await current.sdk.close().catch(() => undefined);
    }
    return this.connectNow();
  }

  /** Stops everything: timers, reconnects, the connection (the SDK closes the transport). */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.reconnectTimer !== null) this.clock.clearTimer(this.reconnectTimer);
    this.reconnectTimer = null;
    const opening = this.opening;
    if (opening !== null) {
      // Abort a connection still in `initialize`: closing its client rejects the handshake.
      opening.open = false;
      await opening.sdk.close().catch(() => undefined);
    }
    const current = this.current;
    if (current !== null) {
      this.endConnection(current);
      await current.sdk.close().catch(() => undefined);
    }
    this.host.clearTimers();
  }

  connectNow(): Promise<void> {
    if (this.isClosed) return Promise.reject(new Error('FencedResourceCache is closed'));
    if (this.connecting !== null) return this.connecting;
    if (this.reconnectTimer !== null) {
      this.clock.clearTimer(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    const attempt = this.openConnection().finally(() => {
      this.connecting = null;
    });
    this.connecting = attempt;
    return attempt;
  }

  private async openConnection(): Promise<void> {
    const generation = this.lastGeneration + 1;
    this.lastGeneration = generation;
    let connection: Connection | null = null;
    try {
      const transport = await this.options.connect();
      if (this.isClosed) {
        await transport.close().catch(() => undefined);
        throw new Error('FencedResourceCache closed while connecting');
      }
      const opened = { generation, open: true } as Connection;
      opened.sdk = (this.options.connection ?? sdk1Connection(this.options.createClient))(this.host.eventsOf(opened));
      connection = opened;
      this.opening = opened;
      const handshake = await opened.sdk.open(transport, this.requestOptions);
      this.opening = null;
      if (!opened.open || this.isClosed) throw new Error('the connection closed during initialize');
      this.current = opened;
      this.reconnectAttempts = 0;
      this.rawCapabilities = handshake.raw as SdkServerCapabilities | undefined;
      const connected: Extract<CacheInput, { type: 'Connected' }> = { type: 'Connected', sessionGeneration: generation, capabilities: handshake.capabilities };
      if (handshake.era !== undefined) connected.era = handshake.era;
      opened.listens = handshake.era === '2026-07-28';
      this.host.dispatch(connected);
    } catch (error) {
      this.opening = null;
      pushBounded(this.diagnostics.connectFailures, { atMs: this.clock.nowMs(), message: describeError(error) });
      if (connection !== null) {
        connection.open = false;
        await connection.sdk.close().catch(() => undefined);
      }
      this.scheduleReconnect();
      throw error;
    }
  }

  onConnectionClosed(connection: Connection): void {
    if (!connection.open) return;
    const wasCurrent = this.current === connection;
    this.endConnection(connection);
    if (wasCurrent) this.scheduleReconnect();
  }

  /** Marks a connection over and, if it was the current one, delivers `Disconnected`. */
  private endConnection(connection: Connection): void {
    connection.open = false;
    if (this.current !== connection) return;
    this.current = null;
    // The core forgets every timer of the session (volatile state); stale firings would be no-ops anyway.
    // Cleared first, so a timer the Disconnected step itself arms survives.
    this.host.clearTimers();
    this.host.dispatch({ type: 'Disconnected', sessionGeneration: connection.generation });
  }

  private scheduleReconnect(): void {
    const policy = this.options.reconnect ?? defaultReconnectPolicy;
    if (policy === false || this.isClosed || this.reconnectTimer !== null) return;
    const base = Math.min(policy.delayMsMax, policy.delayMs * 2 ** Math.min(this.reconnectAttempts, 20));
    const delayMs = base + (this.host.drawJitter() % (Math.floor(base / 2) + 1));
    this.reconnectAttempts++;
    this.reconnectTimer = this.clock.setTimer(this.clock.nowMs() + delayMs, () => {
      this.reconnectTimer = null;
      this.connectNow().catch(() => undefined); // a failure records itself and schedules the next attempt
    });
  }
}
