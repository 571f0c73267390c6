/**
 * An SDK client `Transport` to a server process over stdio that never loses its process: the server is
 * started as the leader of its own process group, and ending the session ends the whole group — the server,
 * its children and its grandchildren — in the MCP stdio order: stdin closed, then SIGTERM to the group after
 * `stdinGraceMs`, then SIGKILL to the group after `termGraceMs`. The pid and what happened to the process
 * (exited with a code, killed by a signal, ignored SIGTERM and was killed) are kept after the transport
 * closed, whoever closed it, so a report can say it truthfully.
 *
 * Unlike the SDK's `StdioClientTransport` (which ends the session on a stdout line over 10 MB and signals
 * only the direct pid), a line over `lineBytesMax` is skipped and reported through `onerror`; the session
 * goes on. When the server exits by itself, what is left of its group is ended too, and `onclose` fires.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LineSplitter } from './line-splitter.js';
import { processGroupMembers, signalProcessGroup } from './process-group.js';
import { StderrTail } from './stderr-tail.js';

export interface ServerProcessOptions {
  command: string;
  args?: readonly string[];
  /** Added to the SDK's default inherited environment (HOME, PATH, ...). */
  env?: Record<string, string>;
  cwd?: string;
  /** A stdout line longer than this is skipped and reported (default 10 MiB, the SDK's buffer cap). */
  lineBytesMax?: number;
  /** After stdin is closed, how long the server may take to exit by itself (default 1000 ms). */
  stdinGraceMs?: number;
  /** After SIGTERM to the group, how long before SIGKILL (default 2000 ms). */
  termGraceMs?: number;
  /** After SIGKILL, how long to wait for the group to disappear (default 2000 ms). */
  killWaitMs?: number;
}

export interface ServerProcessReport {
  command: string[];
  pid: number | null;
  /** The process group ended on close (the pid: the server leads its own group). */
  processGroup: number | null;
  spawnError: string | null;
  exitCode: number | null;
  exitSignal: string | null;
  /** The server exited before anyone asked it to (mid-session, or during initialize). */
  exitedUnasked: boolean;
  /** What the server had been sent when it exited (null: it has not exited). */
  exitedAfter: 'nothing' | 'stdin-closed' | 'SIGTERM' | 'SIGKILL' | null;
  stdinClosed: boolean;
  sigtermSent: boolean;
  sigkillSent: boolean;
  /** Processes still in the group when the leader had exited (children it left behind). */
  leftBehind: number;
  /** Processes of the group still running after close: [] means nothing is left. null: never started. */
  remaining: number[] | null;
  /** One sentence: what happened to the server. */
  summary: string;
}

const POLL_MS = 25;
export const lineBytesMaxDefault = 10 * 1024 * 1024;

