/**
 * A readable timeline of one interleaving, meant to be read without the code: one line per event, virtual
 * time first, then who acted or which way a message went, then what happened and what the client decided.
 *
 *       201 ms  server→client   notifications/resources/updated file:///a · sends read ordinal 3 #8
 *       204 ms  server→client   response #5 (read file:///a ordinal 2): content [truth v2 when served] → ACCEPT ordinal 2 > watermark 1
 *
 * - Fence decisions carry their reason: `ACCEPT ordinal 6 > watermark 5`, `STALE ordinal 5 <= watermark 6`.
 * - Ground truth (what the server really holds or served) is always inside `[truth ...]`; everything else
 *   is what the client saw or did.
 * - Noise is folded: armed timers are not shown; the client's decision, its state-machine moves
 *   (`state A → B`), the requests it sends (`sends read ordinal 3 #7`) and its outbox entries are appended
 *   to the line of the event that caused them. A URI is repeated only when it differs from the line's.
 * - The line on which an invariant breaks ends with `<== NAME`, and is followed by a `!! NAME: detail — meaning`
 *   line that explains the invariant in one sentence.
 *
 * Each line is a record (timeline-entry.ts: time, actor, kind, URIs, request ids, decision, invariants),
 * rendered to text last; focusing (timeline-focus.ts) filters the records.
 */
import { timerName, type ClientEffect, type ClientInput } from '../core/types.js';
import { invariantExplanations, type InvariantName, type Oracle } from './oracle.js';
import { nameUri, newEntry, renderEntries, urisInText, type TimelineEntry } from './timeline-entry.js';

export { explanationPrefix, renderEntries, renderEntry, violationMarker, type TimelineEntry } from './timeline-entry.js';

/** What the world knows about a response being delivered (a subset of its response message). */
interface ResponseTruth {
  resource: number;
  version: number;
  exists: boolean;
}

interface RequestInfo {
  method: string;
  uri: string;
  readOrdinal: number | undefined;
}

type Decision = Exclude<ClientEffect, { type: 'Transitioned' | 'RequestSent' | 'OutboxEntryWritten' | 'TimerArmed' | 'DerivedEntryWritten' | 'StalenessBoundPublished' | 'ScanStarted' }>;

/** What an input's line says, and what it names beyond its own URI. */
interface InputLine {
  who: string;
  text: string;
  uri: string | null;
  /** Further URIs the line names (a notification's spelling, the truth of a response), request id, listing traffic. */
  names: (string | null | undefined)[];
  requestId: number | null;
  listing: boolean;
}

export class Timeline {
  readonly entries: TimelineEntry[] = [];
  /** Requests the client sent, by id, so a response line can say what it answers. */
  private readonly requests = new Map<number, RequestInfo>();
  /** The current step: index of its first entry (-1 outside a step), whether that entry holds a decision yet, what it served. */
  private stepStart = -1;
  private stepDecided = false;
  private stepServed = '';
  /** The last state move folded into an entry, so consecutive moves chain: `state A → B → C`. */
  private lastMove: { entry: number; uri: string; to: string } | null = null;

  constructor(private readonly uris: readonly string[]) {}

  /** The timeline as text, one line per entry. */
  get lines(): string[] {
    return renderEntries(this.entries);
  }

  note(timeMs: number, text: string): void {
    this.stepStart = -1;
    const entry = this.push(timeMs, 'sim', 'note', text, null);
    for (const uri of urisInText(text)) nameUri(entry, uri);
    entry.listing = text.startsWith('[truth] list pass');
  }

  truth(timeMs: number, uri: string, version: number, exists: boolean): void {
    this.stepStart = -1;
    const entry = this.push(timeMs, 'server', 'truth', exists ? `[truth ${uri} changed to v${version}]` : `[truth ${uri} deleted (v${version})]`, uri);
    entry.deletion = !exists;
  }

