/**
 * A production fenced resource cache: the pure consistency core (`core/`) driven by a real
 * `@modelcontextprotocol/sdk` Client. The client logic is any `ClientUnderTest` (SPEC §4); the default is
 * the reference core. The simulator's SDK transport drives naive strategies through the same cache.
 *
 * The cache owns the I/O the core only describes. Every (re)connect is a new session generation: a fresh
 * `Client` is created per connection, its notification path is bound to that generation, and `Connected`
 * (with the negotiated `resources.subscribe` / `resources.listChanged`) is delivered after `initialize`;
 * the transport closing delivers `Disconnected`. `RequestSent` effects are carried out with
 * `client.readResource / subscribeResource / unsubscribeResource / listResources` and their outcomes come
 * back as `ResponseArrived` for the session that sent them. `TimerArmed` effects go to a `Clock`. Content is
 * served only through the core (`get` drives `ServeCommanded`), so nothing the fence refused can be served.
 *
 * Decisions:
 * - Notifications reach the core raw: `client.fallbackNotificationHandler` (per Client, so per connection)
 *   forwards every `notifications/resources/*` method unparsed, and the core records a typed
 *   `ProtocolRejected` for junk. Other methods (logging, tools/list_changed, ...) are counted and ignored.
 * - Request failures: see sdk-outcomes.ts (McpError -> error outcome; a result the SDK's schema refused ->
 *   -32603 plus an adapter-sourced `ProtocolRejected`; ConnectionClosed after close -> not fed).
 * - The SDK request timeout is `requestTimeoutMs` (default 60 000), clamped to 2^31-1 ms because Node
 *   turns a longer setTimeout into 1 ms. A simulated run passes the maximum (the core has its own
 *   timeouts) or an AbortSignal it controls (`requestSignal`).
 * - Accepted bodies live in a `ContentStore` keyed by canonical URI; the durable ledger holds digests only.
 *   Persist both to restart warm; a recovered ledger without its bodies refuses to serve until re-read.
 * - Inputs are stepped one at a time in arrival order; an input arriving during a step (a listener calling
 *   a command) waits its turn, so timers and requests are carried out in the order the core emitted them.
 * - `resources.subscribe` / `resources.listChanged` come from the negotiated capabilities; the snapshot-ID
 *   list extension (SPEC §3.6) is negotiated as the experimental capability `snapshotIdCapability`.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
 * import { FencedResourceCache } from 'fencesim/mcp-sdk';
 *
 * const cache = new FencedResourceCache({
 *   connect: async () => new StdioClientTransport({ command: 'node', args: ['server.js'] }),
 *   ledger: loadLedgerOrUndefined(),            // resume watermarks and close receipts after a restart
 * });
 * cache.onEffect((effect) => { if (effect.type === 'OutboxEntryWritten') indexer.enqueue(effect); });
 * await cache.start();
 * cache.subscribe('file:///project/README.md', 'alice');
 * // ... later, serve only what passed the fence, to the subject it was read for:
 * const hit = cache.get('file:///project/README.md', 'alice');
 * if (hit.served) console.log(hit.digest, hit.text.length); else console.log('refused:', hit.reason);
 * cache.revoke('alice', 'file:///project/README.md');   // authorization feed: purge + invalidations
 * saveLedger(cache.ledger());                            // JSON-serializable
 * await cache.close();
 * ```
 */
import { randomInt } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerCapabilities as SdkServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { sdk1Connection, type ConnectionEvents, type SdkConnection } from './sdk-connection.js';
import { referenceClient } from '../../../core/reducer.js';
import type { Ledger } from '../../../core/state.js';
import {
  defaultClientConfig,
  timerName,
  type ClientConfig,
  type ClientEffect,
  type ClientInput,
  type ClientUnderTest,
  type Rejection,
  type ResponseOutcome,
  type TimerId,
} from '../../../core/types.js';
import {
  MemoryContentStore,
  defaultReconnectPolicy,
  defaultRequestTimeoutMs,
  type CacheDiagnostics,
  type CacheInput,
  type ContentStore,
  type EffectListener,
  type EffectMeta,
  type FencedResourceCacheOptions,
  type GetResult,
  type InputListener,
  type RequestEffect,
  type StepListener,
} from './cache-types.js';
import { SET_TIMEOUT_MS_MAX, systemClock, type Clock, type TimerHandle } from '../transport/clock.js';
import { classifyTransportError, describeError } from '../sim/sdk-outcomes.js';
import { CacheObserver } from '../observe/metrics.js';
import type { CacheHealth } from '../../../observe/health.js';
import { ContentLimitMemory, describeRefusal, type ContentLimitRefusal } from './content-limit.js';

