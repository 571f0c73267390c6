/**
 * `npm run bench:list`: the cost of one `step` that takes a `resources/list` page of N resources (issue
 * 14.2: it must grow linearly with N). For each N it prepares a connected client whose discovery pass
 * waits for its first page, then times `step` on a page of N distinct resources (median of repetitions,
 * each on the same prepared state: `step` never mutates its input) and a page whose last resource
 * repeats the first (the duplicate check reads the whole page before it can reject it).
 *
 * Prints one line per N: median ms, ms per 1,000 resources, and the ratio to the previous N (10x the
 * resources should cost about 10x). `--sizes 1000,10000,100000` and `--repetitions 7` change the run.
 * Timing uses `performance.now()` (allowed in bench/, never in core/ or sim/).
 */
import { performance } from 'node:perf_hooks';
import { step } from '../core/reducer.js';
import { initialState, type CoreState } from '../core/state.js';
import { defaultClientConfig, type ClientInput, type ResponseOutcome } from '../core/types.js';

interface Options {
  sizes: number[];
  repetitions: number;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { sizes: [1_000, 10_000, 100_000], repetitions: 7 };
  for (let index = 0; index < argv.length; index += 2) {
    const flag = argv[index];
    const value = argv[index + 1] ?? '';
    if (flag === '--sizes') options.sizes = value.split(',').map(Number);
    else if (flag === '--repetitions') options.repetitions = Number(value);
    else throw new Error(`unknown argument ${flag}\nusage: node dist-bench/bench/list-page.js [--sizes 1000,10000,100000] [--repetitions 7]`);
  }
  if (!options.sizes.every((size) => Number.isSafeInteger(size) && size > 0) || !(options.repetitions >= 1)) {
    throw new Error('--sizes must be positive integers and --repetitions at least 1');
  }
  return options;
}

/** A connected client whose first discovery page is outstanding, and that page's request id. */
function awaitingFirstPage(): { state: CoreState; requestId: number } {
  const capabilities = { resources: true, subscribe: true, listChanged: true, snapshotId: false };
  let state = initialState({ ...defaultClientConfig });
  state = step(state, { type: 'Connected', nowMs: 0, jitter: 0, sessionGeneration: 1, capabilities }).state;
  const discovered = step(state, { type: 'DiscoverCommanded', nowMs: 1, jitter: 0 });
  const list = discovered.effects.find((effect) => effect.type === 'RequestSent' && effect.method === 'resources/list');
  if (list === undefined || list.type !== 'RequestSent') throw new Error('bench setup: no resources/list request');
  return { state: discovered.state, requestId: list.requestId };
}

function pageOf(size: number, duplicateLast: boolean): ResponseOutcome {
  const resources = [];
  for (let index = 0; index < size; index++) {
    const n = duplicateLast && index === size - 1 ? 0 : index;
    const uri = `file:///project/dir-${n % 97}/resource-${n}.txt`;
    resources.push({ uri, name: `resource ${index}` });
  }
  return { type: 'result', result: { resources } };
}

function medianMs(state: CoreState, input: ClientInput, repetitions: number, expected: string): number {
  const times: number[] = [];
  for (let repetition = 0; repetition < repetitions; repetition++) {
    const startedMs = performance.now();
    const result = step(state, input);
    times.push(performance.now() - startedMs);
    if (!result.effects.some((effect) => effect.type === expected)) throw new Error(`bench: the page did not produce ${expected}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function main(): void {
  const options = parseOptions(process.argv.slice(2));
  const { state, requestId } = awaitingFirstPage();
  console.log(`one step on a resources/list page (median of ${options.repetitions}), node ${process.version}`);
  console.log('resources   distinct ms   per 1k ms         ratio   duplicate-last ms');
  let previous: { size: number; ms: number } | null = null;
  for (const size of options.sizes) {
    const respond = (duplicateLast: boolean): ClientInput => ({ type: 'ResponseArrived', nowMs: 2, jitter: 0, sessionGeneration: 1, requestId, outcome: pageOf(size, duplicateLast) });
    const distinctMs = medianMs(state, respond(false), options.repetitions, 'ScanStarted');
    const duplicateMs = medianMs(state, respond(true), options.repetitions, 'ScanAbandoned');
    const ratio = previous === null ? '' : `${(distinctMs / previous.ms).toFixed(1)}x for ${(size / previous.size).toFixed(0)}x`;
    console.log(
      `${size.toLocaleString('en-US').padStart(9)}   ${distinctMs.toFixed(2).padStart(11)}   ${((distinctMs * 1_000) / size).toFixed(3).padStart(9)}   ${ratio.padStart(13)}   ${duplicateMs.toFixed(2).padStart(17)}`,
    );
    previous = { size, ms: distinctMs };
  }
}

main();