  input(timeMs: number, input: ClientInput, response: ResponseTruth | null, currentSession: number): void {
    this.stepStart = this.entries.length;
    this.stepDecided = false;
    this.stepServed = response === null || response.resource < 0 || !response.exists ? '' : `${this.uris[response.resource]} v${response.version}`;
    const line = describeInput(input, response, currentSession, this.uris, this.requests);
    const entry = this.push(timeMs, line.who, 'input', line.text, line.uri);
    for (const uri of line.names) nameUri(entry, uri);
    if (line.requestId !== null) entry.requestIds.push(line.requestId);
    entry.listing = line.listing;
  }

  effects(timeMs: number, effects: readonly ClientEffect[], oracle: Oracle, violationsBefore: number): void {
    const inStep = this.stepStart >= 0;
    for (const effect of effects) this.effect(timeMs, effect, oracle);
    for (let index = violationsBefore; index < oracle.violations.length; index++) {
      const violation = oracle.violations[index]!;
      if (inStep) this.markBreakingLine(violation.invariant, violation.uri);
      const explanation = newEntry(timeMs, '', 'explanation', `${violation.invariant}: ${violation.detail} — ${invariantExplanations[violation.invariant]}`, null);
      explanation.explains = violation.invariant;
      nameUri(explanation, violation.uri);
      for (const uri of urisInText(violation.detail)) nameUri(explanation, uri);
      this.entries.push(explanation);
    }
    this.stepStart = -1;
  }

  private effect(timeMs: number, effect: ClientEffect, oracle: Oracle): void {
    switch (effect.type) {
      case 'TimerArmed':
      case 'DerivedEntryWritten':
      case 'StalenessBoundPublished':
        return;
      case 'RequestSent': {
        this.requests.set(effect.requestId, { method: effect.method, uri: effect.uri, readOrdinal: effect.readOrdinal });
        const entry = this.fold(timeMs, effect.uri, ` · sends ${describeRequest(effect.method, effect.uri, effect.readOrdinal, effect.requestId, this.lastUri())}`);
        nameUri(entry, effect.uri);
        entry.requestIds.push(effect.requestId);
        return;
      }
      case 'Transitioned': {
        const last = this.entries.length - 1;
        const move = this.lastMove;
        const lastEntry = this.entries[last];
        if (this.stepStart >= 0 && move !== null && move.entry === last && move.uri === effect.uri && move.to === effect.from && lastEntry!.text.endsWith(` → ${effect.from}`)) {
          lastEntry!.text += ` → ${effect.to}`;
        } else {
          nameUri(this.fold(timeMs, effect.uri, ` · ${effect.uri === this.lastUri() ? 'state' : effect.uri} ${effect.from} → ${effect.to}`), effect.uri);
        }
        this.lastMove = { entry: this.entries.length - 1, uri: effect.uri, to: effect.to };
        return;
      }
      case 'OutboxEntryWritten':
        nameUri(this.fold(timeMs, effect.uri, ` · outbox #${effect.sequence} ${effect.operation}${effect.uri === this.lastUri() ? '' : ` ${effect.uri}`}`), effect.uri);
        return;
      case 'ScanStarted':
        this.fold(timeMs, null, ` · scan ${effect.scanId} starts (pass ${effect.pass})`).listing = true;
        return;
      default:
        this.decision(timeMs, effect, oracle);
    }
  }

  /** The first decision about the event's own URI joins the event's line; any other gets a client line. */
  private decision(timeMs: number, effect: Decision, oracle: Oracle): void {
    const uri = 'uri' in effect ? effect.uri : null;
    const inputUri = this.stepStart >= 0 ? this.entries[this.stepStart]?.uri : undefined;
    const joins = this.stepStart >= 0 && !this.stepDecided && (uri === null || inputUri === null || uri === inputUri);
    const lineUri = joins ? (inputUri ?? uri) : null;
    let text = describeDecision(effect, lineUri);
    const named: string[] = uri === null ? [] : [uri];
    if (effect.type === 'VersionAccepted') {
      const accepted = oracle.describeContent(effect.text);
      if (!joins || accepted !== this.stepServed) {
        text += ` [truth ${contentTruth(accepted, effect.uri)}]`;
        named.push(...urisInText(accepted));
      }
    }
    named.push(...urisInText(decisionDetail(effect)));
    let entry: TimelineEntry;
    if (joins) {
      this.stepDecided = true;
      entry = this.fold(timeMs, uri, ` → ${text}`);
    } else {
      entry = this.push(timeMs, 'client', 'client', text, uri);
    }
    for (const name of named) nameUri(entry, name);
    entry.decision ??= effect.type;
    if (listingDecisions.includes(effect.type)) entry.listing = true;
  }

