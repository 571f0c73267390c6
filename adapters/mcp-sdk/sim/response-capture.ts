/**
 * How an async world answers one resources/* request for the SDK Server on a link: it runs the pure
 * simulator's serving code (sim/actors/serving.ts), which hands its response to the world's `toClient`;
 * the world captures it here and returns it to the SDK handler with the time it must reach the client.
 * Shared by the SDK world (sdk-sim-world.ts) and the module world (module/module-world.ts).
 */
import { serveRequest } from '../../../sim/actors/serving.js';
import type { RequestMessage, ResponseMessage } from '../../../sim/kernel/events.js';
import type { WorldHost } from '../../../sim/kernel/host.js';
import type { ServedAnswer } from './sdk-sim-link.js';

/** What a world remembers of a request it saw on the wire: the response it got, once served. */
export interface ServedRecord {
  response: ResponseMessage | null;
}

export class ResponseCapture {
  private captured: { timeMs: number; message: ResponseMessage } | null = null;

  /** `worldName` names the world in the error for a request answered twice. */
  constructor(private readonly worldName: string) {}

  /** The response branch of the world's `toClient`: at most one per served request. */
  capture(timeMs: number, message: ResponseMessage): void {
    if (this.captured !== null) throw new Error(`${this.worldName}: two responses to one request (#${message.requestId})`);
    this.captured = { timeMs, message };
  }

  /** Serves `request` on session `generation`, records the response on `record`, and answers the SDK handler. */
  serve(host: WorldHost, generation: number, cause: number, request: RequestMessage, record: ServedRecord | undefined): ServedAnswer {
    this.captured = null;
    serveRequest(host, generation, cause, request);
    const captured = this.captured as { timeMs: number; message: ResponseMessage } | null;
    this.captured = null;
    if (captured === null) return { outcome: { type: 'result', result: {} }, plan: null }; // lost on the way back
    if (record !== undefined) record.response = captured.message;
    const outcome = captured.message.outcome;
    const plan = { deliverAtMs: captured.timeMs };
    if (outcome.type === 'result') return { outcome: { type: 'result', result: outcome.result }, plan };
    return { outcome: { type: 'error', code: outcome.code as number, message: String(outcome.message), data: outcome.data }, plan };
  }
}
