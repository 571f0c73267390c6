/**
 * The command-line parser: small and table-driven. Each command declares its options as a table from
 * option name to value kind; `parseOptions` checks the syntax (unknown, duplicate, missing value,
 * stray argument) and converts every value with its kind's parser. Every error is a UsageError whose
 * message names the argument, so `main` can print it and exit 2.
 */
import type { ClientUnderTest } from '../core/types.js';
import type { Scenario } from '../scenarios/scenario.js';
import { clientNames, findClient } from '../scenarios/clients.js';
import { findScenario, scenarioNames } from '../scenarios/catalog.js';
import { allInvariants, type InvariantName } from '../sim/oracle.js';
import type { Transport } from '../sim/gate.js';
import { parseSeed } from '../sim/prng.js';
import { parseShard } from '../sim/shard.js';
import { protocolEras, type ProtocolEra } from '../core/types.js';

/** --protocol: one MCP era, or both (each interleaving draws one; see cli/protocol.ts). */
export type ProtocolChoice = ProtocolEra | 'both';
export const protocolChoices: readonly ProtocolChoice[] = [...protocolEras, 'both'];

/** Bad usage or bad input: printed on stderr, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage the hint points at (none for an unknown command). */
    readonly command: string | null,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

interface ValueKinds {
  /** A positive integer (interleavings, repetitions). */
  count: number;
  /** A non-negative integer (max-failures). */
  nonNegative: number;
  seed: number;
  scenario: Scenario;
  client: ClientUnderTest<any>;
  /** A directory. */
  path: string;
  /** A file. */
  file: string;
  invariant: InvariantName;
  /** An integer percentage from 0 to 100. */
  percent: number;
  /** A positive integer number of milliseconds. */
  milliseconds: number;
  /** Worker threads: 1 to workersMax (more is refused, see workersMax). */
  workers: number;
  /** `INDEX/COUNT`, 1 <= INDEX <= COUNT (gate --shard). */
  shard: { index: number; count: number };
  /** A non-empty word the command checks itself (report --format). */
  word: string;
  /** How messages travel (gate --transport): pure or sdk. */
  transport: Transport;
  /** The MCP protocol era (--protocol): 2025-11-25, 2026-07-28 or both (see cli/protocol.ts). */
  protocol: ProtocolChoice;
  /** Takes no value. */
  flag: boolean;
}

export type ValueKind = keyof ValueKinds;
export type OptionTable = Readonly<Record<string, ValueKind>>;
export type ParsedOptions<T extends OptionTable> = { -readonly [K in keyof T]?: ValueKinds[T[K]] };

/** Integers above this are refused: interleaving indexes are uint32 and counts must stay exact. */
export const countMax = 0xffffffff;

/**
 * More worker threads are refused (exit 2), not clamped: results never depend on the count, each thread
 * holds its own simulator (--workers 100 took 760 MB), and a CI line asking for more than the machine
 * gives should be corrected, not silently run differently from what it says.
 */
export const workersMax = 8;

type ValueParser = (option: string, text: string, command: string) => ValueKinds[ValueKind];

const valueParsers: Record<Exclude<ValueKind, 'flag'>, ValueParser> = {
  count: (option, text, command) => parseInteger(option, text, 1, command),
  nonNegative: (option, text, command) => parseInteger(option, text, 0, command),
  seed: (option, text, command) => {
    const parsed = parseSeed(text);
    if (!parsed.ok) throw new UsageError(`--${option}: ${parsed.reason}`, command);
    return parsed.seed;
  },
  scenario: (option, text, command) => {
    const scenario = findScenario(text);
    if (scenario === undefined) throw new UsageError(unknownName(option, 'scenario', text, scenarioNames()), command);
    return scenario;
  },
  client: (option, text, command) => {
    const client = findClient(text);
    if (client === undefined) throw new UsageError(unknownName(option, 'client', text, clientNames()), command);
    return client;
  },
  path: (option, text, command) => {
    if (text.length === 0) throw new UsageError(`--${option}: the directory name is empty`, command);
    return text;
  },
  file: (option, text, command) => {
    if (text.length === 0) throw new UsageError(`--${option}: the file name is empty`, command);
    return text;
  },
  invariant: (option, text, command) => {
    if (!(allInvariants as readonly string[]).includes(text)) throw new UsageError(unknownName(option, 'invariant', text, allInvariants), command);
    return text as InvariantName;
  },
  percent: (option, text, command) => {
    const value = parseInteger(option, text, 0, command);
    if (value > 100) throw new UsageError(`--${option}: ${JSON.stringify(text)} is above 100; expected an integer percentage from 0 to 100`, command);
    return value;
  },
  milliseconds: (option, text, command) => parseInteger(option, text, 1, command),
  workers: (option, text, command) => {
    const value = parseInteger(option, text, 1, command);
    if (value > workersMax) throw new UsageError(`--${option}: ${JSON.stringify(text)} is above the maximum ${workersMax} worker threads (results do not depend on the count; each thread holds its own simulator)`, command);
    return value;
  },
  protocol: (option, text, command) => {
    if (!(protocolChoices as readonly string[]).includes(text)) throw new UsageError(unknownName(option, 'protocol', text, [...protocolChoices]), command);
    return text as ProtocolChoice;
  },
  transport: (option, text, command) => {
    if (text !== 'pure' && text !== 'sdk') throw new UsageError(unknownName(option, 'transport', text, ['pure', 'sdk']), command);
    return text;
  },
  shard: (option, text, command) => {
    const parsed = parseShard(text);
    if (!parsed.ok) throw new UsageError(`--${option}: ${parsed.reason}`, command);
    return { index: parsed.index, count: parsed.count };
  },
  word: (option, text, command) => {
    if (text.length === 0) throw new UsageError(`--${option}: the value is empty`, command);
    return text;
  },
};

