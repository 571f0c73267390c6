/**
 * The PRNG fault spec of a virtual link (virtual-transport.ts): what is drawn per message, in which
 * directions, and its validation (a malformed spec is refused with an error naming the field).
 */
import type { Ratio } from '../../../sim/faults.js';

export type FaultScope = 'notifications' | 'any';

export interface VirtualLinkFaults {
  seed: number;
  /** One-way latency of every message, and a uniform extra in [0, latencyJitterMsMax] (faulted directions). */
  latencyMs: number;
  latencyJitterMsMax: number;
  /** Which directions the faults below (and the latency jitter) apply to. */
  directions: 'to-client' | 'to-server' | 'both';
  drop: Ratio | null;
  dropScope: FaultScope;
  duplicate: Ratio | null;
  duplicateScope: FaultScope;
  /** Extra delay in [1, reorderDelayMsMax]: the message may overtake or be overtaken. */
  reorder: Ratio | null;
  reorderDelayMsMax: number;
  /** A fixed extra delay of delayMs. */
  delay: Ratio | null;
  delayMs: number;
  /** Per message: the link closes (both ends) instead of delivering it. */
  disconnect: Ratio | null;
  /** The link closes at this virtual time (null: never). */
  disconnectAtMs: number | null;
}

export const noLinkFaults: VirtualLinkFaults = {
  seed: 0,
  latencyMs: 1,
  latencyJitterMsMax: 0,
  directions: 'to-client',
  drop: null,
  dropScope: 'notifications',
  duplicate: null,
  duplicateScope: 'notifications',
  reorder: null,
  reorderDelayMsMax: 50,
  delay: null,
  delayMs: 0,
  disconnect: null,
  disconnectAtMs: null,
};

/** Resolves defaults and rejects a malformed fault spec with an error naming the field. */
export function resolveLinkFaults(partial: Partial<VirtualLinkFaults> = {}): VirtualLinkFaults {
  const faults: VirtualLinkFaults = { ...noLinkFaults, ...partial };
  const integer = (name: keyof VirtualLinkFaults, min: number): void => {
    const value = faults[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw new RangeError(`virtual link faults: ${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
    }
  };
  integer('seed', 0);
  if (faults.seed > 0xffffffff) throw new RangeError(`virtual link faults: seed must be a uint32, got ${faults.seed}`);
  integer('latencyMs', 0);
  integer('latencyJitterMsMax', 0);
  integer('reorderDelayMsMax', 1);
  integer('delayMs', 0);
  if (faults.disconnectAtMs !== null) integer('disconnectAtMs', 0);
  for (const name of ['drop', 'duplicate', 'reorder', 'delay', 'disconnect'] as const) {
    const ratio = faults[name];
    if (ratio === null) continue;
    const ok =
      typeof ratio === 'object' &&
      Number.isInteger(ratio.numerator) &&
      Number.isInteger(ratio.denominator) &&
      ratio.denominator >= 1 &&
      ratio.numerator >= 0 &&
      ratio.numerator <= ratio.denominator;
    if (!ok) throw new RangeError(`virtual link faults: ${name} must be null or {numerator, denominator} integers with 0 <= numerator <= denominator, got ${JSON.stringify(ratio)}`);
  }
  for (const name of ['dropScope', 'duplicateScope'] as const) {
    if (faults[name] !== 'notifications' && faults[name] !== 'any') {
      throw new RangeError(`virtual link faults: ${name} must be "notifications" or "any", got ${JSON.stringify(faults[name])}`);
    }
  }
  if (!['to-client', 'to-server', 'both'].includes(faults.directions)) {
    throw new RangeError(`virtual link faults: directions must be "to-client", "to-server" or "both", got ${JSON.stringify(faults.directions)}`);
  }
  return faults;
}
