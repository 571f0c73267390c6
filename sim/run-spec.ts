/** One gate run as a value (its printed RunSpec) and the command that replays one of its interleavings. */

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
