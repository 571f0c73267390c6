// Seeded PRNG for the simulator: createPrng, deriveSeed, parseSeed, formatSeed.
//
// Algorithm: seedrandom's Tyche-i (`seedrandom.tychei`), seeded with the uint32 seed as an integer.
// Chosen with bench/prng.bench.ts: tinybench medians, each candidate in its own process, 2-core
// machine, Node v20.20.2, linux/x64, load average below 3 (under heavier load every number grows by
// up to 2x). seed = creating one instance from a numeric seed; draw = one int32() reduced to
// [0, 1000); run = one interleaving's worth, 4 instances + 500 draws each. Typical of 3 runs:
//
//   candidate        seed ns   draw ns   run us (4 seeds + 4x500 draws)
//   arc4 (default)      4100      18.8      52
//   alea                 530       6.6      15.1
//   xor128               500       3.0       6.7
//   xorwow               545       3.6       6.8
//   xorshift7           1200       6.9      15.2
//   tychei               185       4.0       6.1
//   xor4096             1780       5.6      15.0
//   createPrng           180       3.7       7.6   (this file: Tyche-i + nextBelow(1000) with rejection)
//
// Why Tyche-i:
// - Fastest for one interleaving (4 seeds + 4x500 draws), ~8x faster than default ARC4. Seeding is 20
//   rounds of its nonlinear add/rotate/xor round function, no strings and no arrays: ~22x cheaper
//   than ARC4 and ~3x cheaper than xor128 and xorwow. Its draws are ~1 ns slower than xor128's,
//   so at 2000 draws per instance xor128 would be ~7% faster, not enough to take its flaws below.
// - It has no degenerate seeds. xor128 seeded with 0 returns 0 forever and xorwow seeded with 0 returns
//   only its Weyl counter; xor128 and xorshift7 are linear in the seed (for seeds 1, 2, 3 every output of
//   seed 3 equals the XOR of the outputs of seeds 1 and 2); alea's first outputs for seeds 0, 1, 2, 3
//   form an arithmetic progression. Tyche-i's first outputs for consecutive seeds differ in ~16 of 32
//   bits and no bit is biased (see sim/prng.test.ts).
// - Its period (~2^127) is far beyond what one run draws.
//
// Draws go through `nextBelow`, which rejects the low `2^32 mod n` values of a 32-bit draw so every
// result in [0, n) is equally likely, for any n up to 2^32. It allocates nothing; rejection needs a
// second draw with probability (2^32 mod n) / 2^32, below 2^-20 for n up to 4096.
//
// Seeds flow one way (STYLE.md, "One run is one value"): root seed -> deriveSeed(root, interleaving)
// -> deriveSeed(interleavingSeed, componentId) -> createPrng. deriveSeed is pure integer mixing
// (murmur3's fmix32), so a component that draws more never shifts another component's sequence.
// Nothing here reads a clock or an ambient random source.
//
// Import: `seedrandom/lib/tychei.js` imports fine under NodeNext (the package has no "exports" map),
// but @types/seedrandom types only the package root, so with `strict` that subpath is error TS7016.
// The root (`import seedrandom from 'seedrandom'`, CommonJS default export) is typed and carries
// `.tychei`. Loading it also loads the ARC4 module, which at load time stirs one ambient random
// value into its own pool for unseeded ARC4 calls; no sequence made here depends on that pool.
import seedrandom from 'seedrandom';

export interface Prng {
  /** Uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform integer in [0, n); n is an integer from 1 to 2^32. Always consumes at least one draw. */
  nextBelow(n: number): number;
  /**
   * True with probability numerator / denominator (integers, 0 <= numerator <= denominator,
   * denominator >= 1). Always consumes draws as nextBelow(denominator) does, even for 0 and 1, so a
   * probability change does not shift the rest of the sequence.
   */
  chance(numerator: number, denominator: number): boolean;
}

export type ParseSeedResult = { ok: true; seed: number } | { ok: false; reason: string };

export const SEED_MAX = 0xffffffff;
const UINT32_RANGE = 0x100000000;
/** A draw is rejected with probability below 1/2, so 64 rejections in a row happen with probability < 2^-64. */
const REJECTIONS_MAX = 64;

/**
 * seedrandom's typings declare string seeds only. At run time Tyche-i also takes an integer, which it
 * loads into its state directly instead of mixing the characters of a string.
 */
type IntegerSeededAlgorithm = (seed: number) => { int32(): number };
const tycheiFromInteger = seedrandom.tychei as unknown as IntegerSeededAlgorithm;

class TycheiPrng implements Prng {
  private readonly nextInt32: () => number;

  constructor(seed: number) {
    // `int32` is bound to the generator's state, so it can be called detached.
    this.nextInt32 = tycheiFromInteger(seed | 0).int32;
  }

  nextUint32(): number {
    return this.nextInt32() >>> 0;
  }

