/** Small pure text helpers shared by the commands. */

/** Integer with thousands separators: 1234567 -> "1,234,567". */
export function grouped(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A duration for people: "850 ms", "12.3 s", "4 min 05 s", "2 h 03 min". */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const wholeSeconds = Math.round(seconds);
  if (wholeSeconds < 3_600) return `${Math.floor(wholeSeconds / 60)} min ${String(wholeSeconds % 60).padStart(2, '0')} s`;
  const minutes = Math.round(wholeSeconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Bytes in MiB for people: "87.4 MiB". */
export function mebibytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}

/** Left-aligned columns: every row padded to the widest cell of each column but the last. */
export function columns(rows: readonly (readonly string[])[], indent = '  ', gap = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) => indent + row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index]!))).join(gap).trimEnd());
}

/** Per-second rate of `count` over `ms`, 0 when no time has passed. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? (count * 1_000) / ms : 0;
}
