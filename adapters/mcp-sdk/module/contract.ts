/**
 * The client module contract: how a user's own async MCP client is gated (`fencesim gate --client ./x.mjs`).
 *
 * A module's default export is a `ModuleClient`. The harness calls `start(env)` once per client process
 * (again after a client-crash) and drives the returned handle with the workload's commands. Everything the
 * client does on the network goes through `env.connect()`: each call is a new connection (an SDK `Transport`)
 * over the simulated link, with the scenario's fault plan. During an interleaving `setTimeout`/`setInterval`,
 * `Date`, `performance.now` and `Math.random` run on the harness's virtual clock and seeded PRNG.
 *
 * The client is judged only by what it sends on the wire and what `get` returns (the black-box oracle,
 * adapters/mcp-sdk/module/observer.ts); its internals are never read.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** What the client claims to support; scenarios and faults of unclaimed features are "not applicable". */
export interface ModuleFeatures {
  /** resources/subscribe and `notifications/resources/updated` (default true). */
  subscriptions?: boolean;
  /** resources/list: the handle's `list()` is called for discovery commands (default false). */
  catalogs?: boolean;
  /** The application's authorization feed: `learnRevocation` (default false). */
  revocationFeed?: boolean;
  /** Persists state in `env.store` and restarts from it after a client-crash (default false). */
  crashRecovery?: boolean;
}

/** A persisted store: survives a client-crash (the value is copied as JSON, as if written to disk). */
export interface ModuleStore {
  load(): unknown;
  save(value: unknown): void;
}

/** What the harness gives the client, as a deployment would. */
export interface ModuleEnv {
  /** Opens a new connection to the MCP server (waits while the network is down). */
  connect(): Promise<Transport>;
  /** Present when the client claims crashRecovery. */
  store?: ModuleStore;
}

/** What `get` serves: the content text of the resource (as read), or undefined when it serves nothing. */
export type ServedText = string | undefined;

/** The handle the harness drives with the workload's commands. */
export interface ModuleHandle {
  /** The application wants `uri` kept current for `subject`. */
  watch(uri: string, subject: string): void;
  /** The application no longer wants `uri`. */
  unwatch(uri: string): void;
  /** What the client would serve for `uri` to `subject` right now. Synchronous and free of side effects. */
  get(uri: string, subject: string): ServedText;
  /** The authorization feed: `subject` lost (allowed false) or regained access to `uri` (revocationFeed). */
  learnRevocation?(uri: string, subject: string, allowed: boolean): void;
  /** Discovery: list the server's resources (catalogs). */
  list?(): void;
  /** The end of the run or a crash: stop, close connections. */
  close(): void | Promise<void>;
}

export interface ModuleClient {
  readonly name: string;
  readonly description?: string;
  readonly features?: ModuleFeatures;
  start(env: ModuleEnv): ModuleHandle | Promise<ModuleHandle>;
}

/** The features with defaults filled in. */
export function featuresOf(client: ModuleClient): Required<ModuleFeatures> {
  const features = client.features ?? {};
  return {
    subscriptions: features.subscriptions ?? true,
    catalogs: features.catalogs ?? false,
    revocationFeed: features.revocationFeed ?? false,
    crashRecovery: features.crashRecovery ?? false,
  };
}

/**
 * What is wrong with the handle `start(env)` resolved to, or null: the functions the harness calls must be there
 * (watch, unwatch, get, close; list when catalogs are claimed, learnRevocation when the revocation feed is).
 */
export function moduleHandleProblem(handle: unknown, features: Required<ModuleFeatures>): string | null {
  if (typeof handle !== 'object' || handle === null) return `start(env) resolved to ${handle === null ? 'null' : typeof handle}, not a handle { watch, unwatch, get, close }`;
  const candidate = handle as Record<string, unknown>;
  const required = ['watch', 'unwatch', 'get', 'close', ...(features.catalogs ? ['list'] : []), ...(features.revocationFeed ? ['learnRevocation'] : [])];
  const missing = required.filter((name) => typeof candidate[name] !== 'function');
  if (missing.length === 0) return null;
  const claimed = missing.some((name) => name === 'list' || name === 'learnRevocation') ? ' (list: features.catalogs; learnRevocation: features.revocationFeed)' : '';
  return `the handle start(env) resolved to has no ${missing.map((name) => `\`${name}\``).join(', ')} function${missing.length > 1 ? 's' : ''}${claimed}`;
}

/** A module client that breaks its contract during a run (a handle without `get`, say): bad input, exit 2. */
export class ModuleContractError extends Error {
  override readonly name = 'ModuleContractError';
}

/** Checks a loaded module's default export; returns what is wrong (null when it is a ModuleClient). */
export function moduleClientProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'its default export is not an object (export default { name, features, start })';
  const candidate = value as Record<string, unknown>;
  if (typeof candidate.name !== 'string' || candidate.name === '') return 'its default export has no `name` string';
  if (typeof candidate.start !== 'function') return 'its default export has no `start(env)` function';
  if (candidate.features !== undefined && (typeof candidate.features !== 'object' || candidate.features === null)) return '`features` is not an object';
  return null;
}