  nextBelow(n: number): number {
    if (!(Number.isInteger(n) && n >= 1 && n <= UINT32_RANGE)) {
      throw new RangeError(`nextBelow: bound must be an integer from 1 to 2^32, got ${String(n)}`);
    }
    let value = this.nextInt32() >>> 0;
    // Values below 2^32 mod n would make the low results more likely. That threshold is below n, so
    // it is only computed when the draw is below n.
    if (value < n) {
      const rejectBelow = UINT32_RANGE % n;
      for (let rejections = 0; value < rejectBelow; rejections++) {
        if (rejections === REJECTIONS_MAX) {
          throw new Error(`nextBelow(${n}): ${REJECTIONS_MAX} draws in a row were rejected; the generator is broken`);
        }
        value = this.nextInt32() >>> 0;
      }
    }
    return value % n;
  }

  chance(numerator: number, denominator: number): boolean {
    if (!(Number.isInteger(numerator) && numerator >= 0 && numerator <= denominator)) {
      throw new RangeError(
        `chance: numerator must be an integer from 0 to the denominator, got ${String(numerator)}/${String(denominator)}`,
      );
    }
    return this.nextBelow(denominator) < numerator;
  }
}

/** A PRNG whose whole sequence is fixed by `seed`, a uint32. */
export function createPrng(seed: number): Prng {
  assertUint32(seed, 'createPrng: seed');
  return new TycheiPrng(seed);
}

const GOLDEN_RATIO_32 = 0x9e3779b9;
const PATH_ELEMENT_OFFSET = 0x6a09e667;

/** FNV-1a (32 bit) over a string's UTF-16 code units, as a uint32: a stable, process-independent string hash. */
export function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** murmur3's 32-bit finalizer: a bijection on uint32 in which every input bit affects every output bit. */
export function mix32(value: number): number {
  let mixed = value | 0;
  mixed ^= mixed >>> 16;
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  mixed ^= mixed >>> 16;
  return mixed >>> 0;
}

/**
 * The seed of a child of `rootSeed` along `path` (uint32s), e.g. deriveSeed(root, interleavingIndex)
 * then deriveSeed(interleavingSeed, componentId). deriveSeed(root) is root itself, and
 * deriveSeed(root, a, b) equals deriveSeed(deriveSeed(root, a), b). For a fixed parent, distinct path
 * elements always give distinct seeds (each step is a bijection of the element).
 */
export function deriveSeed(rootSeed: number, ...path: number[]): number {
  assertUint32(rootSeed, 'deriveSeed: rootSeed');
  let seed = rootSeed;
  for (let index = 0; index < path.length; index++) {
    const element = path[index] as number;
    assertUint32(element, `deriveSeed: path[${index}]`);
    seed = mix32(mix32(seed + GOLDEN_RATIO_32) ^ mix32(element + PATH_ELEMENT_OFFSET));
  }
  return seed;
}

/** The canonical text of a seed: decimal, as parseSeed accepts and as reports print. */
export function formatSeed(seed: number): string {
  assertUint32(seed, 'formatSeed: seed');
  return String(seed);
}

const SEED_FORMS = 'a decimal integer from 0 to 4294967295 or 0x followed by 1 to 8 hex digits';

/**
 * Parses a seed typed by a person: decimal 0..4294967295, or 0x/0X followed by 1 to 8 hex digits.
 * Anything else is rejected with a reason that names the problem.
 */
export function parseSeed(text: string): ParseSeedResult {
  const shown = JSON.stringify(text);
  if (text.length === 0) return { ok: false, reason: `seed is empty; expected ${SEED_FORMS}` };
  if (/\s/.test(text)) return { ok: false, reason: `seed ${shown} contains whitespace; expected ${SEED_FORMS}` };
  if (text.startsWith('-')) return { ok: false, reason: `seed ${shown} is negative; expected ${SEED_FORMS}` };

  if (text.startsWith('0x') || text.startsWith('0X')) {
    const digits = text.slice(2);
    if (digits.length === 0) return { ok: false, reason: `seed ${shown} has no hex digits after 0x; expected ${SEED_FORMS}` };
    const junk = digits.search(/[^0-9a-fA-F]/);
    if (junk !== -1) return { ok: false, reason: unexpectedCharacter(text, junk + 2) };
    if (digits.length > 8) {
      return { ok: false, reason: `seed ${shown} has ${digits.length} hex digits, more than 8; the maximum is 0xffffffff` };
    }
    return { ok: true, seed: Number.parseInt(digits, 16) };
  }

  if (/^[0-9]*\.[0-9]*$/.test(text) && text !== '.') {
    return { ok: false, reason: `seed ${shown} is a fraction; expected ${SEED_FORMS}` };
  }
  const junk = text.search(/[^0-9]/);
  if (junk !== -1) return { ok: false, reason: unexpectedCharacter(text, junk) };
  const seed = Number(text);
  if (seed > SEED_MAX) return { ok: false, reason: `seed ${shown} is too large; the maximum is 4294967295 (0xffffffff)` };
  return { ok: true, seed };
}

function unexpectedCharacter(text: string, position: number): string {
  const character = JSON.stringify(text.charAt(position));
  return `seed ${JSON.stringify(text)} is not a number: unexpected character ${character} at position ${position + 1}; expected ${SEED_FORMS}`;
}

function assertUint32(value: number, what: string): void {
  if (!(Number.isInteger(value) && value >= 0 && value <= SEED_MAX)) {
    throw new RangeError(`${what} must be an integer from 0 to 4294967295, got ${String(value)}`);
  }
}
