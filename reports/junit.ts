/**
 * JUnit XML for CI test panels: one <testsuite name="fencesim gate"> with one <testcase> per safety
 * invariant, per metric, and per required "sometimes" fault. The faults are test cases because a required
 * fault that never fired fails the gate (the scenario did not test what it claims); without them a CI panel
 * would show all green next to a red gate. Failures carry the replay commands of the recorded failing
 * interleavings and the command that reproduces the whole run. Built with xmlbuilder2, never by string
 * concatenation. Deterministic: the only run-dependent number is the suite's `time` (the wall time).
 */
import { indexerJunitCases } from './indexer-render.js';
import { create } from 'xmlbuilder2';
import { sometimesMinimumInterleavings } from '../sim/gate.js';
import {
  determinismOf,
  determinismText,
  explanationOf,
  failuresOf,
  gateCommand,
  grouped,
  isLiveness,
  metricRows,
  mismatchReplay,
  mismatchText,
  runDescription,
  safetyNames,
  shrinkOf,
  shrinkSummaryText,
  shrunkReplayCommand,
  shrunkTimelineText,
  sometimesRows,
  type MetricRow,
  type RenderOptions,
  type SometimesRow,
  uncheckedSafetyNames,
} from './digest.js';
import type { Report, ReportFailure } from './json.js';

type XMLBuilder = ReturnType<typeof create>;

export const junitSuiteName = 'fencesim gate';
export const junitClassNames = {
  safety: 'fencesim.safety',
  metric: 'fencesim.metric',
  sometimes: 'fencesim.sometimes',
  determinism: 'fencesim.determinism',
} as const;

interface TestCase {
  classname: string;
  name: string;
  failure?: { message: string; type: string; body: string };
  skipped?: string;
  out?: string;
}

export function renderJunit(report: Report, options: RenderOptions = {}): string {
  const indexerCases = indexerJunitCases(report).map((testCase) => ({ classname: 'fencesim.indexer', ...testCase }));
  const cases = [...safetyCases(report, options), ...metricCases(report, options), ...sometimesCases(report), ...determinismCases(report), ...indexerCases];
  const failures = cases.filter((testCase) => testCase.failure !== undefined).length;
  const skipped = cases.filter((testCase) => testCase.skipped !== undefined).length;
  const document = create({ invalidCharReplacement: '\uFFFD' }).dec({ version: '1.0', encoding: 'UTF-8' });
  const suite = document.ele('testsuite', {
    name: junitSuiteName,
    tests: String(cases.length),
    failures: String(failures),
    errors: '0',
    skipped: String(skipped),
    time: (report.timing.wallMs / 1_000).toFixed(3),
  });
  addProperties(suite, report);
  for (const testCase of cases) addCase(suite, testCase);
  return document.end({ prettyPrint: true, indent: '  ', newline: '\n' }) + '\n';
}

function addProperties(suite: XMLBuilder, report: Report): void {
  const spec = report.runSpec;
  const properties: [string, string][] = [
    ['schema', report.schema],
    ['seed', String(spec.seed)],
    ['interleavings', String(spec.interleavings)],
    ['scenario', spec.scenario],
    ['client', spec.client],
    ['maxFailures', String(spec.maxFailures)],
    ['passed', String(report.passed)],
    ['reproduce', gateCommand(report)],
  ];
  const element = suite.ele('properties');
  for (const [name, value] of properties) element.ele('property', { name, value });
}

function addCase(suite: XMLBuilder, testCase: TestCase): void {
  const element = suite.ele('testcase', { classname: testCase.classname, name: testCase.name });
  if (testCase.failure !== undefined) {
    element.ele('failure', { message: testCase.failure.message, type: testCase.failure.type }).txt(testCase.failure.body);
  }
  if (testCase.skipped !== undefined) element.ele('skipped', { message: testCase.skipped });
  if (testCase.out !== undefined) element.ele('system-out').txt(testCase.out);
}

function safetyCases(report: Report, options: RenderOptions): TestCase[] {
  const unchecked = new Set<string>(uncheckedSafetyNames(report));
  return safetyNames(report).map((name) => {
    const count = report.counters[name] ?? 0;
    const testCase: TestCase = { classname: junitClassNames.safety, name };
    if (count === 0 && unchecked.has(name)) testCase.skipped = 'never checked in this run: nothing it judges occurred';
    if (count === 0) return testCase;
    const explanation = explanationOf(name);
    testCase.failure = {
      message: `${name}: ${violations(count)}${explanation === '' ? '' : ` (${explanation})`}`,
      type: 'safety_violation',
      body: failureBody(report, [`${name}: ${violations(count)} over ${runDescription(report)}.`], failuresOf(report, name), true, options),
    };
    return testCase;
  });
}

function metricCases(report: Report, options: RenderOptions): TestCase[] {
  return metricRows(report).map((row) => {
    const testCase: TestCase = { classname: junitClassNames.metric, name: row.name, out: metricText(row) };
    if (row.passed && !row.sampled) testCase.skipped = `${row.name} ${row.result}: ${row.note}`;
    if (row.passed) return testCase;
    testCase.failure = {
      message: row.sampled ? `${row.name} = ${row.value} misses its gate (${row.plainGate})` : `${row.name} ${row.result}: ${row.note}`,
      type: row.sampled ? 'metric_threshold' : 'metric_not_measured',
      // A liveness metric has failing interleavings of its own to replay; the others only the whole run.
      body: failureBody(report, metricLines(report, row), failuresOf(report, row.name), isLiveness(row.name), options),
    };
    return testCase;
  });
}

