/**
 * `--trigger "tool-name {json args}"`: a tool the probe calls on a schedule while it observes, so that a
 * server whose resources change only when something acts on it (a knowledge graph, a file store) shows
 * changes. The text is the tool name, then optionally a JSON object of arguments.
 */
export interface ProbeTrigger {
  tool: string;
  arguments: Record<string, unknown>;
  /** Calls while observing: one at the start, then one every `everyMs` (default 1000). */
  everyMs?: number;
}

export interface TriggerRecord {
  tool: string;
  everyMs: number;
  listed: boolean;
  calls: number;
  /** Calls that failed or returned isError. */
  errors: number;
  lastError: string | null;
}

export const triggerEveryMsDefault = 1_000;

export function parseTrigger(text: string): { ok: true; trigger: ProbeTrigger } | { ok: false; reason: string } {
  const trimmed = text.trim();
  const space = trimmed.search(/\s/);
  const tool = space < 0 ? trimmed : trimmed.slice(0, space);
  const rest = space < 0 ? '' : trimmed.slice(space).trim();
  if (tool === '') return { ok: false, reason: 'no tool name; expected "tool-name {json args}"' };
  if (tool.startsWith('{')) return { ok: false, reason: `expected a tool name before the arguments, got ${JSON.stringify(trimmed.slice(0, 60))}` };
  if (rest === '') return { ok: true, trigger: { tool, arguments: {} } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(rest);
  } catch (error) {
    return { ok: false, reason: `the arguments of ${tool} are not valid JSON (${(error as Error).message}): ${JSON.stringify(rest.slice(0, 80))}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, reason: `the arguments of ${tool} must be a JSON object, got ${JSON.stringify(rest.slice(0, 80))}` };
  return { ok: true, trigger: { tool, arguments: parsed as Record<string, unknown> } };
}
