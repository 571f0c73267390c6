/**
 * `fencesim probe`: the fenced cache against a real MCP server process over stdio (SPEC §10). Starts the
 * server, injects seeded faults on its incoming resource notifications, lists, subscribes, observes,
 * unsubscribes, checks the invariants that observable data allows, and always stops the process.
 *
 * The server command is given either as one string (`--server-cmd "node server.js stdio"`, split the way a
 * shell splits simple quoting: whitespace separates words, '...' is literal, "..." honours \" \\ \$ \`,
 * a backslash outside quotes escapes the next character; no variables, globs or operators), or as the words
 * after `--` (`fencesim probe --seed 7 -- node server.js stdio`), which need no quoting at all.
 */
import { formatProbeReport, runProbe, type ProbeOptions, type ProbeReport } from '../../adapters/mcp-sdk/probe/probe.js';
import type { IncomingFaults } from '../../adapters/mcp-sdk/transport/fault-transport.js';
import { parseTrigger, type ProbeTrigger } from '../../adapters/mcp-sdk/probe/trigger.js';
import { formatSeed } from '../../sim/prng.js';
import { formatHealth } from '../../observe/health.js';
import { parseOptions, UsageError } from '../args.js';
import type { Io } from '../io.js';

export const probeOptions = {
  'server-cmd': 'word',
  seed: 'seed',
  'duration-ms': 'milliseconds',
  'timeout-ms': 'milliseconds',
  'quiet-ms': 'milliseconds',
  trigger: 'word',
  'trigger-every-ms': 'milliseconds',
  'request-timeout-ms': 'milliseconds',
  'content-chars-max': 'count',
  json: 'flag',
  protocol: 'word',
} as const;

export const probeDefaults = { durationMs: 12_000, timeoutMs: 60_000, quietMs: 6_000 };

/** Faults on incoming resource notifications; the seed decides which notifications they hit. */
export const probeFaults: IncomingFaults = {
  drop: { numerator: 1, denominator: 5 },
  duplicate: { numerator: 1, denominator: 3 },
  delay: { numerator: 1, denominator: 4 },
  delayMsMax: 300,
};

export const probeExitPassed = 0;
/** An invariant checkable on observable data was violated, or an expectation was missed. */
export const probeExitFailed = 1;
/** The server could not be started, or did not answer initialize. */
export const probeExitNotStarted = 3;
/** The server declares no resources capability (a tool-only server): nothing to probe. */
export const probeExitNoResources = 4;
/** Every check held but no resource changed while the probe watched: nothing was tested (not a pass). */
export const probeExitNothingObserved = 5;

export async function probeCommand(argv: readonly string[], io: Io): Promise<number> {
  const dash = argv.indexOf('--');
  const options = parseOptions('probe', dash < 0 ? argv : argv.slice(0, dash), probeOptions);
  const serverCommand = serverCommandOf(options['server-cmd'], dash < 0 ? null : argv.slice(dash + 1));
  const seed = options.seed ?? io.randomSeed();
  if (options.seed === undefined) io.stderr(`fencesim probe: seed ${formatSeed(seed)} (chosen at random: no --seed given)\n`);
  const probeOptionsResolved: ProbeOptions = {
    serverCommand,
    seed,
    durationMs: options['duration-ms'] ?? probeDefaults.durationMs,
    timeoutMs: options['timeout-ms'] ?? probeDefaults.timeoutMs,
    quietMs: options['quiet-ms'] ?? probeDefaults.quietMs,
    faults: probeFaults,
    protocol: probeProtocolOf(options.protocol),
  };
  const trigger = triggerOf(options.trigger, options['trigger-every-ms']);
  if (trigger !== undefined) probeOptionsResolved.trigger = trigger;
  if (options['request-timeout-ms'] !== undefined) probeOptionsResolved.requestTimeoutMs = options['request-timeout-ms'];
  if (options['content-chars-max'] !== undefined) probeOptionsResolved.contentCharsMax = options['content-chars-max'];
  let report: ProbeReport;
  try {
    report = await runProbe(probeOptionsResolved);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) throw new UsageError(error.message, 'probe');
    throw error;
  }
  const code = probeExitCode(report);
  const health = report.health === null ? '' : `${formatHealth(report.health)}\n`;
  io.stdout(options.json === true ? `${JSON.stringify(report)}\n` : `${formatProbeReport(report)}\n${health}${verdictLine(report, code)}\n`);
  return code;
}

