/** One gate run as a value (its printed RunSpec), the command that reruns it and the one that replays one of its interleavings. */
import { formatSeed } from './prng.js';

export interface RunSpec {
  seed: number;
  interleavings: number;
  scenario: string;
  client: string;
  maxFailures: number;
  /** How messages travel: 'sdk' = real JSON-RPC between SDK Client and Server (adapters/mcp-sdk); absent = pure. */
  transport?: Transport;
  /** `--indexer NAME`: the indexer under test, run at every index; absent = the reference at the default share (indexer/gate-part.ts). */
  indexer?: string;
}

/** 'pure': the simulator's own message queue; 'sdk': the real MCP SDK on both ends over a virtual link. */
export type Transport = 'pure' | 'sdk';

export function replayCommand(seed: number, scenario: string, client: string, transport: Transport = 'pure'): string {
  return `npx fencesim replay --seed ${seed} --scenario ${scenario} --client ${client}${transport === 'pure' ? '' : ` --transport ${transport}`}`;
}

/** The command that shrinks one failing interleaving of the pure transport (shrink has no --transport) to a replay file. */
export function shrinkCommand(seed: number, scenario: string, client: string, invariant: string): string {
  return `npx fencesim shrink --seed ${seed} --scenario ${scenario} --client ${client} --invariant ${invariant} --out shrunk-${seed}.json`;
}

/** The gate's defaults that a rerun command leaves out (cli/commands/gate.ts gateDefaults takes them from here). */
export const gateRunDefaults = { maxFailures: 20, selfCheckRatioPercent: 1 } as const;

/** What a gate run's shrink step wrote when --no-shrink switched it off (report.json failures[0].shrunk.skipped). */
export const noShrinkSkipped = 'not shrunk: --no-shrink';

/** The options of a gate run outside its RunSpec that change its report. */
export interface GateRerunOptions {
  shard?: { index: number; count: number } | null;
  selfCheckRatioPercent?: number;
  /** False: --no-shrink. */
  shrink?: boolean;
}

/**
 * The one command that reruns a gate run with the same report (apart from timing): every option that changes the
 * report, those at their defaults left out. The CLI prints it ("reproduce this run") and every report shows it.
 */
export function gateRerunCommand(spec: RunSpec, options: GateRerunOptions = {}): string {
  const parts = [`npx fencesim gate --seed ${formatSeed(spec.seed)} --interleavings ${spec.interleavings} --scenario ${spec.scenario} --client ${spec.client}`];
  if (spec.transport === 'sdk') parts.push('--transport sdk');
  if (spec.indexer !== undefined) parts.push(`--indexer ${spec.indexer}`);
  if (spec.maxFailures !== gateRunDefaults.maxFailures) parts.push(`--max-failures ${spec.maxFailures}`);
  const ratio = options.selfCheckRatioPercent;
  if (ratio !== undefined && ratio !== gateRunDefaults.selfCheckRatioPercent) parts.push(`--self-check-ratio ${ratio}`);
  if (options.shrink === false) parts.push('--no-shrink');
  if (options.shard) parts.push(`--shard ${options.shard.index}/${options.shard.count}`);
  return parts.join(' ');
}
