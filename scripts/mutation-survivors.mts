// Re-judges the survivors of a Stryker report under a LARGER gate, one mutant at a time: each survivor is
// planted as a textual patch into a copy of core/ (test/.planted/mutant-N/, as test/planting.ts does) and its
// reference client runs the parts below, then the self-check parts and the sameResource part (mutation-gate.ts), stopping
// at the first failure. A survivor the larger gate kills only needs more interleavings in the fixed gate; one it does
// not kill needs judgement (a checker, a fault, a scenario) or is shown equivalent in mutation-equivalents.md. No hit
// limit: a mutant that loops forever (a Stryker Timeout) hangs it.
// Usage: node --import tsx scripts/mutation-survivors.mts mutation-report/NAME.json [scenario:start:count,...|gate]
// MUTATION_FILE=core/ttl.ts limits it to one file, MUTATION_LINES=FROM-TO to survivors starting on those lines (one
// function, say), MUTATION_MAX=N to its first N survivors (a sample), MUTATION_OPEN=FILE to those a summary lists as open,
// MUTATION_ALL=1 to every mutant the report ran but its Timeouts (killed ones too: the whole report re-judged),
// MUTATION_ALL=killed to those Stryker killed only, MUTATION_EVERY=N to every Nth of those (a sample),
// MUTATION_EVERY_REST=1 with it to all the others.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClientUnderTest } from '../core/types.js';
import { registerOwnedStep, type StepFunction } from '../core/step-owned.js';
import { mutationGateFailure, mutationGateParts, mutationSelfCheckFailure, mutationSelfCheckParts, sameResourceFailure, type MutationGatePart } from './mutation-gate.js';

interface Position { line: number; column: number }
interface Mutant { id: string; mutatorName: string; replacement?: string; status: string; location: { start: Position; end: Position } }

const [reportPath, partsText] = process.argv.slice(2);
if (reportPath === undefined) {
  console.error('usage: node --import tsx scripts/mutation-survivors.mts mutation-report/NAME.json [scenario:start:count,...]');
  process.exit(2);
}
const targeted = ['read-race', 'duplicate-storm', 'close-race', 'reconnect', 'uri-spelling', 'multi-page-lost-notifications', 'cursor-cycle', 'malformed-list-page', 'forged-snapshot-id', 'catalog-review', 'lost-unsubscribe-ack', 'late-content-after-close', 'old-session-notification', 'permission-revocation', 'no-subscribe-capability', 'client-crash'];
// 'gate': the fixed gate itself (its parts, then its self-check parts): what Stryker would find now, survivor by survivor.
const parts: MutationGatePart[] = partsText === undefined
  ? [['swarm', 0, 300], ['era-both', 0, 100], ...targeted.map((name): MutationGatePart => [name, 0, 40])]
  : partsText === 'gate'
    ? [...mutationGateParts]
    : partsText.split(',').map((part) => {
      const [name, start, count] = part.split(':');
      return [name!, Number(start), Number(count)];
    });

/** Offset of a 1-based line and column in `text`. */
function offsetOf(text: string, position: Position): number {
  let offset = 0;
  for (let line = 1; line < position.line; line++) offset = text.indexOf('\n', offset) + 1;
  return offset + position.column - 1;
}

/**
 * The replacement text of a mutant, parenthesised where it is an expression: Stryker replaces an AST node, so
 * `a || b` planted into `a && b && c` must stay `(a || b) && c`, never `a || b && c`.
 */
function planted(mutant: Mutant): string {
  const replacement = mutant.replacement ?? '';
  const expression = ['LogicalOperator', 'EqualityOperator', 'ArithmeticOperator', 'ConditionalExpression', 'BooleanLiteral', 'MethodExpression', 'OptionalChaining', 'UnaryOperator'].includes(mutant.mutatorName);
  return expression && !/^(case |default:)/.test(replacement) ? `(${replacement})` : replacement;
}

