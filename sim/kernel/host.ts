/**
 * The world port: what every actor of an interleaving (serving, workload, faults including client-crash,
 * the revocation feed) is written against, and what the client under test is driven through.
 *
 * - `WorldHost` is the world side: virtual time, the chooser, the plan, the server model and its
 *   sessions, the oracle and timeline (the truth), and two ways to make something happen later: a world
 *   event (`schedule`) and a server message for the client (`toClient`). The pure world (world.ts) and
 *   the SDK world (adapters/mcp-sdk/sim/sdk-sim-world.ts) implement it; the actors never know which.
 * - `ClientDriver` is the client side: a workload command, a connect, a session lost under the client,
 *   a crash. The pure world drives a reducer directly (reducer-driver.ts); the SDK world drives a
 *   `FencedResourceCache` over real JSON-RPC; a user's async module client can be one more driver.
 */
import type { ClientInput, ServerCapabilities } from '../../core/types.js';
import type { Chooser } from '../chooser.js';
import type { Kind, NotificationMessage, ResponseMessage } from './events.js';
import type { FaultCounts, FaultName } from '../faults.js';
import type { Lister } from '../actors/listing.js';
import type { Oracle } from '../oracle.js';
import type { InterleavingPlan } from '../plan.js';
import type { ServerModel, ServerSession } from '../actors/server.js';
import type { Timeline } from '../timeline.js';
import type { TruthEvent } from './truth.js';

/** A workload input: what the application (not the transport) hands the client. */
export type CommandInput = Extract<
  ClientInput,
  { type: 'SubscribeCommanded' | 'UnsubscribeCommanded' | 'DiscoverCommanded' | 'CompletenessTaskCommanded' | 'ServeCommanded' | 'AuthorizationChanged' }
>;

export interface WorldHost {
  readonly seed: number;
  readonly plan: InterleavingPlan;
  readonly chooser: Chooser;
  readonly server: ServerModel;
  readonly lister: Lister;
  readonly oracle: Oracle;
  readonly timeline: Timeline | null;
  readonly capabilities: ServerCapabilities;
  /** Per fault (faultIndex order): 1 when the plan switches it on. */
  readonly faultOn: Uint8Array;
  /** Per fault (faultIndex order): how often it fired so far. */
  readonly faultCounts: FaultCounts;
  /** Per resource: the workload wants it subscribed. */
  readonly wanted: Uint8Array;
  /** Per resource: the subject (index into `subjects`) it is subscribed, read and served as. */
  readonly subjectOf: Uint8Array;
  readonly nowMs: number;
  /** The heal phase: faults, mutations and workload commands stop. */
  healing: boolean;
  /** The current server session (null before the first connect). */
  readonly session: ServerSession | null;
  readonly sessionGeneration: number;
  /** The client under test. */
  readonly client: ClientDriver;
  /** Whether `fault` fires at this opportunity (counted when it does; never while healing). */
  fires(fault: FaultName, label: string): boolean;
  /** Server-to-client send time on `session`: FIFO unless reordered or deliberately delayed. */
  serverToClientTime(session: ServerSession, extraDelayMs: number): number;
  /** Client-to-server arrival time on `session` (FIFO). */
  clientToServerTime(session: ServerSession): number;
  /** `uri`, or an equivalent spelling of it when uri-spelling fires. */
  spell(uri: string): string;
  /** A world event of `kind` at `timeMs` (never a message to the client: see `toClient`). */
  schedule(timeMs: number, kind: Kind, cause: number, a: number, payload: unknown): void;
  /** A server message for the client on session `generation`, arriving at `timeMs`. */
  toClient(timeMs: number, cause: number, generation: number, message: ResponseMessage | NotificationMessage): void;
  /** A connect reached the server: the next session generation, opened on the server model. */
  openSession(): ServerSession;
  /** Ground truth for the checkers (the truth stream, truth.ts). */
  observe(event: TruthEvent): void;
}

export interface ClientDriver {
  /** The application hands the client a command (workload, authorization feed). */
  command(input: CommandInput, cause: number): void;
  /** The client connects: a new session (`host.openSession()`) and, once established, `Connected`. */
  connect(cause: number): void;
  /** `session` ended under the client (disconnect, server restart): the client learns of it. */
  sessionLost(session: ServerSession): void;
  /**
   * client-crash: the client restarts, from its durable ledger when it keeps one (true), else from
   * scratch (false). Nothing volatile survives: timers, in-flight requests, the connection.
   */
  crash(): boolean;
  /** False for a client that does not take the authorization feed (a module client not claiming revocationFeed); default true. */
  readonly takesAuthorizationFeed?: boolean;
}
