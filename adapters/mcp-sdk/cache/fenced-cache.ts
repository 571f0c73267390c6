/**
 * A production fenced resource cache: the pure consistency core (`core/`) driven by a real
 * `@modelcontextprotocol/sdk` Client. The client logic is any `ClientUnderTest` (SPEC §4); the default is
 * the reference core. The simulator's SDK transport drives naive strategies through the same cache.
 *
 * The cache owns the I/O the core only describes: its connections, one session generation each
 * (cache-connections.ts); `RequestSent` effects carried out through the connection's SDK binding (cache-requests.ts,
 * sdk-connection.ts), their outcomes back as `ResponseArrived` for the session that sent them; `TimerArmed`
 * effects on a `Clock` (cache-timers.ts); accepted bodies in a `ContentStore` (cache-content.ts); the options
 * checked once (cache-setup.ts). Content is served only through the core (`get` drives `ServeCommanded`),
 * so nothing the fence refused can be served.
 *
 * Decisions:
 * - Notifications reach the core raw: `client.fallbackNotificationHandler` (per Client, so per connection)
 *   forwards every `notifications/resources/*` method unparsed, and the core records a typed
 *   `ProtocolRejected` for junk. Other methods (logging, tools/list_changed, ...) are counted and ignored.
 * - Request failures: see sdk-outcomes.ts (McpError -> error outcome; a result the SDK's schema refused ->
 *   -32603 plus an adapter-sourced `ProtocolRejected`; ConnectionClosed after close -> not fed).
 * - Inputs are stepped one at a time in arrival order; an input arriving during a step (a listener calling
 *   a command) waits its turn, so timers and requests are carried out in the order the core emitted them.
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
import type { ServerCapabilities as SdkServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionEvents } from './sdk-connection.js';
import type { Ledger } from '../../../core/state.js';
import {
  defaultClientConfig,
  type ClientConfig,
  type ClientEffect,
  type ClientInput,
  type ClientUnderTest,
  type Rejection,
} from '../../../core/types.js';
import {
  MemoryContentStore,
  type CacheDiagnostics,
  type CacheInput,
  type ContentStore,
  type EffectListener,
  type EffectMeta,
  type FencedResourceCacheOptions,
  type GetResult,
  type InputListener,
  type StepListener,
} from './cache-types.js';
import { systemClock, type Clock } from '../transport/clock.js';
import { describeError } from '../sim/sdk-outcomes.js';
import { CacheObserver } from '../observe/metrics.js';
import type { CacheHealth } from '../../../observe/health.js';
import { ContentLimitMemory, type ContentLimitRefusal } from './content-limit.js';
import { CacheConnections, type Connection } from './cache-connections.js';
import { CacheRequests } from './cache-requests.js';
import { countIgnoredNotification, emptyCacheDiagnostics, pushBounded, recordTransportError } from './cache-diagnostics.js';
import { getResultOf, keepContent } from './cache-content.js';
import { clientLogicOf, firstStateOf, requestOptionsOf } from './cache-setup.js';
import { CacheTimers } from './cache-timers.js';
import { addListener, CacheListeners } from './cache-listeners.js';

export * from './cache-types.js';
export { invalidResultCode, stripMcpPrefix } from '../sim/sdk-outcomes.js';
export type { CacheHealth, HealthReason } from '../../../observe/health.js';
export type { CacheObserveOptions } from '../observe/metrics.js';
export type { ContentLimitRefusal } from './content-limit.js';
export { snapshotIdCapability, sdk1Connection, type ConnectionEvents, type ConnectionOpened, type SdkConnection, type SdkConnectionFactory } from './sdk-connection.js';
export { ProcessGroupTransport, type ServerProcessOptions, type ServerProcessReport } from '../probe/process-group-transport.js';

export class FencedResourceCache {
  private state: unknown;
  /** The client logic (a ClientUnderTest), not the SDK Client. */
  private readonly logic: ClientUnderTest<any>;
  private readonly clock: Clock;
  private readonly jitterSource: () => number;
  private readonly contentStore: ContentStore;
  private readonly timers: CacheTimers;
  private readonly queue: ClientInput[] = [];
  private dispatching = false;
  private readonly connections: CacheConnections;
  private readonly requests: CacheRequests;
  private readonly observer: CacheObserver;
  /** Reads refused for exceeding config.contentCharsMax (named in get(), not re-downloaded in a loop). */
  private readonly contentLimit: ContentLimitMemory;
  private readonly diagnosticsData: CacheDiagnostics = emptyCacheDiagnostics();
  private readonly listeners = new CacheListeners(this.diagnosticsData);

  constructor(options: FencedResourceCacheOptions) {
    if (typeof options?.connect !== 'function') throw new TypeError('FencedResourceCache: options.connect must be a function returning a Transport');
    this.clock = options.clock ?? systemClock;
    this.timers = new CacheTimers(this.clock, (timer, deadlineMs) => this.dispatch({ type: 'TimerFired', timer, deadlineMs }));
    this.jitterSource = options.jitter ?? (() => randomInt(0, 0x1_0000_0000));
    this.contentStore = options.contentStore ?? new MemoryContentStore();
    const client = clientLogicOf(options);
    this.logic = client;
    const config: ClientConfig = { ...defaultClientConfig, ...options.config };
    this.contentLimit = new ContentLimitMemory(config.contentCharsMax);
    const first = firstStateOf(client, config, options);
    this.state = first.state;
    this.observer = new CacheObserver(options.observe, options.ledger);
    const requestOptions = requestOptionsOf(options);
    const host = { dispatch: (input: CacheInput) => this.dispatch(input), clearTimers: () => this.timers.clear(), drawJitter: () => this.drawJitter(), eventsOf: (connection: Connection) => this.eventsOf(connection) };
    this.connections = new CacheConnections(options, this.clock, requestOptions, this.diagnosticsData, host, first.lastGeneration);
    this.requests = new CacheRequests(this.connections, this.contentLimit, this.clock, this.diagnosticsData, options, requestOptions, host.dispatch);
  }

  // -- lifecycle ---------------------------------------------------------------------------------

  /** Opens the first connection; resolves once `Connected` was delivered (rejects if it failed). */
  start(): Promise<void> {
    return this.connections.connectNow();
  }

  /** Drops the current connection (if any) and opens a new session. */
  reconnect(): Promise<void> {
    return this.connections.reconnect();
  }

  /** Stops everything: timers, reconnects, the connection (the SDK closes the transport). */
  close(): Promise<void> {
    return this.connections.close();
  }

  get closed(): boolean {
    return this.connections.isClosed;
  }

  get connected(): boolean {
    return this.connections.current !== null;
  }

  /** The current session generation, or null when disconnected. */
  get sessionGeneration(): number | null {
    return this.connections.current?.generation ?? null;
  }

  /** The SDK Client of the current connection (e.g. to call tools), or null (a v2 `Client` with the v2 binding). */
  get client(): Client | null {
    return (this.connections.current?.sdk.client as Client | undefined) ?? null;
  }

  /** The capabilities the server declared in `initialize` (raw SDK shape). */
  get serverCapabilities(): SdkServerCapabilities | undefined {
    return this.connections.rawCapabilities;
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
    return getResultOf(effects, this.contentStore, this.contentLimit, options);
  }

  /** Resources whose last read was over the content limit (see content-limit.ts). */
  contentLimitRefusals(): ContentLimitRefusal[] {
    return this.contentLimit.list();
  }

  // -- observation ---------------------------------------------------------------------------------

  /** Every effect (core and adapter-sourced), after the cache carried it out. Returns an unsubscribe. */
  onEffect(listener: EffectListener): () => void {
    return addListener(this.listeners.effect, listener);
  }

  /** Every input, before it is stepped. Returns an unsubscribe. */
  onInput(listener: InputListener): () => void {
    return addListener(this.listeners.input, listener);
  }

  /**
   * Every step: the input and all the effects it produced, after the client stepped and before the cache
   * carries the effects out (a simulator judges a step here). Returns an unsubscribe.
   */
  onStep(listener: StepListener): () => void {
    return addListener(this.listeners.step, listener);
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

  /** What the SDK binding of `connection` reports, bound to that session. */
  private eventsOf(connection: Connection): ConnectionEvents {
    return {
      notification: (method, params) => this.onNotification(connection, method, params),
      respond: (effect, outcome) => this.requests.outcome(connection, effect, outcome),
      closedInFlight: () => void this.diagnosticsData.closedInFlight++,
      rejection: (rejection) => this.adapterRejection(rejection),
      error: (error) => recordTransportError(this.diagnosticsData, this.clock.nowMs(), connection.generation, error),
      closed: () => this.connections.onConnectionClosed(connection),
    };
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
    for (const listener of this.listeners.input) this.listeners.call(() => listener(input));
    let effects: ClientEffect[];
    try {
      const result = this.logic.step(this.state, input);
      this.state = result.state;
      effects = result.effects;
    } catch (error) {
      this.diagnosticsData.failure = `${input.type}: ${describeError(error)}`;
      this.queue.length = 0;
      this.timers.clear();
      return [];
    }
    for (const listener of this.listeners.step) this.listeners.call(() => listener(input, effects));
    this.listeners.call(() => this.observer.step(input, effects));
    for (const effect of effects) this.execute(effect);
    const meta: EffectMeta = { atMs: input.nowMs, source: 'core', input: input.type };
    for (const effect of effects) this.listeners.callEffect(effect, meta);
    return effects;
  }

  private execute(effect: ClientEffect): void {
    switch (effect.type) {
      case 'RequestSent':
        this.requests.send(effect);
        break;
      case 'TimerArmed':
        this.timers.arm(effect.timer, effect.deadlineMs);
        break;
      case 'ListenCancelled':
        if (this.connections.current?.generation === effect.sessionGeneration) this.connections.current.sdk.cancelListen?.(effect.requestId);
        break;
      default:
        keepContent(effect, this.contentStore, this.logic, this.state);
        break;
    }
  }

  // -- notifications ------------------------------------------------------------------

  private onNotification(connection: Connection, method: string, params: unknown): void {
    const listen = connection.listens === true && (method === 'notifications/subscriptions/acknowledged' || method === 'notifications/cancelled');
    if (!method.startsWith('notifications/resources/') && !listen) {
      countIgnoredNotification(this.diagnosticsData, method);
      return;
    }
    this.dispatch({ type: 'NotificationArrived', sessionGeneration: connection.generation, method, params });
  }

  private adapterRejection(rejection: Rejection): void {
    pushBounded(this.diagnosticsData.adapterRejections, rejection);
    const effect: ClientEffect = { type: 'ProtocolRejected', rejection };
    const meta: EffectMeta = { atMs: this.clock.nowMs(), source: 'adapter', input: null };
    this.listeners.call(() => this.observer.adapterEffect(meta.atMs, effect));
    this.listeners.callEffect(effect, meta);
  }
}
