import { describe, expect, it } from 'vitest';
import { reproduceGateCommand } from '../cli/commands/gate.js';
import { loadReport } from '../test/fixtures/reports.js';
import {
  determinismOf,
  failingInvariants,
  findingCountText,
  gateCommand,
  histogramOf,
  metricRows,
  preciseNumber,
  shrinkOf,
  shrunkReplayCommand,
  sometimesRows,
} from './digest.js';
import type { Report } from './json.js';

describe('digest', () => {
  it('gateCommand is the command the CLI prints as "reproduce this run", with every option that changes the report', () => {
    for (const name of ['report-pass', 'report-fail-read-race', 'report-fail-swarm'] as const) {
      const report = loadReport(name);
      const setup = { spec: report.runSpec, shard: null, selfCheckRatioPercent: report.determinism.selfCheckRatioPercent, shrink: true };
      expect(gateCommand(report)).toBe(reproduceGateCommand(setup));
      const changed = { ...report, runSpec: { ...report.runSpec, maxFailures: 3 }, determinism: { ...report.determinism, selfCheckRatioPercent: 50 } };
      expect(gateCommand(changed)).toBe(`${gateCommand(report)} --max-failures 3 --self-check-ratio 50`);
      expect(reproduceGateCommand({ ...setup, spec: changed.runSpec, selfCheckRatioPercent: 50, shrink: false })).toBe(`${gateCommand(report)} --max-failures 3 --self-check-ratio 50 --no-shrink`);
    }
  });

  it('preciseNumber adds decimals only when rounding would cross the gate', () => {
    expect(preciseNumber(42.1249, 99.9, '>=', 2)).toBe('42.12');
    expect(preciseNumber(100, 99.9, '>=', 2)).toBe('100');
    expect(preciseNumber(99.8996, 99.9, '>=', 2)).toBe('99.8996');
    expect(preciseNumber(1.19999, 1.2, '<', 3)).toBe('1.19999');
    expect(preciseNumber(1.2, 1.2, '<', 3)).toBe('1.2');
  });

  it('failing invariants: non-zero safety counters then non-converging liveness, each with its recorded failures', () => {
    const findings = failingInvariants(loadReport('report-fail-swarm'));
    expect(findings.map((finding) => [finding.name, finding.kind, finding.count, finding.failures.length])).toEqual([
      ['accept_when_not_active', 'safety', 29, 0],
      ['post_close_outbox', 'safety', 26, 0],
      ['late_tombstone', 'safety', 3, 0],
      ['old_session_effect', 'safety', 188, 3],
      ['served_after_revocation', 'safety', 928, 5],
      ['fence_lost_after_crash', 'safety', 525, 3],
      ['convergence_60s', 'liveness', 134, 9],
    ]);
    expect(findingCountText(findings[2]!)).toBe('3 violations');
    expect(findingCountText({ ...findings[2]!, count: 1 })).toBe('1 violation');
    expect(findingCountText(findings[6]!)).toBe('134 interleavings did not converge');
    expect(failingInvariants(loadReport('report-pass'))).toEqual([]);
  });

  it('metric rows: units, gates and what was measured', () => {
    expect(metricRows(loadReport('report-fail-swarm')).map((row) => [row.name, row.value, row.gate, row.passed])).toEqual([
      ['read_amplification', '1.31', '< 1.2', false],
      ['convergence_60s', '43.97 %', '≥ 99.9 %', false],
      ['revocation_p99_ms', '92,300 ms', '< 30,000 ms', false],
    ]);
  });

  it('sometimes rows: a required fault that never fired fails only in runs large enough to enforce it', () => {
    const enforced = sometimesRows(loadReport('report-sometimes-fail')).find((row) => row.fault === 'cursor-cycle')!;
    const small = sometimesRows(loadReport('report-fail-swarm')).find((row) => row.fault === 'cursor-cycle')!;
    const fired = sometimesRows(loadReport('report-fail-swarm')).find((row) => row.fault === 'reorder')!;
    expect(fired.status).toBe('fired');
    expect(enforced.status).toBe('never fired');
    expect(small.status).toBe('not enforced');
  });

  it('histogramOf reads report.distributions and refuses malformed shapes', () => {
    const report = loadReport('report-pass');
    const withHistogram = (value: unknown): Report => ({ ...report, distributions: { convergenceMs: value } }) as unknown as Report;
    expect(histogramOf(report, 'convergenceMs')).toBeUndefined();
    expect(histogramOf(withHistogram({ bucketMs: 100, counts: [1, 2], overflow: 3 }), 'convergenceMs')).toEqual({ bucketMs: 100, counts: [1, 2], overflow: 3 });
    expect(histogramOf(withHistogram({ bucketMs: 100, counts: [1, 2] }), 'convergenceMs')).toEqual({ bucketMs: 100, counts: [1, 2], overflow: 0 });
    expect(histogramOf(withHistogram({ bucketMs: -1, counts: [1] }), 'convergenceMs')).toBeUndefined();
    expect(histogramOf(withHistogram({ bucketMs: 100, counts: [1, -2] }), 'convergenceMs')).toBeUndefined();
    expect(histogramOf(withHistogram({ bucketMs: 100, counts: 'no' }), 'convergenceMs')).toBeUndefined();
    expect(histogramOf(withHistogram({ bucketMs: 100, counts: [1] }), 'revocationMs')).toBeUndefined();
  });

  it('shrink and determinism views tolerate reports written before those fields existed', () => {
    const old = loadReport('report-sometimes-fail');
    expect(shrinkOf(old)).toBeUndefined();
    expect(determinismOf(old)).toBeUndefined();
    const view = shrinkOf(loadReport('report-fail-read-race'))!;
    expect(view.kind).toBe('shrunk');
    if (view.kind === 'shrunk') {
      expect(shrunkReplayCommand(view.shrunk)).toBe('npx fencesim replay --file shrunk-3707731505.json');
      expect(shrunkReplayCommand(view.shrunk, { reportDir: 'out/' })).toBe('npx fencesim replay --file out/shrunk-3707731505.json');
    }
    const skipped = { ...old, failures: [{ ...old.failures[0]!, shrunk: { skipped: 'not shrunk: --no-shrink' } }] } as Report;
    expect(shrinkOf(skipped)).toMatchObject({ kind: 'skipped', reason: 'not shrunk: --no-shrink' });
  });
});
