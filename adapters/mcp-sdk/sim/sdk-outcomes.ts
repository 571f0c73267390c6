/**
 * How SDK request failures and `onerror` reports become core inputs and diagnostics.
 *
 * - `McpError` (a JSON-RPC error from the server, or the SDK's own RequestTimeout -32001): an error
 *   outcome with the code, the message without the SDK's "MCP error N: " prefixes, and the data.
 * - The SDK's ConnectionClosed (-32000), or any local error, once the connection is over: not a response.
 *   The core forgot the session's requests on `Disconnected`; feeding it would only write UNKNOWN_RESPONSE.
 * - A result the SDK's Zod schema refused (`$ZodError`, no `code`): an error outcome with -32603 plus a
 *   typed `MalformedResponse` rejection for observers. The core's failure paths apply (a read settles, a
 *   subscribe retries, a list pass is abandoned); nothing made up is fed as a result.
 * - Any other local error while connected: an error outcome with -32603, no rejection.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Rejection, RequestMethod, ResponseOutcome } from '../../../core/types.js';

/** JSON-RPC internal error: what a result that failed the SDK's schema validation is reported as. */
export const invalidResultCode = -32603;
const DETAIL_CHARS_MAX = 500;

export type RequestFailure =
  | { type: 'not-a-response' }
  | { type: 'outcome'; outcome: ResponseOutcome; rejection: Rejection | null };

export function interpretRequestFailure(method: RequestMethod, error: unknown, connectionOpen: boolean): RequestFailure {
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed && !connectionOpen) return { type: 'not-a-response' };
    const outcome: ResponseOutcome = { type: 'error', code: error.code, message: stripMcpPrefix(error.message) };
    if (error.data !== undefined) outcome.data = error.data;
    return { type: 'outcome', outcome, rejection: null };
  }
  if (!connectionOpen) return { type: 'not-a-response' }; // e.g. "Not connected" from a transport that just closed
  if (isSchemaError(error)) {
    const detail = `${method} result failed the SDK's schema validation: ${describeSchemaError(error)}`;
    return {
      type: 'outcome',
      outcome: { type: 'error', code: invalidResultCode, message: detail, data: { source: 'sdk-result-validation' } },
      rejection: { kind: 'MalformedResponse', detail },
    };
  }
  const detail = `${method} failed locally: ${describeError(error)}`;
  return { type: 'outcome', outcome: { type: 'error', code: invalidResultCode, message: detail, data: { source: 'sdk-local-error' } }, rejection: null };
}

export type TransportErrorKind = 'InvalidMessage' | 'NotificationHandler' | 'UnknownResponse' | 'Other';

/** Classifies a `client.onerror` report. */
export function classifyTransportError(error: Error, message: string): TransportErrorKind {
  if (message.startsWith('Received a response for an unknown message ID')) return 'UnknownResponse';
  if (message.startsWith('Uncaught error in notification handler')) return 'NotificationHandler';
  if (error instanceof SyntaxError || /invalid JSON-RPC message|Unknown message type|not valid JSON|in JSON at position|invalid_union/.test(message)) {
    return 'InvalidMessage';
  }
  return 'Other';
}

/** "MCP error -32602: MCP error -32602: Invalid cursor" -> "Invalid cursor". */
export function stripMcpPrefix(message: string): string {
  let text = message;
  for (let prefix = /^MCP error -?\d+: /.exec(text); prefix !== null; prefix = /^MCP error -?\d+: /.exec(text)) {
    text = text.slice(prefix[0].length);
  }
  return text;
}

type SchemaError = { issues: Array<{ path?: unknown[]; message?: string }> };

function isSchemaError(error: unknown): error is SchemaError {
  return typeof error === 'object' && error !== null && Array.isArray((error as { issues?: unknown }).issues);
}

function describeSchemaError(error: SchemaError): string {
  const issues = error.issues.slice(0, 3).map((issue) => `${(issue.path ?? []).map(String).join('.') || '(root)'}: ${issue.message ?? '?'}`);
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : '';
  return clip(issues.join('; ') + more);
}

/** An error's message, clipped to a readable length. */
export function describeError(error: unknown): string {
  return clip(error instanceof Error ? error.message : String(error));
}

function clip(text: string): string {
  return text.length > DETAIL_CHARS_MAX ? text.slice(0, DETAIL_CHARS_MAX) + `…(${text.length} chars)` : text;
}
