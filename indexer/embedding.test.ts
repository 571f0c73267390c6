import { describe, expect, test } from 'vitest';
import { createPrng } from './kernel-imports.js';
import { applyEdit, editLabels, generateDocument, semanticallyChanged, type EditLabel } from './edits.js';
import { cosine, fakeModel } from './embedding.js';
import { bestThresholdErrors, oracleValley } from './metric-gates.js';
import { defaultConfig } from './reducer.js';
import { lowestChunkSimilarity } from './semantic-rule.js';
import { emptyMetrics, histogramBins, recordSimilarity, similarityBin } from './sim-metrics.js';
import { renderDocument, splitChunks } from './text.js';
import { contentDigest } from './kernel-imports.js';

const samplesPerLabel = 400;

/** Chunk-level similarities of labelled edits, as the reference's rule computes them. */
function similarities(modelName: string, label: EditLabel, seed: number): { similarity: number; changed: boolean }[] {
  const prng = createPrng(seed);
  const pick = (_label: string, n: number): number => prng.nextBelow(n);
  const model = fakeModel(modelName);
  const out: { similarity: number; changed: boolean }[] = [];
  for (let index = 0; index < samplesPerLabel; index++) {
    const before = generateDocument(pick, 3, 5);
    const after = applyEdit(before, label, pick);
    const a = splitChunks(renderDocument(before));
    const b = splitChunks(renderDocument(after));
    const similarity = lowestChunkSimilarity(a.map((chunk) => contentDigest(chunk)), a.map(model.embed), b.map((chunk) => contentDigest(chunk)), b.map(model.embed));
    out.push({ similarity, changed: semanticallyChanged(before, after) });
  }
  return out;
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[values.length >> 1]!;

describe('fake embedding calibration', () => {
  test('the vector is a function of the text alone', () => {
    const model = fakeModel('fake-a');
    expect(model.embed('kalox lomix the and')).toEqual(fakeModel('fake-a').embed('kalox lomix the and'));
    expect(cosine(model.embed('kalox  lomix\nthe and'), model.embed('kalox lomix the and'))).toBeCloseTo(1, 12);
    expect(cosine(model.embed('kalox lomix'), fakeModel('fake-b').embed('kalox lomix'))).toBeLessThan(0.9);
  });

  for (const modelName of ['fake-a', 'fake-b']) {
    test(`${modelName}: similarity bands per edit label, bimodal, threshold at the valley`, () => {
      const bands: Record<string, number> = {};
      const metrics = emptyMetrics();
      const unlabelled = new Array<number>(histogramBins).fill(0);
      editLabels.forEach((label, labelIndex) => {
        const samples = similarities(modelName, label, 100 + labelIndex);
        bands[label] = median(samples.map((sample) => sample.similarity));
        for (const sample of samples) {
          recordSimilarity(metrics, modelName, sample.similarity, sample.changed);
          unlabelled[similarityBin(sample.similarity)]!++;
        }
        // Labels agree with the oracle's semantic distance: cosmetic, reformat and one creeping step keep the meaning.
        const changedShare = samples.filter((sample) => sample.changed).length / samples.length;
        expect(changedShare, label).toBe(label === 'cosmetic' || label === 'reformat' || label === 'creeping' ? 0 : 1);
      });
      // Bands: reformat is identical, cosmetic near 1, a creeping step above the threshold, subtle below, local/global far below.
      const threshold = defaultConfig().thresholdByModel[modelName]!;
      expect(bands.reformat).toBeCloseTo(1, 9);
      expect(bands.cosmetic!).toBeGreaterThan(threshold + 0.05);
      expect(bands.creeping!).toBeGreaterThan(threshold);
      expect(bands.subtle!).toBeLessThan(threshold);
      expect(bands.local!).toBeLessThan(bands.subtle!);
      expect(bands.global!).toBeLessThan(bands.subtle!);
      // Bimodal: just below the threshold the unlabelled histogram is a valley, below the peaks on both sides ...
      const cut = Math.round(threshold * histogramBins);
      expect(unlabelled[cut - 1]!).toBeLessThan(Math.max(...unlabelled.slice(0, cut - 1)) / 2);
      expect(unlabelled[cut - 1]!).toBeLessThan(Math.max(...unlabelled.slice(cut)) / 2);
      // ... the valley the oracle computes lies between the subtle and the creeping bands, near the threshold ...
      const valley = oracleValley(metrics.similarity[modelName]!);
      expect(valley.threshold).toBeGreaterThan(bands.subtle!);
      expect(valley.threshold).toBeLessThan(bands.creeping!);
      expect(Math.abs(valley.threshold - threshold), `valley ${valley.threshold}, threshold ${threshold}`).toBeLessThan(0.05);
      // ... and the configured threshold errs at most 1.5x the best threshold the oracle can compute (+0.5 %).
      const total = editLabels.length * samplesPerLabel;
      const errorsAtThreshold = countErrors(metrics.similarity[modelName]!, threshold);
      expect(errorsAtThreshold).toBeLessThanOrEqual(1.5 * bestThresholdErrors(metrics) + 0.005 * total);
    });
  }

  test('fake-b is shifted up against fake-a (per-model thresholds are needed)', () => {
    const a = median(similarities('fake-a', 'subtle', 9).map((sample) => sample.similarity));
    const b = median(similarities('fake-b', 'subtle', 9).map((sample) => sample.similarity));
    expect(b).toBeGreaterThan(a + 0.1);
    expect(b).toBeGreaterThan(defaultConfig().thresholdByModel['fake-a']!);
  });
});

function countErrors(histogram: { changed: number[]; unchanged: number[] }, threshold: number): number {
  const cut = Math.round(threshold * histogramBins);
  let errors = 0;
  for (let bin = 0; bin < histogramBins; bin++) errors += bin < cut ? histogram.unchanged[bin]! : histogram.changed[bin]!;
  return errors;
}
