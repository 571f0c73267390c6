/**
 * Test support: an OpenTelemetry SDK meter provider with an in-memory exporter, and readers of what it
 * exported (by metric name and attributes).
 */
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';

export type Exported = Map<string, Array<DataPoint<number | Histogram>>>;

export interface TestMeter {
  meterProvider: MeterProvider;
  /** Flushes and returns the last export, by metric name. */
  exported(): Promise<Exported>;
}

export function testMeter(): TestMeter {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    meterProvider,
    exported: async () => {
      await reader.forceFlush();
      const byName: Exported = new Map();
      for (const scope of exporter.getMetrics().at(-1)?.scopeMetrics ?? []) {
        for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric.dataPoints as Array<DataPoint<number | Histogram>>);
      }
      return byName;
    },
  };
}

/** The sum over the data points of `name` whose attributes include `attributes` (a histogram counts its records). */
export function valueOf(byName: Exported, name: string, attributes: Record<string, string> = {}): number {
  return (byName.get(name) ?? [])
    .filter((point) => Object.entries(attributes).every(([key, value]) => point.attributes[key] === value))
    .reduce((sum, point) => sum + (typeof point.value === 'number' ? point.value : point.value.count), 0);
}
