/**
 * A GateAccumulator as structured-cloneable data (for worker threads) and back. Every own field is copied,
 * typed arrays included, so new accumulator fields travel without changes here.
 */
import { GateAccumulator, type RunSpec } from '../sim/gate.js';

export type AccumulatorData = Record<string, unknown>;

export function accumulatorData(accumulator: GateAccumulator): AccumulatorData {
  const data: AccumulatorData = {};
  for (const [key, value] of Object.entries(accumulator)) if (key !== 'spec') data[key] = value;
  return data;
}

export function accumulatorFromData(spec: RunSpec, data: AccumulatorData): GateAccumulator {
  return Object.assign(new GateAccumulator(spec), data);
}
