/**
 * Shared pieces of the report charts (charts.ts): colours, sizes, the Vega-Lite config, reference rules
 * (gates, percentiles), the "no data in this run" panel and small number helpers.
 */
import type { TopLevelSpec } from 'vega-lite';
import { grouped } from './digest.js';

export const color = { pass: '#2e7d32', fail: '#c62828', warn: '#b26a00', main: '#1f5fbf', muted: '#9aa4b2', ink: '#24292f' };
export const width = 520;
export const height = 240;
export const noData = 'no data in this run';

export const config = {
  font: 'Helvetica, Arial, "Liberation Sans", sans-serif',
  background: 'white',
  padding: 8,
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal', labelColor: color.ink, titleColor: color.ink, gridColor: '#e6e8eb' },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: 'bottom', direction: 'horizontal' },
} as const;

/** Layers to append to a layered spec. */
export type Layers = NonNullable<Extract<TopLevelSpec, { layer: unknown }>['layer']>;

/** A dashed red rule with a label at `value` on the x axis (or y), as layers to append. */
export function gateRule(value: number, label: string, field: string, axis: 'x' | 'y' = 'x'): Layers {
  return referenceRule(value, label, field, axis, color.fail, [5, 4]);
}

export function markerRule(value: number, label: string, field: string): Layers {
  return referenceRule(value, label, field, 'x', color.ink, [2, 2]);
}

function referenceRule(value: number, label: string, field: string, axis: 'x' | 'y', stroke: string, dash: number[]): Layers {
  const datum = { [field]: value, label };
  const position = { field, type: 'quantitative' as const };
  if (axis === 'y') {
    return [
      { data: { values: [datum] }, mark: { type: 'rule', color: stroke, strokeDash: dash, strokeWidth: 1.5 }, encoding: { y: position } },
      { data: { values: [datum] }, mark: { type: 'text', align: 'right', baseline: 'bottom', dy: -2, x: 'width', color: stroke, fontSize: 10 }, encoding: { y: position, text: { field: 'label' } } },
    ];
  }
  return [
    { data: { values: [datum] }, mark: { type: 'rule', color: stroke, strokeDash: dash, strokeWidth: 1.5 }, encoding: { x: position } },
    { data: { values: [datum] }, mark: { type: 'text', align: 'left', baseline: 'top', dx: 3, y: 2, color: stroke, fontSize: 10 }, encoding: { x: position, text: { field: 'label' } } },
  ];
}

/** The panel drawn when the run produced no data for a chart: an empty frame and the words. */
export function emptySpec(axisTitle: string): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width,
    height: 120,
    config,
    data: { values: [{ message: noData }] },
    layer: [
      { mark: { type: 'rect', fill: '#f6f8fa', stroke: '#d0d7de', strokeDash: [4, 4] }, encoding: { x: { value: 0 }, x2: { value: width }, y: { value: 0 }, y2: { value: 120 } } },
      { mark: { type: 'text', fontSize: 14, color: color.muted, x: width / 2, y: 60 }, encoding: { text: { field: 'message' } } },
    ],
    title: { text: axisTitle, orient: 'bottom', fontSize: 11, fontWeight: 'normal', color: color.muted },
  };
}

/** 0, 1, 10, 100, ... up to the first power of ten at or above `max`: ticks a symlog axis can label. */
export function powersOfTen(max: number): number[] {
  const values = [0];
  for (let value = 1; value < max * 10 && values.length < 12; value *= 10) {
    values.push(value);
    if (value >= max) break;
  }
  return values;
}

export function lastNonEmpty(counts: number[]): number {
  for (let i = counts.length - 1; i >= 0; i--) if (counts[i]! > 0) return i;
  return -1;
}

/** "850 ms", "12.5 s", "120 s". */
export function seconds(ms: number): string {
  if (ms < 1_000) return `${grouped(ms)} ms`;
  const value = ms / 1_000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}
