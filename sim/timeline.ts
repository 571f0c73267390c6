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
 */
import { timerName, type ClientEffect, type ClientInput } from '../core/types.js';
import { invariantExplanations, type InvariantName, type Oracle } from './oracle.js';

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

const whoWidth = 14;
/** The line that broke an invariant ends with `<== NAME`; the explanation line under it starts with `!! `. */
export const violationMarker = '<==';
export const explanationPrefix = '!! ';

export class Timeline {
  readonly lines: string[] = [];
  /** Requests the client sent, by id, so a response line can say what it answers. */
  private readonly requests = new Map<number, RequestInfo>();
  /** The current step: index of its first line (-1 outside a step), whether that line holds a decision yet, what it served. */
  private stepStart = -1;
  private stepDecided = false;
  private stepServed = '';
  /** The URI each line is about (null when none), parallel to `lines`. */
  private readonly lineUris: (string | null)[] = [];
  /** The last state move folded into a line, so consecutive moves chain: `state A → B → C`. */
  private lastMove: { line: number; uri: string; to: string } | null = null;

  constructor(private readonly uris: readonly string[]) {}

  note(timeMs: number, text: string): void {
    this.stepStart = -1;
    this.push(timeMs, 'sim', text, null);
  }

  truth(timeMs: number, uri: string, version: number, exists: boolean): void {
    this.stepStart = -1;
    this.push(timeMs, 'server', exists ? `[truth ${uri} changed to v${version}]` : `[truth ${uri} deleted (v${version})]`, uri);
  }

  input(timeMs: number, input: ClientInput, response: ResponseTruth | null, currentSession: number): void {
    this.stepStart = this.lines.length;
    this.stepDecided = false;
    this.stepServed = response === null || response.resource < 0 || !response.exists ? '' : `${this.uris[response.resource]} v${response.version}`;
    const [who, text, uri] = describeInput(input, response, currentSession, this.uris, this.requests);
    this.push(timeMs, who, text, uri);
  }

  effects(timeMs: number, effects: readonly ClientEffect[], oracle: Oracle, violationsBefore: number): void {
    const inStep = this.stepStart >= 0;
    for (const effect of effects) this.effect(timeMs, effect, oracle);
    for (let index = violationsBefore; index < oracle.violations.length; index++) {
      const violation = oracle.violations[index]!;
      if (inStep) this.markBreakingLine(violation.invariant, violation.uri);
      this.lines.push(`${' '.repeat(7)}${explanationPrefix}${violation.invariant}: ${violation.detail} — ${invariantExplanations[violation.invariant]}`);
      this.lineUris.push(null);
    }
    this.stepStart = -1;
  }

  private effect(timeMs: number, effect: ClientEffect, oracle: Oracle): void {
    switch (effect.type) {
      case 'TimerArmed':
      case 'DerivedEntryWritten':
      case 'StalenessBoundPublished':
        return;
      case 'RequestSent':
        this.requests.set(effect.requestId, { method: effect.method, uri: effect.uri, readOrdinal: effect.readOrdinal });
        this.fold(timeMs, effect.uri, ` · sends ${describeRequest(effect.method, effect.uri, effect.readOrdinal, effect.requestId, this.lastUri())}`);
        return;
      case 'Transitioned': {
        const last = this.lines.length - 1;
        const move = this.lastMove;
        if (this.stepStart >= 0 && move !== null && move.line === last && move.uri === effect.uri && move.to === effect.from && this.lines[last]!.endsWith(` → ${effect.from}`)) {
          this.lines[last] += ` → ${effect.to}`;
        } else {
          this.fold(timeMs, effect.uri, ` · ${effect.uri === this.lastUri() ? 'state' : effect.uri} ${effect.from} → ${effect.to}`);
        }
        this.lastMove = { line: this.lines.length - 1, uri: effect.uri, to: effect.to };
        return;
      }
      case 'OutboxEntryWritten':
        this.fold(timeMs, effect.uri, ` · outbox #${effect.sequence} ${effect.operation}${effect.uri === this.lastUri() ? '' : ` ${effect.uri}`}`);
        return;
      case 'ScanStarted':
        this.fold(timeMs, null, ` · scan ${effect.scanId} starts (pass ${effect.pass})`);
        return;
      default:
        this.decision(timeMs, effect, oracle);
    }
  }

  /** The first decision about the event's own URI joins the event's line; any other gets a client line. */
  private decision(timeMs: number, effect: Decision, oracle: Oracle): void {
    const uri = 'uri' in effect ? effect.uri : null;
    const inputUri = this.stepStart >= 0 ? this.lineUris[this.stepStart] : undefined;
    const joins = this.stepStart >= 0 && !this.stepDecided && (uri === null || inputUri === null || uri === inputUri);
    const lineUri = joins ? (inputUri ?? uri) : null;
    let text = describeDecision(effect, lineUri);
    if (effect.type === 'VersionAccepted') {
      const accepted = oracle.describeContent(effect.text);
      if (!joins || accepted !== this.stepServed) text += ` [truth ${contentTruth(accepted, effect.uri)}]`;
    }
    if (joins) {
      this.stepDecided = true;
      this.fold(timeMs, uri, ` → ${text}`);
    } else {
      this.push(timeMs, 'client', text, uri);
    }
  }

