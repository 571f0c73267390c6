/**
 * malformed-read-response: a `resources/read` answer that breaks the schema, made by construction from the
 * real answer (SPEC §11: the client records a typed rejection and accepts nothing from it). Where the shape
 * allows, the broken answer still carries the resource's current text, so a parser that is lenient about the
 * broken part accepts fresh-looking content: only the rule can catch it (sim/checkers/answers.ts,
 * `malformed_read_accepted`), not staleness. The kind is drawn (a shrunk failure keeps only the firing and the
 * kind that matter):
 *
 * | kind | what the answer is |
 * |---|---|
 * | result-not-object | `result` is the contents array itself |
 * | contents-not-array | `contents` is the content item itself |
 * | contents-empty | `contents: []` |
 * | item-not-object | `contents: [text]` |
 * | item-without-uri | the item has text and mimeType, no uri |
 * | item-uri-not-string | `uri: 42` |
 * | item-uri-invalid | the URI with a space in it (not a URI: RFC 3986) |
 * | item-without-body | the item has uri and mimeType, neither text nor blob |
 * | text-not-string | `text: 42`, no blob |
 * | blob-not-base64 | `blob` holds the text, which is not base64 (it has spaces and newlines) |
 * | mime-not-string | `mimeType: 42` |
 * | mime-too-long | a mimeType longer than a ledger text (core/protocol.ts LEDGER_TEXT_CHARS_MAX) |
 * | other-item-only | well-formed, but its only item is another resource of the plan (uri and text): no content for the URI read |
 * | other-item-first | well-formed: another resource's item, then the requested one (which must be found and accepted) |
 * | result-null | `result: null` |
 * | body-too-long | the text with more characters appended than the default contentCharsMax (core/config.ts) allows |
 * | blob-bad-length | `blob` holds base64 characters only, but not a multiple of 4 of them (its padding dropped, or one added) |
 * | blob-valid | well-formed: the text as a base64 `blob` (padded as its length makes it), which must be accepted |
 * | mime-absent | well-formed: no mimeType (application/octet-stream), which must be accepted |
 * | mime-at-limit | well-formed: a mimeType of exactly LEDGER_TEXT_CHARS_MAX characters, which must be accepted |
 * | error-code-not-integer | an error answer whose code is 1.5 (JSON-RPC codes are integers) |
 * | error-internal-not-found | an error -32603 whose message says "not found": a failure, not a not-found (no tombstone) |
 * | error-invalid-params | an error -32602 whose message does not say "not found": a failure, not a not-found |
 * | error-message-not-string | an error -32602 whose message is `["Resource not found"]`: a failure, not a not-found |
 *
 * `other-item-only` and `other-item-first` are well-formed answers a careless parser gets wrong: taking
 * `contents[0]` accepts another resource's content (`uri_confusion`). The first must still be refused
 * (ContentUriMismatch) and the second accepted. With a single-resource plan both fall back to `contents-empty`.
 * The error kinds replace a content answer: the client learns nothing from them (no version, no tombstone).
 *
 * Besides, a not-found answer (-32002) is spelled sometimes as MCP 2026-07-28 and the SDK's McpServer spell it
 * (`not-found-invalid-params`: -32602 "Resource <uri> not found"), which must be taken as a not-found all the same.
 *
 * What the client must make of each kind is `readAnswerExpectations` (judged in sim/checkers/answers.ts).
 */
import type { Rejection, ResponseOutcome } from '../../core/types.js';
import { LEDGER_TEXT_CHARS_MAX, invalidParamsCode } from '../../core/protocol.js';
import { defaultClientConfig } from '../../core/types.js';
import type { ServerModel } from './server.js';

export const malformedReadKinds = [
  'result-not-object',
  'contents-not-array',
  'contents-empty',
  'item-not-object',
  'item-without-uri',
  'item-uri-not-string',
  'item-uri-invalid',
  'item-without-body',
  'text-not-string',
  'blob-not-base64',
  'mime-not-string',
  'mime-too-long',
  'other-item-only',
  'other-item-first',
  'result-null',
  'body-too-long',
  'blob-bad-length',
  'blob-valid',
  'mime-absent',
  'mime-at-limit',
  'error-code-not-integer',
  'error-internal-not-found',
  'error-invalid-params',
  'error-message-not-string',
] as const;
export type MalformedReadKind = (typeof malformedReadKinds)[number] | 'not-found-invalid-params' | typeof transientErrorKind;

/** read-error (sim/actors/serving.ts): a transient server error in place of content; the client takes nothing from it and rejects nothing. */
export const transientErrorKind = 'transient-error';

/**
 * What the client must make of an answer of each kind: `accept` (well-formed: content or not-found, taken as such
 * or fenced off, never rejected), `fail` (an error: nothing accepted, no tombstone, no rejection), or the kind of
 * the typed rejection it must record (unless it fenced the answer off before reading it: a stale receipt or audit).
 */
export type ReadAnswerExpectation = 'accept' | 'fail' | Rejection['kind'];