export * from './cache-types.js';
export { invalidResultCode, stripMcpPrefix } from '../sim/sdk-outcomes.js';
export type { CacheHealth, HealthReason } from '../../../observe/health.js';
export type { CacheObserveOptions } from '../observe/metrics.js';
export type { ContentLimitRefusal } from './content-limit.js';
export { snapshotIdCapability, sdk1Connection, type ConnectionEvents, type ConnectionOpened, type SdkConnection, type SdkConnectionFactory } from './sdk-connection.js';
export { ProcessGroupTransport, type ServerProcessOptions, type ServerProcessReport } from '../probe/process-group-transport.js';

const RECORDS_MAX = 200;

interface Connection {
  generation: number;
  /** The SDK binding of this connection (sdk-connection.ts). */
  sdk: SdkConnection;
  open: boolean;
  /** 2026-07-28: listen acks and cancels reach the core too. */
  listens?: boolean;
}

export class FencedResourceCache {
  private state: unknown;
  /** The client logic (a ClientUnderTest), not the SDK Client. */
  private readonly logic: ClientUnderTest<any>;
  private readonly options: FencedResourceCacheOptions;
  private readonly clock: Clock;
  private readonly jitterSource: () => number;
  private readonly contentStore: ContentStore;
  private readonly requestOptions: RequestOptions;
  private readonly effectListeners: EffectListener[] = [];
  private readonly inputListeners: InputListener[] = [];
  private readonly stepListeners: StepListener[] = [];
  private readonly timers = new Map<string, TimerHandle>();
  private readonly queue: ClientInput[] = [];
  private dispatching = false;
  private connection: Connection | null = null;
  private connecting: Promise<void> | null = null;
  /** The connection whose `initialize` is in progress. */
  private opening: Connection | null = null;
  private lastGeneration = 0;
  private reconnectTimer: TimerHandle | null = null;
  private reconnectAttempts = 0;
  private isClosed = false;
  private rawCapabilities: SdkServerCapabilities | undefined;
  private readonly observer: CacheObserver;
  /** Reads refused for exceeding config.contentCharsMax (named in get(), not re-downloaded in a loop). */
  private readonly contentLimit: ContentLimitMemory;
  private readonly diagnosticsData: CacheDiagnostics = {
    transportErrors: [],
    transportErrorCount: 0,
    adapterRejections: [],
    ignoredNotifications: {},
    closedInFlight: 0,
    requestsWithoutConnection: 0,
    connectFailures: [],
    listenerErrors: 0,
    failure: null,
  };

  constructor(options: FencedResourceCacheOptions) {
    if (typeof options?.connect !== 'function') throw new TypeError('FencedResourceCache: options.connect must be a function returning a Transport');
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.jitterSource = options.jitter ?? (() => randomInt(0, 0x1_0000_0000));
    this.contentStore = options.contentStore ?? new MemoryContentStore();
    const client = options.client ?? referenceClient;
    if (client === null || typeof client !== 'object' || typeof client.init !== 'function' || typeof client.step !== 'function') {
      throw new TypeError('FencedResourceCache: options.client must be a client under test ({name, init, step})');
    }
    this.logic = client;
    const config: ClientConfig = { ...defaultClientConfig, ...options.config };
    this.contentLimit = new ContentLimitMemory(config.contentCharsMax);
    if (options.ledger !== undefined) {
      if (options.ledger === null || typeof options.ledger !== 'object' || options.ledger.schema !== 'fencesim.ledger.v1') {
        throw new TypeError(`FencedResourceCache: options.ledger must be a fencesim.ledger.v1 ledger, got schema ${JSON.stringify((options.ledger as { schema?: unknown } | null)?.schema)}`);
      }
      if (client.recover === undefined) throw new TypeError(`FencedResourceCache: client ${client.name} cannot recover from a ledger (no recover)`);
      this.state = client.recover(config, options.ledger).state; // the restart's effects are session_lost moves: nothing to carry out
      this.lastGeneration = options.ledger.sessionGeneration;
    } else {
      this.state = client.init(config);
    }
    this.observer = new CacheObserver(options.observe, options.ledger);
    const timeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
    if (!(typeof timeout === 'number' && timeout > 0)) throw new RangeError(`FencedResourceCache: requestTimeoutMs must be a positive number, got ${String(timeout)}`);
    this.requestOptions = { timeout: Math.min(timeout, SET_TIMEOUT_MS_MAX) };
    if (options.requestSignal !== undefined) this.requestOptions.signal = options.requestSignal;
  }

