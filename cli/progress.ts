/**
 * Progress of a long run, on stderr. On a terminal: one live line (bar, count, rate, ETA) redrawn at
 * most every `redrawEveryMs` and erased at the end. Elsewhere (CI logs, pipes): one plain line each
 * time another tenth of the run is done, so logs stay short and readable.
 */
import { duration, grouped, perSecond } from './format.js';
import type { Io } from './io.js';

export interface Progress {
  /** `done` of `total` interleavings are finished. Calls with a smaller or equal `done` are ignored. */
  update(done: number): void;
  /** The run is over: erase the live line (terminal) or do nothing (plain). */
  finish(): void;
}

const redrawEveryMs = 100;
const barWidthMax = 30;
/** Room kept for the text after the bar: percent, counts, label, rate and ETA. */
const textColumnsReserved = 64;

export function createProgress(io: Io, total: number, label: string): Progress {
  const startMs = io.nowMs();
  let done = 0;
  let lastDrawMs = -Infinity;
  let lastTenth = 0;
  return {
    update(now: number): void {
      if (now <= done) return;
      done = now;
      const elapsedMs = io.nowMs() - startMs;
      if (io.stderrIsTty) {
        if (elapsedMs - lastDrawMs < redrawEveryMs && done < total) return;
        lastDrawMs = elapsedMs;
        io.stderr(`\r${liveLine(label, done, total, elapsedMs, io.stderrColumns)}\x1b[K`);
        return;
      }
      const tenth = Math.floor((done * 10) / total);
      if (tenth <= lastTenth) return;
      lastTenth = tenth;
      io.stderr(`${plainLine(label, done, total, elapsedMs)}\n`);
    },
    finish(): void {
      if (io.stderrIsTty && lastDrawMs > -Infinity) io.stderr('\r\x1b[K');
    },
  };
}

function rateAndEta(done: number, total: number, elapsedMs: number): string {
  const rate = perSecond(done, elapsedMs);
  const eta = done >= total ? `done in ${duration(elapsedMs)}` : rate > 0 ? `ETA ${duration(((total - done) / rate) * 1_000)}` : 'ETA ?';
  return `${grouped(rate)}/s, ${eta}`;
}

export function liveLine(label: string, done: number, total: number, elapsedMs: number, terminalColumns: number): string {
  const percent = Math.floor((done * 100) / total);
  const text = ` ${String(percent).padStart(3)}% ${grouped(done)}/${grouped(total)} ${label}  ${rateAndEta(done, total, elapsedMs)}`;
  // The bar's width depends on the terminal only, so it does not jitter as the numbers grow.
  const barWidth = Math.min(barWidthMax, terminalColumns - textColumnsReserved);
  if (barWidth < 5) return text.trimStart().slice(0, Math.max(40, terminalColumns - 1));
  const filled = Math.floor((done * barWidth) / total);
  return `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]${text}`;
}

export function plainLine(label: string, done: number, total: number, elapsedMs: number): string {
  const percent = Math.floor((done * 100) / total);
  return `progress: ${percent}% (${grouped(done)}/${grouped(total)} ${label}, ${rateAndEta(done, total, elapsedMs)})`;
}
