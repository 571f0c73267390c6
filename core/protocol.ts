/**
 * Validation of untrusted protocol input. Nothing here throws: malformed input becomes a typed Rejection.
 */
import { canonicalizeUri } from './uri.js';
import type { ContentEncoding, Rejection, ResponseOutcome } from './types.js';

/** JSON-RPC -32002: resource not found (MCP 2025-11-25). */
export const resourceNotFoundCode = -32002;
/** JSON-RPC -32602: invalid params; MCP 2026-07-28 uses it for resource-not-found. */
export const invalidParamsCode = -32602;

/**
 * Longest string the core keeps in its durable ledger from a field the server or caller fills in (MIME
 * type, snapshot ID, subject): longer ones are rejected, so one message cannot grow the ledger by more.
 */
export const LEDGER_TEXT_CHARS_MAX = 1024;

/** An accepted read body: the text, or the base64 characters of a blob, with its MIME type. */
export interface ReadContent {
  text: string;
  encoding: ContentEncoding;
  mimeType: string;
}

export type ReadOutcome =
  | ({ type: 'content' } & ReadContent)
  | { type: 'not-found' }
  | { type: 'failed'; code: number; message: string }
  | { type: 'rejected'; rejection: Rejection };

export type UriCheck = { ok: true; uri: string } | { ok: false; rejection: Rejection };

export function checkUri(value: unknown, where: string): UriCheck {
  if (typeof value !== 'string') {
    return { ok: false, rejection: { kind: 'InvalidUri', detail: `${where}: uri must be a string, got ${typeName(value)}` } };
  }
  const canonical = canonicalizeUri(value);
  if (!canonical.ok) {
    return { ok: false, rejection: { kind: 'InvalidUri', detail: `${where}: ${canonical.error.reason}` } };
  }
  return canonical; // `{ ok: true, uri }` already (often the memo's frozen answer): no copy per check

}

/**
 * `checkUri` of `<list>[<index>].uri`, the place named only in a rejection (a hot loop formats nothing for
 * the URIs that pass).
 */
export function checkUriAt(value: unknown, list: string, index: number): UriCheck {
  if (typeof value === 'string') {
    const canonical = canonicalizeUri(value);
    if (canonical.ok) return canonical;
  }
  return checkUri(value, `${list}[${index}].uri`);
}

/** Is this error outcome a resource-not-found (either code MCP has used for it)? */
export function isNotFound(code: unknown, message: unknown): boolean {
  if (code === resourceNotFoundCode) return true;
  return code === invalidParamsCode && typeof message === 'string' && /not found/i.test(message);
}

/**
 * Interprets a `resources/read` outcome for the requested canonical URI. The content item must be for an
 * equivalent URI (sub-resources are not accepted as the resource itself).
 */
export function interpretRead(outcome: ResponseOutcome, requestedUri: string, contentCharsMax: number): ReadOutcome {
  if (outcome.type === 'error') {
    if (isNotFound(outcome.code, outcome.message)) return { type: 'not-found' };
    if (typeof outcome.code !== 'number' || !Number.isInteger(outcome.code)) {
      return rejected('MalformedResponse', `resources/read error: code must be an integer, got ${typeName(outcome.code)}`);
    }
    const message = typeof outcome.message === 'string' ? outcome.message : '';
    return { type: 'failed', code: outcome.code, message };
  }
  const result = outcome.result;
  if (!isObject(result)) return rejected('MalformedResponse', `resources/read result must be an object, got ${typeName(result)}`);
  const contents = result.contents;
  if (!Array.isArray(contents)) {
    return rejected('MalformedResponse', `resources/read result.contents must be an array, got ${typeName(contents)}`);
  }
  if (contents.length === 0) return rejected('MalformedResponse', 'resources/read result.contents is empty');
  let mismatch: string | null = null;
  for (let index = 0; index < contents.length; index++) {
    const item: unknown = contents[index];
    if (!isObject(item)) return rejected('MalformedResponse', `contents[${index}] must be an object, got ${typeName(item)}`);
    const uri = checkUriAt(item.uri, 'contents', index);
    if (!uri.ok) return { type: 'rejected', rejection: uri.rejection };
    if (uri.uri !== requestedUri) {
      mismatch = uri.uri;
      continue;
    }
    const encoding: ContentEncoding | null = typeof item.text === 'string' ? 'text' : typeof item.blob === 'string' ? 'blob' : null;
    if (encoding === null) return rejected('MalformedResponse', `contents[${index}] has neither a string text nor a string blob`);
    const body = (encoding === 'text' ? item.text : item.blob) as string;
    if (body.length > contentCharsMax) {
      return rejected('ContentTooLarge', `contents[${index}] has ${body.length} characters, more than ${contentCharsMax}`);
    }
    if (encoding === 'blob' && !isBase64(body)) return rejected('MalformedResponse', `contents[${index}].blob is not base64`);
    const mimeType = item.mimeType === undefined ? 'application/octet-stream' : item.mimeType;
    if (typeof mimeType !== 'string') {
      return rejected('MalformedResponse', `contents[${index}].mimeType must be a string, got ${typeName(mimeType)}`);
    }
    if (mimeType.length > LEDGER_TEXT_CHARS_MAX) {
      return rejected('MalformedResponse', `contents[${index}].mimeType has ${mimeType.length} characters, more than ${LEDGER_TEXT_CHARS_MAX}`);
    }
    return { type: 'content', text: body, encoding, mimeType };
  }
  return rejected('ContentUriMismatch', `no content item for ${requestedUri} (got ${mismatch})`);
}

export type NotificationCheck =
  | { type: 'updated'; uri: string }
  | { type: 'list-changed' }
  | { type: 'rejected'; rejection: Rejection };

export function interpretNotification(method: unknown, params: unknown): NotificationCheck {
  if (method === 'notifications/resources/updated') {
    if (!isObject(params)) {
      return { type: 'rejected', rejection: { kind: 'MalformedNotification', detail: `resources/updated params must be an object, got ${typeName(params)}` } };
    }
    const uri = checkUri(params.uri, 'resources/updated params.uri');
    if (!uri.ok) return { type: 'rejected', rejection: uri.rejection };
    return { type: 'updated', uri: uri.uri };
  }
  if (method === 'notifications/resources/list_changed') return { type: 'list-changed' };
  const name = typeof method === 'string' ? method : typeName(method);
  return { type: 'rejected', rejection: { kind: 'UnknownNotification', detail: `unknown notification method ${name.slice(0, 200)}` } };
}

/** RFC 4648 base64 (standard alphabet, padded); one linear regular-expression pass, no backtracking. */
function isBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

function rejected(kind: Rejection['kind'], detail: string): ReadOutcome {
  return { type: 'rejected', rejection: { kind, detail } };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Request ids arrive as JSON: accept positive safe integers only. */
export function checkRequestId(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}
