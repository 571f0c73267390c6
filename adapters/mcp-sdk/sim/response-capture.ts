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

/** Writes the response being served again at `deliverAtMs` (response-replay on a 2026-07-28 link: V2SimLink.replayResponse). */
export type ResponseReplay = (deliverAtMs: number) => void;

export class ResponseCapture {
  private captured: { timeMs: number; message: ResponseMessage } | null = null;
  private replay: ResponseReplay | null = null;

  /** `worldName` names the world in the error for a request answered twice. */
  constructor(private readonly worldName: string) {}

  /**
   * The response branch of the world's `toClient`: the first response to the request being served is its
   * answer; a second one is the model's replay of it (response-replay), written again by `replay`, or, where the
   * link cannot replay, a bug of the world.
   */
  capture(timeMs: number, message: ResponseMessage): void {
    if (this.captured === null) this.captured = { timeMs, message };
    else if (this.replay !== null) this.replay(timeMs);
    else throw new Error(`${this.worldName}: two responses to one request (#${message.requestId})`);
  }

  /** Serves `request` on session `generation`, records the response on `record`, and answers the SDK handler. */
  serve(host: WorldHost, generation: number, cause: number, request: RequestMessage, record: ServedRecord | undefined, replay: ResponseReplay | null = null): ServedAnswer {
    this.captured = null;
    this.replay = replay;
    try {
      serveRequest(host, generation, cause, request);
    } finally {
      this.replay = null;
    }
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