/** `--protocol auto` (default: negotiate with an SDK v2 Client first, probe-era.ts) or `2025-11-25` (SDK 1.x only). */
function probeProtocolOf(value: string | undefined): 'auto' | '2025-11-25' {
  if (value === undefined || value === 'auto' || value === '2025-11-25') return value ?? 'auto';
  throw new UsageError(`--protocol must be auto or 2025-11-25 for probe, got ${JSON.stringify(value)}`, 'probe');
}

/** See the usage: 0 passed, 1 failed, 3 not started / no initialize answer, 4 no resources capability, 5 nothing observed. */
export function probeExitCode(report: ProbeReport): number {
  if (report.server.connectMs === null) return probeExitNotStarted;
  const violated = report.invariants.some((check) => !check.ok);
  const missed = report.expectations.some((check) => !check.ok);
  if (violated || missed) return probeExitFailed;
  if (report.outcome === 'no-resources') return probeExitNoResources;
  if (report.outcome === 'nothing-observed') return probeExitNothingObserved;
  return report.outcome === 'passed' ? probeExitPassed : probeExitFailed;
}

function verdictLine(report: ProbeReport, code: number): string {
  if (code === probeExitNotStarted) return `probe FAILED: ${report.error ?? 'the server did not complete the initialize handshake'}`;
  if (code === probeExitNoResources) return `probe: NO RESOURCES: ${report.error ?? 'the server declares no resources capability'}`;
  if (code === probeExitNothingObserved) {
    return 'probe: NOTHING OBSERVED (not a pass): no invariant was violated, but no subscribed resource changed while the probe watched; give --trigger "TOOL {JSON}" to make changes happen';
  }
  if (code === probeExitPassed) return 'probe PASSED: no invariant violated, every expectation held, changes observed';
  const violated = report.invariants.filter((check) => !check.ok).map((check) => check.name);
  const missed = report.expectations.filter((check) => !check.ok).map((check) => check.name);
  const parts = [violated.length > 0 ? `invariants violated: ${violated.join(', ')}` : '', missed.length > 0 ? `expectations missed: ${missed.join(', ')}` : '', report.error ?? ''];
  return `probe FAILED: ${parts.filter((part) => part !== '').join('; ')}`;
}

function triggerOf(text: string | undefined, everyMs: number | undefined): ProbeTrigger | undefined {
  if (text === undefined) {
    if (everyMs !== undefined) throw new UsageError('--trigger-every-ms needs --trigger "TOOL {JSON}"', 'probe');
    return undefined;
  }
  const parsed = parseTrigger(text);
  if (!parsed.ok) throw new UsageError(`--trigger: ${parsed.reason}`, 'probe');
  return everyMs === undefined ? parsed.trigger : { ...parsed.trigger, everyMs };
}

function serverCommandOf(text: string | undefined, afterDash: readonly string[] | null): string[] {
  if (text !== undefined && afterDash !== null) throw new UsageError('give the server command once: --server-cmd "CMD ARGS" or -- CMD ARGS, not both', 'probe');
  if (afterDash !== null) {
    if (afterDash.length === 0 || afterDash[0] === '') throw new UsageError('no server command after --; expected e.g. -- node server.js stdio', 'probe');
    return [...afterDash];
  }
  if (text === undefined) throw new UsageError('missing the server command: --server-cmd "CMD ARGS" (or -- CMD ARGS)', 'probe');
  const split = splitCommandLine(text);
  if (!split.ok) throw new UsageError(`--server-cmd: ${split.reason}`, 'probe');
  return split.words;
}

/** Splits a command line as a shell splits simple quoting (see the file comment); no expansion of any kind. */
export function splitCommandLine(text: string): { ok: true; words: string[] } | { ok: false; reason: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === ' ' || char === '\t' || char === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (char === '\\') {
      if (index + 1 >= text.length) return { ok: false, reason: `${JSON.stringify(text)} ends with a lone backslash` };
      word += text[++index];
    } else if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) return { ok: false, reason: `unterminated single quote at character ${index + 1} of ${JSON.stringify(text)}` };
      word += text.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      let closed = false;
      for (index++; index < text.length; index++) {
        const inner = text[index]!;
        if (inner === '"') {
          closed = true;
          break;
        }
        if (inner === '\\' && index + 1 < text.length && '"\\$`'.includes(text[index + 1]!)) word += text[++index];
        else word += inner;
      }
      if (!closed) return { ok: false, reason: `unterminated double quote in ${JSON.stringify(text)}` };
    } else {
      word += char;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) return { ok: false, reason: 'the command is empty (only whitespace)' };
  return { ok: true, words };
}
