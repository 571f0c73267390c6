/** The bench suite's progress lines (stderr, so `--json` stays one object on stdout), its peak RSS and its number format. */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024; // maxRSS is in KiB
}

export function progress(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

export function integer(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
