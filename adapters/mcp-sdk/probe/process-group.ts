/**
 * A server's process group: who is still in it, and signalling all of it. A server started with
 * `detached: true` leads its own group (pgid = pid), so its children and grandchildren are found and ended
 * together, also after the leader itself has exited.
 *
 * Membership is read from /proc on Linux (zombies do not count: a reaped-late zombie runs nothing); elsewhere
 * `kill(-pgid, 0)` answers whether any member exists. A process that leaves the group on purpose (`setsid`)
 * is out of reach of both, as it is of a shell's job control.
 */
import { readFileSync, readdirSync } from 'node:fs';

const hasProc = process.platform === 'linux' && safeReaddir('/proc') !== null;

/** Live (not zombie) processes whose process group is `pgid`. */
export function processGroupMembers(pgid: number): number[] {
  if (!hasProc) return groupSignalable(pgid) ? [pgid] : [];
  const members: number[] = [];
  for (const name of safeReaddir('/proc') ?? []) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const stat = readStat(name);
    if (stat !== null && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(Number(name));
  }
  return members;
}

/** Sends `signal` to every process in the group; false when the group no longer exists. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether a process with this pid exists (EPERM: it exists but is not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function groupSignalable(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readStat(pid: string): { state: string; pgrp: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // exited while we looked
  }
  // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const pgrp = Number(fields[2]);
  return fields[0] === undefined || !Number.isInteger(pgrp) ? null : { state: fields[0], pgrp };
}

function safeReaddir(path: string): string[] | null {
  try {
    return readdirSync(path);
  } catch {
    return null;
  }
}