  // -- lifecycle ---------------------------------------------------------------------------------

  /** Opens the first connection; resolves once `Connected` was delivered (rejects if it failed). */
  start(): Promise<void> {
    return this.connectNow();
  }

  /** Drops the current connection (if any) and opens a new session. */
  async reconnect(): Promise<void> {
    const current = this.connection;
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
    const current = this.connection;
    if (current !== null) {
      this.endConnection(current);
      await current.sdk.close().catch(() => undefined);
    }
    this.clearTimers();
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get connected(): boolean {
    return this.connection !== null;
  }

  /** The current session generation, or null when disconnected. */
  get sessionGeneration(): number | null {
    return this.connection?.generation ?? null;
  }

  /** The SDK Client of the current connection (e.g. to call tools), or null (a v2 `Client` with the v2 binding). */
  get client(): Client | null {
    return (this.connection?.sdk.client as Client | undefined) ?? null;
  }

  /** The capabilities the server declared in `initialize` (raw SDK shape). */
  get serverCapabilities(): SdkServerCapabilities | undefined {
    return this.rawCapabilities;
  }

  // -- commands ------------------------------------------------------------------------------------

  subscribe(uri: string, subject = 'default'): void {
    this.dispatch({ type: 'SubscribeCommanded', uri, subject });
  }

  unsubscribe(uri: string): void {
    this.dispatch({ type: 'UnsubscribeCommanded', uri });
  }

  discover(): void {
    this.dispatch({ type: 'DiscoverCommanded' });
  }

  completenessTask(task: string): void {
    this.dispatch({ type: 'CompletenessTaskCommanded', task });
  }

  /** Authorization hook: `subject` lost access to `uri` (stop serving, purge, invalidate derived entries). */
  revoke(subject: string, uri: string): void {
    this.dispatch({ type: 'AuthorizationChanged', subject, uri, allowed: false });
  }

  /** Access granted again; serving resumes after the next accepted read renews the lease. */
  grant(subject: string, uri: string): void {
    this.dispatch({ type: 'AuthorizationChanged', subject, uri, allowed: true });
  }

  /**
   * Serves cached content to `subject` through the core (`ServeCommanded`): only a version the fence
   * accepted, read for this subject, within its authorization lease, not revoked, not pending deletion.
   * The result says whether the body is text or a base64 blob, with its MIME type; `textOnly` refuses blobs.
   */
  get(uri: string, subject = 'default', options: { textOnly?: boolean } = {}): GetResult {
    return this.serve(uri, subject, options, true);
  }

  /**
   * What `get` would return now, with no side effect at all: the serve is not recorded (no input, step or
   * effect listener, no metrics). For looking at the cache without serving anyone (the module harness
   * watches what it serves after every event).
   */
  peek(uri: string, subject = 'default', options: { textOnly?: boolean } = {}): GetResult {
    return this.serve(uri, subject, options, false);
  }

  private serve(uri: string, subject: string, options: { textOnly?: boolean }, recorded: boolean): GetResult {
    const failure = this.diagnosticsData.failure;
    if (failure !== null) return { served: false, reason: `cache stopped after a core error: ${failure}` };
    // Serving changes no state and arms nothing, so it may run even inside another step's listeners. It
    // schedules no read, so it draws no jitter: a get has no side effect on the jitter source.
    const input = { type: 'ServeCommanded' as const, uri, subject, nowMs: this.clock.nowMs(), jitter: 0 };
    const effects = recorded ? this.stepAndExecute(input) : this.stepQuietly(input);
    for (const effect of effects) {
      if (effect.type === 'ContentRefused') return { served: false, reason: this.withContentLimit(effect.uri, effect.reason) };
      if (effect.type === 'ProtocolRejected') return { served: false, reason: effect.rejection.detail };
      if (effect.type !== 'ContentServed') continue;
      const content = this.contentStore.get(effect.uri);
      if (content === undefined || content.digest !== effect.digest) {
        return { served: false, reason: 'the accepted version is not in the content store (recovered without its bodies?); waiting for a read' };
      }
      const encoding = content.encoding ?? 'text';
      if (options.textOnly === true && encoding !== 'text') return { served: false, reason: `the content is a base64 blob (${content.mimeType}), not text` };
      return { served: true, uri: effect.uri, text: content.text, encoding, mimeType: content.mimeType, digest: effect.digest };
    }
    return { served: false, reason: 'the core neither served nor refused' };
  }

  /** Resources whose last read was over the content limit (see content-limit.ts). */
  contentLimitRefusals(): ContentLimitRefusal[] {
    return this.contentLimit.list();
  }

  private withContentLimit(uri: string, reason: string): string {
    const refusal = this.contentLimit.refusalOf(uri);
    return refusal === undefined ? reason : `${reason}; ${describeRefusal(refusal)}`;
  }

  // -- observation ---------------------------------------------------------------------------------

  /** Every effect (core and adapter-sourced), after the cache carried it out. Returns an unsubscribe. */
  onEffect(listener: EffectListener): () => void {
    return addListener(this.effectListeners, listener);
  }

  /** Every input, before it is stepped. Returns an unsubscribe. */
  onInput(listener: InputListener): () => void {
    return addListener(this.inputListeners, listener);
  }

  /**
   * Every step: the input and all the effects it produced, after the client stepped and before the cache
   * carries the effects out (a simulator judges a step here). Returns an unsubscribe.
   */
  onStep(listener: StepListener): () => void {
    return addListener(this.stepListeners, listener);
  }

  /**
   * The durable ledger (a deep copy; JSON-serializable): persist it, pass it back as `options.ledger`.
   * It is the client's `durable(state)`; a client without one (a naive strategy) has no ledger.
   */
  ledger(): Ledger {
    const durable = this.logic.durable;
    if (durable === undefined) throw new Error(`FencedResourceCache: client ${this.logic.name} keeps no durable ledger`);
    return JSON.parse(JSON.stringify(durable(this.state))) as Ledger;
  }

  /** The client's state (read-only view, for tests and tooling). */
  get clientState(): unknown {
    return this.state;
  }

  /** The name of the client logic the cache runs. */
  get clientName(): string {
    return this.logic.name;
  }

  /** The observed figures as plain data and a verdict with reasons (observe/health.ts), as of now. */
  health(): CacheHealth {
    const failure = this.diagnosticsData.failure;
    return this.observer.health(this.clock.nowMs(), failure === null ? [] : [{ code: 'CACHE_STOPPED', severity: 'critical', message: `the cache stopped after a core error: ${failure}` }]);
  }

  diagnostics(): CacheDiagnostics {
    return JSON.parse(JSON.stringify(this.diagnosticsData)) as CacheDiagnostics;
  }

  // -- connections ---------------------------------------------------------------------------------

  private connectNow(): Promise<void> {
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
      opened.sdk = (this.options.connection ?? sdk1Connection(this.options.createClient))(this.eventsOf(opened));
      connection = opened;
      this.opening = opened;
      const handshake = await opened.sdk.open(transport, this.requestOptions);
      this.opening = null;
      if (!opened.open || this.isClosed) throw new Error('the connection closed during initialize');
      this.connection = opened;
      this.reconnectAttempts = 0;
      this.rawCapabilities = handshake.raw as SdkServerCapabilities | undefined;
      const connected: Extract<CacheInput, { type: 'Connected' }> = { type: 'Connected', sessionGeneration: generation, capabilities: handshake.capabilities };
      if (handshake.era !== undefined) connected.era = handshake.era;
      opened.listens = handshake.era === '2026-07-28';
      this.dispatch(connected);
    } catch (error) {
      this.opening = null;
      this.pushBounded(this.diagnosticsData.connectFailures, { atMs: this.clock.nowMs(), message: describeError(error) });
      if (connection !== null) {
        connection.open = false;
        await connection.sdk.close().catch(() => undefined);
      }
      this.scheduleReconnect();
      throw error;
    }
  }

