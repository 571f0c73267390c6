/**
 * The probe against hostile stdio servers (test/fixtures/servers/hostile-server.mjs, one misbehaviour per
 * mode), in real time and bounded. For each: the verdict is the true one, `get()` never served anything the
 * fence did not accept (no "POISON" body, the served_only_accepted invariant), nothing of the server's process
 * group is left (checked by process group, independently of the probe's own account), and the probe's peak
 * RSS stays bounded (printed, for the figures).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FencedResourceCache } from '../cache/fenced-cache.js';
import { processGroupMembers, runProbe, type ProbeOptions, type ProbeReport } from './probe.js';
import { ProcessGroupTransport } from './process-group-transport.js';

const fixture = fileURLToPath(new URL('../../../test/fixtures/servers/hostile-server.mjs', import.meta.url));
const figures: string[] = [];
const RSS_BYTES_MAX = 700 * 1024 * 1024;

async function probe(mode: string, options: Partial<ProbeOptions> = {}): Promise<ProbeReport> {
  const startMs = performance.now();
  const report = await runProbe({
    serverCommand: [process.execPath, fixture, mode],
    seed: 7,
    durationMs: 1_200,
    quietMs: 600,
    timeoutMs: 20_000,
    requestTimeoutMs: 5_000,
    faults: { drop: { numerator: 1, denominator: 5 }, duplicate: { numerator: 1, denominator: 4 } },
    ...options,
  });
  const wallMs = Math.round(performance.now() - startMs);
  figures.push(`${mode.padEnd(18)} ${report.outcome.padEnd(16)} ${String(wallMs).padStart(6)} ms  peak RSS ${(report.peakRssBytes / 2 ** 20).toFixed(0).padStart(4)} MB  ${report.server.process?.summary ?? ''}`);
  expectNothingLeft(report);
  expectOnlyAcceptedServed(report);
  expect(report.peakRssBytes).toBeLessThan(RSS_BYTES_MAX);
  expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  return report;
}

function expectNothingLeft(report: ProbeReport): void {
  const pid = report.server.pid;
  expect(pid, 'the pid is kept whoever closed the transport').not.toBeNull();
  expect(processGroupMembers(pid!)).toEqual([]);
  expect(report.server.process!.remaining).toEqual([]);
  expect(report.cleanup.processGone).toBe(true);
  expect(report.expectations.find((check) => check.name === 'process_gone')).toMatchObject({ ok: true, detail: expect.stringMatching(/nothing of its process group is left/) });
}

function expectOnlyAcceptedServed(report: ProbeReport): void {
  expect(report.invariants.find((check) => check.name === 'served_only_accepted')?.ok).toBe(true);
  for (const prefix of report.serving.servedPrefixes) expect(prefix).not.toMatch(/POISON/);
}

function passedWithChanges(report: ProbeReport): void {
  expect(report.error).toBeNull();
  expect(report.outcome, JSON.stringify([report.invariants, report.expectations])).toBe('passed');
  expect(report.changesObserved).toBeGreaterThan(0);
  expect(report.serving.served).toBeGreaterThan(0);
}

afterAll(() => console.log(`hostile servers (mode, verdict, wall, peak RSS of the test worker, server):\n${figures.join('\n')}`));

describe('the probe against hostile stdio servers', () => {
  it('junk lines between messages: counted as malformed, the session goes on, passed', async () => {
    const report = await probe('junk-lines');
    passedWithChanges(report);
    expect(report.malformedMessageCount).toBeGreaterThan(3);
    expect(report.malformedMessages[0]).toMatchObject({ kind: 'InvalidMessage', message: expect.stringMatching(/not valid JSON/) });
    expect(report.malformedMessages[0]!.atMs).toBeLessThan(20_000); // relative to the probe's start
  }, 30_000);

  it('a 50 MB line: skipped with its size named, memory bounded, the session goes on, passed', async () => {
    const report = await probe('huge-line');
    passedWithChanges(report);
    expect(report.malformedMessages.map((message) => message.message)).toContainEqual(expect.stringMatching(/a stdout line of 52428\d+ bytes exceeds the 10485760-byte line limit/));
  }, 30_000);

  it('invalid JSON-RPC (wrong version, arrays, bare values): rejected as malformed, passed', async () => {
    const report = await probe('invalid-jsonrpc');
    passedWithChanges(report);
    expect(report.malformedMessages.filter((message) => /invalid JSON-RPC message/.test(message.message)).length).toBeGreaterThan(3);
  }, 30_000);

  it('wrong params (uri a number, missing, not a URI) and a read with text 42: typed rejections, nothing of it served', async () => {
    const report = await probe('wrong-params', { durationMs: 2_000 });
    passedWithChanges(report);
    expect(report.effectCounts.ProtocolRejected).toBeGreaterThan(3);
    expect(report.fenceDecisions.filter((decision) => decision.type === 'ProtocolRejected').map((decision) => decision.detail)).toContainEqual(expect.stringMatching(/^InvalidUri/));
  }, 30_000);

  it('responses with ids nobody asked for: reported as unknown responses, never accepted', async () => {
    const report = await probe('wrong-ids', { durationMs: 2_000 });
    passedWithChanges(report);
    expect(report.malformedMessages.some((message) => message.kind === 'UnknownResponse')).toBe(true);
  }, 30_000);

  it('no answer to initialize: reported as such (naming initialize) within the request bound', async () => {
    const report = await probe('no-initialize', { requestTimeoutMs: 1_500 });
    expect(report.outcome).toBe('error');
    expect(report.error).toBe('the server did not answer initialize within 1500 ms');
    expect(report.server.connectMs).toBeNull();
    expect(report.elapsedMs).toBeLessThan(6_000);
  }, 30_000);

  it('a server that exits mid-session: the exit and its code are reported, the pid kept', async () => {
    const report = await probe('exit-mid-session');
    expect(report.outcome).toBe('error');
    expect(report.error).toBe('the server exited mid-session (code 7)');
    expect(report.server.process).toMatchObject({ exitCode: 7, exitedUnasked: true, exitedAfter: 'nothing' });
    expect(report.server.process!.summary).toMatch(/^the server exited with code 7 by itself before it was asked to stop/);
  }, 30_000);

  it('100,000 resources/updated per second: no false failure, bounded memory', async () => {
    // The flood starts at initialize (before the subscribe, so the ACK waits behind it) and runs with the CLI's
    // default faults: delayed and duplicated copies come back on timers the flood makes late.
    const faults = { drop: { numerator: 1, denominator: 5 }, duplicate: { numerator: 1, denominator: 3 }, delay: { numerator: 1, denominator: 4 }, delayMsMax: 300 };
    const report = await probe('flood', { durationMs: 2_000, timeoutMs: 30_000, faults });
    expect(report.error).toBeNull();
    expect(report.outcome, JSON.stringify([report.invariants, report.expectations])).toBe('passed');
    const onWire = report.subscriptions.reduce((sum, subscription) => sum + subscription.updatesOnWire, 0);
    expect(onWire).toBeGreaterThan(20_000);
    expect(report.subscriptions.every((subscription) => subscription.updateGapsMs.length <= 50)).toBe(true);
    expect(report.fenceDecisions.length).toBeLessThanOrEqual(200);
  }, 45_000);

  it('wrong MIME types and encodings (base64 blob labelled text, a numeric mimeType): the bad one rejected, none served unvalidated', async () => {
    const report = await probe('wrong-mime', { durationMs: 2_000 });
    passedWithChanges(report);
    expect(report.fenceDecisions.filter((decision) => decision.type === 'ProtocolRejected').map((decision) => decision.detail)).toContainEqual(expect.stringMatching(/^MalformedResponse: resources\/read result failed the SDK's schema validation/));
  }, 30_000);

  it('a cursor cycle: the walk and the core stop at the repeated cursor', async () => {
    const report = await probe('cursor-cycle');
    passedWithChanges(report);
    expect(report.listing.pages.some((page) => page.repeatedCursor)).toBe(true);
    expect(report.discovery.abandoned.map((pass) => pass.reason)).toContain('CURSOR_CYCLE');
  }, 30_000);

  it('an endless cursor: the walk stops at pagesMax and says so', async () => {
    const report = await probe('endless-cursor', { pagesMax: 50 });
    passedWithChanges(report);
    expect(report.listing.pages).toHaveLength(50);
    expect(report.listing.endedAtPagesMax).toBe(true);
  }, 30_000);

  it('a 60,000-resource page: the probe\'s own listing walk is linear (well under a second of work)', async () => {
    const report = await probe('big-page', { durationMs: 500, quietMs: 300, timeoutMs: 12_000 });
    expect(report.listing.resources).toBe(60_000);
    expect(report.listing.duplicateUris).toBe(0);
    expect(report.listing.walkMs!).toBeLessThan(3_000);
    // The core's own A/B scan of the page is linear too (issue 14.2, core/scan.ts): the probe finishes in time.
    console.log(`60,000-resource page: outcome ${report.outcome}, walk ${report.listing.walkMs} ms, elapsed ${report.elapsedMs} ms, peak RSS ${Math.round(report.peakRssBytes / 2 ** 20)} MiB`);
    expect(report.outcome, report.error ?? '').not.toBe('timeout');
    expect(report.error).toBeNull();
  }, 25_000);

  it('a grandchild process: ended with the group, the probe says it was left behind', async () => {
    const report = await probe('grandchild');
    passedWithChanges(report);
    const grandchild = Number(/started grandchild (\d+)/.exec(report.stderrTail)![1]);
    expect(processGroupMembers(report.server.pid!)).not.toContain(grandchild);
    expect(report.server.process!.leftBehind).toBe(1);
    expect(report.server.process!.summary).toMatch(/it left 1 process\(es\) in its group, ended by SIGTERM/);
  }, 30_000);

  it('a server that ignores SIGTERM (and stdin EOF): killed, and the report says so', async () => {
    const report = await probe('ignore-sigterm');
    passedWithChanges(report);
    expect(report.server.process).toMatchObject({ stdinClosed: true, sigtermSent: true, sigkillSent: true, exitSignal: 'SIGKILL', exitedAfter: 'SIGKILL' });
    expect(report.server.process!.summary).toMatch(/^the server was killed by SIGKILL after it ignored SIGTERM/);
    expect(report.stderrTail).toMatch(/ignoring SIGTERM/);
  }, 30_000);

  it('a 4 MB resource: the missing version names the content limit; --content-chars-max raises it', async () => {
    const limited = await probe('big-resource', { uris: ['hostile://r/0'] });
    expect(limited.outcome).toBe('failed');
    expect(limited.contentLimit.refused).toEqual([{ uri: 'hostile://r/0', chars: expect.any(Number) }]);
    expect(limited.expectations.find((check) => check.name === 'version_accepted')!.detail).toMatch(/over the content limit of 1048576 characters: hostile:\/\/r\/0 has 4194\d+ characters; raise it with --content-chars-max/);
    const raised = await probe('big-resource', { uris: ['hostile://r/0'], contentCharsMax: 5_000_000 });
    passedWithChanges(raised);
    expect(raised.contentLimit.refused).toEqual([]);
  }, 45_000);
});

describe('FencedResourceCache.close() when it spawned the server (ProcessGroupTransport)', () => {
  for (const mode of ['grandchild', 'ignore-sigterm']) {
    it(`${mode}: close() ends the whole process group; the cache served only what it accepted`, async () => {
      let transport: ProcessGroupTransport | null = null;
      const cache = new FencedResourceCache({
        reconnect: false,
        connect: async () => (transport = new ProcessGroupTransport({ command: process.execPath, args: [fixture, mode], termGraceMs: 500 })),
      });
      await cache.start();
      cache.subscribe('hostile://r/0');
      let served: { served: boolean; text?: string } = { served: false };
      for (let attempt = 0; attempt < 100 && !served.served; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        served = cache.get('hostile://r/0');
      }
      expect(served).toMatchObject({ served: true, text: expect.stringMatching(/^valid hostile:\/\/r\/0 v\d+$/) });
      const pid = transport!.pid!;
      expect(processGroupMembers(pid).length).toBeGreaterThanOrEqual(mode === 'grandchild' ? 2 : 1);
      await cache.close();
      expect(processGroupMembers(pid)).toEqual([]);
      const account = transport!.report();
      expect(account.remaining).toEqual([]);
      expect(account.pid).toBe(pid);
      if (mode === 'ignore-sigterm') expect(account).toMatchObject({ exitSignal: 'SIGKILL', sigtermSent: true, sigkillSent: true });
      else expect(account).toMatchObject({ exitCode: 0, leftBehind: 1, sigtermSent: true, sigkillSent: false });
    }, 15_000);
  }
});