  private push(timeMs: number, who: string, kind: TimelineEntry['kind'], text: string, uri: string | null): TimelineEntry {
    const entry = newEntry(timeMs, who, kind, text, uri);
    this.entries.push(entry);
    return entry;
  }

  /** Appends to the last entry of the current step (or starts a client entry when there is none); returns it. */
  private fold(timeMs: number, uri: string | null, text: string): TimelineEntry {
    if (this.stepStart < 0 || this.entries.length <= this.stepStart) return this.push(timeMs, 'client', 'client', text.replace(/^ · /, ''), uri);
    const last = this.entries[this.entries.length - 1]!;
    last.text += text;
    if (last.uri === null) last.uri = uri;
    return last;
  }

  private lastUri(): string | null {
    return this.stepStart >= 0 && this.entries.length > this.stepStart ? (this.entries[this.entries.length - 1]!.uri ?? null) : null;
  }

  /** Marks the step's last entry about `uri` (or its last entry) as the one that broke `invariant`. */
  private markBreakingLine(invariant: InvariantName, uri: string): void {
    let target = -1;
    for (let index = this.entries.length - 1; index >= this.stepStart && target < 0; index--) {
      if (this.entries[index]!.uri === uri) target = index;
    }
    if (target < 0) {
      target = this.entries.length - 1;
      while (target > this.stepStart && this.entries[target]!.kind === 'explanation') target--;
    }
    const entry = this.entries[target]!;
    if (!entry.invariants.includes(invariant)) entry.invariants.push(invariant);
  }
}

/** Decisions that are resource-listing traffic. */
const listingDecisions: readonly string[] = ['CatalogPublished', 'ScanAbandoned'];

/** The free-text detail of a decision (prose from the core that may name resources). */
function decisionDetail(effect: Decision): string {
  switch (effect.type) {
    case 'ProtocolRejected':
      return effect.rejection.detail;
    case 'AuditWritten':
    case 'ScanAbandoned':
      return effect.detail;
    case 'CompletenessTaskDecided':
      return `${effect.task} ${effect.reason}`;
    case 'ContentRefused':
      return effect.reason;
    default:
      return '';
  }
}

