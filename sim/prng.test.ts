import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';

import { createPrng, deriveSeed, formatSeed, parseSeed, SEED_MAX, type Prng } from './prng.js';

const UINT32_RANGE = 0x100000000;

function drawUint32s(prng: Prng, count: number): number[] {
  const values: number[] = [];
  for (let index = 0; index < count; index++) values.push(prng.nextUint32());
  return values;
}

/** A mixed workload, so the test covers every method's draw consumption. */
function drawMixed(prng: Prng, count: number): number[] {
  const values: number[] = [];
  for (let index = 0; index < count; index++) {
    values.push(prng.nextUint32(), prng.nextBelow(7), prng.nextBelow(3_000_000_000), prng.chance(1, 3) ? 1 : 0);
  }
  return values;
}

function popCount32(value: number): number {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Largest distance of any bit's set-count from half of `values.length`. */
function worstBitImbalance(values: readonly number[]): number {
  let worst = 0;
  for (let bit = 0; bit < 32; bit++) {
    let set = 0;
    for (const value of values) if ((value >>> bit) & 1) set++;
    worst = Math.max(worst, Math.abs(set - values.length / 2));
  }
  return worst;
}

describe('createPrng', () => {
  it('golden: the first 5 outputs of createPrng(42) are pinned, so an algorithm change fails here', () => {
    expect(drawUint32s(createPrng(42), 5)).toEqual([3677860782, 1779580415, 3049400790, 1829344549, 11857266]);
  });

  it('is seedrandom Tyche-i seeded with the integer seed', () => {
    const reference = (seedrandom.tychei as unknown as (seed: number) => { int32(): number })(-1);
    const expected = Array.from({ length: 100 }, () => reference.int32() >>> 0);
    expect(drawUint32s(createPrng(SEED_MAX), 100)).toEqual(expected);
  });

  it('same seed gives the same sequence', () => {
    for (const seed of [0, 1, 42, 0x80000000, SEED_MAX]) {
      expect(drawMixed(createPrng(seed), 500)).toEqual(drawMixed(createPrng(seed), 500));
    }
  });

  it('instances are independent: drawing from one does not move another', () => {
    const first = createPrng(7);
    const second = createPrng(7);
    drawUint32s(first, 10);
    expect(drawUint32s(second, 10)).toEqual(drawUint32s(createPrng(7), 10));
  });

  it('small consecutive seeds are not degenerate: first outputs are distinct, far apart and unbiased', () => {
    const seedCount = 10_000;
    const firstOutputs = Array.from({ length: seedCount }, (_, seed) => createPrng(seed).nextUint32());
    expect(new Set(firstOutputs).size).toBe(seedCount);
    let hammingTotal = 0;
    for (let seed = 1; seed < seedCount; seed++) {
      hammingTotal += popCount32(((firstOutputs[seed] as number) ^ (firstOutputs[seed - 1] as number)) >>> 0);
    }
    const hammingMean = hammingTotal / (seedCount - 1);
    expect(hammingMean).toBeGreaterThan(15.5);
    expect(hammingMean).toBeLessThan(16.5);
    expect(worstBitImbalance(firstOutputs)).toBeLessThan(250); // 5 sigma for 10,000 fair bits
  });

  it('seed 0 does not produce a stuck sequence', () => {
    const values = drawUint32s(createPrng(0), 1000);
    expect(new Set(values).size).toBe(1000);
    expect(worstBitImbalance(values)).toBeLessThan(80); // 5 sigma for 1,000 fair bits
  });

  it('rejects seeds that are not uint32', () => {
    for (const seed of [-1, 1.5, UINT32_RANGE, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createPrng(seed)).toThrow(/createPrng: seed must be an integer from 0 to 4294967295/);
    }
  });
});

describe('nextBelow', () => {
  it('stays in [0, n) and hits every value for small n', () => {
    const prng = createPrng(1);
    for (let bound = 1; bound <= 17; bound++) {
      const seen = new Set<number>();
      const outOfRange: number[] = [];
      for (let draw = 0; draw < bound * 200; draw++) {
        const value = prng.nextBelow(bound);
        if (!(Number.isInteger(value) && value >= 0 && value < bound)) outOfRange.push(value);
        seen.add(value);
      }
      expect(outOfRange).toEqual([]);
      expect(seen.size).toBe(bound);
    }
  });

  it('is uniform: chi-square for n = 10 over 100,000 draws is within bounds', () => {
    const prng = createPrng(2);
    const counts = new Array<number>(10).fill(0);
    const drawCount = 100_000;
    for (let draw = 0; draw < drawCount; draw++) counts[prng.nextBelow(10)] += 1;
    const expected = drawCount / 10;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(27.9); // p = 0.001 for 9 degrees of freedom
  });

  it('is unbiased for a bound where plain modulo would be badly biased', () => {
    // With n = 3e9, `x % n` on a 32-bit x puts values below 2^32 - 3e9 (~43% of [0, n)) at twice
    // the probability of the rest; rejection sampling must remove that.
    const bound = 3_000_000_000;
    const lowPart = UINT32_RANGE - bound;
    const prng = createPrng(3);
    let lowCount = 0;
    const drawCount = 20_000;
    let outOfRangeCount = 0;
    for (let draw = 0; draw < drawCount; draw++) {
      const value = prng.nextBelow(bound);
      if (!(Number.isInteger(value) && value >= 0 && value < bound)) outOfRangeCount++;
      if (value < lowPart) lowCount++;
    }
    expect(outOfRangeCount).toBe(0);
    const lowShareExpected = lowPart / bound; // 0.43; modulo would give ~0.60
    expect(Math.abs(lowCount / drawCount - lowShareExpected)).toBeLessThan(0.02);
  });

  it('accepts the full range up to 2^32 and then equals nextUint32', () => {
    const viaNextBelow = createPrng(9);
    expect(Array.from({ length: 20 }, () => viaNextBelow.nextBelow(UINT32_RANGE))).toEqual(drawUint32s(createPrng(9), 20));
    const prng = createPrng(10);
    let outOfRangeCount = 0;
    for (let draw = 0; draw < 1000; draw++) if (prng.nextBelow(SEED_MAX) >= SEED_MAX) outOfRangeCount++;
    expect(outOfRangeCount).toBe(0);
    expect(createPrng(11).nextBelow(1)).toBe(0);
  });

  it('rejects bounds that are not integers from 1 to 2^32', () => {
    const prng = createPrng(4);
    for (const bound of [0, -1, 1.5, UINT32_RANGE + 1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => prng.nextBelow(bound)).toThrow(/nextBelow: bound must be an integer from 1 to 2\^32/);
    }
  });
});

describe('chance', () => {
  it('0/d is never true and d/d is always true', () => {
    const prng = createPrng(5);
    for (let draw = 0; draw < 1000; draw++) {
      expect(prng.chance(0, 10)).toBe(false);
      expect(prng.chance(10, 10)).toBe(true);
    }
  });

  it('1/4 is true about a quarter of the time', () => {
    const prng = createPrng(6);
    let trueCount = 0;
    for (let draw = 0; draw < 40_000; draw++) if (prng.chance(1, 4)) trueCount++;
    expect(Math.abs(trueCount / 40_000 - 0.25)).toBeLessThan(0.011); // ~5 sigma
  });

  it('consumes draws exactly as nextBelow(denominator) does, whatever the numerator', () => {
    const withChance = createPrng(8);
    const withNextBelow = createPrng(8);
    for (let draw = 0; draw < 100; draw++) {
      const numerator = draw % 11;
      expect(withChance.chance(numerator, 10 + (draw % 2))).toBe(withNextBelow.nextBelow(10 + (draw % 2)) < numerator);
    }
    expect(withChance.nextUint32()).toBe(withNextBelow.nextUint32());
  });

  it('rejects numerators outside [0, denominator] and bad denominators', () => {
    const prng = createPrng(12);
    expect(() => prng.chance(-1, 10)).toThrow(/chance: numerator/);
    expect(() => prng.chance(11, 10)).toThrow(/chance: numerator/);
    expect(() => prng.chance(0.5, 10)).toThrow(/chance: numerator/);
    expect(() => prng.chance(0, 0)).toThrow(/nextBelow: bound/);
  });
});

describe('deriveSeed', () => {
  it('is deterministic and pure integer mixing', () => {
    expect(deriveSeed(42, 0)).toBe(1023042705);
    expect(deriveSeed(42, 1)).toBe(3817354627);
    expect(deriveSeed(42, 0, 0)).toBe(4125577871);
    expect(deriveSeed(42, 5, 3)).toBe(deriveSeed(42, 5, 3));
  });

  it('with no path is the root itself, and a path is a chain of single steps', () => {
    expect(deriveSeed(42)).toBe(42);
    expect(deriveSeed(42, 5, 3)).toBe(deriveSeed(deriveSeed(42, 5), 3));
  });

  it('depends on the order of the path and on the root', () => {
    expect(deriveSeed(42, 1, 2)).not.toBe(deriveSeed(42, 2, 1));
    expect(deriveSeed(42, 1)).not.toBe(deriveSeed(43, 1));
    expect(deriveSeed(0, 0)).not.toBe(0);
  });

  it('10,000 consecutive interleaving indices give 10,000 distinct, well-spread seeds', () => {
    for (const root of [0, 42, SEED_MAX]) {
      const seeds = Array.from({ length: 10_000 }, (_, index) => deriveSeed(root, index));
      expect(new Set(seeds).size).toBe(10_000);
      expect(worstBitImbalance(seeds)).toBeLessThan(250); // 5 sigma for 10,000 fair bits
      expect(seeds.every((seed) => Number.isInteger(seed) && seed >= 0 && seed <= SEED_MAX)).toBe(true);
    }
  });

  it('component seeds of 10,000 interleavings collide no more than random 32-bit values would', () => {
    const componentSeeds = new Set<number>();
    for (let interleaving = 0; interleaving < 10_000; interleaving++) {
      const interleavingSeed = deriveSeed(42, interleaving);
      const components = [0, 1, 2, 3].map((componentId) => deriveSeed(interleavingSeed, componentId));
      expect(new Set(components).size).toBe(4);
      for (const seed of components) componentSeeds.add(seed);
    }
    // 40,000 random uint32s have ~0.19 expected colliding pairs; allow a few, not a structure.
    expect(componentSeeds.size).toBeGreaterThanOrEqual(39_995);
  });

  it('different derived seeds give different sequences', () => {
    const interleavingSeed = deriveSeed(42, 0);
    const sequences = [0, 1, 2, 3].map((componentId) => drawUint32s(createPrng(deriveSeed(interleavingSeed, componentId)), 20).join(','));
    sequences.push(drawUint32s(createPrng(deriveSeed(42, 1)), 20).join(','));
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it('rejects a root or path element that is not uint32', () => {
    expect(() => deriveSeed(-1, 0)).toThrow(/deriveSeed: rootSeed must be an integer/);
    expect(() => deriveSeed(1, 0, 1.5)).toThrow(/deriveSeed: path\[1\] must be an integer/);
    expect(() => deriveSeed(1, UINT32_RANGE)).toThrow(/deriveSeed: path\[0\] must be an integer/);
  });
});

describe('parseSeed', () => {
  it.each([
    ['0', 0],
    ['42', 42],
    ['0042', 42],
    ['4294967295', SEED_MAX],
    ['0x0', 0],
    ['0x2a', 42],
    ['0X2A', 42],
    ['0xffffffff', SEED_MAX],
    ['0x0000002a', 42],
  ])('accepts %j as %i', (text, seed) => {
    expect(parseSeed(text)).toEqual({ ok: true, seed });
  });

  it.each([
    ['', /seed is empty/],
    [' 42', /contains whitespace/],
    ['42\n', /contains whitespace/],
    ['-1', /is negative/],
    ['-0x1', /is negative/],
    ['1.5', /is a fraction/],
    ['.5', /is a fraction/],
    ['4294967296', /is too large; the maximum is 4294967295/],
    ['99999999999999999999999', /is too large/],
    ['0x100000000', /has 9 hex digits, more than 8/],
    ['0x', /has no hex digits after 0x/],
    ['12ab', /not a number: unexpected character "a" at position 3/],
    ['1e3', /unexpected character "e"/],
    ['+5', /unexpected character "\+" at position 1/],
    ['0xfg', /unexpected character "g" at position 4/],
    ['seed', /unexpected character "s" at position 1/],
    ['.', /unexpected character "\."/],
  ])('rejects %j with a reason naming the problem', (text, reason) => {
    const result = parseSeed(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toMatch(reason);
      expect(result.reason).toMatch(/expected a decimal integer|maximum is/);
    }
  });
});

describe('formatSeed', () => {
  it('prints decimal and round-trips through parseSeed', () => {
    for (const seed of [0, 42, 0x80000000, SEED_MAX]) {
      const text = formatSeed(seed);
      expect(text).toMatch(/^(0|[1-9][0-9]*)$/);
      expect(parseSeed(text)).toEqual({ ok: true, seed });
    }
    expect(formatSeed(0xdeadbeef)).toBe('3735928559');
  });

  it('rejects values that are not uint32', () => {
    for (const seed of [-1, 1.5, UINT32_RANGE]) expect(() => formatSeed(seed)).toThrow(/formatSeed: seed must be an integer/);
  });
});
