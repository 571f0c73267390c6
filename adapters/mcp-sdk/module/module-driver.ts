/**
 * The client driver of module clients: the workload's commands become calls on the user's handle, the
 * world's connects and lost sessions become the network coming up and connections closing under the
 * client, and a client-crash replaces the client process (a new `start(env)`, with the persisted store when
 * the client claims crashRecovery). What the client does in reply is seen by the black-box observer.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientDriver, CommandInput } from '../../../sim/kernel/host.js';
import type { ServerSession } from '../../../sim/actors/server.js';
import { featuresOf, ModuleContractError, moduleHandleProblem, type ModuleClient, type ModuleEnv, type ModuleHandle } from './contract.js';
import { JsonStore } from './module-store.js';
import type { BlackBoxObserver } from './observer.js';

/** What the driver needs of the module world. */
export interface ModuleDriverWorld {
  readonly observer: BlackBoxObserver;
  /** Index of `uri` in the plan's resources, or -1. */
  resourceOf(uri: string): number;
  /** Opens a new session and its link, for client process `process`; resolves with the client end. */
  openLink(process: number): Promise<Transport>;
  /** Closes the link of session `generation`. */
  closeLink(generation: number, reason: string): void;
  /** Closes every link client process `process` opened. */
  closeProcess(process: number, reason: string): void;
  /** Keeps the first error thrown by the client for the end of the run. */
  fail(error: unknown): void;
}

export class ModuleDriver implements ClientDriver {
  private handle: ModuleHandle | null = null;
  private starting: Promise<ModuleHandle> | null = null;
  /** Commands that arrived while the (restarted) client was starting. */
  private readonly queued: Array<(handle: ModuleHandle) => void> = [];
  private networkUp = true;
  private readonly waiters: Array<() => void> = [];
  private process = 0;
  private readonly store = new JsonStore();
  readonly features;

  constructor(
    private readonly world: ModuleDriverWorld,
    private readonly client: ModuleClient,
  ) {
    this.features = featuresOf(client);
  }

  /** The authorization feed reaches only a client that claims it (module-world.ts observe). */
  get takesAuthorizationFeed(): boolean {
    return this.features.revocationFeed;
  }

  get steps(): number {
    return this.world.observer.steps;
  }

  /** Starts the first client process; the promise settles once `start` returned its handle. */
  start(): Promise<ModuleHandle> {
    this.process++;
    const process = this.process;
    const env: ModuleEnv = { connect: () => this.connectFor(process) };
    if (this.features.crashRecovery) env.store = this.store;
    const starting = Promise.resolve()
      .then(() => this.client.start(env))
      .then((handle) => {
        const problem = moduleHandleProblem(handle, this.features);
        if (problem !== null) throw new ModuleContractError(`client ${this.client.name}: ${problem}`);
        if (process !== this.process) return handle;
        this.handle = handle;
        for (const run of this.queued.splice(0)) this.call(() => run(handle));
        return handle;
      });
    this.starting = starting;
    starting.catch((error: unknown) => this.world.fail(error));
    return starting;
  }

  command(input: CommandInput, cause: number): void {
    this.world.observer.event(cause);
    switch (input.type) {
      case 'SubscribeCommanded':
        return this.withHandle((handle) => handle.watch(input.uri, input.subject ?? ''));
      case 'UnsubscribeCommanded':
        return this.withHandle((handle) => handle.unwatch(input.uri));
      case 'DiscoverCommanded':
        if (this.features.catalogs) this.withHandle((handle) => handle.list?.());
        return;
      case 'CompletenessTaskCommanded':
        return; // catalog completeness tasks need the reducer vocabulary
      case 'ServeCommanded': {
        const handle = this.handle;
        const text = handle === null ? undefined : this.guarded(() => handle.get(input.uri, input.subject));
        this.world.observer.serve(input.uri, this.world.resourceOf(input.uri), input.subject, typeof text === 'string' ? text : undefined);
        return;
      }
      case 'AuthorizationChanged':
        if (this.features.revocationFeed) this.withHandle((handle) => handle.learnRevocation?.(input.uri, input.subject, input.allowed));
        return;
    }
  }

  /** The network is up again (the world's reconnect): waiting `connect()` calls open their connections. */
  connect(_cause: number): void {
    this.networkUp = true;
    for (const wake of this.waiters.splice(0)) wake();
  }

  sessionLost(session: ServerSession): void {
    this.networkUp = false;
    this.world.closeLink(session.generation, 'fault: session ended');
  }

  crash(): boolean {
    const old = this.handle;
    this.handle = null;
    this.world.closeProcess(this.process, 'fault: client-crash');
    this.networkUp = false;
    if (old !== null) this.call(() => old.close());
    this.start();
    return this.features.crashRecovery;
  }

  /** What the current client serves for `uri` to `subject` (undefined before it started). */
  peek(uri: string, subject: string): string | undefined {
    const handle = this.handle;
    if (handle === null) return undefined;
    // Called for every resource after every event: no closure (as `guarded` would take) on this path.
    try {
      const text = handle.get(uri, subject);
      return typeof text === 'string' ? text : undefined;
    } catch (error) {
      this.world.fail(error);
      return undefined;
    }
  }

  /** The end of the run. */
  async close(): Promise<void> {
    const handle = this.handle ?? (await this.starting?.catch(() => null)) ?? null;
    this.handle = null;
    if (handle !== null) await handle.close();
  }

  private connectFor(process: number): Promise<Transport> {
    if (process !== this.process) return Promise.reject(new Error('this client process has crashed'));
    if (this.networkUp) return this.world.openLink(process);
    return new Promise<void>((resolve) => this.waiters.push(resolve)).then(() => this.connectFor(process));
  }

  private withHandle(run: (handle: ModuleHandle) => void): void {
    const handle = this.handle;
    if (handle === null) this.queued.push(run);
    else this.call(() => run(handle));
  }

  private call(run: () => unknown): void {
    this.guarded(() => {
      const value = run();
      if (value instanceof Promise) value.catch((error: unknown) => this.world.fail(error));
    });
  }

  private guarded<T>(run: () => T): T | undefined {
    try {
      return run();
    } catch (error) {
      this.world.fail(error);
      return undefined;
    }
  }
}
