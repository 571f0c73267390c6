/**
 * Splits a byte stream into newline-terminated lines with a bound on one line's length, in time linear in
 * the bytes (no re-concatenation per chunk). A line over the bound is not kept: its bytes are counted and
 * skipped up to the next newline, and it is reported once with its size, so one 50 MB line neither fills
 * memory nor ends the session.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private skippedBytes = 0;
  private skipping = false;

  constructor(
    private readonly lineBytesMax: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline < 0) return;
      this.endLine();
      start = newline + 1;
    }
  }

  /** Bytes held for the line in progress (bounded by lineBytesMax). */
  get pendingBytes(): number {
    return this.partBytes;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skippedBytes += piece.length;
    } else if (this.partBytes + piece.length > this.lineBytesMax) {
      this.skipping = true;
      this.skippedBytes = this.partBytes + piece.length;
      this.parts = [];
      this.partBytes = 0;
    } else {
      this.parts.push(piece);
      this.partBytes += piece.length;
    }
  }

  private endLine(): void {
    if (this.skipping) {
      const bytes = this.skippedBytes;
      this.skipping = false;
      this.skippedBytes = 0;
      this.onOversized(bytes);
      return;
    }
    const line = Buffer.concat(this.parts, this.partBytes).toString('utf8');
    this.parts = [];
    this.partBytes = 0;
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (trimmed.length > 0) this.onLine(trimmed);
  }
}
