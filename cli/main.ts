/**
 * The fencesim command line. `main` dispatches to one command and returns its exit code; it never calls
 * process.exit, so bin/fencesim.js (and tests, through the optional Io) decide what to do with it.
 * Exit codes: 0 success / gate passed, 1 gate failed / violation reproduced, 2 bad usage or input,
 * 3 an interleaving threw (fencesim, or a client loaded by path), 4 nondeterminism (the gate's self-check got two different traces for one seed).
 */
import { closest, UsageError, wantsHelp } from './args.js';
import { ModuleContractError } from '../adapters/mcp-sdk/module/contract.js';
import { fencesimVersion } from '../reports/version.js';
import { processIo, type Io } from './io.js';
import { commandNames, commandUsageText, isCommandName, usageText, type CommandName } from './usage.js';

export const exitPassed = 0;
export const exitFailed = 1;
export const exitUsage = 2;
export const exitInternal = 3;
export const exitNondeterministic = 4;

type Command = (argv: readonly string[], io: Io) => Promise<number>;

/**
 * Each command's module is imported when that command runs: the commands' imports differ widely (probe,
 * replay and bench bring the MCP SDK and fake timers, about 1.5 s of CPU to load), and one run needs one.
 */
const commands: Record<Exclude<CommandName, 'help'>, Command> = {
  gate: async (argv, io) => (await import('./commands/gate.js')).gateCommand(argv, io),
  replay: async (argv, io) => (await import('./commands/replay.js')).replayCommandRun(argv, io),
  shrink: async (argv, io) => (await import('./commands/shrink.js')).shrinkCommand(argv, io),
  list: async (argv, io) => (await import('./commands/list.js')).listCommand(argv, io),
  bench: async (argv, io) => (await import('./commands/bench.js')).benchCommand(argv, io),
  report: async (argv, io) => (await import('./commands/report.js')).reportCommand(argv, io),
  merge: async (argv, io) => (await import('./commands/merge.js')).mergeCommand(argv, io),
  probe: async (argv, io) => (await import('./commands/probe.js')).probeCommand(argv, io),
  'index-gate': async (argv, io) => (await import('./commands/index-gate.js')).indexGateCommand(argv, io),
};

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(error, io);
    // A module client that breaks its contract in a run (replay, shrink, bench): bad input, as a module without `start` is.
    if (error instanceof ModuleContractError) return usageFailure(new UsageError(`--client: not a client module: ${error.message}`, argv[0] ?? null), io);
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(`fencesim: internal error: ${text}\n`);
    return exitInternal;
  }
}

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(usageText());
    return exitUsage;
  }
  if (name === 'help' || name === '--help' || name === '-h') return help(rest, io);
  if (name === '--version' || name === '-V') {
    if (rest.length > 0) throw new UsageError(`${name} takes no arguments, got ${rest.map((argument) => JSON.stringify(argument)).join(' ')}`, null);
    io.stdout(`fencesim ${fencesimVersion}\n`);
    return exitPassed;
  }
  if (!isCommandName(name)) throw new UsageError(unknownCommand(name), null);
  if (wantsHelp(rest)) {
    io.stdout(commandUsageText(name));
    return exitPassed;
  }
  return commands[name as Exclude<CommandName, 'help'>](rest, io);
}

function help(rest: readonly string[], io: Io): number {
  const [topic, extra] = rest;
  if (extra !== undefined) throw new UsageError(`help takes at most one command name, got ${rest.length}`, 'help');
  if (topic === undefined) {
    io.stdout(usageText());
    return exitPassed;
  }
  if (!isCommandName(topic)) throw new UsageError(unknownCommand(topic), null);
  io.stdout(commandUsageText(topic));
  return exitPassed;
}

function unknownCommand(name: string): string {
  const guess = closest(name, commandNames);
  const hint = guess === null ? '' : `; did you mean ${guess}?`;
  return `unknown command ${JSON.stringify(name)}${hint} (commands: ${commandNames.join(', ')})`;
}

function usageFailure(error: UsageError, io: Io): number {
  const where = error.command === null ? 'fencesim' : `fencesim ${error.command}`;
  const hint = error.command === null ? 'fencesim help' : `fencesim help ${error.command}`;
  io.stderr(`${where}: ${error.message}\nrun '${hint}' for usage\n`);
  return exitUsage;
}
