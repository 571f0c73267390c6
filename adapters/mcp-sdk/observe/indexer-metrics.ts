/**
 * The indexer's observer, the same way the fenced cache's works (metrics.ts): the pure fold
 * (observe/indexer-fold.ts) over every effect IndexerRuntime carries out, recorded through the
 * OpenTelemetry metrics API — a no-op unless the application installs a meter provider. Pass
 * `observer.onEffect` as the runtime's `onEffect` option. Attributes are closed sets (model name, decision,
 * drift kind); no URI is ever exported.
 */
import { metrics, type Counter, type Histogram, type MeterProvider } from '@opentelemetry/api';
import type { IndexerEffect } from '../../../indexer/types.js';
import { foldIndexerEffect, indexerInstruments, initialIndexerObserveState, type IndexerInstrumentId, type IndexerObserveState } from '../../../observe/indexer-fold.js';
import { secondsBucketBoundaries } from '../../../observe/instruments.js';
import { meterName, meterVersion } from './metrics.js';

const similarityBoundaries = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.92, 0.94, 0.96, 0.98, 0.99, 1];

export interface IndexerObserveOptions {
  meterProvider?: MeterProvider;
}

export class IndexerObserver {
  private current: IndexerObserveState = initialIndexerObserveState();
  private readonly counters = new Map<IndexerInstrumentId, Counter>();
  private readonly histograms = new Map<IndexerInstrumentId, Histogram>();

  constructor(options: IndexerObserveOptions = {}) {
    const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(meterName, meterVersion);
    for (const id of Object.keys(indexerInstruments) as IndexerInstrumentId[]) {
      const spec = indexerInstruments[id];
      if (spec.kind === 'counter') this.counters.set(id, meter.createCounter(spec.name, { unit: spec.unit, description: spec.description }));
      else {
        const boundaries = spec.unit === 's' ? secondsBucketBoundaries : similarityBoundaries;
        this.histograms.set(id, meter.createHistogram(spec.name, { unit: spec.unit, description: spec.description, advice: { explicitBucketBoundaries: boundaries } }));
      }
    }
  }

  /** The fold's state: counter totals by series, versions waiting to be current, drift not yet repaired. */
  get state(): IndexerObserveState {
    return this.current;
  }

  /** IndexerRuntime's `onEffect`. */
  readonly onEffect = (effect: IndexerEffect, nowMs: number): void => {
    const result = foldIndexerEffect(this.current, nowMs, effect);
    this.current = result.state;
    for (const measurement of result.measurements) {
      const counter = this.counters.get(measurement.instrument);
      if (counter !== undefined) counter.add(measurement.value, measurement.attributes);
      else this.histograms.get(measurement.instrument)!.record(measurement.instrument === 'indexLag' ? measurement.value / 1_000 : measurement.value, measurement.attributes);
    }
  };
}