export const readAnswerExpectations: Record<MalformedReadKind, ReadAnswerExpectation> = {
  'result-not-object': 'MalformedResponse',
  'contents-not-array': 'MalformedResponse',
  'contents-empty': 'MalformedResponse',
  'item-not-object': 'MalformedResponse',
  'item-without-uri': 'InvalidUri',
  'item-uri-not-string': 'InvalidUri',
  'item-uri-invalid': 'InvalidUri',
  'item-without-body': 'MalformedResponse',
  'text-not-string': 'MalformedResponse',
  'blob-not-base64': 'MalformedResponse',
  'mime-not-string': 'MalformedResponse',
  'mime-too-long': 'MalformedResponse',
  'other-item-only': 'ContentUriMismatch',
  'other-item-first': 'accept',
  'result-null': 'MalformedResponse',
  'body-too-long': 'ContentTooLarge',
  'blob-bad-length': 'MalformedResponse',
  'blob-valid': 'accept',
  'mime-absent': 'accept',
  'mime-at-limit': 'accept',
  'error-code-not-integer': 'MalformedResponse',
  'error-internal-not-found': 'fail',
  'error-invalid-params': 'fail',
  'error-message-not-string': 'fail',
  'not-found-invalid-params': 'accept',
  [transientErrorKind]: 'fail',
};

/** The answer as served; `malformed`: it breaks the schema or is an error in place of content (nothing may be accepted from it). */
export interface MalformedRead {
  outcome: ResponseOutcome;
  kind: MalformedReadKind;
  malformed: boolean;
}

/** Whether nothing may be accepted from an answer of `kind` (malformed_read_accepted). */
export function acceptsNothing(kind: MalformedReadKind): boolean {
  const expected = readAnswerExpectations[kind];
  return expected !== 'accept' && expected !== 'ContentUriMismatch';
}

const tooLongMimeType = 'text/' + 'x'.repeat(LEDGER_TEXT_CHARS_MAX);
const limitMimeType = 'text/' + 'x'.repeat(LEDGER_TEXT_CHARS_MAX - 'text/'.length);
/** Appended to a text to make it longer than the default contentCharsMax (made once: a rope per use, no copy). */
const overflowText = 'x'.repeat(defaultClientConfig.contentCharsMax);

/** A not-found answer (-32002) spelled as MCP 2026-07-28 and the SDK's McpServer spell it. */
export function respellNotFound(uri: string): MalformedRead {
  return { outcome: { type: 'error', code: invalidParamsCode, message: `Resource ${uri} not found` }, kind: 'not-found-invalid-params', malformed: false };
}

/** RFC 4648 base64 of an ASCII text (the server's texts are). */
export function base64OfAscii(text: string): string {
  return btoa(text);
}

/**
 * Malformation `drawn` (an index of malformedReadKinds) of the content answer of `resource`, whose item (as the
 * server would have sent it) is `item`.
 */
export function malformRead(server: ServerModel, resource: number, item: { uri: string; mimeType: string; text: string }, drawn: number): MalformedRead {
  let kind = malformedReadKinds[drawn % malformedReadKinds.length]!;
  const other = server.uris.length > 1 ? (resource + 1) % server.uris.length : -1;
  if (other < 0 && (kind === 'other-item-only' || kind === 'other-item-first')) kind = 'contents-empty';
  const { uri, mimeType, text } = item;
  const result = (value: unknown): MalformedRead => ({ outcome: { type: 'result', result: value }, kind, malformed: acceptsNothing(kind) });
  const error = (code: unknown, message: unknown): MalformedRead => ({ outcome: { type: 'error', code, message } as ResponseOutcome, kind, malformed: true });
  switch (kind) {
    case 'result-not-object':
      return result([{ uri, mimeType, text }]);
    case 'contents-not-array':
      return result({ contents: { uri, mimeType, text } });
    case 'contents-empty':
      return result({ contents: [] });
    case 'item-not-object':
      return result({ contents: [text] });
    case 'item-without-uri':
      return result({ contents: [{ mimeType, text }] });
    case 'item-uri-not-string':
      return result({ contents: [{ uri: 42, mimeType, text }] });
    case 'item-uri-invalid':
      return result({ contents: [{ uri: uri + ' x', mimeType, text }] });
    case 'item-without-body':
      return result({ contents: [{ uri, mimeType }] });
    case 'text-not-string':
      return result({ contents: [{ uri, mimeType, text: 42 }] });
    case 'blob-not-base64':
      return result({ contents: [{ uri, mimeType, blob: text }] });
    case 'mime-not-string':
      return result({ contents: [{ uri, mimeType: 42, text }] });
    case 'mime-too-long':
      return result({ contents: [{ uri, mimeType: tooLongMimeType, text }] });
    case 'other-item-only':
      return result({ contents: [otherItem(server, other)] });
    case 'other-item-first':
      return result({ contents: [otherItem(server, other), { uri, mimeType, text }] });
    case 'result-null':
      return result(null);
    case 'body-too-long':
      return result({ contents: [{ uri, mimeType, text: text + overflowText }] });
    case 'blob-bad-length': {
      const blob = base64OfAscii(text).replace(/=+$/, '');
      return result({ contents: [{ uri, mimeType, blob: blob.length % 4 === 0 ? blob + 'A' : blob }] });
    }
    case 'blob-valid':
      return result({ contents: [{ uri, mimeType, blob: base64OfAscii(text) }] });
    case 'mime-absent':
      return result({ contents: [{ uri, text }] });
    case 'mime-at-limit':
      return result({ contents: [{ uri, mimeType: limitMimeType, text }] });
    case 'error-code-not-integer':
      return error(1.5, 'Internal error');
    case 'error-internal-not-found':
      return error(-32603, 'Internal error: storage backend not found');
    case 'error-invalid-params':
      return error(invalidParamsCode, 'Invalid params: uri');
    case 'error-message-not-string':
      return error(invalidParamsCode, ['Resource not found']);
  }
}

function otherItem(server: ServerModel, other: number): { uri: string; mimeType: string; text: string } {
  return { uri: server.uris[other]!, mimeType: server.mimeTypes[other]!, text: server.content[other]! };
}