export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly stderrTail = new StderrTail();
  private child: ChildProcess | null = null;
  private readonly record: ServerProcessReport;
  private ending: Promise<void> | null = null;
  private exited: Promise<void> | null = null;
  private closeFired = false;
  private closeAsked = false;
  private readonly splitter: LineSplitter;

  constructor(private readonly options: ServerProcessOptions) {
    this.record = {
      command: [options.command, ...(options.args ?? [])],
      pid: null,
      processGroup: null,
      spawnError: null,
      exitCode: null,
      exitSignal: null,
      exitedUnasked: false,
      exitedAfter: null,
      stdinClosed: false,
      sigtermSent: false,
      sigkillSent: false,
      leftBehind: 0,
      remaining: null,
      summary: 'not started',
    };
    const lineBytesMax = options.lineBytesMax ?? lineBytesMaxDefault;
    this.splitter = new LineSplitter(
      lineBytesMax,
      (line) => this.onLine(line),
      (bytes) => this.onerror?.(new Error(`invalid JSON-RPC message: a stdout line of ${bytes} bytes exceeds the ${lineBytesMax}-byte line limit (skipped)`)),
    );
  }

  /** The server's pid (kept after the process ended), or null if it never started. */
  get pid(): number | null {
    return this.record.pid;
  }

  /** What happened to the server so far (final once `close()` resolved). */
  report(): ServerProcessReport {
    return { ...this.record, command: [...this.record.command], remaining: this.record.remaining === null ? null : [...this.record.remaining] };
  }

  start(): Promise<void> {
    if (this.child !== null || this.record.spawnError !== null) return Promise.reject(new Error('ProcessGroupTransport already started'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, [...(this.options.args ?? [])], {
        env: { ...getDefaultEnvironment(), ...this.options.env },
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true, // its own process group (setsid), so the group can be ended as one
        shell: false,
      });
      this.child = child;
      child.once('error', (error) => {
        this.record.spawnError = error.message;
        this.record.summary = `could not be started: ${error.message}`;
        this.record.remaining = this.record.pid === null ? [] : this.record.remaining;
        reject(error);
        this.fireClose();
      });
      child.once('spawn', () => {
        this.record.pid = child.pid ?? null;
        this.record.processGroup = child.pid ?? null;
        this.record.summary = 'running';
        resolve();
      });
      this.exited = new Promise((done) => child.once('exit', (code, signal) => (this.onExit(code, signal), done())));
      child.stdout!.on('data', (chunk: Buffer) => this.splitter.push(chunk));
      child.stderr!.setEncoding('utf8'); // decodes characters split across chunks
      child.stderr!.on('data', (chunk: string) => this.stderrTail.push(chunk));
      for (const stream of [child.stdin!, child.stdout!, child.stderr!]) stream.on('error', (error: Error) => this.onStreamError(error));
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || !stdin.writable || this.closeAsked || this.record.exitCode !== null || this.record.exitSignal !== null) throw new Error('Not connected');
    const json = JSON.stringify(message) + '\n';
    if (!stdin.write(json)) await new Promise<void>((resolve) => stdin.once('drain', resolve).once('close', resolve));
  }

  /** Ends the session and the whole process group (idempotent); resolves when the group is gone or given up on. */
  close(): Promise<void> {
    this.closeAsked = true;
    return this.endGroup();
  }

  private endGroup(): Promise<void> {
    this.ending ??= this.runEnd().finally(() => this.fireClose());
    return this.ending;
  }

  private async runEnd(): Promise<void> {
    const child = this.child;
    // Closed while the spawn is under way: wait for it to start (or fail), then end it like any other.
    if (child !== null) await this.waitUntil(() => this.record.processGroup !== null || this.record.spawnError !== null, 2_000);
    const pgid = this.record.processGroup;
    if (child === null || pgid === null) {
      this.record.remaining ??= [];
      return;
    }
    if (!this.leaderExited()) {
      this.record.stdinClosed = true;
      child.stdin?.end();
      await this.waitUntil(() => this.leaderExited(), this.options.stdinGraceMs ?? 1_000);
    }
    if (!this.leaderExited() || processGroupMembers(pgid).length > 0) {
      this.record.sigtermSent = signalProcessGroup(pgid, 'SIGTERM');
      await this.waitUntil(() => this.leaderExited() && processGroupMembers(pgid).length === 0, this.options.termGraceMs ?? 2_000);
    }
    if (!this.leaderExited() || processGroupMembers(pgid).length > 0) {
      this.record.sigkillSent = signalProcessGroup(pgid, 'SIGKILL');
      await this.waitUntil(() => this.leaderExited() && processGroupMembers(pgid).length === 0, this.options.killWaitMs ?? 2_000);
    }
    this.record.remaining = processGroupMembers(pgid);
    this.record.summary = summarize(this.record, this.leaderExited());
  }

  private leaderExited(): boolean {
    return this.record.exitCode !== null || this.record.exitSignal !== null;
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.record.exitCode = code;
    this.record.exitSignal = signal;
    const record = this.record;
    record.exitedAfter = record.sigkillSent ? 'SIGKILL' : record.sigtermSent ? 'SIGTERM' : record.stdinClosed ? 'stdin-closed' : 'nothing';
    const pgid = this.record.processGroup;
    if (pgid !== null) this.record.leftBehind = processGroupMembers(pgid).length;
    if (!this.closeAsked && this.ending === null) {
      this.record.exitedUnasked = true;
      // The session is over: let stdout drain briefly, then end what is left of the group and close.
      setTimeout(() => void this.endGroup(), POLL_MS * 4);
    }
  }

  private onLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      this.onerror?.(new SyntaxError(`not valid JSON (${line.length} chars: ${JSON.stringify(line.slice(0, 80))}): ${(error as Error).message}`));
      return;
    }
    const checked = JSONRPCMessageSchema.safeParse(parsed);
    if (!checked.success) {
      this.onerror?.(new Error(`invalid JSON-RPC message (${line.length} chars: ${JSON.stringify(line.slice(0, 80))})`));
      return;
    }
    this.onmessage?.(checked.data);
  }

  private onStreamError(error: Error): void {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE' && this.leaderExited()) return; // writing to a server that is gone
    this.onerror?.(error);
  }

  private fireClose(): void {
    if (this.closeFired) return;
    this.closeFired = true;
    this.onclose?.();
  }

  private async waitUntil(done: () => boolean, msMax: number): Promise<void> {
    const deadline = Date.now() + msMax;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function summarize(record: ServerProcessReport, leaderExited: boolean): string {
  const how = record.exitSignal !== null ? `was killed by ${record.exitSignal}` : record.exitCode !== null ? `exited with code ${record.exitCode}` : 'did not exit';
  const why = {
    nothing: ' by itself before it was asked to stop',
    'stdin-closed': ' after its stdin was closed',
    SIGTERM: ` after SIGTERM to its group${record.exitSignal === 'SIGTERM' ? '' : ' (it handled it)'}`,
    SIGKILL: record.sigtermSent ? ' after it ignored SIGTERM for the grace period' : ' after SIGKILL',
  }[record.exitedAfter ?? 'nothing'];
  const parts = [`the server ${how}${leaderExited ? why : ''}`];
  if (record.leftBehind > 0) parts.push(`it left ${record.leftBehind} process(es) in its group, ended by ${record.sigkillSent ? 'SIGKILL' : 'SIGTERM'}`);
  const remaining = record.remaining ?? [];
  parts.push(remaining.length === 0 && leaderExited ? 'nothing of its process group is left' : `STILL RUNNING in its group: pids ${remaining.join(', ') || String(record.pid)}`);
  return parts.join('; ');
}