function describeInput(
  input: ClientInput,
  response: ResponseTruth | null,
  currentSession: number,
  uris: readonly string[],
  requests: Map<number, RequestInfo>,
): InputLine {
  const line = (who: string, text: string, uri: string | null, listing = false): InputLine => ({ who, text, uri, names: [], requestId: null, listing });
  switch (input.type) {
    case 'Connected':
      return line('net→client', `connected: session ${input.sessionGeneration}${input.capabilities.subscribe ? '' : ' (server cannot subscribe: polling)'}`, null);
    case 'Disconnected':
      return line('net→client', `disconnected: session ${input.sessionGeneration} ended`, null);
    case 'SubscribeCommanded':
      return line('workload', `subscribe ${input.uri}${input.subject === undefined || input.subject === 'default' ? '' : ` as ${input.subject}`}`, input.uri);
    case 'UnsubscribeCommanded':
      return line('workload', `unsubscribe ${input.uri}`, input.uri);
    case 'DiscoverCommanded':
      return line('workload', 'discover: list all resources', null, true);
    case 'ServeCommanded':
      return line('workload', `serve ${input.uri} to ${input.subject}`, input.uri);
    case 'CompletenessTaskCommanded':
      return line('workload', `completeness task ${input.task}`, null);
    case 'AuthorizationChanged':
      return line('auth→client', `${input.subject} ${input.allowed ? 'may read' : 'may no longer read'} ${input.uri}`, input.uri);
    case 'TimerFired':
      return line('timer→client', `timer ${timerName(input.timer)} fires`, input.timer.uri, input.timer.kind === 'discover');
    case 'NotificationArrived': {
      const params = input.params as { uri?: unknown } | null;
      const uri = typeof params?.uri === 'string' ? params.uri : null;
      const method = typeof input.method === 'string' ? input.method : String(input.method);
      const old = input.sessionGeneration !== currentSession ? ` (from old session ${input.sessionGeneration}; now ${currentSession})` : '';
      return line('server→client', `${method}${uri === null ? '' : ` ${uri}`}${old}`, uri, method === 'notifications/resources/list_changed');
    }
    case 'ResponseArrived':
      return describeResponse(input, response, currentSession, uris, requests);
    default:
      return line('input', (input as { type: string }).type, null);
  }
}

function describeResponse(
  input: Extract<ClientInput, { type: 'ResponseArrived' }>,
  response: ResponseTruth | null,
  currentSession: number,
  uris: readonly string[],
  requests: Map<number, RequestInfo>,
): InputLine {
  const request = typeof input.requestId === 'number' ? requests.get(input.requestId) : undefined;
  const to = request === undefined ? '' : ` (${describeRequest(request.method, request.uri, request.readOrdinal, null, null)})`;
  const what = input.outcome.type === 'error' ? `error ${String(input.outcome.code)} ${String(input.outcome.message)}` : request?.method === 'resources/read' ? 'content' : 'ok';
  const old = input.sessionGeneration !== currentSession ? ` (on old session ${input.sessionGeneration}; now ${currentSession})` : '';
  const showsTruth = request === undefined || request.method === 'resources/read';
  const truth = showsTruth ? responseTruth(response, uris, request?.uri ?? null) : '';
  const served = showsTruth && response !== null && response.resource >= 0 ? uris[response.resource] : null;
  const errorText = input.outcome.type === 'error' ? String(input.outcome.message) : '';
  return {
    who: 'server→client',
    text: `response #${String(input.requestId)}${to}: ${what}${old}${truth}`,
    uri: request?.uri ?? null,
    names: [served, ...urisInText(errorText)],
    requestId: typeof input.requestId === 'number' ? input.requestId : null,
    listing: request?.method === 'resources/list',
  };
}

/** What the server really served; the URI is named only when it is not the one the request asked for. */
function responseTruth(response: ResponseTruth | null, uris: readonly string[], requestedUri: string | null): string {
  if (response === null || response.resource < 0) return '';
  const uri = uris[response.resource];
  const which = uri === requestedUri ? '' : `${uri} `;
  return response.exists ? ` [truth ${which}v${response.version} when served]` : ` [truth ${which}did not exist when served (v${response.version})]`;
}

/** The oracle's `uri vN` for accepted content, shortened to `vN` when it is the accepted URI's own content. */
function contentTruth(described: string, acceptedUri: string): string {
  return described.startsWith(`${acceptedUri} v`) ? described.slice(acceptedUri.length + 1) : described;
}

function describeRequest(method: string, uri: string, readOrdinal: number | undefined, requestId: number | null, lineUri: string | null): string {
  const verb = method.startsWith('resources/') ? method.slice('resources/'.length) : method;
  const target = uri === '' || uri === lineUri ? '' : ` ${uri}`;
  const ordinal = readOrdinal === undefined ? '' : ` ordinal ${readOrdinal}`;
  return `${verb}${target}${ordinal}${requestId === null ? '' : ` #${requestId}`}`;
}

