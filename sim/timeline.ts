/**
 * A readable timeline of one interleaving: one line per event, virtual time first, who acted, what was
 * sent or decided, with ground truth shown as `[truth ...]`. The line on which an invariant breaks is
 * followed by a `!!` line naming the invariant and explaining it in one sentence.
 */
import type { ClientEffect, ClientInput } from '../core/types.js';
import { invariantExplanations, type Oracle } from './oracle.js';

interface ResponseTruth {
  resource: number;
  version: number;
  exists: boolean;
}

export class Timeline {
  readonly lines: string[] = [];

  constructor(private readonly uris: readonly string[]) {}

  private push(timeMs: number, who: string, text: string): void {
    this.lines.push(`${String(timeMs).padStart(7)} ms  ${who.padEnd(15)} ${text}`);
  }

  note(timeMs: number, text: string): void {
    this.push(timeMs, 'sim', text);
  }

  truth(timeMs: number, uri: string, version: number, exists: boolean): void {
    this.push(timeMs, 'server', `[truth] ${uri} is now v${version}${exists ? '' : ' (deleted)'}`);
  }

  input(timeMs: number, input: ClientInput, response: ResponseTruth | null, currentSession: number): void {
    switch (input.type) {
      case 'Connected':
        this.push(timeMs, 'net', `connected: session ${input.sessionGeneration}`);
        break;
      case 'Disconnected':
        this.push(timeMs, 'net', `disconnected: session ${input.sessionGeneration}`);
        break;
      case 'SubscribeCommanded':
      case 'UnsubscribeCommanded':
        this.push(timeMs, 'workload', `${input.type === 'SubscribeCommanded' ? 'subscribe' : 'unsubscribe'} ${input.uri}`);
        break;
      case 'NotificationArrived': {
        const uri = (input.params as { uri?: unknown } | null)?.uri;
        const old = input.sessionGeneration !== currentSession ? ` (old session ${input.sessionGeneration})` : '';
        this.push(timeMs, 'server→client', `notifications/resources/updated ${String(uri)}${old}`);
        break;
      }
      case 'ResponseArrived': {
        const truth =
          response === null || response.resource < 0
            ? ''
            : response.exists
              ? ` [truth ${this.uris[response.resource]} v${response.version} at serve time]`
              : ` [truth ${this.uris[response.resource]} absent, v${response.version}]`;
        const what = input.outcome.type === 'error' ? `error ${String(input.outcome.code)}` : 'result';
        this.push(timeMs, 'server→client', `response #${String(input.requestId)} ${what}${truth}`);
        break;
      }
      case 'TimerFired':
        this.push(timeMs, 'client timer', input.timerKey);
        break;
      default:
        this.push(timeMs, 'input', input.type);
    }
  }

  effects(timeMs: number, effects: readonly ClientEffect[], oracle: Oracle, violationsBefore: number): void {
    for (const effect of effects) {
      const line = describeEffect(effect);
      if (line === null) continue;
      const truth = effect.type === 'VersionAccepted' ? oracle.describeContent(effect.text) : '';
      this.push(timeMs, 'client', truth === '' ? line : `${line} [truth ${truth}]`);
    }
    for (let index = violationsBefore; index < oracle.violations.length; index++) {
      const violation = oracle.violations[index]!;
      this.lines.push(`${' '.repeat(12)}!! ${violation.invariant}: ${violation.detail} — ${invariantExplanations[violation.invariant]}`);
    }
  }
}

export function describeEffect(effect: ClientEffect): string | null {
  switch (effect.type) {
    case 'RequestSent':
      return effect.readOrdinal === undefined
        ? `→ ${effect.method} ${effect.uri} (request #${effect.requestId}, session ${effect.sessionGeneration})`
        : `→ ${effect.method} ${effect.uri} ordinal ${effect.readOrdinal} (${effect.reason}, request #${effect.requestId})`;
    case 'VersionAccepted':
      return `ACCEPT ${effect.uri} ordinal ${effect.readOrdinal} > watermark ${effect.watermarkBefore} (digest ${effect.digest.slice(0, 12)})`;
    case 'StaleReceiptWritten':
      return effect.reason === 'ORDINAL'
        ? `STALE ${effect.uri} ordinal ${effect.readOrdinal} <= watermark ${effect.watermark}`
        : `STALE ${effect.uri} ordinal ${effect.readOrdinal} (${effect.reason.toLowerCase()} mismatch)`;
    case 'AuditWritten':
      return `AUDIT ${effect.kind} ${effect.uri} ${effect.detail}`;
    case 'TombstonePending':
      return `TOMBSTONE_PENDING ${effect.uri} ordinal ${effect.readOrdinal}`;
    case 'TombstoneConfirmed':
      return `TOMBSTONE_CONFIRMED ${effect.uri}`;
    case 'OutboxEntryWritten':
      return `outbox #${effect.sequence} ${effect.operation} ${effect.uri}`;
    case 'SubscriptionClosed':
      return `CLOSED ${effect.uri} (${effect.outcome}, close ordinal ${effect.closeOrdinal})`;
    case 'Transitioned':
      return `${effect.uri}: ${effect.from} → ${effect.to} (${effect.event})`;
    case 'ProtocolRejected':
      return `REJECT ${effect.rejection.kind}: ${effect.rejection.detail}`;
    case 'TimerArmed':
      return null;
    case 'DerivedEntryWritten':
      return `derived entry ${effect.entryId} (${effect.subject})`;
    case 'CatalogPublished':
      return `CATALOG ${effect.status} scan ${effect.scanId}: ${effect.uris.length} URIs, staleness bound ${effect.stalenessBoundMs} ms`;
    case 'ScanStarted':
      return `scan ${effect.scanId} started (pass ${effect.pass})`;
    case 'ScanAbandoned':
      return `scan ${effect.scanId} ABANDONED ${effect.reason}: ${effect.detail}`;
    case 'CompletenessTaskDecided':
      return `completeness task ${effect.task} ${effect.accepted ? 'ACCEPTED' : 'REFUSED'} (catalog ${effect.catalogStatus}): ${effect.reason}`;
    case 'ContentServed':
      return `SERVE ${effect.uri} to ${effect.subject}`;
    case 'ContentRefused':
      return `REFUSE ${effect.uri} to ${effect.subject}: ${effect.reason}`;
    case 'RevocationLearned':
      return `REVOCATION learned (${effect.source}): ${effect.subject} lost ${effect.uri}`;
    case 'PurgeDone':
      return `PURGED ${effect.uri} for ${effect.subject}, ${effect.invalidatedEntries} derived entries invalidated`;
    case 'StalenessBoundPublished':
      return `staleness bound ${effect.uri}: ${effect.boundMs} ms (${effect.mode})`;
  }
}