function metricLines(report: Report, row: MetricRow): string[] {
  const head = row.sampled ? `${row.name} = ${row.value} misses its gate (${row.plainGate})` : `${row.name} is ${row.result}`;
  const lines = [`${head} over ${runDescription(report)}.`, `measured: ${row.measured}`];
  if (row.note !== '') lines.push(`note: ${row.note}`);
  return lines;
}

function violations(count: number): string {
  return `${grouped(count)} violation${count === 1 ? '' : 's'}`;
}

function metricText(row: MetricRow): string {
  return `${row.name} = ${row.value} (gate ${row.plainGate}, ${row.result}): ${row.measured}${row.note === '' ? '' : `; ${row.note}`}`;
}

function sometimesCases(report: Report): TestCase[] {
  return sometimesRows(report)
    .filter((row) => row.required)
    .map((row) => sometimesCase(report, row));
}

function sometimesCase(report: Report, row: SometimesRow): TestCase {
  const testCase: TestCase = { classname: junitClassNames.sometimes, name: row.fault, out: `${row.fault} fired ${grouped(row.fired)} times` };
  if (row.status === 'never fired') {
    testCase.failure = {
      message: `fault ${row.fault} never fired in ${grouped(report.interleavings)} interleavings, so the scenario did not test what it claims`,
      type: 'sometimes_never_fired',
      body: `The scenario ${report.runSpec.scenario} requires fault ${row.fault} to fire at least once.\n\nreproduce the whole run:\n  ${gateCommand(report)}`,
    };
  } else if (row.status === 'not enforced') {
    testCase.skipped = `never fired; not enforced below ${grouped(sometimesMinimumInterleavings)} interleavings`;
  }
  return testCase;
}

/** The determinism self-check as one test case: a nondeterministic seed fails the gate on its own. */
function determinismCases(report: Report): TestCase[] {
  const determinism = determinismOf(report);
  if (determinism === undefined) return [];
  const testCase: TestCase = { classname: junitClassNames.determinism, name: 'self-check', out: `determinism self-check: ${determinismText(determinism)}` };
  if (determinism.checked === 0) testCase.skipped = 'determinism self-check off (--self-check-ratio 0)';
  else if (determinism.nondeterministic_interleavings > 0) {
    const lines = [`determinism self-check: ${determinismText(determinism)}, over ${runDescription(report)}.`, '', 'replay (each seed gave two different traces):'];
    for (const mismatch of determinism.mismatches) lines.push(`  ${mismatchReplay(report, mismatch)}`, `    ${mismatchText(mismatch)}`);
    lines.push('', 'reproduce the whole run:', `  ${gateCommand(report)}`);
    testCase.failure = {
      message: `${grouped(determinism.nondeterministic_interleavings)} of ${grouped(determinism.checked)} sampled interleavings gave different traces on two runs of the same seed`,
      type: 'nondeterminism',
      body: lines.join('\n'),
    };
  }
  return [testCase];
}

/**
 * The failure's text: what failed, the replay command of every recorded failing interleaving, then the
 * command that reproduces the whole run. `replayable` is false for aggregate metrics, which no single
 * interleaving fails.
 */
function failureBody(report: Report, summary: string[], failures: ReportFailure[], replayable: boolean, options: RenderOptions): string {
  const lines = [...summary, ''];
  lines.push(...shrinkLines(report, failures, options));
  if (failures.length > 0) {
    lines.push(`replay (${failures.length} recorded failing interleaving${failures.length === 1 ? '' : 's'}):`);
    for (const failure of failures) {
      lines.push(`  ${failure.replay}`);
      lines.push(`    at ${failure.timeMs} ms on ${failure.uri}: ${failure.detail}`);
    }
    lines.push('');
  } else if (replayable) {
    lines.push(`no replay recorded for it: report.json keeps the first violation of the first ${report.runSpec.maxFailures} failing interleavings; re-run with a larger --max-failures.`, '');
  } else {
    lines.push('an aggregate over the whole run: no single interleaving fails it.', '');
  }
  lines.push('reproduce the whole run:', `  ${gateCommand(report)}`);
  return lines.join('\n');
}

/** The shrunk first failure, when it belongs to these failures: its replay file and minimal timeline. */
function shrinkLines(report: Report, failures: ReportFailure[], options: RenderOptions): string[] {
  const view = shrinkOf(report);
  if (view === undefined || !failures.includes(view.failure)) return [];
  if (view.kind === 'skipped') return [`first failure not shrunk: ${view.reason}`, ''];
  const shrunk = view.shrunk;
  return [
    `shrunk (${shrinkSummaryText(shrunk)}):`,
    `  ${shrunkReplayCommand(shrunk, options)}`,
    `minimal timeline (${shrunkTimelineText(shrunk)}):`,
    ...shrunk.timeline.map((line) => `  ${line}`),
    '',
  ];
}
