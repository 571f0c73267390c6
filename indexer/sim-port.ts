/**
 * What the simulation's effect handlers and judges see of the world (IndexerWorld implements it), so
 * they do not import the world and the world imports them.
 */
import type { Chooser } from './kernel-imports.js';
import type { TruthView, Violation } from './checkers/checker.js';
import type { IndexerFault, IndexerPlan } from './sim-plan.js';
import type { IndexerMetrics } from './sim-metrics.js';
import type { SimStore } from './sim-store.js';
import type { IndexerConfig, IndexerInput, IndexerState, VectorWrite } from './types.js';

export type WorldEventBody =
  | { kind: 'change'; index: number }
  | { kind: 'input'; input: IndexerInput; epoch: number }
  | { kind: 'store-apply'; writeIndex: number; rowsMax: number; ack: boolean; epoch: number; storeEpoch: number }
  | { kind: 'crash' } | { kind: 'restart' } | { kind: 'read' } | { kind: 'probe'; uri: string; version: number; startMs: number }
  | { kind: 'store-restart' } | { kind: 'data-loss' } | { kind: 'upgrade'; model: string } | { kind: 'rollback' } | { kind: 'heal' };

export interface SimPort extends TruthView {
  readonly chooser: Chooser;
  readonly plan: IndexerPlan;
  readonly config: IndexerConfig;
  readonly metrics: IndexerMetrics;
  readonly store: SimStore;
  readonly state: IndexerState;
  readonly epoch: number;
  readonly storeEpoch: number;
  readonly writes: VectorWrite[];
  readonly published: Map<string, number>;
  readonly lost: Map<string, { sequence: number; droppedAtMs: number }[]>;
  readonly labels: Map<string, string>;
  readonly dataLossAtMs: Map<string, number>;
  at(timeMs: number, event: WorldEventBody): void;
  fault(name: IndexerFault): boolean;
  fired(name: string): void;
  line(text: string): void;
  metricEvent(kind: string, uri: string, detail: string): void;
  textOf(uri: string, sequence: number): string | null;
  contentTypeOf(uri: string): string;
}

export type { Violation };
