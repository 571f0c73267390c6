/**
 * The client driver of the SDK transport: a `FencedResourceCache` (a real SDK `Client` per connection)
 * running the client under test, driven through its public commands, and judged step by step (as the cache
 * reports them) by the simulator's oracle through `StepJudge`.
 *
 * client-crash: the cache process dies. Its connection goes with it (nothing it had in flight surfaces
 * later: a real process's sockets die with it), and a new cache starts from the old one's durable ledger
 * (the JSON round trip `ledger()` is, as if read back from disk), or from scratch. A client's session
 * numbering restarts with its process, so the driver maps the new cache's generations onto the world's.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Ledger } from '../../../core/state.js';
import type { ClientConfig, ClientEffect, ClientInput, ClientUnderTest } from '../../../core/types.js';
import type { ClientDriver, CommandInput, WorldHost } from '../../../sim/kernel/host.js';
import { causeWorkload } from '../../../sim/oracle.js';
import type { ServerSession } from '../../../sim/actors/server.js';
import { jitterFor, mix } from '../../../sim/kernel/step-truth.js';
import type { VirtualClock } from '../transport/clock.js';
import { FencedResourceCache } from '../cache/fenced-cache.js';
import { StepJudge } from './sdk-sim-judge.js';
import type { SdkConnectionFactory } from '../cache/sdk-connection.js';
import { unusedJsonSchemaValidator } from './sdk-sim-link.js';

/** `_meta` keys of a request: the client's request id and the subject it reads as (never shown to the client). */
export const requestIdMetaKey = 'fencesim/requestId';
export const subjectMetaKey = 'fencesim/subject';

/** The SDK's request timeout in a simulated run: the largest Node timer (cleared when the connection closes). */
export const sdkRequestTimeoutMs = 2_147_483_647;

/** What the cache driver needs of the SDK world beyond the port. */
export interface CacheWorld extends WorldHost {
  readonly clock: VirtualClock;
  readonly jitterSeed: number;
  traceHash: number;
  /** The interleaving has ended: steps are no longer judged. */
  readonly ended: boolean;
  /** Opens the next session's link; resolves with the client end. */
  openLink(): Promise<Transport>;
  /** Closes the link of session `generation` (both ends). */
  closeLink(generation: number, reason: string): void;
  /** Runs `body`, keeping the first error it throws for the end of the run (SDK callbacks would swallow it). */
  guard(body: () => unknown): void;
}

const inputCodes: Record<ClientInput['type'], number> = {
  SubscribeCommanded: 1,
  UnsubscribeCommanded: 2,
  DiscoverCommanded: 3,
  ServeCommanded: 4,
  CompletenessTaskCommanded: 5,
  Connected: 6,
  Disconnected: 7,
  ResponseArrived: 8,
  NotificationArrived: 9,
  TimerFired: 10,
  AuthorizationChanged: 11,
};

export class CacheDriver implements ClientDriver {
  readonly judge: StepJudge;
  cache: FencedResourceCache;
  private commandCause = causeWorkload;
  private jitterDraws = 0;
  /** World generation = the current cache's generation + this (it restarts its numbering after a crash). */
  private generationOffset = 0;

  constructor(
    private readonly world: CacheWorld,
    private readonly client: ClientUnderTest<any>,
    private readonly config: ClientConfig,
    /** The cache's SDK binding (default: SDK 1.x, the Client below). */
    private readonly connection?: SdkConnectionFactory,
  ) {
    this.judge = new StepJudge(world.oracle, world.timeline);
    this.cache = this.start(undefined);
  }

  get steps(): number {
    return this.judge.steps;
  }

  command(input: CommandInput, cause: number): void {
    this.commandCause = cause;
    const cache = this.cache;
    switch (input.type) {
      case 'SubscribeCommanded':
        cache.subscribe(input.uri, input.subject);
        break;
      case 'UnsubscribeCommanded':
        cache.unsubscribe(input.uri);
        break;
      case 'DiscoverCommanded':
        cache.discover();
        break;
      case 'CompletenessTaskCommanded':
        cache.completenessTask(input.task);
        break;
      case 'ServeCommanded':
        cache.get(input.uri, input.subject);
        break;
      case 'AuthorizationChanged':
        if (input.allowed) cache.grant(input.subject, input.uri);
        else cache.revoke(input.subject, input.uri);
        break;
    }
    this.commandCause = causeWorkload;
  }

  connect(_cause: number): void {
    this.cache.reconnect().catch(() => undefined); // a handshake cut short by a disconnect: the next reconnect retries
  }

  sessionLost(session: ServerSession): void {
    this.world.closeLink(session.generation, 'fault: session ended');
  }

  crash(): boolean {
    const old = this.cache;
    const recovers = this.client.durable !== undefined && this.client.recover !== undefined;
    const ledger = recovers ? old.ledger() : undefined;
    this.generationOffset = this.world.sessionGeneration - (ledger?.sessionGeneration ?? 0);
    this.cache = this.start(ledger);
    this.world.closeLink(this.world.sessionGeneration, 'fault: client-crash');
    old.close().catch(() => undefined);
    return recovers;
  }

  /** Stops the current cache (the end of the run). */
  close(): Promise<void> {
    return this.cache.close();
  }

  /** The current cache's failure (the client under test threw), or null. */
  failure(): string | null {
    return this.cache.diagnostics().failure;
  }

  private start(ledger: Ledger | undefined): FencedResourceCache {
    const world = this.world;
    const cache = new FencedResourceCache({
      client: this.client,
      config: this.config,
      ...(ledger === undefined ? {} : { ledger }),
      clock: world.clock,
      jitter: () => jitterFor(world.jitterSeed, this.jitterDraws++),
      reconnect: false,
      requestTimeoutMs: sdkRequestTimeoutMs,
      createClient: () => new Client({ name: 'fencesim-sim-client', version: '0.1.0' }, { capabilities: {}, jsonSchemaValidator: unusedJsonSchemaValidator }),
      requestMeta: (request) => (request.subject === undefined ? { [requestIdMetaKey]: request.requestId } : { [requestIdMetaKey]: request.requestId, [subjectMetaKey]: request.subject }),
      connect: () => world.openLink(),
      ...(this.connection === undefined ? {} : { connection: this.connection }),
    });
    // A crashed cache's last steps (its Disconnected, a timer before close) are not the client's any more.
    cache.onStep((input, effects) => world.guard(() => cache === this.cache && this.step(input, effects)));
    return cache;
  }

  /** One step of the client under test: judged, and folded into the trace hash. */
  private step(input: ClientInput, effects: readonly ClientEffect[]): void {
    const world = this.world;
    if (world.ended) return;
    const session = world.session;
    const nowMs = world.nowMs;
    this.judge.judge(input, effects, {
      nowMs,
      sessionGeneration: world.sessionGeneration,
      sessionAlive: session !== null && session.alive,
      commandCause: this.commandCause,
      generationOffset: this.generationOffset,
    });
    world.traceHash = mix(mix(mix(world.traceHash, nowMs), inputCodes[input.type]), effects.length);
  }
}
