import { create } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import { safetyInvariants } from '../sim/oracle.js';
import { loadReport, withNondeterminism, type FixtureName } from '../test/fixtures/reports.js';
import type { Report } from './json.js';
import { junitClassNames, renderJunit } from './junit.js';

/** The few DOM members the tests use (tsconfig has no DOM lib; xmlbuilder2 parses into its own DOM). */
interface XmlElement {
  nodeName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
}

function parse(xml: string): XmlElement {
  return create(xml).root().node as unknown as XmlElement;
}

function elements(parent: XmlElement, name: string): XmlElement[] {
  return Array.from(parent.getElementsByTagName(name));
}

function testcases(suite: XmlElement, classname: string): XmlElement[] {
  return elements(suite, 'testcase').filter((testCase) => testCase.getAttribute('classname') === classname);
}

const metricNames = ['read_amplification', 'convergence_60s', 'revocation_p99_ms'];

describe('renderJunit', () => {
  it('parses and round-trips: one testsuite "fencesim gate" with the run spec as properties', () => {
    const xml = renderJunit(loadReport('report-fail-read-race'));
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite ')).toBe(true);
    expect(`${create(xml).end({ prettyPrint: true, indent: '  ', newline: '\n' })}\n`).toBe(xml);
    const suite = parse(xml);
    expect(suite.nodeName).toBe('testsuite');
    expect(suite.getAttribute('name')).toBe('fencesim gate');
    const properties = Object.fromEntries(elements(suite, 'property').map((property) => [property.getAttribute('name'), property.getAttribute('value')]));
    expect(properties).toMatchObject({
      seed: '995302589',
      interleavings: '500',
      scenario: 'read-race',
      client: 'naive-overwrite',
      maxFailures: '20',
      reproduce: 'npx fencesim gate --seed 995302589 --interleavings 500 --scenario read-race --client naive-overwrite',
    });
  });

  const cases: [FixtureName, string[], string[], number][] = [
    ['report-pass', [], [], 0],
    ['report-fail-read-race', ['version_regression'], [], 0],
    [
      'report-fail-swarm',
      ['accept_when_not_active', 'post_close_outbox', 'late_tombstone', 'old_session_effect', 'served_after_revocation', 'fence_lost_after_crash'],
      ['read_amplification', 'convergence_60s', 'revocation_p99_ms'],
      0,
    ],
    ['report-swarm-reference', ['late_tombstone', 'served_after_revocation'], [], 0],
    ['report-sometimes-fail', [], [], 8],
  ];

  it.each(cases)('%s: one testcase per safety invariant and metric, failures exactly for the failing ones', (name, failingSafety, failingMetrics, failingSometimes) => {
    const report = loadReport(name);
    const suite = parse(renderJunit(report));
    const safety = testcases(suite, junitClassNames.safety);
    const metrics = testcases(suite, junitClassNames.metric);
    // One testcase per safety counter the report holds (fixtures written before an invariant was added hold fewer).
    expect(safety.map((testCase) => testCase.getAttribute('name'))).toEqual(safetyInvariants.filter((name) => name in report.counters));
    expect(Object.keys(report.counters).every((name) => (safetyInvariants as readonly string[]).includes(name))).toBe(true);
    expect(metrics.map((testCase) => testCase.getAttribute('name'))).toEqual(metricNames);
    const failed = (list: XmlElement[]): string[] => list.filter((testCase) => elements(testCase, 'failure').length === 1).map((testCase) => testCase.getAttribute('name')!);
    expect(failed(safety)).toEqual(failingSafety);
    expect(failed(metrics)).toEqual(failingMetrics);
    expect(failed(testcases(suite, junitClassNames.sometimes))).toHaveLength(failingSometimes);
    const all = elements(suite, 'testcase');
    expect(suite.getAttribute('tests')).toBe(String(all.length));
    expect(suite.getAttribute('failures')).toBe(String(elements(suite, 'failure').length));
    // The panel agrees with the gate: any failure iff the gate failed.
    expect(elements(suite, 'failure').length > 0).toBe(!report.passed);
  });

  it('a safety failure carries every recorded replay command of its invariant, the shrunk replay and the gate command', () => {
    const report = loadReport('report-fail-swarm');
    const suite = parse(renderJunit(report, { reportDir: '/ci/out' }));
    const failure = (name: string): XmlElement => elements(testcases(suite, junitClassNames.safety).find((testCase) => testCase.getAttribute('name') === name)!, 'failure')[0]!;
    const revoked = failure('served_after_revocation');
    expect(revoked.getAttribute('type')).toBe('safety_violation');
    expect(revoked.getAttribute('message')).toMatch(/^served_after_revocation: 928 violations \(the client served content to a subject/);
    const replays = report.failures.filter((entry) => entry.invariant === 'served_after_revocation').map((entry) => entry.replay);
    expect(replays).toHaveLength(5);
    for (const replay of replays) expect(revoked.textContent).toContain(replay);
    expect(revoked.textContent).toContain('npx fencesim replay --file /ci/out/shrunk-3349452422.json');
    expect(revoked.textContent).toContain('!! served_after_revocation: served demo://resource/static/document/architecture.md to alice');
    expect(revoked.textContent).toContain('npx fencesim gate --seed 3 --interleavings 300 --scenario swarm --client naive-no-resubscribe');
    // The shrunk replay belongs to the first failure's invariant only.
    expect(failure('old_session_effect').textContent).not.toContain('--file');
    expect(failure('post_close_outbox').textContent).toContain('no replay recorded for it');
    const convergence = elements(testcases(suite, junitClassNames.metric).find((testCase) => testCase.getAttribute('name') === 'convergence_60s')!, 'failure')[0]!;
    expect(convergence.getAttribute('message')).toBe('convergence_60s = 43.97 % misses its gate (>= 99.9 %)');
    expect(convergence.textContent).toContain('npx fencesim replay --seed 27310084 --scenario swarm --client naive-no-resubscribe');
    const amplification = elements(testcases(suite, junitClassNames.metric).find((testCase) => testCase.getAttribute('name') === 'read_amplification')!, 'failure')[0]!;
    expect(amplification.textContent).toContain('an aggregate over the whole run');
  });

  it('the determinism self-check is a test case: passes, or fails with each nondeterministic seed replay', () => {
    const passing = parse(renderJunit(loadReport('report-pass')));
    const [selfCheck] = testcases(passing, junitClassNames.determinism);
    expect(selfCheck!.getAttribute('name')).toBe('self-check');
    expect(elements(selfCheck!, 'failure')).toHaveLength(0);
    const failing = parse(renderJunit(withNondeterminism(loadReport('report-pass'))));
    const failure = elements(testcases(failing, junitClassNames.determinism)[0]!, 'failure')[0]!;
    expect(failure.getAttribute('type')).toBe('nondeterminism');
    expect(failure.textContent).toContain('npx fencesim replay --seed 123456789 --scenario read-race --client reference');
    expect(failure.textContent).toContain('npx fencesim replay --seed 987654321 --scenario read-race --client reference');
    expect(failing.getAttribute('failures')).toBe('1');
    // A report written before the self-check existed has no such test case.
    expect(testcases(parse(renderJunit(loadReport('report-sometimes-fail'))), junitClassNames.determinism)).toHaveLength(0);
  });

  it('a required fault that never fired fails only where the gate enforces it, and is skipped below the minimum', () => {
    const enforced = parse(renderJunit(loadReport('report-sometimes-fail')));
    const cursorCycle = testcases(enforced, junitClassNames.sometimes).find((testCase) => testCase.getAttribute('name') === 'cursor-cycle')!;
    expect(elements(cursorCycle, 'failure')[0]!.getAttribute('type')).toBe('sometimes_never_fired');
    const small = parse(renderJunit(loadReport('report-fail-swarm')));
    expect(small.getAttribute('skipped')).toBe('4');
    expect(elements(small, 'skipped')).toHaveLength(4);
  });

  it('is deterministic: only the suite time depends on the wall clock', () => {
    const report = loadReport('report-fail-swarm');
    const slower: Report = { ...report, timing: { ...report.timing, wallMs: 123_456, eventsPerSecond: 1, interleavingsPerSecond: 1, peakRssBytes: 1 } };
    const a = renderJunit(report);
    const b = renderJunit(slower);
    expect(a).toBe(renderJunit(report));
    expect(b.replace(/time="[0-9.]+"/g, '')).toBe(a.replace(/time="[0-9.]+"/g, ''));
    expect(b).toContain('time="123.456"');
    expect(a.match(/time="/g)).toHaveLength(1);
  });

  it('escapes report text instead of breaking the XML', () => {
    const report = loadReport('report-fail-read-race');
    const hostile: Report = { ...report, failures: [{ ...report.failures[0]!, uri: 'demo://a?b=<c>&d="e"', detail: ']]> </failure> \u0001' }] };
    const suite = parse(renderJunit(hostile));
    const failure = elements(suite, 'failure')[0]!;
    expect(failure.textContent).toContain('demo://a?b=<c>&d="e": ]]> </failure> \uFFFD');
    expect(elements(suite, 'testcase')).toHaveLength(elements(parse(renderJunit(report)), 'testcase').length);
  });
});
