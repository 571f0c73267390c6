/** The bench suite's report (`--json` prints it as one object) and its text tables. */
import os from 'node:os';

import type { FullRow } from './suite-full.js';
import { OPERATIONS_PER_SAMPLE, type MicroRow } from './micro.js';
import type { SuiteOptions } from './suite-options.js';
import type { PeerControls, PeerRow } from './suite-peers.js';
import { integer } from './suite-progress.js';

/** Aligned text table: first column left-aligned, the others right-aligned. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const render = (row: readonly string[]): string =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   ').trimEnd();
  return [render(header), widths.map((width) => '-'.repeat(width)).join('   '), ...rows.map(render)].join('\n');
}

export function machine(): { cpus: number; cpuModel: string; node: string; v8: string; platform: string; totalMemoryGiB: number } {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform}/${process.arch}`,
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  };
}

export interface SuiteReport {
  machine: ReturnType<typeof machine>;
  spec: Omit<SuiteOptions, 'json'> & { fastCheckVersion: string; microOperationsPerSample: number };
  full: FullRow[];
  peakRssMiBAfterFull: number;
  peers: PeerRow[];
  peerControls: PeerControls;
  micro: MicroRow[];
  peakRssMiB: number;
  wallSeconds: number;
  /** 1-minute load averages at the start and end: other processes on the machine skew wall-clock rates. */
  loadAverageStart: number;
  loadAverageEnd: number;
}

export function printText(report: SuiteReport): void {
  const m = report.machine;
  const spec = report.spec;
  console.log('fencesim bench suite');
  console.log(`machine:  ${m.cpus} x ${m.cpuModel}, ${m.totalMemoryGiB} GiB RAM, node ${m.node} (V8 ${m.v8}), ${m.platform}`);
  const { fastCheckVersion, ...rest } = spec;
  console.log(`run spec: ${JSON.stringify(rest)}`);
  console.log(`          fast-check ${fastCheckVersion}; medians of ${spec.repetitions} repetitions after a warm-up; one thread`);
  console.log('');
  printFull(report);
  console.log('');
  printPeers(report);
  console.log('');
  console.log(`c. micro-benchmarks (tinybench, ${spec.microTimeMs} ms per row, ${integer(OPERATIONS_PER_SAMPLE)} operations per sample)`);
  console.log(
    table(
      ['operation', 'median ns/op', 'samples'],
      report.micro.map((row) => [row.name, row.nsPerOperationMedian.toFixed(0), integer(row.samples)]),
    ),
  );
  console.log('');
  console.log(
    `peak RSS (whole suite): ${report.peakRssMiB.toFixed(1)} MiB; wall time ${report.wallSeconds.toFixed(1)} s; ` +
      `1-min load average ${report.loadAverageStart.toFixed(2)} at start, ${report.loadAverageEnd.toFixed(2)} at end (${report.machine.cpus} CPUs)`,
  );
}

function printFull(report: SuiteReport): void {
  const spec = report.spec;
  console.log(`a. full model (sim/gate.ts runRange), client ${spec.client}, ${integer(spec.interleavings)} interleavings per repetition`);
  console.log(
    table(
      ['scenario', 'interleavings/s', 'events/s', 'events/interleaving', 'events/CPU-s', 'violations', 'deterministic'],
      report.full.map((row) => row.crash !== null ? [row.scenario, 'CRASHED', '-', '-', '-', '-', '-'] : [
        row.scenario,
        integer(row.interleavingsPerSecondMedian),
        integer(row.eventsPerSecondMedian),
        row.eventsPerInterleaving.toFixed(1),
        integer(row.eventsPerCpuSecondMedian),
        integer(row.violations),
        row.deterministic ? 'yes' : 'NO',
      ]),
    ),
  );
  for (const row of report.full) {
    if (row.crash === null) continue;
    console.log(`${row.scenario} CRASHED at interleaving ${row.crash.index} (seed ${row.crash.seed}): ${row.crash.message}`);
    console.log(`  replay: ${row.crash.replay}`);
  }
  console.log(`peak RSS after (a): ${report.peakRssMiBAfterFull.toFixed(1)} MiB`);
}

function printPeers(report: SuiteReport): void {
  const spec = report.spec;
  console.log(
    `b. same model (read-race peer, bench/fastcheck-peer.ts header): fencesim queue + chooser vs fast-check scheduler, ` +
      `${integer(spec.peerFencesimInterleavings)} (fencesim) and ${integer(spec.peerInterleavings)} (fast-check) interleavings per repetition, alternating`,
  );
  console.log(
    table(
      ['resources', 'events/interleaving', 'fencesim il/s', 'fast-check il/s', 'fencesim events/s', 'fast-check events/s', 'fencesim/fast-check', 'per-repetition range'],
      report.peers.map((row) => [
        String(row.resources),
        String(row.eventsPerInterleaving),
        integer(row.fencesimInterleavingsPerSecond),
        integer(row.fastCheckInterleavingsPerSecond),
        integer(row.fencesimEventsPerSecond),
        integer(row.fastCheckEventsPerSecond),
        `${row.ratio.toFixed(1)}x`,
        `${row.pairedRatioMin.toFixed(1)}x-${row.pairedRatioMax.toFixed(1)}x`,
      ]),
    ),
  );
  const controls = report.peerControls;
  console.log(
    `negative control, fence removed, 1 resource: fencesim caught the regression in ${integer(controls.fencesimUnfencedCaught)} of ` +
      `${integer(controls.interleavings)} interleavings (${((100 * controls.fencesimUnfencedCaught) / controls.interleavings).toFixed(1)}%, ` +
      `first at index ${controls.fencesimUnfencedFirstCaughtIndex}); fast-check: ` +
      (controls.fastCheckUnfencedFailsAtRun === null ? 'NOT caught' : `caught at run ${controls.fastCheckUnfencedFailsAtRun}`),
  );
  console.log(`fenced fencesim peer model: ${controls.fencesimStaleReceiptsPerInterleaving.toFixed(2)} stale receipts per interleaving (the fence is exercised)`);
}