  /** What the SDK binding of `connection` reports, bound to that session. */
  private eventsOf(connection: Connection): ConnectionEvents {
    return {
      notification: (method, params) => this.onNotification(connection, method, params),
      respond: (effect, outcome) => {
        if (effect.method === 'resources/read' && outcome.type === 'result') this.contentLimit.observeRead(effect.uri, outcome.result, this.clock.nowMs());
        this.respond(connection, effect, outcome);
      },
      closedInFlight: () => void this.diagnosticsData.closedInFlight++,
      rejection: (rejection) => this.adapterRejection(rejection),
      error: (error) => this.recordTransportError(connection.generation, error),
      closed: () => this.onConnectionClosed(connection),
    };
  }

  private onConnectionClosed(connection: Connection): void {
    if (!connection.open) return;
    const wasCurrent = this.connection === connection;
    this.endConnection(connection);
    if (wasCurrent) this.scheduleReconnect();
  }

  /** Marks a connection over and, if it was the current one, delivers `Disconnected`. */
  private endConnection(connection: Connection): void {
    connection.open = false;
    if (this.connection !== connection) return;
    this.connection = null;
    // The core forgets every timer of the session (volatile state); stale firings would be no-ops anyway.
    // Cleared first, so a timer the Disconnected step itself arms survives.
    this.clearTimers();
    this.dispatch({ type: 'Disconnected', sessionGeneration: connection.generation });
  }

