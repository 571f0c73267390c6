/**
 * The simulated MCP server's ground truth: resources with content and MIME type, a truth version counter
 * per URI that increases across delete and re-create, and per-session subscription sets. A restart loses
 * every session; resources persist.
 */
import { canonicalizeUri } from '../core/uri.js';
import type { ResponseOutcome } from '../core/types.js';
import type { ResourceSpec } from './plan.js';

export interface ServerSession {
  generation: number;
  alive: boolean;
  /** Per resource index: subscribed in this session. */
  subscribed: Uint8Array;
  /** Client-to-server messages are FIFO per session (one pipe): the last arrival time. */
  clientToServerLastMs: number;
  /** Server-to-client FIFO for messages that are not reordered or slowed. */
  serverToClientLastMs: number;
}

export interface ReadAnswer {
  outcome: ResponseOutcome;
  resource: number;
  version: number;
  exists: boolean;
}

export class ServerModel {
  readonly uris: string[];
  readonly mimeTypes: string[];
  readonly exists: Uint8Array;
  readonly version: Int32Array;
  readonly content: string[];
  readonly sessions: ServerSession[] = [];
  restarts = 0;
  /** After a restart, requests arriving before this time fail with -32603. */
  warmingUntilMs = 0;
  private readonly indexByUri = new Map<string, number>();

  constructor(resources: readonly ResourceSpec[]) {
    this.uris = resources.map((resource) => resource.uri);
    this.mimeTypes = resources.map((resource) => resource.mimeType);
    this.exists = new Uint8Array(resources.length).fill(1);
    this.version = new Int32Array(resources.length).fill(1);
    this.content = this.uris.map((uri) => contentFor(uri, 1));
    this.uris.forEach((uri, index) => this.indexByUri.set(uri, index));
  }

  /** Resource index for a request URI: servers validate URIs and compare them canonically. */
  lookup(uri: unknown): number {
    if (typeof uri !== 'string') return -1;
    const direct = this.indexByUri.get(uri);
    if (direct !== undefined) return direct;
    const canonical = canonicalizeUri(uri);
    return canonical.ok ? (this.indexByUri.get(canonical.uri) ?? -1) : -1;
  }

  openSession(generation: number, nowMs: number): ServerSession {
    const session: ServerSession = {
      generation,
      alive: true,
      subscribed: new Uint8Array(this.uris.length),
      clientToServerLastMs: nowMs,
      serverToClientLastMs: nowMs,
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

  read(uri: unknown, spelledUri: string | null): ReadAnswer {
    const resource = this.lookup(uri);
    if (resource < 0 || this.exists[resource] === 0) {
      return {
        outcome: { type: 'error', code: -32002, message: 'Resource not found', data: { uri } },
        resource,
        version: resource < 0 ? 0 : this.version[resource]!,
        exists: false,
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
    };
  }
}

/** Content is unique per (URI, version), so the oracle can map accepted content back to the truth. */
export function contentFor(uri: string, version: number): string {
  return `${uri}\nversion ${version}\n`;
}

/** An equivalent spelling of a canonical URI (upper-case scheme, or an unreserved letter percent-encoded). */
export function respell(uri: string, variant: number): string {
  const colon = uri.indexOf(':');
  if (variant % 2 === 0 && colon > 0) return uri.slice(0, colon).toUpperCase() + uri.slice(colon);
  const slash = uri.lastIndexOf('/');
  for (let index = slash + 1; index < uri.length; index++) {
    const code = uri.charCodeAt(index);
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) {
      return uri.slice(0, index) + '%' + code.toString(16).toUpperCase() + uri.slice(index + 1);
    }
  }
  return colon > 0 ? uri.slice(0, colon).toUpperCase() + uri.slice(colon) : uri;
}
