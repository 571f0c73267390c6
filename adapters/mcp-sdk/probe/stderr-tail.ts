/**
 * What a server wrote on stderr, kept bounded but informative: the last `tailCharsMax` characters, and the
 * first lines that look like the cause of a failure ("Error: Cannot find module ...", "EACCES", "fatal"),
 * which a long stack trace would otherwise push out of a short tail.
 */
const NOTABLE = /\b(error|cannot|can't|could not|not found|no such|denied|fatal|exception|panic|ENOENT|EACCES|EADDRINUSE|MODULE_NOT_FOUND)\b/i;
const NOTABLE_MAX = 8;
const NOTABLE_CHARS_MAX = 300;
const PARTIAL_CHARS_MAX = 2_000;

export class StderrTail {
  private tail = '';
  private partial = '';
  private readonly notableLines: string[] = [];
  private totalChars = 0;

  constructor(private readonly tailCharsMax = 4_000) {}

  push(text: string): void {
    this.totalChars += text.length;
    this.tail = (this.tail + text).slice(-this.tailCharsMax);
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop()!.slice(0, PARTIAL_CHARS_MAX);
    for (const line of lines) this.consider(line);
  }

  /** The last characters written. */
  get text(): string {
    return this.tail;
  }

  /** The first lines that name a cause (the unfinished last line included). */
  get notable(): string[] {
    const pending = this.partial.trim();
    return pending !== '' && NOTABLE.test(pending) && this.notableLines.length < NOTABLE_MAX ? [...this.notableLines, pending.slice(0, NOTABLE_CHARS_MAX)] : [...this.notableLines];
  }

  get chars(): number {
    return this.totalChars;
  }

  private consider(line: string): void {
    const trimmed = line.trim();
    if (this.notableLines.length >= NOTABLE_MAX || trimmed === '' || !NOTABLE.test(trimmed)) return;
    if (/^at\s/.test(trimmed)) return; // stack frames name files, not causes
    this.notableLines.push(trimmed.slice(0, NOTABLE_CHARS_MAX));
  }
}

/** The lines to show for a failed start: the notable ones, then the last few not already shown. */
export function stderrSummaryLines(notable: readonly string[], tail: string, lastLines = 3): string[] {
  const last = tail
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(-lastLines)
    .filter((line) => !notable.includes(line.slice(0, NOTABLE_CHARS_MAX)));
  return [...notable, ...last];
}
