/**
 * Text widths for layout. Without the native `canvas` package vega estimates every character at 0.8 em,
 * which leaves wide gaps beside axis labels and truncates legends. vega lets a caller supply the width
 * function (vl-convert does the same); this one uses Arial / Liberation Sans advance widths (per 1000 em,
 * ASCII 32..126), which is what the page's font stack resolves to. Set once, when this module loads;
 * charts.ts imports it, so it is in place before any chart renders.
 */
import * as vega from 'vega';

const arialWidths = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

export function textWidth(text: string, fontSize: number, bold: boolean): number {
  let units = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    units += code >= 32 && code <= 126 ? arialWidths[code - 32]! : 600;
  }
  return (units / 1_000) * fontSize * (bold ? 1.08 : 1);
}

interface TextItem {
  fontSize?: number | string;
  fontWeight?: number | string;
  limit?: number;
}

const textMetrics = (vega as unknown as { textMetrics: { width: (item: TextItem, text: unknown) => number } }).textMetrics;
textMetrics.width = (item, text) => {
  const line = text === null || text === undefined ? '' : String(text).trim();
  const fontSize = item.fontSize !== undefined && item.fontSize !== null ? Number(item.fontSize) || 0 : 11;
  const bold = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600;
  const width = textWidth(line, fontSize, bold);
  // vega truncates a label longer than its limit to fit the limit: the drawn width is at most the limit.
  return item.limit !== undefined && item.limit > 0 ? Math.min(width, item.limit) : width;
};
