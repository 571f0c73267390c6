/**
 * A fault-injecting decorator for any SDK `Transport` (e.g. `StdioClientTransport` to a real process):
 * incoming `notifications/resources/*` messages are dropped, duplicated or delayed, each decision drawn
 * from a seeded PRNG in arrival order. Delays use the given `Clock` (real time for a real process).
 * Outgoing messages and other incoming messages pass through untouched.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { Ratio } from '../../../sim/faults.js';
import { createPrng, type Prng } from '../../../sim/prng.js';
import type { Clock, TimerHandle } from './clock.js';

export interface IncomingFaults {
  drop: Ratio | null;
  duplicate: Ratio | null;
  delay: Ratio | null;
  /** A delayed message waits a uniform 1..delayMsMax ms. */
  delayMsMax: number;
}

export const noIncomingFaults: IncomingFaults = { drop: null, duplicate: null, delay: null, delayMsMax: 500 };

export interface FaultRecord {
  atMs: number;
  fault: 'dropped' | 'duplicated' | 'delayed';
  method: string;
  uri: string | null;
  delayMs: number;
}

export interface FaultStats {
  seen: number;
  dropped: number;
  duplicated: number;
  delayed: number;
}

export function validateIncomingFaults(faults: IncomingFaults): void {
  for (const name of ['drop', 'duplicate', 'delay'] as const) {
    const ratio = faults[name];
    if (ratio === null) continue;
    if (!(Number.isInteger(ratio?.numerator) && Number.isInteger(ratio?.denominator) && ratio.denominator >= 1 && ratio.numerator >= 0 && ratio.numerator <= ratio.denominator)) {
      throw new RangeError(`faults.${name} must be null or {numerator, denominator} integers with 0 <= numerator <= denominator, got ${JSON.stringify(ratio)}`);
    }
  }
  if (!(Number.isInteger(faults.delayMsMax) && faults.delayMsMax >= 1)) throw new RangeError(`faults.delayMsMax must be an integer >= 1, got ${JSON.stringify(faults.delayMsMax)}`);
}

export class FaultInjectingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly stats: FaultStats = { seen: 0, dropped: 0, duplicated: 0, delayed: 0 };
  /** The first `recordsMax` faults injected (the stats count all of them). */
  readonly records: FaultRecord[] = [];
  /** Called for every incoming resources notification as it arrives, before faults (nothing is kept). */
  onArrival?: (arrival: { atMs: number; method: string; uri: string | null }) => void;
  private readonly prng: Prng;
  private readonly pending = new Set<TimerHandle>();
  private isClosed = false;

  constructor(
    readonly inner: Transport,
    private readonly options: { seed: number; faults: IncomingFaults; clock: Clock; recordsMax?: number },
  ) {
    validateIncomingFaults(options.faults);
    this.prng = createPrng(options.seed);
    inner.onclose = () => {
      this.isClosed = true;
      for (const handle of this.pending) options.clock.clearTimer(handle);
      this.pending.clear();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.incoming(message, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private incoming(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const method = (message as { method?: unknown }).method;
    const isRequest = 'id' in message;
    if (typeof method !== 'string' || isRequest || !method.startsWith('notifications/resources/')) {
      this.onmessage?.(message, extra);
      return;
    }
    const clock = this.options.clock;
    const faults = this.options.faults;
    const rawUri = (message as { params?: { uri?: unknown } }).params?.uri;
    const uri = typeof rawUri === 'string' ? rawUri : null;
    this.stats.seen++;
    this.onArrival?.({ atMs: clock.nowMs(), method, uri });
    const prng = this.prng;
    if (faults.drop !== null && prng.chance(faults.drop.numerator, faults.drop.denominator)) {
      this.stats.dropped++;
      this.record({ atMs: clock.nowMs(), fault: 'dropped', method, uri, delayMs: 0 });
      return;
    }
    const delayed = faults.delay !== null && prng.chance(faults.delay.numerator, faults.delay.denominator);
    const delayMs = delayed ? 1 + prng.nextBelow(faults.delayMsMax) : 0;
    const duplicated = faults.duplicate !== null && prng.chance(faults.duplicate.numerator, faults.duplicate.denominator);
    if (delayed) {
      this.stats.delayed++;
      this.record({ atMs: clock.nowMs(), fault: 'delayed', method, uri, delayMs });
      this.later(delayMs, message, extra);
    } else {
      this.onmessage?.(message, extra);
    }
    if (duplicated) {
      this.stats.duplicated++;
      this.record({ atMs: clock.nowMs(), fault: 'duplicated', method, uri, delayMs });
      this.later(delayMs + 1, message, extra);
    }
  }

  private record(record: FaultRecord): void {
    if (this.records.length < (this.options.recordsMax ?? 200)) this.records.push(record);
  }

  private later(delayMs: number, message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const clock = this.options.clock;
    const handle = clock.setTimer(clock.nowMs() + delayMs, () => {
      this.pending.delete(handle);
      if (!this.isClosed) this.onmessage?.(message, extra);
    });
    this.pending.add(handle);
  }
}
