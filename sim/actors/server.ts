/**
 * The simulated MCP server's ground truth: resources with content, MIME type and an ACL per subject, a
 * truth version counter per URI that increases across delete and re-create, and per-session subscription
 * sets. A restart loses every session; resources persist. Listing lives in listing.ts.
 */
import type { ResponseOutcome } from '../../core/types.js';
import type { ResourceSpec } from '../plan.js';

/** The authorization principals of the workload; a resource is read (and served) as exactly one of them. */
export const subjects = ['alice', 'bob'] as const;
const everySubjectMask = (1 << subjects.length) - 1;

/** Index of a subject name, or -1 for a name the server does not know. */
export function subjectIndexOf(subject: unknown): number {
  return subject === 'alice' ? 0 : subject === 'bob' ? 1 : -1;
}

/** JSON-RPC codes the server answers with. */
export const permissionDeniedCode = -32003;
export const methodNotFoundCode = -32601;
export const invalidParamsCode = -32602;

export interface ServerSession {
  generation: number;
  alive: boolean;
  /** Per resource index: subscribed in this session. */
  subscribed: Uint8Array;
  /** Client-to-server messages are FIFO per session (one pipe): the last arrival time. */
  clientToServerLastMs: number;
  /** Server-to-client FIFO for messages that are not reordered or slowed. */
  serverToClientLastMs: number;
  /** The client crashed while this session was alive: its responses may surface after this time (-1: no crash). */
  strandAfterMs: number;
}

export interface ReadAnswer {
  outcome: ResponseOutcome;
  resource: number;
  version: number;
  exists: boolean;
  /** The subject denied access (-1: not denied). */
  deniedSubject: number;
}

export class ServerModel {
  readonly uris: string[];
  readonly mimeTypes: string[];
  /** Display names for listings (last path segment). */
  readonly names: string[];
  readonly exists: Uint8Array;
  readonly version: Int32Array;
  readonly content: string[];
  /** Per resource: bit s set = subject s may read it. */
  readonly allowed: Uint8Array;
  /** Resource indices in ascending URI order (the listing order). */
  readonly sortedOrder: Int32Array;
  /** Per resource: the live list index shows it from this time on (list-index-lag after a re-create; 0: at once). */
  readonly listedFromMs: Float64Array;
  readonly sessions: ServerSession[] = [];
  restarts = 0;
  /** After a restart, requests arriving before this time fail with -32603. */
  warmingUntilMs = 0;
  private readonly indexByUri = new Map<string, number>();

  constructor(resources: readonly ResourceSpec[]) {
    this.uris = resources.map((resource) => resource.uri);
    this.mimeTypes = resources.map((resource) => resource.mimeType);
    this.names = this.uris.map((uri) => uri.slice(uri.lastIndexOf('/') + 1) || uri);
    this.exists = new Uint8Array(resources.length).fill(1);
    this.version = new Int32Array(resources.length).fill(1);
    this.content = this.uris.map((uri) => contentFor(uri, 1));
    this.allowed = new Uint8Array(resources.length).fill(everySubjectMask);
    this.uris.forEach((uri, index) => this.indexByUri.set(uri, index));
    const order = this.uris.map((_, index) => index).sort((a, b) => (this.uris[a]! < this.uris[b]! ? -1 : this.uris[a]! > this.uris[b]! ? 1 : a - b));
    this.sortedOrder = Int32Array.from(order);
    this.listedFromMs = new Float64Array(resources.length);
  }

  /**
   * Resource index for a request URI: its own spelling or one it made (`alias`; actors/spelling.ts), so the
   * server compares spellings by what it knows, never with the client's canonicaliser.
   */
  lookup(uri: unknown): number {
    if (typeof uri !== 'string') return -1;
    return this.indexByUri.get(uri) ?? -1;
  }

  /** The server spelled `resource` as `spelling` (an equivalent spelling it made). */
  alias(spelling: string, resource: number): void {
    this.indexByUri.set(spelling, resource);
  }

  openSession(generation: number, nowMs: number): ServerSession {
    const session: ServerSession = {
      generation,
      alive: true,
      subscribed: new Uint8Array(this.uris.length),
      clientToServerLastMs: nowMs,
      serverToClientLastMs: nowMs,
      strandAfterMs: -1,
    };
    this.sessions[generation] = session;
    return session;
  }

  /** Edit (or re-create) a resource: new truth version, new content. */
  write(resource: number): void {
    const version = this.version[resource]! + 1;
    this.version[resource] = version;
    this.exists[resource] = 1;
    this.content[resource] = contentFor(this.uris[resource]!, version);
  }

  /** Delete: the truth version still increases, so a re-create is always newer. */
  delete(resource: number): void {
    this.version[resource] = this.version[resource]! + 1;
    this.exists[resource] = 0;
  }

  mayRead(resource: number, subject: number): boolean {
    return subject >= 0 && (this.allowed[resource]! & (1 << subject)) !== 0;
  }

  revoke(resource: number, subject: number): void {
    this.allowed[resource] = this.allowed[resource]! & ~(1 << subject);
  }

  /**
   * A read. `subject` is the principal the request names: undefined when the client names none (no
   * authorization check), otherwise it must be on the resource's ACL (checked before existence, so a
   * denied subject learns nothing about the resource).
   */
  read(uri: unknown, spelledUri: string | null, subject: unknown): ReadAnswer {
    const resource = this.lookup(uri);
    if (resource >= 0 && subject !== undefined) {
      const index = subjectIndexOf(subject);
      if (!this.mayRead(resource, index)) {
        return {
          outcome: { type: 'error', code: permissionDeniedCode, message: 'Permission denied', data: { uri, subject } },
          resource,
          version: this.version[resource]!,
          exists: this.exists[resource] === 1,
          deniedSubject: index,
        };
      }
    }
    if (resource < 0 || this.exists[resource] === 0) {
      return {
        outcome: { type: 'error', code: -32002, message: 'Resource not found', data: { uri } },
        resource,
        version: resource < 0 ? 0 : this.version[resource]!,
        exists: false,
        deniedSubject: -1,
      };
    }
    return {
      outcome: {
        type: 'result',
        result: {
          contents: [{ uri: spelledUri ?? this.uris[resource]!, mimeType: this.mimeTypes[resource]!, text: this.content[resource]! }],
        },
      },
      resource,
      version: this.version[resource]!,
      exists: true,
      deniedSubject: -1,
    };
  }
}

/** Content is unique per (URI, version), so the oracle can map accepted content back to the truth. */
export function contentFor(uri: string, version: number): string {
  return `${uri}\nversion ${version}\n`;
}

const versionMarker = '\nversion ';

/** The inverse of contentFor: the URI and version a text names, or null when it is not in that form. */
export function parseContent(text: unknown): { uri: string; version: number } | null {
  if (typeof text !== 'string' || text.charCodeAt(text.length - 1) !== 10) return null;
  const marker = text.lastIndexOf(versionMarker);
  if (marker < 0) return null;
  const start = marker + versionMarker.length;
  const end = text.length - 1;
  if (end <= start || end - start > 9 || text.charCodeAt(start) === 48) return null; // no leading zeros
  let version = 0;
  for (let index = start; index < end; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return null;
    version = version * 10 + digit;
  }
  return { uri: text.slice(0, marker), version };
}
