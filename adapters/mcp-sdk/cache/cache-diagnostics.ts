/** The fenced cache's diagnostics (CacheDiagnostics): what went wrong around the core, bounded lists of records. */
import type { CacheDiagnostics } from './cache-types.js';
import { classifyTransportError, describeError } from '../sim/sdk-outcomes.js';

const RECORDS_MAX = 200;

export function emptyCacheDiagnostics(): CacheDiagnostics {
  return {
    transportErrors: [],
    transportErrorCount: 0,
    adapterRejections: [],
    ignoredNotifications: {},
    closedInFlight: 0,
    requestsWithoutConnection: 0,
    connectFailures: [],
    listenerErrors: 0,
    failure: null,
  };
}

/** Appends `item`, dropping the oldest record beyond RECORDS_MAX. */
export function pushBounded<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > RECORDS_MAX) list.shift();
}

export function recordTransportError(diagnostics: CacheDiagnostics, atMs: number, sessionGeneration: number, error: Error): void {
  const message = describeError(error);
  const kind = classifyTransportError(error, message);
  diagnostics.transportErrorCount++;
  pushBounded(diagnostics.transportErrors, { atMs, sessionGeneration, kind, message });
}

/** A notification method outside what the core takes, counted by name (cut at 100 characters) and ignored. */
export function countIgnoredNotification(diagnostics: CacheDiagnostics, method: string): void {
  const counts = diagnostics.ignoredNotifications;
  const key = method.length > 100 ? method.slice(0, 100) + '…' : method;
  counts[key] = (counts[key] ?? 0) + 1;
}
