/**
 * Fuzzing every shipped client with malformed inputs among valid ones (issue 14.1, SPEC §11): a seeded
 * host (test/fuzz-inputs.ts) drives each client; after every input the client must not have thrown and
 * its state must survive JSON; after a malformed input nothing it keeps as accepted knowledge may change:
 * accepted versions, watermarks, outbox, revocations, catalog (compared on the client's own state), and it
 * may emit no effect that records such knowledge.
 *
 * Bounded in `npm test` (fixed seed, 100,000 malformed inputs for the reference, 3,000 per naive client);
 * `FENCESIM_FUZZ_INPUTS=1000000 npx vitest run test/fuzz-core.test.ts` fuzzes the reference with that many
 * malformed inputs and prints throws, ledger changes, p99 time per input and heap growth.
 *
 * The reference must reject or ignore every malformed input without a trace. The naive clients
 * (scenarios/naive.ts, a user's own code, not edited here) trust what their host fills in, so they get the
 * caller-field corruptions through `checkInput`, as a host would, and every protocol corruption raw. They
 * are naive on purpose about what they accept (a single-scan client publishes a page with duplicate URIs,
 * a client without URI checks subscribes to "not a uri"): for them the no-trace rule is checked on the
 * inputs that were rejected (by `checkInput` or by the client's own ProtocolRejected), and 0 throws and
 * JSON-safe state on every input.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { checkInput } from '../core/input-check.js';
import type { CoreState } from '../core/state.js';
import { defaultClientConfig, type ClientEffect, type ClientInput, type ClientUnderTest, type StepResult } from '../core/types.js';
import { clients } from '../scenarios/clients.js';
import type { NaiveState } from '../scenarios/naive.js';
import { FuzzHost, type FuzzInput } from './fuzz-inputs.js';

const SEED = 0x5eed_f022;
const referenceMalformed = Number(process.env.FENCESIM_FUZZ_INPUTS ?? 100_000);
const naiveMalformed = Number(process.env.FENCESIM_FUZZ_NAIVE_INPUTS ?? 3_000);
const malformedPercent = 50;

/** Effects that record accepted knowledge: none may follow a malformed input. */
const knowledgeEffects = new Set<ClientEffect['type']>([
  'VersionAccepted',
  'TombstonePending',
  'TombstoneConfirmed',
  'OutboxEntryWritten',
  'DerivedEntryWritten',
  'RevocationLearned',
  'PurgeDone',
  'CatalogPublished',
]);

/** What a client keeps as accepted knowledge, as comparable text. */
function knowledgeOf(client: ClientUnderTest<unknown>, wrapped: unknown): string {
  // The 2026 naive clients wrap the reference core with a little bookkeeping: { core, book }.
  const state = (wrapped as { core?: unknown }).core ?? wrapped;
  if (client.name === 'reference' || (state as Partial<CoreState>).ledger !== undefined) {
    const ledger = (state as CoreState).ledger;
    const watermarks = Object.values(ledger.subscriptions).map((sub) => [sub.uri, sub.lastAcceptedOrdinal, sub.lastAcceptedDigest]);
    return JSON.stringify([ledger.versions, watermarks, ledger.outboxSequence, ledger.derived, ledger.revoked, ledger.discovery.catalog]);
  }
  const naive = state as NaiveState;
  const watermarks = Object.values(naive.subscriptions).map((sub) => [sub.uri, sub.lastAcceptedOrdinal]);
  return JSON.stringify([naive.cache, watermarks, naive.outboxSequence, naive.catalogPublished]);
}

/** Null when `value` survives JSON unchanged (finite numbers, no -0, no undefined in arrays, plain data). */
function jsonProblem(value: unknown, path: string): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? null : `${path} is ${String(value)}`;
  if (typeof value !== 'object') return `${path} is a ${typeof value}`;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = jsonProblem(value[index], `${path}[${index}]`);
      if (problem !== null) return problem;
    }
    return null;
  }
  if (prototype !== Object.prototype && prototype !== null) return `${path} is not a plain object`;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue; // dropped by JSON, and absent equals undefined for a reader
    const problem = jsonProblem(item, `${path}.${key}`);
    if (problem !== null) return problem;
  }
  return null;
}

