/**
 * The scenario contract the simulator runs (scenarios/ holds the catalogue): a workload and fault plan
 * drawn per interleaving, the invariants it targets, the naive clients it must catch, and its "sometimes"
 * expectations (faults that must have fired).
 */
import type { Chooser } from './chooser.js';
import type { FaultName } from './faults.js';
import type { InvariantName } from './oracle.js';
import type { InterleavingPlan } from './plan.js';
import type { ClientConfig } from '../core/types.js';

export interface Scenario {
  name: string;
  description: string;
  /** Invariants this scenario is built to exercise. */
  targets: readonly InvariantName[];
  /** Naive clients this scenario must catch. */
  catches: readonly string[];
  /** Faults that must fire at least once over a run of this scenario ("sometimes" counters). */
  sometimes: readonly FaultName[];
  /**
   * Gate metrics this scenario is built to measure (sim/gate-verdict.ts MetricName, spelled out here so that the
   * contract does not import the gate): one with no sample fails the gate on runs of 1,000+ interleavings.
   */
  claims?: readonly ('read_amplification' | 'convergence_60s' | 'revocation_p99_ms' | 'staleness_at_serve_p99_ms')[];
  /** Draws one interleaving's plan. Must draw only through `chooser`. */
  plan(chooser: Chooser): InterleavingPlan;
  /** Client configuration overrides for this scenario (defaults otherwise). */
  clientConfig?: Partial<ClientConfig>;
  /** The protocol era its interleavings speak (absent: 2025-11-25; `both`: drawn per interleaving). */
  era?: '2026-07-28' | 'both';
  /**
   * An interop pair (`--transport sdk` only): which SDK each end runs, `v1` = @modelcontextprotocol/sdk 1.x,
   * `v2` = @modelcontextprotocol/client / server 2.x (absent: each era's own SDK on both ends).
   */
  sdkPair?: { client: 'v1' | 'v2'; server: 'v1' | 'v2' };
}
