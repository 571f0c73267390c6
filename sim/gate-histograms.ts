/**
 * Latencies are kept as mergeable histograms: bucket i counts latencies in [i, i + 1) x 100 ms; the last
 * bucket counts everything beyond (revocation: at or above 120 s; convergence: at or above 60 s, which
 * includes changes never reflected).
 */
export const revocationBucketMs = 100;
export const revocationBucketCount = 1_201;
export const convergenceBucketMs = 100;
export const convergenceBucketCount = 601;

export function revocationBucketOf(latencyMs: number): number {
  return bucketOf(latencyMs, revocationBucketMs, revocationBucketCount);
}

export function convergenceBucketOf(latencyMs: number): number {
  return bucketOf(latencyMs, convergenceBucketMs, convergenceBucketCount);
}

function bucketOf(latencyMs: number, bucketMs: number, count: number): number {
  const bucket = Math.floor(latencyMs / bucketMs);
  return bucket < 0 ? 0 : bucket >= count - 1 ? count - 1 : bucket;
}

/** The p-th percentile (0 < p <= 1) of a histogram: the upper edge of the bucket where it falls; 0 when empty. */
export function histogramPercentileMs(histogram: Float64Array, p: number): number {
  let total = 0;
  for (let i = 0; i < histogram.length; i++) total += histogram[i]!;
  if (total === 0) return 0;
  const rank = Math.ceil(total * p);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!;
    if (seen >= rank) return (i + 1) * revocationBucketMs;
  }
  return histogram.length * revocationBucketMs;
}