  private push(timeMs: number, who: string, text: string, uri: string | null): void {
    this.lines.push(`${String(timeMs).padStart(7)} ms  ${who.padEnd(whoWidth)}  ${text}`);
    this.lineUris.push(uri);
  }

  /** Appends to the last line of the current step (or starts a client line when there is none). */
  private fold(timeMs: number, uri: string | null, text: string): void {
    if (this.stepStart < 0 || this.lines.length <= this.stepStart) {
      this.push(timeMs, 'client', text.replace(/^ · /, ''), uri);
      return;
    }
    const last = this.lines.length - 1;
    this.lines[last] += text;
    if (this.lineUris[last] === null) this.lineUris[last] = uri;
  }

  private lastUri(): string | null {
    return this.stepStart >= 0 && this.lines.length > this.stepStart ? (this.lineUris[this.lines.length - 1] ?? null) : null;
  }

  /** Marks the step's last line about `uri` (or its last line) as the one that broke `invariant`. */
  private markBreakingLine(invariant: InvariantName, uri: string): void {
    let target = -1;
    for (let index = this.lines.length - 1; index >= this.stepStart && target < 0; index--) {
      if (this.lineUris[index] === uri) target = index;
    }
    if (target < 0) {
      target = this.lines.length - 1;
      while (target > this.stepStart && this.lines[target]!.trimStart().startsWith(explanationPrefix)) target--;
    }
    const line = this.lines[target]!;
    if (!line.includes(`${violationMarker} ${invariant}`)) this.lines[target] = `${line}   ${violationMarker} ${invariant}`;
  }
}

function describeInput(
  input: ClientInput,
  response: ResponseTruth | null,
  currentSession: number,
  uris: readonly string[],
  requests: Map<number, RequestInfo>,
): [who: string, text: string, uri: string | null] {
  switch (input.type) {
    case 'Connected':
      return ['net→client', `connected: session ${input.sessionGeneration}${input.capabilities.subscribe ? '' : ' (server cannot subscribe: polling)'}`, null];
    case 'Disconnected':
      return ['net→client', `disconnected: session ${input.sessionGeneration} ended`, null];
    case 'SubscribeCommanded':
      return ['workload', `subscribe ${input.uri}${input.subject === undefined || input.subject === 'default' ? '' : ` as ${input.subject}`}`, input.uri];
    case 'UnsubscribeCommanded':
      return ['workload', `unsubscribe ${input.uri}`, input.uri];
    case 'DiscoverCommanded':
      return ['workload', 'discover: list all resources', null];
    case 'ServeCommanded':
      return ['workload', `serve ${input.uri} to ${input.subject}`, input.uri];
    case 'CompletenessTaskCommanded':
      return ['workload', `completeness task ${input.task}`, null];
    case 'AuthorizationChanged':
      return ['auth→client', `${input.subject} ${input.allowed ? 'may read' : 'may no longer read'} ${input.uri}`, input.uri];
    case 'TimerFired':
      return ['timer→client', `timer ${timerName(input.timer)} fires`, input.timer.uri];
    case 'NotificationArrived': {
      const params = input.params as { uri?: unknown } | null;
      const uri = typeof params?.uri === 'string' ? params.uri : null;
      const method = typeof input.method === 'string' ? input.method : String(input.method);
      const old = input.sessionGeneration !== currentSession ? ` (from old session ${input.sessionGeneration}; now ${currentSession})` : '';
      return ['server→client', `${method}${uri === null ? '' : ` ${uri}`}${old}`, uri];
    }
    case 'ResponseArrived': {
      const request = typeof input.requestId === 'number' ? requests.get(input.requestId) : undefined;
      const to = request === undefined ? '' : ` (${describeRequest(request.method, request.uri, request.readOrdinal, null, null)})`;
      const what = input.outcome.type === 'error' ? `error ${String(input.outcome.code)} ${String(input.outcome.message)}` : request?.method === 'resources/read' ? 'content' : 'ok';
      const old = input.sessionGeneration !== currentSession ? ` (on old session ${input.sessionGeneration}; now ${currentSession})` : '';
      const truth = request === undefined || request.method === 'resources/read' ? responseTruth(response, uris, request?.uri ?? null) : '';
      return ['server→client', `response #${String(input.requestId)}${to}: ${what}${old}${truth}`, request?.uri ?? null];
    }
    default:
      return ['input', (input as { type: string }).type, null];
  }
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
