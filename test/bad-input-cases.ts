/**
 * Bad command lines, every subcommand (issue 14.6): each must exit 2 with a message naming what is wrong.
 * `$T` is the test's scratch directory, holding the files below (made by cli/bad-input.test.ts):
 *   $T/gate          a passing gate's report        $T/failing      a failing gate's report
 *   $T/shard-1, -2   shards 1/2 and 2/2 of one run  $T/other-run    shard 2/2 of another seed
 *   $T/corrupt       truncated report.json          $T/schema       report.json of another schema
 *   $T/passed-lie    "passed": true with violations $T/negative     negative timing
 *   $T/old-version   written by fencesim 0.0.1      $T/interrupted  an interrupted gate's directory
 *   $T/empty         an empty directory             $T/file.txt     a plain file
 *   $T/bad.json      not JSON                        $T/replay-truncated.json  a cut replay file
 * `fragment` is the part of the message that names the argument or the problem.
 */

export interface BadInputCase {
  argv: string[];
  fragment: string;
}

const gateRun = ['gate', '--interleavings', '5', '--out', '$T/never'];

export const badInputCases: BadInputCase[] = [
  // --- no command, unknown commands, help, --version
  { argv: [], fragment: 'Usage:' },
  { argv: ['gat'], fragment: 'unknown command "gat"; did you mean gate?' },
  { argv: ['-x'], fragment: 'unknown command "-x"' },
  { argv: ['help', 'nope'], fragment: 'unknown command "nope"' },
  { argv: ['help', 'gate', 'replay'], fragment: 'help takes at most one command name, got 2' },
  { argv: ['--version', 'x'], fragment: '--version takes no arguments, got "x"' },
  // --- gate
  { argv: ['gate', '--indexer', 'naive-nope'], fragment: '--indexer: unknown indexer "naive-nope"' },
  { argv: ['gate', '--interleavings'], fragment: '--interleavings needs a value: --interleavings N' },
  { argv: ['gate', '--interleavings', '0'], fragment: '--interleavings: "0" is below the minimum 1' },
  { argv: ['gate', '--interleavings', '-5'], fragment: '--interleavings: "-5" is negative' },
  { argv: ['gate', '--interleavings', '1.5'], fragment: '--interleavings: "1.5" is not an integer' },
  { argv: ['gate', '--interleavings', '1e3'], fragment: '--interleavings: "1e3" uses exponent notation' },
  { argv: ['gate', '--interleavings', 'ten'], fragment: '--interleavings: "ten" is not a number' },
  { argv: ['gate', '--interleavings', '99999999999'], fragment: '--interleavings: "99999999999" is above the maximum 4294967295' },
  { argv: ['gate', '--interleavings='], fragment: '--interleavings: "" is empty' },
  { argv: ['gate', '--interleavings', '5', '--interleavings', '6'], fragment: '--interleavings is given twice' },
  { argv: ['gate', '--interleaving', '5'], fragment: 'unknown option --interleaving; did you mean --interleavings?' },
  { argv: ['gate', '-n', '5'], fragment: 'unknown option -n' },
  { argv: ['gate', 'swarm'], fragment: 'unexpected argument "swarm"; gate takes only options' },
  { argv: ['gate', '--seed', '--interleavings', '5'], fragment: '--seed needs a value: --seed SEED' },
  { argv: [...gateRun, '--seed', 'xyz'], fragment: '--seed: seed "xyz"' },
  { argv: [...gateRun, '--seed', '0x1ffffffff'], fragment: '--seed: seed "0x1ffffffff"' },
  { argv: [...gateRun, '--seed', '-1'], fragment: '--seed: seed "-1"' },
  { argv: [...gateRun, '--scenario', 'nope'], fragment: '--scenario: unknown scenario "nope"; valid scenarios: read-race' },
  { argv: [...gateRun, '--client', 'nope'], fragment: '--client: unknown client "nope"; valid clients: reference' },
  { argv: ['gate', '--interleavings', '5', '--out='], fragment: '--out: the directory name is empty' },
  { argv: ['gate', '--interleavings', '5', '--out', '/proc/x'], fragment: '--out: cannot use directory "/proc/x": cannot create /proc/x' },
  { argv: ['gate', '--interleavings', '5', '--out', '$T/file.txt'], fragment: '--out: cannot use directory "$T/file.txt": $T/file.txt exists and is not a directory' },
  { argv: ['gate', '--interleavings', '5', '--out', '$T/file.txt/sub'], fragment: '--out: cannot use directory "$T/file.txt/sub"' },
  { argv: [...gateRun, '--max-failures', '-1'], fragment: '--max-failures: "-1" is negative' },
  { argv: [...gateRun, '--max-failures', '2.5'], fragment: '--max-failures: "2.5" is not an integer' },
  { argv: [...gateRun, '--workers', '0'], fragment: '--workers: "0" is below the minimum 1' },
  { argv: [...gateRun, '--workers', '9'], fragment: '--workers: "9" is above the maximum 8 worker threads' },
  { argv: [...gateRun, '--workers', '100'], fragment: '--workers: "100" is above the maximum 8 worker threads' },
  { argv: [...gateRun, '--workers', 'two'], fragment: '--workers: "two" is not a number' },
  { argv: [...gateRun, '--no-shrink=yes'], fragment: '--no-shrink takes no value' },
  { argv: [...gateRun, '--self-check-ratio', '101'], fragment: '--self-check-ratio: "101" is above 100' },
  { argv: [...gateRun, '--self-check-ratio', '0.5'], fragment: '--self-check-ratio: "0.5" is not an integer' },
  { argv: [...gateRun, '--shard', '0/4'], fragment: '--shard: "0/4" has shard index 0' },
  { argv: [...gateRun, '--shard', '5/4'], fragment: '--shard: "5/4" has shard index 5, above the shard count 4' },
  { argv: [...gateRun, '--shard', '1/0'], fragment: '--shard: "1/0" has shard count 0' },
  { argv: [...gateRun, '--shard', '1-4'], fragment: '--shard: "1-4" is not INDEX/COUNT' },
  { argv: ['gate', '--interleavings', '2', '--shard', '3/4', '--out', '$T/never'], fragment: '--shard 3/4: more shards than interleavings (2)' },
  { argv: [...gateRun, '--strategies-json', '$T/missing.json'], fragment: '--strategies-json: cannot read "$T/missing.json"' },
  { argv: [...gateRun, '--strategies-json', '$T/bad.json'], fragment: '--strategies-json: "$T/bad.json" is not valid JSON' },
  { argv: [...gateRun, '--transport', 'tcp'], fragment: '--transport: unknown transport "tcp"; valid transports: pure, sdk' },
  { argv: [...gateRun, '--protocol', '2027-01-01'], fragment: '--protocol: unknown protocol "2027-01-01"; valid protocols: 2025-11-25, 2026-07-28, both' },
  { argv: [...gateRun, '--protocol', '2026-07-28', '--scenario', 'swarm'], fragment: '--protocol 2026-07-28: scenario swarm speaks 2025-11-25' },
  { argv: [...gateRun, '--client', './examples/v2-builtin-cache/client.mjs', '--scenario', 'interop-v1-client-v2-server', '--transport', 'sdk'], fragment: 'is an interop pair: it pins the SDK of the client end (v1), and a module client brings its own' },
  { argv: [...gateRun, '--scenario', 'malformed-read-response', '--transport', 'sdk'], fragment: 'makes malformed-read-response, which is judged on the step interface only' },
  { argv: [...gateRun, '--scenario', 'malformed-input', '--transport', 'sdk'], fragment: 'makes malformed-input, which is judged on the step interface only' },
  // --- replay
  { argv: ['replay'], fragment: 'missing required option --seed (or give --file replay.json)' },
  { argv: ['replay', '--seed', '1'], fragment: 'missing required option --scenario' },
  { argv: ['replay', '--seed', '1', '--scenario', 'read-race'], fragment: 'missing required option --client' },
  { argv: ['replay', '--seed', 'x', '--scenario', 'read-race', '--client', 'reference'], fragment: '--seed: seed "x"' },
  { argv: ['replay', '--seed', '1', '--scenario', 'nope', '--client', 'reference'], fragment: '--scenario: unknown scenario "nope"' },
  { argv: ['replay', '--seed', '1', '--scenario', 'read-race', '--client', 'nope'], fragment: '--client: unknown client "nope"' },
  { argv: ['replay', '--file', '$T/missing.json'], fragment: '--file $T/missing.json: cannot read it' },
  { argv: ['replay', '--file', '$T/bad.json'], fragment: '--file $T/bad.json:' },
  { argv: ['replay', '--file', '$T/gate/report.json'], fragment: '--file $T/gate/report.json:' },
  { argv: ['replay', '--file', '$T/replay-truncated.json'], fragment: '--file $T/replay-truncated.json:' },
  { argv: ['replay', '--file='], fragment: '--file: the file name is empty' },
  { argv: ['replay', '--file', '$T/bad.json', '--seed', '1'], fragment: '--file takes the seed and the scenario from the file' },
  { argv: ['replay', '--file', '$T/bad.json', '--transport', 'sdk'], fragment: '--transport sdk replays an interleaving by --seed --scenario --client' },
  { argv: ['replay', '--seed', '1', '--scenario', 'read-race', '--client', 'reference', 'extra'], fragment: 'unexpected argument "extra"; replay takes only options' },
  // --- shrink
  { argv: ['shrink'], fragment: 'missing required option --seed (or give --file replay.json)' },
  { argv: ['shrink', '--seed', '1', '--scenario', 'read-race'], fragment: 'missing required option --client' },
  { argv: ['shrink', '--seed', '1', '--scenario', 'read-race', '--client', 'naive-overwrite', '--invariant', 'nope'], fragment: '--invariant: unknown invariant "nope"' },
  { argv: ['shrink', '--seed', '1', '--scenario', 'read-race', '--client', 'naive-overwrite', '--budget-ms', '0'], fragment: '--budget-ms: "0" is below the minimum 1' },
  { argv: ['shrink', '--seed', '1', '--scenario', 'read-race', '--client', 'naive-overwrite', '--budget-ms', '-1'], fragment: '--budget-ms: "-1" is negative' },
  { argv: ['shrink', '--seed', '1', '--scenario', 'read-race', '--client', 'naive-overwrite', '--attempts', '0'], fragment: '--attempts: "0" is below the minimum 1' },
  { argv: ['shrink', '--seed', '1', '--scenario', 'read-race', '--client', 'naive-overwrite', '--out='], fragment: '--out: the file name is empty' },
  { argv: ['shrink', '--file', '$T/missing.json'], fragment: '--file $T/missing.json: cannot read it' },
  { argv: ['shrink', '--file', '$T/replay-truncated.json'], fragment: '--file $T/replay-truncated.json:' },
  // --- list
  { argv: ['list', 'scenarios'], fragment: 'unexpected argument "scenarios"; list takes only options' },
  { argv: ['list', '--json'], fragment: 'unknown option --json (list takes no options)' },
  { argv: ['list', '--scenario', 'x'], fragment: 'unknown option --scenario (list takes no options)' },
  // --- bench
  { argv: ['bench', '--repetitions', '0'], fragment: '--repetitions: "0" is below the minimum 1' },
  { argv: ['bench', '--interleavings', 'x'], fragment: '--interleavings: "x" is not a number' },
  { argv: ['bench', '--scenario', 'nope'], fragment: '--scenario: unknown scenario "nope"' },
  { argv: ['bench', '--client', 'nope'], fragment: '--client: unknown client "nope"' },
  { argv: ['bench', '--json=1'], fragment: '--json takes no value' },
  { argv: ['bench', '--workers', '4'], fragment: '--workers applies only to --strategies' },
  { argv: ['bench', '--strategies', '--workers', '9'], fragment: '--workers: "9" is above the maximum 8 worker threads' },
  { argv: ['bench', '--strategies', '--scenario', 'read-race'], fragment: '--scenario does not apply to --strategies' },
  { argv: ['bench', '--strategies', '--repetitions', '2'], fragment: '--repetitions does not apply to --strategies' },
  // --- report
  { argv: ['report'], fragment: 'missing the report directory: fencesim report DIR' },
  { argv: ['report', '$T/gate', '$T/gate'], fragment: 'one report directory at a time, got 2' },
  { argv: ['report', '$T/empty'], fragment: 'no report.json there (expected $T/empty/report.json' },
  { argv: ['report', '$T/missing-dir'], fragment: 'cannot read the report in "$T/missing-dir"' },
  { argv: ['report', '$T/corrupt'], fragment: 'corrupt report: $T/corrupt/report.json is not valid JSON' },
  { argv: ['report', '$T/schema'], fragment: 'has schema "fencesim.replay.v1", expected "fencesim.report.v1"' },
  { argv: ['report', '$T/passed-lie'], fragment: 'refused report: $T/passed-lie/report.json: passed is true but should be false' },
  { argv: ['report', '$T/negative'], fragment: 'timing.wallMs is -1, not a non-negative number' },
  { argv: ['report', '$T/old-version'], fragment: 'integrity.fencesimVersion is "0.0.1" but this is fencesim' },
  { argv: ['report', '$T/interrupted'], fragment: 'no current report in "$T/interrupted": the fencesim gate writing into it was interrupted by SIGINT' },
  { argv: ['report', '$T/gate', '--format', 'pdf'], fragment: '--format: unknown format "pdf"' },
  { argv: ['report', '$T/gate', '--format', 'htm'], fragment: 'did you mean html?' },
  { argv: ['report', '$T/gate', '--format'], fragment: '--format needs a value' },
  { argv: ['report', '$T/gate', '--strategies', '$T/bad.json'], fragment: '--strategies: "$T/bad.json" is not valid JSON' },
  { argv: ['report', '$T/gate', '--strategies', '$T/missing.json'], fragment: '--strategies: cannot read "$T/missing.json"' },
  { argv: ['report', '$T/gate', '--out', '$T/x'], fragment: 'unknown option --out' },
  // --- merge
  { argv: ['merge'], fragment: 'no reports given: fencesim merge DIR...' },
  { argv: ['merge', '$T/shard-1', '--out', '$T/merged'], fragment: 'missing shard 2/2' },
  { argv: ['merge', '$T/shard-1', '$T/shard-1', '--out', '$T/merged'], fragment: 'duplicate shard' },
  { argv: ['merge', '$T/shard-1', '$T/other-run', '--out', '$T/merged'], fragment: 'the reports are of different runs' },
  { argv: ['merge', '$T/shard-1', '$T/shard-2', '--out', '$T/shard-1'], fragment: 'is also an input' },
  { argv: ['merge', '$T/shard-1', '$T/shard-2', '--out', '/proc/x'], fragment: '--out: cannot use directory "/proc/x"' },
  { argv: ['merge', '$T/shard-1', '$T/passed-lie', '--out', '$T/merged'], fragment: 'refused report: $T/passed-lie/report.json' },
  { argv: ['merge', '$T/corrupt', '--out', '$T/merged'], fragment: 'corrupt report' },
  { argv: ['merge', '$T/interrupted', '--out', '$T/merged'], fragment: 'no current report in "$T/interrupted"' },
  { argv: ['merge', '$T/empty', '--out', '$T/merged'], fragment: 'no report.json there' },
  { argv: ['merge', '$T/shard-1', '--allow-partial=yes'], fragment: '--allow-partial takes no value' },
  { argv: ['merge', '$T/shard-1', '--out='], fragment: '--out: the directory name is empty' },
  // --- probe
  { argv: ['probe'], fragment: 'missing the server command: --server-cmd "CMD ARGS" (or -- CMD ARGS)' },
  { argv: ['probe', '--server-cmd='], fragment: '--server-cmd: the value is empty' },
  { argv: ['probe', '--server-cmd', 'node "unterminated'], fragment: '--server-cmd:' },
  { argv: ['probe', '--server-cmd', 'x', '--', 'y'], fragment: 'give the server command once' },
  { argv: ['probe', '--'], fragment: 'no server command after --' },
  { argv: ['probe', '--server-cmd', 'x', '--duration-ms', '0'], fragment: '--duration-ms: "0" is below the minimum 1' },
  { argv: ['probe', '--server-cmd', 'x', '--timeout-ms', 'abc'], fragment: '--timeout-ms: "abc" is not a number' },
  { argv: ['probe', '--server-cmd', 'x', '--quiet-ms', '-5'], fragment: '--quiet-ms: "-5" is negative' },
  { argv: ['probe', '--server-cmd', 'x', '--seed', 'nope'], fragment: '--seed: seed "nope"' },
  { argv: ['probe', '--server-cmd', 'x', '--protocol', '2026-07-28'], fragment: '--protocol must be auto or 2025-11-25 for probe, got "2026-07-28"' },
  { argv: ['probe', '--server-cmd', 'x', '--json=yes'], fragment: '--json takes no value' },
];
