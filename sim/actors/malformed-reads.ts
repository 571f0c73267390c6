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
 *
 * The last two are well-formed answers a careless parser gets wrong: taking `contents[0]` accepts another
 * resource's content (`uri_confusion`). They are not marked malformed; the first of them must still be
 * refused (ContentUriMismatch) and the second accepted. With a single-resource plan both fall back to
 * `contents-empty`.
 */
import type { ResponseOutcome } from '../../core/types.js';
import { LEDGER_TEXT_CHARS_MAX } from '../../core/protocol.js';
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
] as const;
export type MalformedReadKind = (typeof malformedReadKinds)[number];

/** The answer as served, and the kind when it breaks the schema (null: well-formed, judged by uri_confusion). */
export interface MalformedRead {
  outcome: ResponseOutcome;
  kind: MalformedReadKind;
  malformed: boolean;
}

const tooLongMimeType = 'text/' + 'x'.repeat(LEDGER_TEXT_CHARS_MAX);

/**
 * Malformation `drawn` (an index of malformedReadKinds) of the content answer of `resource`, whose item (as the
 * server would have sent it) is `item`.
 */
export function malformRead(server: ServerModel, resource: number, item: { uri: string; mimeType: string; text: string }, drawn: number): MalformedRead {
  let kind = malformedReadKinds[drawn % malformedReadKinds.length]!;
  const other = server.uris.length > 1 ? (resource + 1) % server.uris.length : -1;
  if (other < 0 && (kind === 'other-item-only' || kind === 'other-item-first')) kind = 'contents-empty';
  const { uri, mimeType, text } = item;
  const result = (value: unknown): MalformedRead => ({ outcome: { type: 'result', result: value }, kind, malformed: kind !== 'other-item-only' && kind !== 'other-item-first' });
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
  }
}

function otherItem(server: ServerModel, other: number): { uri: string; mimeType: string; text: string } {
  return { uri: server.uris[other]!, mimeType: server.mimeTypes[other]!, text: server.content[other]! };
}
