/** The usage text: one overview and one block per command. */
import { indexerNames } from '../indexer/indexers.js';

export const commandNames = ['gate', 'replay', 'shrink', 'list', 'bench', 'report', 'merge', 'probe', 'index-gate', 'help'] as const;
export type CommandName = (typeof commandNames)[number];

const commandUsage: Record<CommandName, string> = {
  'index-gate': `fencesim index-gate [--interleavings N] [--seed S] [--indexer NAME] [--out DIR] [--max-failures K] [--no-shrink]
fencesim index-gate --replay S [--indexer NAME]
  Gate the downstream indexer (issue 13): N seeded interleavings of the indexer simulation (outbox, embedding
  and vector-store faults, crashes, model migrations, labelled edits), every invariant 0, every metric inside
  its gate, every fault fired. Writes DIR/index-report.json (default ./fencesim-index-report).
    --interleavings N   default 2000
    --indexer NAME      reference (default) or a naive indexer: ${indexerNames.join(', ')}
    --replay S          re-run one interleaving by its own seed (as printed for a failure) with its timeline
  Exit 0 when the gate passes, 1 when it fails (or the replay violates an invariant), 2 on bad usage.`,
  gate: `fencesim gate [--interleavings N] [--seed S] [--scenario NAME] [--client NAME] [--out DIR] [--max-failures K]
              [--workers K] [--no-shrink] [--self-check-ratio P] [--shard I/N] [--strategies-json FILE]
              [--indexer NAME] [--transport pure|sdk] [--protocol 2025-11-25|2026-07-28|both]
  Run N seeded interleavings of a scenario against a client and apply the release gate.
    --interleavings N     how many interleavings (positive integer; default 100000)
    --seed S              root seed, decimal or 0x-hex uint32 (default: chosen at random and printed)
    --scenario NAME       scenario to run (default era-both, or the --protocol era's default; see fencesim list)
    --client NAME         client under test (default reference; see fencesim list)
    --out DIR             write DIR/report.json and, rendered from it, DIR/summary.md, DIR/junit.xml and
                          DIR/report.html, creating DIR (default ./fencesim-report); summary.md is also
                          appended to $GITHUB_STEP_SUMMARY when that is set. At the start the old reports
                          in DIR are removed and DIR/incomplete.json marks the run until it has written
                          its reports (on SIGINT/SIGTERM it says "interrupted"); report.html needs the
                          optional packages vega and vega-lite and is skipped with a warning without them
    --max-failures K      failing interleavings to record in the report (default 20)
    --workers K           worker threads, 1 to 8 (more is refused; default: one per core, up to 8;
                          results do not depend on it)
    --no-shrink           do not shrink the first failure (by default it is shrunk within a budget
                          counted in replays, so the same on every run and machine, and written as
                          DIR/shrunk-<seed>.json, with its timeline in report.json)
    --self-check-ratio P  re-run P percent of the interleavings twice (one traced) and compare trace
                          hashes (integer 0-100; default 1; 0 turns the determinism self-check off)
    --shard I/N           run only shard I of N (1-based) of the interleavings: with M = --interleavings,
                          indexes floor((I-1)M/N) to floor(IM/N)-1; recorded in runSpec.shard. Combine the
                          N shard reports with fencesim merge (same seed and options on every shard)
    --strategies-json F   strategy benchmark rows (bench --strategies --json) to show in report.html
    --indexer NAME        the downstream indexer under test, run at every interleaving index (reference or a
                          naive indexer, see index-gate); without it the reference indexer runs at one index in
                          100. Its invariants, metric gates and faults join the verdict (report.json: indexer)
    --transport T         pure (default): the simulator's own message queue; sdk: every request, response
                          and notification is JSON-RPC between a real MCP SDK Client (the client under test
                          inside the fenced cache) and an SDK Server answering from the server model, on
                          virtual time (deterministic; 15-30x slower than pure). sdk runs every scenario,
                          swarm and client-crash included; failures replay with --transport sdk;
                          the first failure is not shrunk
    --protocol E          the MCP era: both (default; scenario era-both: each interleaving draws its era
                          from its seed, so its replay command reproduces it), 2025-11-25 (default scenario
                          swarm) or 2026-07-28 (listen, ttlMs, no sessions; default scenario
                          era2026-swarm); a --scenario of another era is refused, a named --scenario without
                          --protocol runs as named. Also on replay, shrink and bench. A module client
                          (--client ./x.mjs) is judged on 2025-11-25 only. With --transport sdk, 2026-07-28
                          interleavings run over SDK v2 on both ends (@modelcontextprotocol/client and
                          /server), 2025-11-25 ones over SDK 1.x
  Exit 0 when the gate passes, 1 when it fails, 4 when the self-check finds nondeterminism.`,
  replay: `fencesim replay --seed S --scenario NAME --client NAME
fencesim replay --seed S --scenario NAME --client NAME --transport sdk
fencesim replay --file FILE [--client NAME]
  Re-run exactly one interleaving and print its fault plan, its timeline and its first violation.
    --seed S            the interleaving's own seed, as in a failure's replay command
    --file FILE         a replay file (fencesim.replay.v1, written by shrink or the gate): its decisions
                        are replayed strictly, with the scenario and client from its runSpec; a replay
                        that diverges from them stops, naming the decision and both labels (exit 2)
    --client NAME       with --file: replay the same schedule against another client (leniently)
    --full              a module client (--client ./x.mjs): the whole timeline, every resource, no line
                        folded (by default it is cut at the first violation and focused on its resource)
  Exit 0 when no invariant is violated, 1 when a violation reproduces, 2 when the input is bad.`,
  shrink: `fencesim shrink --seed S --scenario NAME --client NAME [--out FILE] [--invariant NAME] [--budget-ms MS]
fencesim shrink --file FILE [--client NAME] [--out FILE] [--invariant NAME] [--budget-ms MS]
  Record one failing interleaving's decisions, shrink them while the same invariant still fails,
  print the minimal timeline and write the minimal replay file.
    --out FILE          the replay file to write (default ./fencesim-shrunk.json)
    --invariant NAME    the invariant to keep failing (default: the run's first violation)
    --attempts N        the replay budget (default 3000; 400 for a module client): the limit that
                        decides, so the result is the same on every run and machine
    --budget-ms MS      wall-clock safety net (default 300000); a shrink it stops is reported as
                        not reproducible
  Exit 1 with a failing minimal replay, 0 when the run violates nothing (nothing to shrink), 2 when
  the input is bad, 4 when the recorded decisions do not reproduce the violation (nondeterminism).`,
  list: `fencesim list
  List the scenarios, clients, faults and invariants.`,
  bench: `fencesim bench [--scenario NAME] [--interleavings N] [--repetitions R] [--client NAME] [--json]
              [--protocol 2025-11-25|2026-07-28|both]
  Time a scenario on this thread: one warm-up repetition, then R timed ones.
    --scenario NAME     default: the --protocol era's default (both: era-both; 2025-11-25: read-race;
                        2026-07-28: era2026-swarm)
    --protocol E        both (default), 2025-11-25 or 2026-07-28, as on gate
    --interleavings N   per repetition (default 5000)
    --repetitions R     timed repetitions (default 5)
    --client NAME       default reference
    --json              print one JSON object instead of text
fencesim bench --strategies [--client PATH] [--interleavings N] [--workers K] [--json]
  Benchmark client strategies (naive subscription, polling every 1/5/15 s, subscription + version check,
  the reference) under duplicate-notification rates 0/100/200/300 % x drop rates 0/10/30 %: reads per
  change, convergence p50/p99, stale content served, reconciliation reads per resource-minute.
    --client PATH       a client module (gate --client) as one more strategy row, same conditions and
                        seeds (module clients run over the SDK path: about 10-30 interleavings/s each)
    --interleavings N   per strategy and condition (default 1000; results depend only on N)
    --workers K         worker threads, 1 to 8 (default: one per core, up to 8; results do not depend on it)
    --json              print the rows as JSON (the StrategyResult[] that --strategies-json takes)`,
  report: `fencesim report DIR [--format md|junit|html|all] [--strategies FILE]
  Re-render DIR/report.json (or a report.json given directly) into summary.md, junit.xml and report.html
  beside it, and print the paths written; summary.md is also appended to $GITHUB_STEP_SUMMARY when set.
  The report is checked first: written by this fencesim version, its verdict, counters, metrics and
  failures exactly what its raw accumulator gives, its accumulator lawful, its digests intact.
    --format F          md, junit, html or all (default all: every format this installation renders;
                        html needs the optional packages vega and vega-lite, and --format html exits 2
                        without them)
    --strategies FILE   strategy benchmark rows (fencesim bench --strategies --json) for report.html
  Exit 2 when the report is missing, corrupt, of another schema or version, contradicts itself (the field
  is named), or DIR holds the incomplete.json of an interrupted or unfinished gate.`,
  merge: `fencesim merge DIR... [--out DIR] [--allow-partial]
  Merge the reports of gate --shard runs (directories or report.json files) into the report of the whole
  run: identical to an unsharded run's report apart from timing (the shards' wall times summed). Writes
  report.json, summary.md, junit.xml and report.html (and the first failure's shrunk replay file).
    --out DIR           where to write (default ./fencesim-report; not one of the inputs)
    --allow-partial     merge even when shards are missing: the merged gate then fails, naming them
  Exit like the gate (0 passed, 1 failed, 4 nondeterministic); 2 when the reports do not merge: different
  run specs (seed, interleavings, scenario, client, max failures, self-check ratio), duplicate or
  overlapping shards, missing shards, or a report that is missing, corrupt or refused as by fencesim report.`,
  probe: `fencesim probe --server-cmd "CMD ARGS" [--seed S] [--duration-ms MS] [--timeout-ms MS] [--quiet-ms MS]
               [--trigger "TOOL {JSON}"] [--trigger-every-ms MS] [--request-timeout-ms MS] [--content-chars-max N] [--json]
               [--protocol auto|2025-11-25]
fencesim probe [options] -- CMD ARGS
  Run the fenced cache against a real MCP server process over stdio (e.g. server-everything): list,
  subscribe (calling toggle-subscriber-updates when listed), observe, unsubscribe, watch for late updates,
  and check the invariants observable data allows. Incoming resource notifications are dropped (1/5),
  duplicated (1/3) and delayed (1/4, up to 300 ms), the seed deciding which. The server runs in its own
  process group, which is always ended (stdin closed, SIGTERM, SIGKILL) and checked to be empty.
    --server-cmd "CMD"  the server command line, split like a shell splits simple quoting ('...' literal,
                        "..." honouring \\" and \\\\, a backslash escapes the next character; no variables,
                        globs or operators); or give the words after -- instead, unquoted
    --seed S            fault seed (default: chosen at random and printed on stderr)
    --duration-ms MS    how long to observe while subscribed (default 12000)
    --timeout-ms MS     bound on the whole probe including stopping the server (default 60000)
    --quiet-ms MS       how long to watch for updates after the unsubscribe ACKs (default 6000)
    --trigger "T {J}"   call tool T with the JSON object J (default {}) while observing, so that the server
                        changes something (e.g. --trigger 'create_entities {"entities":[...]}')
    --trigger-every-ms MS  how often to call the trigger tool (default 1000; the first call at the start)
    --request-timeout-ms MS  how long the server has to answer initialize and each request (default 10000)
    --content-chars-max N  the cache's content limit, characters of one body (default 1048576)
    --json              print the report as one JSON object (fencesim.probe.v2)
    --protocol P        auto (default): an SDK v2 Client first negotiates the era and reports it; on
                        2026-07-28 also the cache hints per result, the listen ack and honored filter,
                        subscription-id tagging, and what a restart does to a listen (at most a third of
                        --timeout-ms); 2025-11-25: skip that phase
  Exit 0 passed (every invariant and expectation held and changes were observed); 1 an invariant violated,
  an expectation missed, or the run failed after initialize (timeout, trigger tool not listed); 2 bad usage;
  3 the server did not start or did not answer initialize; 4 the server declares no resources capability
  (a tool-only server: nothing to probe); 5 nothing was observed (all held, but no resource changed while
  the probe watched: give --trigger).`,
  help: `fencesim help [COMMAND]
  Print this text, or one command's usage.
fencesim --version
  Print fencesim's version (the version every report.json is bound to).`,
};

const footer = `Exit codes: 0 success or gate passed; 1 gate failed or violation reproduced; 2 bad usage or input
(including a replay file that is corrupted, truncated, of the wrong schema, out of range, or that diverges);
3 an interleaving threw (the simulator: internal error; a client loaded by path: its own exception, with its
stack; the crashing seed is printed); 4 nondeterminism (the gate's
self-check ran a seed twice and got two different traces; the seed and the first differing timeline
line are printed). A gate or merge stopped by SIGINT or SIGTERM ends by that signal (130 or 143 in a
shell) and leaves DIR/incomplete.json, never a report. probe has its own 3, 4 and 5: the server did not start or
answer initialize, declares no resources capability, or nothing was observed (fencesim help probe).`;

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
