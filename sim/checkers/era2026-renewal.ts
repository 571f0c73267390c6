/**
 * `watch_not_renewed` (2026-07-28, SPEC §13; MCP-2026-NOTES 1.3: the SDK v2 has no automatic re-listen): a watch
 * the application still wants, lost while the connection stays up, is asked for again. When a listen acknowledged
 * with the resource it asked for ends on the current connection — the server completed it (its result delivered),
 * closed its stream (`notifications/cancelled` delivered), or the client cancelled it — and the application still
 * wants that resource, the client sends a `subscriptions/listen` of it within `renewalBoundMs`. Without one the
 * resource is watched by nobody until the connection ends: every later change waits for a reconciliation read.
 *
 * Judged from the truth stream and the client's requests only (era2026-watch.ts knows which listens are live, and on
 * which connection they were acknowledged). An obligation ends without a listen when its reason goes: the application
 * gives the resource up, the subject loses access, the connection changes (the next connection's listens are a new
 * start), the client crashes, or another listen acknowledged with the resource on this connection is live.
 *
 * Only step clients are judged (`judge`, from sim/kernel/reducer-driver.ts): their effects name every listen they
 * send; a module client observed from outside (adapters/mcp-sdk/module) has no such effect, so it is not judged
 * (sim/applicability.ts moduleJudgedInvariants).
 */
import { listenAckTimeoutMs } from '../../core/era.js';
import type { ClientConfig } from '../../core/types.js';
import type { WatchChecker } from './era2026-watch.js';
import { OwedPerResource } from './owed.js';
import type { CheckingSink } from './sink.js';
import type { StepTruth } from './step-truth.js';

/** The client's declared retry pace plus one ack deadline (the reference listens again subscribeRetryMs after the end). */
export function renewalBoundMs(config: ClientConfig): number {
  return config.subscribeRetryMs + listenAckTimeoutMs(config);
}

const none = -1;

/** Per resource (owedSinceMs): since when a new listen is owed (-1: nothing owed). */
export class RenewalChecker extends OwedPerResource {
  /** Listen ends observed before they are dated: [resource, connection generation of its ack] pairs. */
  private readonly pending: number[] = [];
  private session = none;
  /** Not judged (none) until a step client declares its configuration. */
  private boundMs = none;

  constructor(
    private readonly sink: CheckingSink,
    private readonly uris: readonly string[],
    private readonly watch: WatchChecker,
    private readonly requestedOf: (listenId: number) => readonly number[],
  ) {
    super(uris.length);
  }

  /** A step client with configuration `config` is judged. */
  judge(config: ClientConfig): void {
    this.boundMs = renewalBoundMs(config);
  }

  onRevoked(resource: number): void {
    this.release(resource);
  }

  onSessionEnded(): void {
    this.pending.length = 0;
    this.releaseAll();
  }

  /** Listen `listenId` is about to end (before era2026-watch.ts forgets it): the resources it was acknowledged with as asked. */
  onListenEnding(listenId: number): void {
    if (this.boundMs === none) return;
    for (const resource of this.requestedOf(listenId)) {
      const generation = this.watch.generationOf(listenId, resource);
      if (generation !== none) this.pending.push(resource, generation);
    }
  }

  /** A step begins: the ends observed before it are owed from its time. */
  beginStep(truth: StepTruth): void {
    if (truth.currentSession !== this.session) {
      this.session = truth.currentSession;
      this.releaseAll();
    }
    if (this.pending.length > 0) this.owePending(truth.timeMs);
  }

  /** The client sent a `subscriptions/listen` of `resource`. */
  onListenSent(resource: number): void {
    if (resource >= 0) this.release(resource);
  }

  /** After each step: the ends the step made (the client's cancel) are owed; obligations past their bound are violations. */
  afterStep(timeMs: number): void {
    if (this.pending.length > 0) this.owePending(timeMs);
    if (this.owedCount > 0) this.judgeDue(timeMs);
  }

  finish(endMs: number): void {
    if (this.owedCount > 0) this.judgeDue(endMs);
  }

  private owePending(timeMs: number): void {
    const pending = this.pending;
    for (let index = 0; index < pending.length; index += 2) {
      const resource = pending[index]!;
      if (pending[index + 1] !== this.session || this.wanted[resource] === 0 || !this.owe(resource, timeMs)) continue;
      this.sink.checked('watch_not_renewed');
    }
    pending.length = 0;
  }

  private judgeDue(timeMs: number): void {
    for (let resource = 0; resource < this.owedSinceMs.length; resource++) {
      const sinceMs = this.owedSinceMs[resource]!;
      if (sinceMs === none || sinceMs + this.boundMs >= timeMs) continue;
      this.release(resource);
      if (this.watch.isWatched(resource, this.session)) continue;
      this.sink.violate('watch_not_renewed', timeMs, this.uris[resource]!, `the listen watching ${this.uris[resource]} ended at ${sinceMs} ms, the application still wants it, and no subscriptions/listen of it followed within ${this.boundMs} ms`);
    }
  }
}