  private scheduleReconnect(): void {
    const policy = this.options.reconnect ?? defaultReconnectPolicy;
    if (policy === false || this.isClosed || this.reconnectTimer !== null) return;
    const base = Math.min(policy.delayMsMax, policy.delayMs * 2 ** Math.min(this.reconnectAttempts, 20));
    const delayMs = base + (this.drawJitter() % (Math.floor(base / 2) + 1));
    this.reconnectAttempts++;
    this.reconnectTimer = this.clock.setTimer(this.clock.nowMs() + delayMs, () => {
      this.reconnectTimer = null;
      this.connectNow().catch(() => undefined); // a failure records itself and schedules the next attempt
    });
  }

  // -- the core loop -------------------------------------------------------------------------------

  private complete(input: CacheInput): ClientInput {
    return { ...input, nowMs: this.clock.nowMs(), jitter: this.drawJitter() } as ClientInput;
  }

  private drawJitter(): number {
    const value = this.jitterSource();
    return typeof value === 'number' && Number.isFinite(value) ? value >>> 0 : 0;
  }

  /** Inputs are stepped one at a time, in arrival order; an input arriving during a step waits. */
  private dispatch(partial: CacheInput): void {
    if (this.diagnosticsData.failure !== null) return;
    this.queue.push(this.complete(partial));
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let input = this.queue.shift(); input !== undefined; input = this.queue.shift()) this.stepAndExecute(input);
    } finally {
      this.dispatching = false;
    }
  }

  /** A step that changes no state (a serve), seen by no listener; a core error refuses instead of stopping the cache. */
  private stepQuietly(input: Extract<ClientInput, { type: 'ServeCommanded' }>): ClientEffect[] {
    try {
      return this.logic.step(this.state, input).effects;
    } catch (error) {
      return [{ type: 'ContentRefused', uri: input.uri, subject: input.subject, reason: `core error: ${describeError(error)}` }];
    }
  }

  private stepAndExecute(input: ClientInput): ClientEffect[] {
    for (const listener of this.inputListeners) this.callListener(() => listener(input));
    let effects: ClientEffect[];
    try {
      const result = this.logic.step(this.state, input);
      this.state = result.state;
      effects = result.effects;
    } catch (error) {
      this.diagnosticsData.failure = `${input.type}: ${describeError(error)}`;
      this.queue.length = 0;
      this.clearTimers();
      return [];
    }
    for (const listener of this.stepListeners) this.callListener(() => listener(input, effects));
    this.callListener(() => this.observer.step(input, effects));
    for (const effect of effects) this.execute(effect);
    const meta: EffectMeta = { atMs: input.nowMs, source: 'core', input: input.type };
    for (const effect of effects) {
      for (const listener of this.effectListeners) this.callListener(() => listener(effect, meta));
    }
    return effects;
  }

  private execute(effect: ClientEffect): void {
    switch (effect.type) {
      case 'RequestSent':
        this.sendRequest(effect);
        break;
      case 'TimerArmed':
        this.armTimer(effect.timer, effect.deadlineMs);
        break;
      case 'ListenCancelled':
        if (this.connection?.generation === effect.sessionGeneration) this.connection.sdk.cancelListen?.(effect.requestId);
        break;
      case 'VersionAccepted':
        this.contentStore.set(effect.uri, { digest: effect.digest, text: effect.text, encoding: effect.encoding, mimeType: effect.mimeType });
        break;
      case 'PurgeDone':
      case 'TombstoneConfirmed':
        if (!this.keepsVersion(effect.uri)) this.contentStore.delete(effect.uri);
        break;
      case 'OutboxEntryWritten':
        if (effect.operation !== 'upsert' && !this.keepsVersion(effect.uri)) this.contentStore.delete(effect.uri);
        break;
      default:
        break;
    }
  }

  /**
   * Whether the client still holds an accepted version of `uri` (its body must stay in the store). Known
   * for clients whose durable ledger lists versions (the reference core); others hold none after a
   * purge, a confirmed deletion or a delete/invalidate outbox entry.
   */
  private keepsVersion(uri: string): boolean {
    const ledger = this.logic.durable?.(this.state) as { versions?: Record<string, unknown> } | null | undefined;
    return typeof ledger?.versions === 'object' && ledger.versions !== null && ledger.versions[uri] !== undefined;
  }

  private armTimer(timer: TimerId, deadlineMs: number): void {
    const timerKey = timerName(timer);
    const previous = this.timers.get(timerKey);
    if (previous !== undefined) this.clock.clearTimer(previous);
    const handle = this.clock.setTimer(deadlineMs, () => {
      if (this.timers.get(timerKey) === handle) this.timers.delete(timerKey);
      this.dispatch({ type: 'TimerFired', timer, deadlineMs });
    });
    this.timers.set(timerKey, handle);
  }

  private clearTimers(): void {
    for (const handle of this.timers.values()) this.clock.clearTimer(handle);
    this.timers.clear();
  }

  // -- requests and notifications ------------------------------------------------------------------

  private sendRequest(effect: RequestEffect): void {
    const connection = this.connection;
    if (connection === null || !connection.open || connection.generation !== effect.sessionGeneration) {
      this.diagnosticsData.requestsWithoutConnection++;
      return;
    }
    const held = effect.method === 'resources/read' ? this.contentLimit.holdRead(effect.uri, this.clock.nowMs()) : null;
    if (held !== null) {
      void Promise.resolve().then(() => this.respond(connection, effect, held)); // answered like a response: after this step
      return;
    }
    connection.sdk.send(effect, this.options.requestMeta?.(effect), this.requestOptions, () => connection.open);
  }

  private respond(connection: Connection, effect: RequestEffect, outcome: ResponseOutcome): void {
    this.dispatch({ type: 'ResponseArrived', sessionGeneration: connection.generation, requestId: effect.requestId, outcome });
  }

  private onNotification(connection: Connection, method: string, params: unknown): void {
    const listen = connection.listens === true && (method === 'notifications/subscriptions/acknowledged' || method === 'notifications/cancelled');
    if (!method.startsWith('notifications/resources/') && !listen) {
      const counts = this.diagnosticsData.ignoredNotifications;
      const key = method.length > 100 ? method.slice(0, 100) + '…' : method;
      counts[key] = (counts[key] ?? 0) + 1;
      return;
    }
    this.dispatch({ type: 'NotificationArrived', sessionGeneration: connection.generation, method, params });
  }

  private adapterRejection(rejection: Rejection): void {
    this.pushBounded(this.diagnosticsData.adapterRejections, rejection);
    const effect: ClientEffect = { type: 'ProtocolRejected', rejection };
    const meta: EffectMeta = { atMs: this.clock.nowMs(), source: 'adapter', input: null };
    this.callListener(() => this.observer.adapterEffect(meta.atMs, effect));
    for (const listener of this.effectListeners) this.callListener(() => listener(effect, meta));
  }

  private recordTransportError(sessionGeneration: number, error: Error): void {
    const message = describeError(error);
    const kind = classifyTransportError(error, message);
    this.diagnosticsData.transportErrorCount++;
    this.pushBounded(this.diagnosticsData.transportErrors, { atMs: this.clock.nowMs(), sessionGeneration, kind, message });
  }

  private callListener(call: () => void): void {
    try {
      call();
    } catch {
      this.diagnosticsData.listenerErrors++;
    }
  }

  private pushBounded<T>(list: T[], item: T): void {
    list.push(item);
    if (list.length > RECORDS_MAX) list.shift();
  }
}

function addListener<T>(list: T[], listener: T): () => void {
  list.push(listener);
  return () => {
    const index = list.indexOf(listener);
    if (index >= 0) list.splice(index, 1);
  };
}
