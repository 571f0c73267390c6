/**
 * The fenced cache's observer: runs the pure observation fold (observe/) over every step of the cache and
 * records its measurements through the OpenTelemetry metrics API. Without an installed meter provider the
 * API hands out no-op instruments, so the fold (which `health()` reads) is the only cost.
 *
 * `@opentelemetry/api` is a peer dependency, as OpenTelemetry asks of libraries: the API keeps one global
 * registry per process, and an application's SDK only sees instruments created through the same copy.
 */
import { metrics, type Attributes, type Counter, type Histogram, type MeterProvider } from '@opentelemetry/api';
import type { Ledger } from '../../../core/state.js';
import type { ClientEffect, ClientInput } from '../../../core/types.js';
import { foldAdapterEffect, foldStepOwned } from '../../../observe/fold.js';
import { healthOf, type CacheHealth, type HealthReason, type HealthThresholds } from '../../../observe/health.js';
import { instrumentIds, instruments, secondsBucketBoundaries, uriLabelAttribute, type InstrumentId } from '../../../observe/instruments.js';
import { initialObserveState, observeStateFromLedger, type Measurement, type ObserveConfig, type ObserveState } from '../../../observe/state.js';

export const meterName = 'fencesim';
export const meterVersion = '0.1.0';
const labelCharsMax = 64;

export interface CacheObserveOptions {
  /** Where the instruments come from (default: the global provider, a no-op unless the application installed one). */
  meterProvider?: MeterProvider;
  /**
   * Opt-in: a low-cardinality label for a URI (a tenant, a collection, a file type), exported as
   * `fencesim.uri.label` on the instruments that concern one URI. Return undefined for no label. Raw URIs
   * are never exported.
   */
  uriLabel?: (uri: string) => string | undefined;
  /** The health window and the resubscription deadline (default 10 min in 1 min buckets, 30 s). */
  window?: Partial<ObserveConfig>;
  health?: Partial<HealthThresholds>;
}

type Instrument = { kind: 'counter'; counter: Counter } | { kind: 'histogram'; histogram: Histogram };

export class CacheObserver {
  private current: ObserveState;
  private readonly instrumentsById = new Map<InstrumentId, Instrument>();
  private readonly uriLabel: ((uri: string) => string | undefined) | undefined;
  private readonly thresholds: Partial<HealthThresholds>;

  constructor(options: CacheObserveOptions = {}, ledger?: Ledger) {
    this.current = ledger === undefined ? initialObserveState(options.window) : observeStateFromLedger(ledger, options.window);
    this.uriLabel = options.uriLabel;
    this.thresholds = options.health ?? {};
    const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(meterName, meterVersion);
    for (const id of instrumentIds) {
      const spec = instruments[id];
      if (spec.kind === 'counter') {
        this.instrumentsById.set(id, { kind: 'counter', counter: meter.createCounter(spec.name, { unit: spec.unit, description: spec.description }) });
      } else {
        const histogram = meter.createHistogram(spec.name, { unit: spec.unit, description: spec.description, advice: { explicitBucketBoundaries: secondsBucketBoundaries } });
        this.instrumentsById.set(id, { kind: 'histogram', histogram });
      }
    }
  }

  /** The state was handed out (`state`) since the last step: the next step folds into a deep copy of it. */
  private exposed = false;

  /** The fold's state (plain JSON data). It never changes afterwards: later steps fold into a copy. */
  get state(): ObserveState {
    this.exposed = true;
    return this.current;
  }

  /**
   * Folds a step in place (observe/fold.ts foldStepOwned: no copy of what it touches, once per step of the cache)
   * while the state is this observer's alone; once `state` handed it out, one deep copy first, so a caller's state
   * stays as it was. `health` reads without handing anything out that a later step changes.
   */
  step(input: ClientInput, effects: readonly ClientEffect[]): void {
    if (this.exposed) {
      this.current = structuredClone(this.current);
      this.exposed = false;
    }
    const result = foldStepOwned(this.current, input, effects);
    this.current = result.state;
    this.record(result.measurements);
  }

  adapterEffect(atMs: number, effect: ClientEffect): void {
    const result = foldAdapterEffect(this.current, atMs, effect);
    this.current = result.state;
    this.record(result.measurements);
  }

  health(nowMs: number, extra: HealthReason[] = []): CacheHealth {
    return healthOf(this.current, nowMs, this.thresholds, extra);
  }

  private record(measurements: readonly Measurement[]): void {
    for (const measurement of measurements) {
      const instrument = this.instrumentsById.get(measurement.instrument)!;
      const attributes = this.attributesOf(measurement);
      if (instrument.kind === 'counter') instrument.counter.add(measurement.value, attributes);
      else instrument.histogram.record(measurement.value / 1_000, attributes);
    }
  }

  private attributesOf(measurement: Measurement): Attributes {
    if (this.uriLabel === undefined || measurement.uri === null || !instruments[measurement.instrument].labelled) return measurement.attributes;
    let label: string | undefined;
    try {
      label = this.uriLabel(measurement.uri);
    } catch {
      label = 'label-error';
    }
    if (typeof label !== 'string') return measurement.attributes;
    return { ...measurement.attributes, [uriLabelAttribute]: label.slice(0, labelCharsMax) };
  }
}