/** True when `argv` asks for this command's help (`--help` or `-h` anywhere). */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

export function parseOptions<T extends OptionTable>(command: string, argv: readonly string[], table: T): ParsedOptions<T> {
  const parsed: Record<string, unknown> = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (!argument.startsWith('-') || argument === '-') {
      throw new UsageError(`unexpected argument ${JSON.stringify(argument)}; ${command} takes only options`, command);
    }
    const equals = argument.indexOf('=');
    const option = argument.startsWith('--') ? argument.slice(2, equals === -1 ? undefined : equals) : '';
    const kind = table[option];
    if (kind === undefined) throw new UsageError(unknownOption(argument, equals, Object.keys(table), command), command);
    if (option in parsed) throw new UsageError(`--${option} is given twice; give it once`, command);
    if (kind === 'flag') {
      if (equals !== -1) throw new UsageError(`--${option} takes no value, got ${JSON.stringify(argument)}`, command);
      parsed[option] = true;
      continue;
    }
    let text: string;
    if (equals !== -1) text = argument.slice(equals + 1);
    else {
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${option} needs a value: --${option} ${placeholder(kind)}`, command);
      text = next;
      index++;
    }
    parsed[option] = valueParsers[kind](option, text, command);
  }
  return parsed as ParsedOptions<T>;
}

function placeholder(kind: ValueKind): string {
  const names: Record<ValueKind, string> = {
    count: 'N',
    nonNegative: 'K',
    seed: 'SEED',
    scenario: 'NAME',
    client: 'NAME',
    path: 'DIR',
    file: 'FILE',
    invariant: 'NAME',
    percent: 'P',
    milliseconds: 'MS',
    workers: 'K',
    transport: 'pure|sdk',
    protocol: '2025-11-25|2026-07-28|both',
    shard: 'I/N',
    word: 'WORD',
    flag: '',
  };
  return names[kind];
}

/** Integers only, written as plain digits: no sign, fraction, exponent or separators. */
export function parseInteger(option: string, text: string, minimum: number, command: string | null): number {
  const shown = JSON.stringify(text);
  const expected = minimum === 0 ? 'a non-negative integer' : 'a positive integer';
  const fail = (why: string): never => {
    throw new UsageError(`--${option}: ${shown} ${why}; expected ${expected} (integers only, written as plain digits)`, command);
  };
  if (text.length === 0) fail('is empty');
  if (text.startsWith('-')) fail('is negative');
  if (/^[0-9]*\.[0-9]*$/.test(text) && text !== '.') fail('is not an integer');
  if (/^[0-9.]+[eE][+-]?[0-9]+$/.test(text)) fail('uses exponent notation, which is not accepted');
  if (!/^[0-9]+$/.test(text)) fail('is not a number');
  const value = Number(text);
  if (value < minimum) fail(`is below the minimum ${minimum}`);
  if (value > countMax) fail(`is above the maximum ${countMax}`);
  return value;
}

function unknownName(option: string, what: string, text: string, valid: readonly string[]): string {
  const guess = closest(text, valid);
  return `--${option}: unknown ${what} ${JSON.stringify(text)}${guess === null ? ';' : `; did you mean ${guess}?`} valid ${what}s: ${valid.join(', ')}`;
}

function unknownOption(argument: string, equals: number, known: readonly string[], command: string): string {
  const shown = equals === -1 ? argument : argument.slice(0, equals);
  const guess = closest(shown.replace(/^-+/, ''), known);
  const hint = guess === null ? '' : `; did you mean --${guess}?`;
  const list = known.length === 0 ? `${command} takes no options` : `options of ${command}: ${known.map((name) => `--${name}`).join(', ')}`;
  return `unknown option ${shown}${hint} (${list})`;
}

/** The known name nearest to `text` by edit distance, if it is near enough to be a likely typo. */
export function closest(text: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(text.length / 3)) + 1;
  for (const name of known) {
    const distance = editDistance(text, name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
