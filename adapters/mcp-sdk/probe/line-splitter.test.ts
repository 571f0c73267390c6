/** The bounded line splitter and the stderr tail: properties over arbitrary chunkings. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';
import { StderrTail, stderrSummaryLines } from './stderr-tail.js';

function split(chunks: Buffer[], lineBytesMax: number): { lines: string[]; oversized: number[] } {
  const lines: string[] = [];
  const oversized: number[] = [];
  const splitter = new LineSplitter(lineBytesMax, (line) => lines.push(line), (bytes) => oversized.push(bytes));
  for (const chunk of chunks) splitter.push(chunk);
  return { lines, oversized };
}

function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((left, right) => left - right);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

describe('LineSplitter', () => {
  it('yields the same lines however the stream is cut; lines over the bound are skipped and counted, never kept', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 10 }), fc.integer({ min: 1, max: 60 }), (texts, cuts, lineBytesMax) => {
        const lines = texts.map((text) => text.replace(/[\r\n]/g, ''));
        const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
        const result = split(chunked(bytes, cuts), lineBytesMax);
        const kept = lines.filter((line) => line !== '' && Buffer.byteLength(line) <= lineBytesMax);
        const skipped = lines.filter((line) => Buffer.byteLength(line) > lineBytesMax).map((line) => Buffer.byteLength(line));
        expect(result.lines).toEqual(kept);
        expect(result.oversized).toEqual(skipped);
      }),
      { seed: 14, numRuns: 500 },
    );
  });

  it('a 50 MB line in 64 KB chunks: holds at most the bound, then goes on with the next line', () => {
    const lines: string[] = [];
    const oversized: number[] = [];
    const splitter = new LineSplitter(1024 * 1024, (line) => lines.push(line), (bytes) => oversized.push(bytes));
    const chunk = Buffer.alloc(64 * 1024, 'z');
    let peakPending = 0;
    for (let sent = 0; sent < 50 * 1024 * 1024; sent += chunk.length) {
      splitter.push(chunk);
      peakPending = Math.max(peakPending, splitter.pendingBytes);
    }
    splitter.push(Buffer.from('\r\n{"after":true}\r\n'));
    expect(peakPending).toBeLessThanOrEqual(1024 * 1024);
    expect(oversized).toEqual([50 * 1024 * 1024 + 1]); // the \r belongs to the skipped line
    expect(lines).toEqual(['{"after":true}']);
  });
});

describe('StderrTail', () => {
  it('keeps the line naming the cause past a long stack, and the last lines', () => {
    const tail = new StderrTail(200);
    tail.push("node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '/x/server.js'\n");
    for (let frame = 0; frame < 50; frame++) tail.push(`    at Module._load (node:internal/modules/cjs/loader:${frame})\n`);
    tail.push("{\n  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}\n\nNode.js v20.19.0\n");
    expect(tail.notable).toEqual(["Error: Cannot find module '/x/server.js'", "code: 'MODULE_NOT_FOUND',"]);
    expect(tail.text.length).toBeLessThanOrEqual(200);
    expect(stderrSummaryLines(tail.notable, tail.text)).toEqual(["Error: Cannot find module '/x/server.js'", "code: 'MODULE_NOT_FOUND',", 'requireStack: []', '}', 'Node.js v20.19.0']);
  });
});
