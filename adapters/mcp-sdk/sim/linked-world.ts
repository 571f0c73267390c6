/**
 * What the two worlds over real SDK links share (sdk-sim-world.ts: the fenced cache as the client;
 * module/module-world.ts: a user's client module): the virtual clock, one link per session (its server end an
 * SDK Server answering from the server model), the responses captured for those Servers' handlers, the server
 * model's notifications sent through them, the trace mark of each delivery, and a programmer error seen inside
 * an SDK callback (which the SDK would otherwise swallow), thrown when the run ends.
 */
import type { NotificationMessage, ResponseMessage } from '../../../sim/kernel/events.js';
import type { InterleavingPlan } from '../../../sim/plan.js';
import type { Chooser } from '../../../sim/chooser.js';
import { mix } from '../../../sim/kernel/step-truth.js';
import { WorldCore } from '../../../sim/kernel/world-core.js';
import type { VirtualClock } from '../transport/clock.js';
import type { LinkDirection, MessageKind } from '../transport/virtual-transport.js';
import { ResponseCapture } from './response-capture.js';
import type { WorldLink } from './sdk-sim-link.js';

const kindCodes: Record<MessageKind, number> = { request: 1, response: 2, notification: 3, raw: 4 };

export abstract class LinkedWorld extends WorldCore {
  abstract readonly clock: VirtualClock;
  /** The run is over: world events and stranded messages still on the clock do nothing. */
  ended = false;
  /** By session generation (index 0 unused). */
  protected readonly links: Array<WorldLink | undefined> = [];
  protected readonly responses: ResponseCapture;
  /** The first programmer error seen inside an SDK callback, or null. */
  protected failure: unknown = null;

  /** `name`: how the response capture names this world in its errors. */
  constructor(seed: number, plan: InterleavingPlan, chooser: Chooser, trace: boolean, name: string) {
    super(seed, plan, chooser, trace);
    this.responses = new ResponseCapture(name);
  }

  get nowMs(): number {
    return this.clock.nowMs();
  }

  /** A response (captured for the SDK handler that is serving it) or a notification (sent by the SDK Server). */
  toClient(timeMs: number, _cause: number, generation: number, message: ResponseMessage | NotificationMessage): void {
    if (message.kind === 'response') {
      this.responses.capture(timeMs, message);
      return;
    }
    const link = this.links[generation];
    if (link === undefined) return;
    // A dead session's message that surfaces later (old-session-notification) reaches the old Client's handlers.
    if (message.survivesSessionEnd) this.clock.setTimer(timeMs, () => this.guard(() => this.ended || link.strand(message)));
    else link.notify(message, timeMs);
  }

  closeLink(generation: number, reason: string): void {
    this.links[generation]?.close(reason);
  }

  fail(error: unknown): void {
    if (this.failure === null) this.failure = error;
  }

  /** Runs `body`, keeping what it throws as the run's failure (an SDK callback would swallow it). */
  guard(body: () => unknown): void {
    try {
      body();
    } catch (error) {
      this.fail(error);
    }
  }

  /** A message handed to a receiving end: one event, marked in the trace hash by direction and kind. */
  protected countDelivery(direction: LinkDirection, kind: MessageKind): void {
    this.events++;
    this.traceHash = mix(mix(this.traceHash, this.nowMs), (direction === 'to-client' ? 10 : 20) + kindCodes[kind]);
  }

  /** The end of a run: every link closed, then the clock lets what that set off settle. */
  protected async closeLinks(): Promise<void> {
    for (const link of this.links) link?.close('interleaving ended');
    await this.clock.advanceBy(0);
  }
}
