/**
 * The SDK transport on both eras (`fencesim gate --transport sdk`): an interleaving whose plan speaks
 * 2026-07-28 runs with SDK v2 on both ends — the fenced cache's v2 binding (a v2 `Client` negotiating
 * `auto`, v2-connection.ts) and a v2 server per connection (v2-sim-link.ts) — and a 2025-11-25 one runs over
 * SDK 1.x exactly as before (sdk-sim-world.ts, golden traces unchanged).
 *
 * Everything else is the SDK world's: the scenario's plan, server model, faults, workload, oracle and the
 * cache driver. What the 2026 world adds:
 * - each new session asks the server model for its era (`openEra`): 2026-07-28 gets a v2 server link; a
 *   session that `era-downgrade` made speak 2025-11-25 only gets an SDK 1.x server (so the v2 Client's
 *   `auto` negotiation really falls back to `initialize`, as against any v1 server);
 * - the ground truth of listen messages (an ack's honored filter, a listen's graceful end) is observed as
 *   they reach the client end of the current session, as the pure world observes it when it delivers them.
 *
 * Interop pairs (`SdkPair`): a v1 client against a v2 server (the v2 server serves the 2025 handshake to
 * it) and a v2 client against a v1 server (its `auto` probe gets -32601 and it speaks 2025-11-25, so no
 * listen fault can fire) run the same scenario with the ends swapped.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ClientUnderTest } from '../../../core/types.js';
import type { Scenario } from '../../../scenarios/scenario.js';
import { Chooser } from '../../../sim/chooser.js';
import type { NotificationMessage, ResponseMessage } from '../../../sim/kernel/events.js';
import type { InterleavingResult } from '../../../sim/kernel/interleaving.js';
import type { InterleavingPlan } from '../../../sim/plan.js';
import { observeListenDelivery, observeListenResult, openEra } from '../../../sim/actors/era2026.js';
import { SdkSimWorld, type SdkInterleavingOptions } from '../sim/sdk-sim-world.js';
import { SimLink, type SessionLink, type WorldLink } from '../sim/sdk-sim-link.js';
import type { LinkDirection, MessageKind } from '../transport/virtual-transport.js';
import { defaultV2Client, v2Connection } from './v2-connection.js';
import { V2SimLink } from './v2-sim-link.js';

/** Which SDK each end runs: `v1` = `@modelcontextprotocol/sdk` 1.x, `v2` = `@modelcontextprotocol/client` / `server` 2.x. */
export interface SdkPair {
  client: 'v1' | 'v2';
  server: 'v1' | 'v2';
}

export const sdkPairs: Record<string, SdkPair> = {
  auto: { client: 'v2', server: 'v2' }, // resolved per plan: see pairFor
  'v1-v2': { client: 'v1', server: 'v2' },
  'v2-v1': { client: 'v2', server: 'v1' },
};

/** The pair a plan runs with by default: SDK v2 on both ends for 2026-07-28, SDK 1.x for 2025-11-25. */
export function pairFor(plan: InterleavingPlan): SdkPair {
  return plan.era2026 !== undefined ? { client: 'v2', server: 'v2' } : { client: 'v1', server: 'v1' };
}

export interface SdkEraInterleavingOptions extends SdkInterleavingOptions {
  /** Default: `pairFor(plan)`. */
  pair?: SdkPair;
}

/** One interleaving over the SDK transport, on the era its plan speaks. */
export async function runSdkEraInterleaving(seed: number, scenario: Scenario, client: ClientUnderTest<any>, options: SdkEraInterleavingOptions): Promise<InterleavingResult> {
  const chooser = options.replay ? Chooser.replaying(options.replay.decisions, options.replay.strict) : Chooser.seeded(seed, options.record);
  const plan = scenario.plan(chooser);
  const pair = options.pair ?? scenario.sdkPair ?? pairFor(plan);
  const world =
    pair.client === 'v1' && pair.server === 'v1'
      ? new SdkSimWorld(seed, plan, chooser, client, scenario, options.trace)
      : new SdkV2World(seed, plan, chooser, client, scenario, options.trace, pair);
  await world.run();
  return world.resultOf(world.client.steps, chooser.log);
}

export class SdkV2World extends SdkSimWorld {
  constructor(seed: number, plan: InterleavingPlan, chooser: Chooser, client: ClientUnderTest<any>, scenario: Scenario, trace: boolean, private readonly pair: SdkPair) {
    super(seed, plan, chooser, client, scenario, trace, pair.client === 'v2' ? v2Connection({ createClient: () => defaultV2Client('fencesim-sim-client') }) : undefined);
    this.client.judge.dropsUnsurfaced = pair.client === 'v2';
  }

  protected override createLink(generation: number): WorldLink {
    const options = { scheduler: this.clock, generation, capabilities: this.capabilities, host: this };
    if (this.pair.server === 'v1') return new SimLink(options);
    // A v1 client never speaks 2026-07-28: its sessions stay 2025-11-25 on the server model too.
    if (this.pair.client === 'v1') return new V2SimLink(options);
    // A v2 client negotiates 2026-07-28 with a v2 server: only a session the model lets speak it gets one
    // (era-downgrade, or a 2025-11-25 plan: a v1 server).
    return openEra(this, this.session!) === undefined ? new SimLink(options) : new V2SimLink(options);
  }

  override delivered(link: SessionLink, direction: LinkDirection, kind: MessageKind, truth: NotificationMessage | null, message?: unknown): void {
    const current = this.session !== null && this.session.alive && link.generation === this.sessionGeneration;
    if (current && truth?.listen !== undefined) observeListenDelivery(this, link.generation, truth);
    if (current && kind === 'response' && link instanceof V2SimLink) {
      const wire = message as JSONRPCMessage & { id?: unknown; result?: unknown; error?: { code: number; message: string } };
      const listenId = link.listenOf(wire.id);
      if (listenId !== undefined) observeListenResult(this, listenId, (wire.error === undefined ? { type: 'result', result: wire.result } : { type: 'error', ...wire.error }) as ResponseMessage['outcome']);
    }
    super.delivered(link, direction, kind, truth);
  }
}
