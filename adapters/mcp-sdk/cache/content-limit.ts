/**
 * Resources whose content is over the content limit (`config.contentCharsMax`): the core refuses such a
 * read (ContentTooLarge); this remembers the refusal per URI so that `get()` can name the limit, and so that
 * the cache does not download the same too-large body again and again. After a refusal, further reads of the
 * URI are held back for a back-off that doubles with each consecutive refusal (2 s, 4 s, ... up to 5 min);
 * a held read is answered locally with an error outcome (code -32603, `data.source` 'adapter-content-limit'),
 * so the core settles it as a failed read and accepts nothing. A notification does not cut the back-off
 * short (a server that says "updated" every few seconds is exactly the loop this avoids); the first read
 * after it goes out, and content within the limit clears the memory.
 */
import type { ResponseOutcome } from '../../../core/types.js';
import { invalidResultCode } from '../sim/sdk-outcomes.js';

export interface ContentLimitRefusal {
  uri: string;
  /** Characters of the refused body. */
  chars: number;
  contentCharsMax: number;
  /** Consecutive refusals of this URI. */
  refusals: number;
  /** Reads answered locally instead of downloading the body again. */
  readsHeld: number;
  /** The next read goes to the server from this time on. */
  holdUntilMs: number;
}

const BACKOFF_MS = 2_000;
const BACKOFF_MS_MAX = 300_000;
const URIS_MAX = 1_000;

export class ContentLimitMemory {
  private readonly refusals = new Map<string, ContentLimitRefusal>();

  constructor(readonly contentCharsMax: number) {}

  /** A read result arrived for `uri`: measures the body the core will judge (text or blob of that URI). */
  observeRead(uri: string, result: unknown, nowMs: number): void {
    const chars = bodyChars(uri, result);
    if (chars === null) return;
    if (chars <= this.contentCharsMax) {
      this.refusals.delete(uri);
      return;
    }
    const previous = this.refusals.get(uri);
    const refusals = (previous?.refusals ?? 0) + 1;
    const backoffMs = Math.min(BACKOFF_MS_MAX, BACKOFF_MS * 2 ** Math.min(refusals - 1, 20));
    if (previous === undefined && this.refusals.size >= URIS_MAX) this.refusals.delete(this.refusals.keys().next().value!);
    this.refusals.set(uri, { uri, chars, contentCharsMax: this.contentCharsMax, refusals, readsHeld: previous?.readsHeld ?? 0, holdUntilMs: nowMs + backoffMs });
  }

  /** The outcome to answer a read with instead of sending it, or null to send it. */
  holdRead(uri: string, nowMs: number): ResponseOutcome | null {
    const refusal = this.refusals.get(uri);
    if (refusal === undefined || nowMs >= refusal.holdUntilMs) return null;
    refusal.readsHeld++;
    const message = `not read again: ${describeRefusal(refusal)}; next attempt in ${refusal.holdUntilMs - nowMs} ms`;
    return { type: 'error', code: invalidResultCode, message, data: { source: 'adapter-content-limit', chars: refusal.chars, contentCharsMax: refusal.contentCharsMax } };
  }

  refusalOf(uri: string): ContentLimitRefusal | undefined {
    return this.refusals.get(uri);
  }

  list(): ContentLimitRefusal[] {
    return [...this.refusals.values()].map((refusal) => ({ ...refusal }));
  }
}

export function describeRefusal(refusal: ContentLimitRefusal): string {
  return `the content of ${refusal.uri} has ${refusal.chars} characters, over the content limit of ${refusal.contentCharsMax} (contentCharsMax; raise it with the cache option config.contentCharsMax or probe --content-chars-max)`;
}

function bodyChars(uri: string, result: unknown): number | null {
  const contents = (result as { contents?: unknown } | null)?.contents;
  if (!Array.isArray(contents)) return null;
  for (const item of contents) {
    if (item === null || typeof item !== 'object' || (item as { uri?: unknown }).uri !== uri) continue;
    const { text, blob } = item as { text?: unknown; blob?: unknown };
    const body = typeof text === 'string' ? text : typeof blob === 'string' ? blob : null; // as the core picks it
    if (body !== null) return body.length;
  }
  return null;
}
