/** The usage text: one overview and one block per command. */

export const commandNames = ['gate', 'replay', 'shrink', 'list', 'bench', 'help'] as const;
export type CommandName = (typeof commandNames)[number];

const commandUsage: Record<CommandName, string> = {
  gate: `fencesim gate [--interleavings N] [--seed S] [--scenario NAME] [--client NAME] [--out DIR] [--max-failures K]
              [--workers K] [--no-shrink] [--self-check-ratio P]
  Run N seeded interleavings of a scenario against a client and apply the release gate.
    --interleavings N     how many interleavings (positive integer; default 100000)
    --seed S              root seed, decimal or 0x-hex uint32 (default: chosen at random and printed)
    --scenario NAME       scenario to run (default swarm; see fencesim list)
    --client NAME         client under test (default reference; see fencesim list)
    --out DIR             write DIR/report.json, creating DIR (default ./fencesim-report)
    --max-failures K      failing interleavings to record in the report (default 20)
    --workers K           worker threads (default: one per core, up to 8; results do not depend on it)
    --no-shrink           do not shrink the first failure (by default it is shrunk within 10 s and
                          written as DIR/shrunk-<seed>.json, with its timeline in report.json)
    --self-check-ratio P  re-run P percent of the interleavings twice with tracing and compare trace
                          hashes (integer 0-100; default 1; 0 turns the determinism self-check off)
  Exit 0 when the gate passes, 1 when it fails, 4 when the self-check finds nondeterminism.`,
  replay: `fencesim replay --seed S --scenario NAME --client NAME
fencesim replay --file FILE [--client NAME]
  Re-run exactly one interleaving and print its fault plan, its timeline and its first violation.
    --seed S            the interleaving's own seed, as in a failure's replay command
    --file FILE         a replay file (fencesim.replay.v1, written by shrink or the gate): its decisions
                        are replayed strictly, with the scenario and client from its runSpec; a replay
                        that diverges from them stops, naming the decision and both labels (exit 2)
    --client NAME       with --file: replay the same schedule against another client (leniently)
  Exit 0 when no invariant is violated, 1 when a violation reproduces, 2 when the input is bad.`,
  shrink: `fencesim shrink --seed S --scenario NAME --client NAME [--out FILE] [--invariant NAME] [--budget-ms MS]
fencesim shrink --file FILE [--client NAME] [--out FILE] [--invariant NAME] [--budget-ms MS]
  Record one failing interleaving's decisions, shrink them while the same invariant still fails,
  print the minimal timeline and write the minimal replay file.
    --out FILE          the replay file to write (default ./fencesim-shrunk.json)
    --invariant NAME    the invariant to keep failing (default: the run's first violation)
    --budget-ms MS      wall-clock budget (default 10000); the attempt bound (--attempts N, default
                        3000 replays) is the primary limit, so results only depend on time if it is hit
  Exit 1 with a failing minimal replay, 0 when the run violates nothing (nothing to shrink), 2 when
  the input is bad, 4 when the recorded decisions do not reproduce the violation (nondeterminism).`,
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

const footer = `Exit codes: 0 success or gate passed; 1 gate failed or violation reproduced; 2 bad usage or input
(including a replay file that is corrupted, truncated, of the wrong schema, out of range, or that diverges);
3 internal error (the simulator threw; the crashing seed is printed); 4 nondeterminism (the gate's
self-check ran a seed twice and got two different traces; the seed and the first differing timeline
line are printed).`;

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