interface FuzzReport {
  inputs: number;
  malformed: number;
  /** Malformed inputs judged by the no-trace rule. */
  judged: number;
  throws: string[];
  knowledgeChanges: string[];
  jsonProblems: string[];
  stepP99Us: number;
  heapGrowthMb: number;
}

function deliver(client: ClientUnderTest<unknown>, state: unknown, fuzz: FuzzInput, guarded: boolean): StepResult<unknown> {
  if (guarded && fuzz.kind === 'caller') {
    const rejection = checkInput(fuzz.input);
    if (rejection !== null) return { state, effects: [{ type: 'ProtocolRejected', rejection }] };
  }
  return client.step(state, fuzz.input);
}

/** `naive`: caller fields through checkInput, and the no-trace rule only for inputs that were rejected. */
function fuzz(client: ClientUnderTest<unknown>, malformedTarget: number, naive: boolean, timed: boolean): FuzzReport {
  const host = new FuzzHost(SEED, malformedPercent);
  let state = client.init({ ...defaultClientConfig });
  const report: FuzzReport = { inputs: 0, malformed: 0, judged: 0, throws: [], knowledgeChanges: [], jsonProblems: [], stepP99Us: 0, heapGrowthMb: 0 };
  const timesUs: number[] = [];
  const heapBefore = process.memoryUsage().heapUsed;
  const note = (list: string[], text: string): void => {
    if (list.length < 5) list.push(text);
  };
  while (report.malformed < malformedTarget) {
    const next = host.next();
    report.inputs++;
    const malformed = next.kind !== 'valid';
    if (malformed) report.malformed++;
    const before = malformed ? knowledgeOf(client, state) : '';
    let result: StepResult<unknown>;
    const startedMs = timed ? performance.now() : 0;
    try {
      result = deliver(client, state, next, naive);
    } catch (error) {
      note(report.throws, `${next.kind} ${next.field} ${(next.input as ClientInput | null)?.type as string}: ${String(error)}`);
      continue;
    }
    if (timed) timesUs.push((performance.now() - startedMs) * 1_000);
    state = result.state;
    host.observe(result.effects);
    const problem = jsonProblem(state, 'state');
    if (problem !== null) note(report.jsonProblems, `after ${next.kind} ${next.field}: ${problem}`);
    if (!malformed) continue;
    if (naive && !result.effects.some((effect) => effect.type === 'ProtocolRejected')) continue;
    report.judged++;
    const recorded = result.effects.find((effect) => knowledgeEffects.has(effect.type));
    if (recorded !== undefined || knowledgeOf(client, state) !== before) {
      note(report.knowledgeChanges, `${next.kind} ${next.field} ${(next.input as ClientInput).type}: ${recorded?.type ?? 'kept knowledge changed'}`);
    }
  }
  if (timed) {
    timesUs.sort((a, b) => a - b);
    report.stepP99Us = timesUs[Math.floor(timesUs.length * 0.99)] ?? 0;
    report.heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1_048_576;
  }
  return report;
}

function expectClean(report: FuzzReport): void {
  expect(report.judged).toBeGreaterThan(report.malformed / 10);
  expect(report.throws).toEqual([]);
  expect(report.knowledgeChanges).toEqual([]);
  expect(report.jsonProblems).toEqual([]);
}

describe('fuzz: malformed inputs among valid ones', () => {
  it(`the reference client: ${referenceMalformed.toLocaleString('en-US')} malformed inputs, 0 throws, 0 knowledge changes, state always JSON`, () => {
    const long = process.env.FENCESIM_FUZZ_INPUTS !== undefined;
    const report = fuzz(clients[0]!, referenceMalformed, false, long);
    if (long) {
      const figures = { ...report, throws: report.throws.length, knowledgeChanges: report.knowledgeChanges.length, jsonProblems: report.jsonProblems.length };
      console.log(`fuzz (reference): ${JSON.stringify(figures)}`);
    }
    expect(report.inputs).toBeGreaterThan(referenceMalformed * 1.5);
    expect(report.judged).toBe(report.malformed);
    expectClean(report);
  }, 600_000);

  for (const client of clients.slice(1)) {
    it(`${client.name}: ${naiveMalformed.toLocaleString('en-US')} malformed inputs (caller fields through checkInput), 0 throws, state always JSON, 0 traces of rejected input`, () => {
      expectClean(fuzz(client, naiveMalformed, true, false));
    });
  }
});
