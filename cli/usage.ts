/** The usage text: one overview and one block per command. */

export const commandNames = ['gate', 'replay', 'list', 'bench', 'help'] as const;
export type CommandName = (typeof commandNames)[number];

const commandUsage: Record<CommandName, string> = {
  gate: `fencesim gate [--interleavings N] [--seed S] [--scenario NAME] [--client NAME] [--out DIR] [--max-failures K]
  Run N seeded interleavings of a scenario against a client and apply the release gate.
    --interleavings N   how many interleavings (positive integer; default 100000)
    --seed S            root seed, decimal or 0x-hex uint32 (default: chosen at random and printed)
    --scenario NAME     scenario to run (default swarm; see fencesim list)
    --client NAME       client under test (default reference; see fencesim list)
    --out DIR           write DIR/report.json, creating DIR (default ./fencesim-report)
    --max-failures K    failing interleavings to record in the report (default 20)
  Exit 0 when the gate passes, 1 when it fails.`,
  replay: `fencesim replay --seed S --scenario NAME --client NAME
  Re-run exactly one interleaving (S is the interleaving's seed, as in a failure's replay command)
  and print its fault plan, its timeline and its first violation.
  Exit 0 when no invariant is violated, 1 when a violation reproduces.`,
  list: `fencesim list
  List the scenarios, clients, faults and invariants.`,
  bench: `fencesim bench [--scenario NAME] [--interleavings N] [--repetitions R] [--client NAME] [--json]
  Time a scenario on this thread: one warm-up repetition, then R timed ones.
    --scenario NAME     default read-race
    --interleavings N   per repetition (default 5000)
    --repetitions R     timed repetitions (default 5)
    --client NAME       default reference
    --json              print one JSON object instead of text`,
  help: `fencesim help [COMMAND]
  Print this text, or one command's usage.`,
};

const footer = `Exit codes: 0 success or gate passed; 1 gate failed or violation reproduced; 2 bad usage or input;
3 internal error (the simulator threw; the crashing seed is printed).`;

export function usageText(): string {
  const blocks = commandNames.map((name) => commandUsage[name]);
  return `fencesim: deterministic simulator and release gate for MCP resource-consistent clients\n\nUsage:\n${blocks.join('\n\n')}\n\n${footer}\n`;
}

export function commandUsageText(command: CommandName): string {
  return `Usage:\n${commandUsage[command]}\n`;
}

export function isCommandName(name: string): name is CommandName {
  return (commandNames as readonly string[]).includes(name);
}
