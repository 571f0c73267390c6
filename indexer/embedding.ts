/**
 * Deterministic fake embedding models: a vector is computed from the text alone. Each token has a seeded
 * sparse word vector (6 of 1024 coordinates set to +-1/sqrt(6)); a drifted concept (`kalo-2`) is its
 * parent's vector turned by 60 degrees toward a fresh direction, so drift accumulates; a text's vector is
 * the weighted sum of its tokens' vectors (concept words weigh 1, filler words 0.15), normalized.
 * - `fake-a`: as above; similarities of cosmetic edits sit near 0.98, real changes at 0.86 and below.
 * - `fake-b`: other word vectors and an anisotropic common direction (as real models have), so every
 *   cosine is shifted up: cos_b = (cos + 1.5) / 2.5. Its threshold must differ from fake-a's, and a
 *   vector of one model compared with a vector of the other means nothing.
 * Memoized per model (a pure function, so the cache cannot change a result).
 */
import { createPrng, deriveSeed, stringHash } from './kernel-imports.js';
import { fillerWords, tokenize } from './text.js';

export const dimensions = 1024;
const nonzeroPerWord = 6;
const fillerWeight = 0.15;
const driftKeep = 0.5;
const driftTurn = Math.sqrt(1 - driftKeep * driftKeep);
const fillerSet = new Set(fillerWords);

export interface EmbeddingModel {
  name: string;
  embed(text: string): number[];
}

interface ModelShape {
  seed: number;
  /** Weight of the common direction (coordinate 0): c^2 = 1.5 shifts cosines to (cos + 1.5) / 2.5. */
  commonWeight: number;
}

const shapes: Record<string, ModelShape> = {
  'fake-a': { seed: 0xa11ce, commonWeight: 0 },
  'fake-b': { seed: 0xb0b, commonWeight: Math.sqrt(1.5) },
};
export const fakeModelNames = Object.keys(shapes);

const models = new Map<string, EmbeddingModel>();

/** A sparse word vector: coordinates and values. */
interface SparseVector {
  indices: number[];
  values: number[];
}

export function fakeModel(name: string): EmbeddingModel {
  const existing = models.get(name);
  if (existing !== undefined) return existing;
  const shape = shapes[name];
  if (shape === undefined) throw new Error(`unknown fake embedding model ${JSON.stringify(name)} (models: ${fakeModelNames.join(', ')})`);
  const words = new Map<string, SparseVector>();
  const wordVector = (token: string): SparseVector => {
    let vector = words.get(token);
    if (vector === undefined) {
      vector = computeWordVector(shape.seed, token, wordVector);
      words.set(token, vector);
    }
    return vector;
  };
  const sum = new Float64Array(dimensions);
  const model: EmbeddingModel = { name, embed: (text) => embedText(text, shape, wordVector, sum) };
  models.set(name, model);
  return model;
}

function embedText(text: string, shape: ModelShape, wordVector: (token: string) => SparseVector, sum: Float64Array): number[] {
  sum.fill(0);
  for (const token of tokenize(text)) {
    const weight = fillerSet.has(token) ? fillerWeight : 1;
    const { indices, values } = wordVector(token);
    for (let entry = 0; entry < indices.length; entry++) sum[indices[entry]!]! += weight * values[entry]!;
  }
  let squares = 0;
  for (let index = 1; index < dimensions; index++) squares += sum[index]! * sum[index]!;
  const norm = Math.sqrt(squares);
  const common = shape.commonWeight;
  const scale = 1 / Math.sqrt(1 + common * common);
  const out = new Array<number>(dimensions);
  out[0] = common * scale;
  const factor = norm === 0 ? 0 : scale / norm;
  for (let index = 1; index < dimensions; index++) out[index] = sum[index]! * factor;
  return out;
}

function computeWordVector(seed: number, token: string, parentOf: (token: string) => SparseVector): SparseVector {
  const fresh = sparseVector(seed, token);
  const drift = /^([a-z0-9]+)-([1-9][0-9]{0,3})$/.exec(token);
  if (drift === null) return fresh;
  const steps = Number(drift[2]);
  const parent = parentOf(steps === 1 ? drift[1]! : drift[1]! + '-' + (steps - 1));
  const merged = new Map<number, number>();
  parent.indices.forEach((index, entry) => merged.set(index, driftKeep * parent.values[entry]!));
  fresh.indices.forEach((index, entry) => merged.set(index, (merged.get(index) ?? 0) + driftTurn * fresh.values[entry]!));
  let squares = 0;
  for (const value of merged.values()) squares += value * value;
  const norm = Math.sqrt(squares);
  const indices = [...merged.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((index) => merged.get(index)! / norm) };
}

function sparseVector(seed: number, token: string): SparseVector {
  const prng = createPrng(deriveSeed(seed, stringHash(token)));
  const indices: number[] = [];
  const values: number[] = [];
  const value = 1 / Math.sqrt(nonzeroPerWord);
  while (indices.length < nonzeroPerWord) {
    const index = 1 + prng.nextBelow(dimensions - 1);
    if (indices.includes(index)) continue;
    indices.push(index);
    values.push(prng.nextBelow(2) === 0 ? value : -value);
  }
  return { indices, values };
}


export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** The resource fingerprint: the normalized mean of its chunk vectors. */
export function fingerprintOf(chunkVectors: readonly (readonly number[])[]): number[] {
  const sum = new Array<number>(dimensions).fill(0);
  for (const vector of chunkVectors) for (let index = 0; index < dimensions; index++) sum[index]! += vector[index]!;
  const norm = Math.sqrt(sum.reduce((total, value) => total + value * value, 0));
  return sum.map((value) => (norm === 0 ? 0 : value / norm));
}
