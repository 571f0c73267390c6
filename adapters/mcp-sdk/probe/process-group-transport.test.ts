/** ProcessGroupTransport on its own: what it reports in each way a process can end, and a close during the spawn. */
import { describe, expect, it } from 'vitest';
import { processGroupMembers } from './process-group.js';
import { ProcessGroupTransport } from './process-group-transport.js';

const closedSoon = (transport: ProcessGroupTransport): Promise<void> => new Promise((resolve) => (transport.onclose = resolve));

describe('ProcessGroupTransport', () => {
  it('a server killed by a signal it did not get from us: reported as killed by that signal, by itself', async () => {
    const transport = new ProcessGroupTransport({ command: process.execPath, args: ['-e', 'setTimeout(() => process.kill(process.pid, "SIGTERM"), 100)'] });
    const closed = closedSoon(transport);
    await transport.start();
    await closed; // the transport closes itself when the server is gone
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow(/Not connected/);
    await transport.close();
    const account = transport.report();
    expect(account).toMatchObject({ exitCode: null, exitSignal: 'SIGTERM', exitedUnasked: true, exitedAfter: 'nothing', stdinClosed: false, sigtermSent: false, remaining: [] });
    expect(account.summary).toBe('the server was killed by SIGTERM by itself before it was asked to stop; nothing of its process group is left');
  });

  it('closed while the spawn is under way: waits for it, then ends the group (stdin EOF is ignored by sleep: SIGTERM)', async () => {
    const transport = new ProcessGroupTransport({ command: 'sleep', args: ['30'], stdinGraceMs: 200 });
    const started = transport.start();
    const closed = transport.close();
    await started;
    await closed;
    const account = transport.report();
    expect(account.pid).not.toBeNull();
    expect(processGroupMembers(account.pid!)).toEqual([]);
    expect(account).toMatchObject({ exitSignal: 'SIGTERM', exitedAfter: 'SIGTERM', sigtermSent: true, sigkillSent: false, remaining: [] });
    expect(account.summary).toBe('the server was killed by SIGTERM after SIGTERM to its group; nothing of its process group is left');
  });

  it('a server that handles SIGTERM and exits 0: exited with code 0 after SIGTERM (it handled it)', async () => {
    const transport = new ProcessGroupTransport({ command: process.execPath, args: ['-e', 'process.stdin.resume(); process.on("SIGTERM", () => process.exit(0)); setInterval(() => {}, 1000)'], stdinGraceMs: 200 });
    await transport.start();
    await new Promise((resolve) => setTimeout(resolve, 200)); // its SIGTERM handler is installed
    await transport.close();
    expect(transport.report().summary).toBe('the server exited with code 0 after SIGTERM to its group (it handled it); nothing of its process group is left');
  });
});