const files = (JSON.parse(readFileSync(reportPath, 'utf8')) as { files: Record<string, { mutants: Mutant[] }> }).files;
const coreFiles = readdirSync('core').filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
const onlyFile = process.env['MUTATION_FILE'];
/** A fresh directory per mutant: import() caches by URL, and a spliced report can repeat an id. */
let planting = 0;
let left = Number(process.env['MUTATION_MAX'] ?? Number.POSITIVE_INFINITY);
const [lineFrom, lineTo] = (process.env['MUTATION_LINES'] ?? '1-1e9').split('-').map(Number) as [number, number];
// MUTATION_OPEN=FILE: only the survivors FILE lists as scripts/mutation-summary.mjs prints them (`core/F.ts:L:C MUTATOR
// Survived: "replacement"`): the ones still open after the equivalents and earlier verdicts.
const openKeys = process.env['MUTATION_OPEN'] === undefined ? null : new Set(readFileSync(process.env['MUTATION_OPEN'], 'utf8').split('\n').map((line) => /^(core\/\S+) (\w+) (?:Survived|NoCoverage): (".*")$/.exec(line)).filter((match) => match !== null).map((match) => `${match![1]} ${match![2]} ${JSON.parse(match![3]!)}`));
for (const [file, { mutants }] of Object.entries(files)) {
  if (onlyFile !== undefined && file !== onlyFile) continue;
  // MUTATION_ALL=1: every mutant Stryker ran (killed ones too), not only the open ones: a re-judge of the whole report
  // under today's gate (its Timeouts excepted: a mutant that loops forever would hang this tool).
  // MUTATION_ALL=killed: only those Stryker killed (is each still killed by today's gate?).
  const statuses = process.env['MUTATION_ALL'] === 'killed' ? ['Killed'] : process.env['MUTATION_ALL'] === '1' ? ['Survived', 'NoCoverage', 'Killed'] : ['Survived', 'NoCoverage'];
  // MUTATION_EVERY=N: every Nth of those (in report order, per file): a sample of a whole report.
  // MUTATION_EVERY_REST=1: the others (every mutant but each Nth): a sample and its rest make the whole report.
  const every = Number(process.env['MUTATION_EVERY'] ?? 1);
  const rest = process.env['MUTATION_EVERY_REST'] === '1';
  const judged = mutants.filter((candidate) => statuses.includes(candidate.status)).filter((_, index) => (index % every === 0) !== rest);
  const listed = (mutant: Mutant): boolean => openKeys === null || openKeys.has(`${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} ${mutant.replacement ?? ''}`);
  for (const mutant of judged.filter((candidate) => candidate.location.start.line >= lineFrom && candidate.location.start.line <= lineTo && listed(candidate))) {
    if (left-- <= 0) break;
    const dir = join('test', '.planted', `mutant-${process.pid}-${planting++}-${mutant.id}`);
    mkdirSync(join(dir, 'core'), { recursive: true });
    const replacement = planted(mutant);
    for (const name of coreFiles) {
      let text = readFileSync(join('core', name), 'utf8');
      if (`core/${name}` === file) text = text.slice(0, offsetOf(text, mutant.location.start)) + replacement + text.slice(offsetOf(text, mutant.location.end));
      writeFileSync(join(dir, 'core', name), text);
    }
    // With MUTATION_ALL the span's end too (`core/F.ts:L:C-L:C`): mutants that share a start, mutator and replacement
    // (`a && b` and `a`, both made `true`) get a verdict each, and scripts/mutation-summary.mjs can take a 'survives' as
    // the mutant's status.
    const end = process.env['MUTATION_ALL'] !== undefined ? `-${mutant.location.end.line}:${mutant.location.end.column}` : '';
    const where = `${file}:${mutant.location.start.line}:${mutant.location.start.column}${end} ${mutant.mutatorName} ${JSON.stringify(mutant.replacement ?? '')}`;
    let verdict: string;
    try {
      const module = (await import(pathToFileURL(join(dir, 'core', 'reducer.ts')).href)) as { referenceClient: ClientUnderTest<any>; stepOwned: StepFunction<any> };
      // The copy registers its owned step in its own copy of core/step-owned.ts; the harness looks in ours. Registered
      // here, the gate's runs step the mutant's owned twin as Stryker's do (and the self-check its pure step).
      registerOwnedStep(module.referenceClient.step, module.stepOwned);
      const uri = (await import(pathToFileURL(join(dir, 'core', 'uri.ts')).href)) as { sameResource: (a: string, b: string) => boolean };
      verdict = 'survives the larger gate';
      const failures = [
        ...parts.map(([name, start, count]) => () => mutationGateFailure(name, start, count, module.referenceClient)),
        ...mutationSelfCheckParts.map(([name, indices]) => () => mutationSelfCheckFailure(name, indices, module.referenceClient)),
        () => sameResourceFailure(uri.sameResource),
      ];
      for (const failureOf of failures) {
        const failure = failureOf();
        if (failure !== null) {
          verdict = `killed by ${failure}`;
          break;
        }
      }
    } catch (error) {
      verdict = `killed (throws: ${String(error).slice(0, 120)})`;
    }
    console.log(`${where}\t${verdict}`);
    rmSync(dir, { recursive: true, force: true });
  }
}