/** One client decision with its reason; the URI is left out when it is the line's own (`lineUri`). */
export function describeDecision(effect: Decision, lineUri: string | null = null): string {
  const uri = 'uri' in effect && effect.uri !== lineUri && effect.uri !== '' ? ` ${effect.uri}` : '';
  switch (effect.type) {
    case 'VersionAccepted':
      return effect.readOrdinal > effect.watermarkBefore
        ? `ACCEPT${uri} ordinal ${effect.readOrdinal} > watermark ${effect.watermarkBefore}`
        : `ACCEPT${uri} ordinal ${effect.readOrdinal} although <= watermark ${effect.watermarkBefore} (no ordinal fence)`;
    case 'StaleReceiptWritten':
      return `STALE${uri} ordinal ${effect.readOrdinal} ${staleReason(effect.reason, effect.watermark)}`;
    case 'AuditWritten':
      return `AUDIT ${effect.kind}${uri}: ${effect.detail}`;
    case 'TombstonePending':
      return `TOMBSTONE pending${uri} (not-found at ordinal ${effect.readOrdinal})`;
    case 'TombstoneConfirmed':
      return `TOMBSTONE confirmed${uri}`;
    case 'SubscriptionClosed':
      return `CLOSED${uri} (${effect.outcome === 'ACKED' ? 'unsubscribe acknowledged' : 'session ended'}, close ordinal ${effect.closeOrdinal})`;
    case 'ProtocolRejected':
      return `REJECT ${effect.rejection.kind}: ${effect.rejection.detail}`;
    case 'CatalogPublished':
      return `CATALOG ${effect.status} scan ${effect.scanId}: ${effect.uris.length} URIs, staleness bound ${effect.stalenessBoundMs} ms`;
    case 'ScanAbandoned':
      return `SCAN ${effect.scanId} abandoned (${effect.reason}): ${effect.detail}`;
    case 'CompletenessTaskDecided':
      return `TASK ${effect.task} ${effect.accepted ? 'ACCEPTED' : 'REFUSED'} (catalog ${effect.catalogStatus}): ${effect.reason}`;
    case 'ContentServed':
      return `SERVE${uri} to ${effect.subject}`;
    case 'ContentRefused':
      return `REFUSE${uri} to ${effect.subject}: ${effect.reason}`;
    case 'RevocationLearned':
      return `REVOCATION learned from the ${effect.source === 'feed' ? 'authorization feed' : 'read'}: ${effect.subject} lost${uri === '' ? ' it' : uri}`;
    case 'PurgeDone':
      return `PURGE${uri} for ${effect.subject}: ${effect.invalidatedEntries} derived entries invalidated`;
    case 'ListenCancelled':
      return `LISTEN #${effect.requestId}${uri} cancelled by the client`;
  }
}

function staleReason(reason: string, watermark: number): string {
  switch (reason) {
    case 'ORDINAL':
      return `<= watermark ${watermark}: older than the accepted version, dropped`;
    case 'SESSION':
      return 'was read on an ended session, dropped';
    case 'GENERATION':
      return 'belongs to an earlier or closing subscription, dropped';
    case 'REVOKED':
      return 'arrived after access was revoked, dropped';
    default:
      return `(${reason}), dropped`;
  }
}

/** Any effect on its own line (for callers that print single effects); null for effects timelines hide. */
export function describeEffect(effect: ClientEffect): string | null {
  switch (effect.type) {
    case 'TimerArmed':
    case 'DerivedEntryWritten':
    case 'StalenessBoundPublished':
      return null;
    case 'RequestSent':
      return `sends ${describeRequest(effect.method, effect.uri, effect.readOrdinal, effect.requestId, null)}`;
    case 'Transitioned':
      return `${effect.uri} ${effect.from} → ${effect.to}`;
    case 'OutboxEntryWritten':
      return `outbox #${effect.sequence} ${effect.operation} ${effect.uri}`;
    case 'ScanStarted':
      return `scan ${effect.scanId} starts (pass ${effect.pass})`;
    default:
      return describeDecision(effect);
  }
}
