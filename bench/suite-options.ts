/** The bench suite's command line: its options, their defaults and the usage error (exit code 2). */
import { DEFAULT_SEED } from './fastcheck-peer.js';
import { parseSeed } from '../sim/prng.js';

export interface SuiteOptions {
  seed: number;
  interleavings: number;
  warmupInterleavings: number;
  repetitions: number;
  client: string;
  scenarios: string[];
  peerInterleavings: number;
  /**
   * Interleavings per fencesim peer-model repetition. Larger than `peerInterleavings` so that one timed
   * sample lasts about as long as a fast-check one (fencesim is an order of magnitude faster): a sample of
   * a few ms mostly measures whether the OS preempted it.
   */
  peerFencesimInterleavings: number;
  peerResources: number[];
  microTimeMs: number;
  json: boolean;
}

const USAGE =
  'usage: node dist-bench/bench/suite.js [--interleavings N] [--peer-interleavings N] [--peer-fencesim-interleavings N] [--repetitions N] [--seed N] [--micro-time-ms N] [--json]';

export class UsageError extends Error {}

const NUMERIC_FLAGS = ['--interleavings', '--peer-interleavings', '--peer-fencesim-interleavings', '--repetitions', '--seed', '--micro-time-ms'];

export function parseArguments(argv: readonly string[]): SuiteOptions {
  const options: SuiteOptions = {
    seed: DEFAULT_SEED,
    interleavings: 5_000,
    warmupInterleavings: 1_000,
    repetitions: 5,
    client: 'reference',
    scenarios: ['read-race', 'swarm'],
    peerInterleavings: 20_000,
    peerFencesimInterleavings: 100_000,
    peerResources: [1, 5],
    microTimeMs: 300,
    json: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--json') {
      options.json = true;
      continue;
    }
    const equals = argument.indexOf('=');
    const flag = equals < 0 ? argument : argument.slice(0, equals);
    if (!NUMERIC_FLAGS.includes(flag)) throw new UsageError(`unknown argument ${argument}\n${USAGE}`);
    const text = equals < 0 ? argv[++index] : argument.slice(equals + 1);
    if (flag === '--seed') {
      const parsed = parseSeed(text ?? '');
      if (!parsed.ok) throw new UsageError(`--seed: ${parsed.reason}\n${USAGE}`);
      options.seed = parsed.seed;
      continue;
    }
    const value = Number(text);
    if (text === undefined || !(Number.isInteger(value) && value >= 1)) {
      throw new UsageError(`${flag} needs a positive integer, got ${text ?? '(nothing)'}\n${USAGE}`);
    }
    switch (flag) {
      case '--interleavings': options.interleavings = value; break;
      case '--peer-interleavings': options.peerInterleavings = value; break;
      case '--peer-fencesim-interleavings': options.peerFencesimInterleavings = value; break;
      case '--repetitions': options.repetitions = value; break;
      case '--micro-time-ms': options.microTimeMs = value; break;
      default: throw new UsageError(`unknown argument ${argument}\n${USAGE}`);
    }
  }
  options.warmupInterleavings = Math.min(options.warmupInterleavings, options.interleavings);
  return options;
}
