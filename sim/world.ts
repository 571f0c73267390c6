/**
 * One simulated interleaving on the pure transport: a reducer client (driven by kernel/reducer-driver.ts), the
 * server model and the network, driven by one virtual-time queue. The queue and the chooser are the only
 * sources of "what happens next".
 *
 * This file holds the loop and the queue. The actors (actors/serving.ts, workload.ts, sessions.ts) are written
 * against the world port (kernel/host.ts); what is shared with the SDK world is in kernel/world-core.ts.
 */
import type { ClientConfig, ClientUnderTest } from '../core/types.js';
import { defaultClientConfig } from '../core/types.js';
import type { Scenario } from './scenario.js';
import { Chooser } from './chooser.js';
import type { InterleavingOptions, InterleavingResult, StepListener } from './kernel/interleaving.js';
import { Kind, type NotificationMessage, type RequestMessage, type ResponseMessage, type SimEvent } from './kernel/events.js';
import { invariantIndex } from './oracle.js';
import type { InterleavingPlan } from './plan.js';
import { EventQueue } from './queue.js';
import { ReducerDriver, type ReducerWorld } from './kernel/reducer-driver.js';
import { serveRequest } from './actors/serving.js';
import { connect } from './actors/sessions.js';
import { startWorkload } from './actors/workload.js';
import { mix } from './kernel/step-truth.js';
import { WorldCore } from './kernel/world-core.js';

export { Kind, type NotificationMessage, type RequestMessage, type ResponseMessage, type SimEvent } from './kernel/events.js';

export type { InterleavingOptions, InterleavingResult } from './kernel/interleaving.js';

export function runInterleaving(
  seed: number,
  scenario: Scenario,
  client: ClientUnderTest,
  options: InterleavingOptions,
): InterleavingResult {
  const chooser = options.replay
    ? Chooser.replaying(options.replay.decisions, options.replay.strict)
    : Chooser.seeded(seed, options.record);
  const plan = scenario.plan(chooser);
  const world = new World(seed, plan, chooser, client, { ...defaultClientConfig, ...scenario.clientConfig }, options.trace, options.onStep ?? null, options.pureStep === true);
  world.run(options.stopAtInvariant == null ? -1 : invariantIndex[options.stopAtInvariant]);
  return world.resultOf(world.client.steps, chooser.log);
}

/** The pure world: the port's host on one event queue. */
export class World extends WorldCore implements ReducerWorld {
  readonly queue = new EventQueue<SimEvent>();
  nowMs = 0;
  readonly client: ReducerDriver;

  constructor(seed: number, plan: InterleavingPlan, chooser: Chooser, client: ClientUnderTest, config: ClientConfig, trace: boolean, onStep: StepListener | null = null, pureStep = false) {
    super(seed, plan, chooser, trace);
    this.client = new ReducerDriver(this, client, config, onStep, pureStep);
  }

  /** Runs to the end, or until invariant number `stopAtIndex` (>= 0) is violated. */
  run(stopAtIndex: number): void {
    connect(this);
    startWorkload(this);
    const queue = this.queue;
    const counts = this.oracle.counts;
    for (;;) {
      const event = queue.pop();
      if (event === undefined || event.timeMs > this.endMs) break;
      this.nowMs = event.timeMs;
      this.events++;
      this.traceHash = mix(mix(mix(this.traceHash, event.timeMs), event.kind), event.a);
      this.dispatch(event);
      if (stopAtIndex >= 0 && counts[stopAtIndex]! > 0) return;
    }
    this.finish();
  }

  private dispatch(event: SimEvent): void {
    switch (event.kind) {
      case Kind.ClientMessage:
        this.client.messageArrived(event);
        break;
      case Kind.ServerRequest:
        serveRequest(this, event.session, event.cause, event.payload as RequestMessage);
        break;
      case Kind.Timer:
        this.client.timerFired(event);
        break;
      default:
        this.dispatchWorld(event.kind, event.a, event.payload);
        break;
    }
  }

  // -- the port -------------------------------------------------------------------------------------

  schedule(timeMs: number, kind: Kind, cause: number, a: number, payload: unknown): void {
    this.queue.push({ timeMs, sequence: 0, kind, cause, session: 0, a, payload });
  }

  toClient(timeMs: number, cause: number, generation: number, message: ResponseMessage | NotificationMessage): void {
    this.queue.push({ timeMs, sequence: 0, kind: Kind.ClientMessage, cause, session: generation, a: message.kind === 'response' ? message.requestId : message.resource, payload: message });
  }

  enqueue(timeMs: number, kind: Kind, cause: number, session: number, a: number, payload: unknown): void {
    this.queue.push({ timeMs, sequence: 0, kind, cause, session, a, payload });
  }
}
